// core: ids, the random generator and small fixed-capacity containers. Depends on nothing.
#pragma once
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace carc {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i8 = std::int8_t;
using i16 = std::int16_t;
using i32 = std::int32_t;

inline constexpr int kMaxPlayers = 5;
inline constexpr int kAttrs = 6;
// Capacities of the flat state. The tile loader refuses any tile set that could exceed them.
inline constexpr int kMaxPlaced = 128;              // tiles on the board (start cells included)
inline constexpr int kMaxFrontier = 4 * kMaxPlaced;  // empty cells next to tiles (4 per tile at most)
inline constexpr int kMaxSegments = 1024;           // feature segments: one per feature per placed tile
inline constexpr int kMaxOpenPoints = 32;           // point features (monasteries, baobabs) open at once
inline constexpr int kMaxPieces = 8;                // pieces of both kinds per player
inline constexpr int kMaxAttrTotal = 255;           // symbols of one slot in the whole set (u8 tallies)
inline constexpr int kMaxUsableCorners = 300;       // watering-hole corners in the set (bounds Safari's moves)  // symbol counts a feature carries (shields; fruit, boat icons; 5 species + birds)

// An error in something the user gave us (file, record, argument, typed move). Always carries a
// message naming what and where; the CLI prints it and exits non-zero, never crashes.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A fixed capacity of the flat state would be exceeded. Input validation (tile files, records)
// keeps every real and every accepted input below the capacities, so this is an engine bug; it is
// thrown in every build type so that the bug can never write out of bounds.
struct CapacityError : std::logic_error {
  using std::logic_error::logic_error;
};
[[noreturn]] void capacity_exceeded(std::size_t capacity);

// SplitMix64-seeded xoshiro256**: fast, small, reproducible across platforms.
class Rng {
 public:
  explicit Rng(u64 seed = 0) { reseed(seed); }
  void reseed(u64 seed) {
    for (auto& w : s_) {
      seed += 0x9E3779B97F4A7C15ULL;
      u64 z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      w = z ^ (z >> 31);
    }
  }
  u64 next() {
    const u64 result = rotl(s_[1] * 5, 7) * 9;
    const u64 t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-32 for our n).
  u32 below(u32 n) { return static_cast<u32>(((next() >> 32) * static_cast<u64>(n)) >> 32); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<u64, 4> s_{};
};

// Fixed-capacity vector of trivially copyable values, itself trivially copyable: copied whole
// (all N slots), so that it can sit in a block State copies as bytes (a game's own state).
template <class T, std::size_t N>
class FlatVec {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  FlatVec() {}  // NOLINT: storage is deliberately left uninitialised
  void push_back(const T& v) {
    if (n_ >= N) [[unlikely]]
      capacity_exceeded(N);
    d_[n_++] = v;
  }
  // A value-initialised element at the end, built in place.
  T& emplace_back() {
    if (n_ >= N) [[unlikely]]
      capacity_exceeded(N);
    T* p = new (static_cast<void*>(d_ + n_)) T{};
    ++n_;
    return *p;
  }
  void pop_back() {
    assert(n_ > 0);
    --n_;
  }
  void clear() { n_ = 0; }
  void truncate(std::size_t n) {
    assert(n <= n_);
    n_ = static_cast<decltype(n_)>(n);
  }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] bool empty() const { return n_ == 0; }
  [[nodiscard]] bool full() const { return n_ == N; }
  [[nodiscard]] static constexpr std::size_t capacity() { return N; }
  T& operator[](std::size_t i) {
    assert(i < n_);
    return d_[i];
  }
  const T& operator[](std::size_t i) const {
    assert(i < n_);
    return d_[i];
  }
  T& back() {
    assert(n_ > 0);
    return d_[n_ - 1];
  }
  const T& back() const {
    assert(n_ > 0);
    return d_[n_ - 1];
  }
  T* begin() { return d_; }
  T* end() { return d_ + n_; }
  const T* begin() const { return d_; }
  const T* end() const { return d_ + n_; }
  void erase_swap(std::size_t i) {
    assert(i < n_);
    d_[i] = d_[--n_];
  }
  T* data() { return d_; }
  void set_size(std::size_t n) {
    if (n > N) [[unlikely]]
      capacity_exceeded(N);
    n_ = static_cast<u32>(n);
  }

 protected:
  u32 n_ = 0;
  union {
    T d_[N];
  };
};

// Fixed-capacity vector of trivially copyable values: lives inside flat state, never allocates.
// Copies move only the used prefix, so a mostly empty state copies cheaply.
template <class T, std::size_t N>
class StaticVec : public FlatVec<T, N> {
 public:
  StaticVec() = default;
  StaticVec(const StaticVec& o) : FlatVec<T, N>() {
    this->n_ = o.n_;
    std::memcpy(static_cast<void*>(this->d_), o.d_, sizeof(T) * this->n_);
  }
  StaticVec& operator=(const StaticVec& o) {
    if (this != &o) {
      this->n_ = o.n_;
      std::memcpy(static_cast<void*>(this->d_), o.d_, sizeof(T) * this->n_);
    }
    return *this;
  }
  ~StaticVec() = default;
};
static_assert(std::is_trivially_copyable_v<FlatVec<int, 4>> && !std::is_trivially_copyable_v<StaticVec<int, 4>>);

}  // namespace carc
