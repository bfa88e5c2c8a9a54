// board: ports, sides, rotations, and the sparse cell map of the unbounded grid.
//
// Conventions (docs/conventions.md): x grows to the east, y grows to the SOUTH (screen order);
// rotation r is r quarter turns clockwise. Ports are numbered clockwise from the west third of
// the north side: 0 NNW 1 N 2 NNE 3 ENE 4 E 5 ESE 6 SSE 7 S 8 SSW 9 WSW 10 W 11 WNW; 12 is C.
#pragma once
#include <optional>
#include <string_view>

#include "core/core.hpp"

namespace carc {

inline constexpr int kPorts = 12;
inline constexpr int kCentre = 12;
inline constexpr std::array<std::string_view, 13> kPortNames = {
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW", "C"};
inline constexpr std::array<std::string_view, 4> kSideNames = {"N", "E", "S", "W"};
inline constexpr std::array<int, 4> kDx = {0, 1, 0, -1};
inline constexpr std::array<int, 4> kDy = {-1, 0, 1, 0};

inline std::optional<int> port_from_name(std::string_view s) {
  for (int i = 0; i < 13; ++i)
    if (kPortNames[static_cast<std::size_t>(i)] == s) return i;
  return std::nullopt;
}
constexpr int port_side(int p) { return p / 3; }
// Port p of a tile in canonical orientation, seen on the board after r clockwise quarter turns.
constexpr int rotate_port(int p, int r) { return p == kCentre ? p : (p + 3 * r) % 12; }
// The port of the neighbouring tile that port p touches (third i meets third 2-i).
constexpr int facing_port(int p) { return 3 * ((p / 3 + 2) % 4) + 2 - p % 3; }

// Open-addressing map from a cell (x, y in [-128, 127]) to a non-zero 16-bit value. No deletion:
// the engine only ever turns an empty cell into a frontier cell and a frontier cell into a tile.
// 1024 slots of 4 bytes: the whole board of any of our games (at most ~100 tiles and their
// frontier) fits at load factor < 0.4, and the state stays cheap to copy.
class CellMap {
 public:
  static constexpr int kSlots = 1024;
  static constexpr bool in_range(int x, int y) { return x >= -128 && x <= 127 && y >= -128 && y <= 127; }
  [[nodiscard]] u16 get(int x, int y) const {
    const u16 k = key(x, y);
    for (u32 h = hash(k);; h = (h + 1) & (kSlots - 1)) {
      const Slot& s = slots_[h];
      if (s.val == 0) return 0;
      if (s.key == k) return s.val;
    }
  }
  void set(int x, int y, u16 val) {
    assert(in_range(x, y));
    const u16 k = key(x, y);
    for (u32 h = hash(k);; h = (h + 1) & (kSlots - 1)) {
      Slot& s = slots_[h];
      if (s.val == 0 || s.key == k) {
        s.key = k;
        s.val = val;
        return;
      }
    }
  }
  void clear() { slots_.fill(Slot{}); }

 private:
  struct Slot {
    u16 key = 0;
    u16 val = 0;
  };
  // A cell off the map wraps onto the far edge; reads there see an empty cell (no board of at most
  // kMaxPlaced tiles reaches both edges), and writes never go off the map (asserted).
  static u16 key(int x, int y) { return static_cast<u16>((static_cast<u8>(x) << 8) | static_cast<u8>(y)); }
  static u32 hash(u16 k) { return (static_cast<u32>(k) * 0x9E3779B1u) >> 22; }
  std::array<Slot, kSlots> slots_{};
};

}  // namespace carc
