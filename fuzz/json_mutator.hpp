// A structure-aware mutator for the JSON harnesses (records, tile files): besides libFuzzer's byte
// mutations, it parses the input and changes one value the way a hand-edited or hostile file would
// -- a number set to a boundary (0, -1, 127, 128, 2^31, 2^32, 1e300, ...) or moved by a little, a
// string replaced by another string of the same document (a tile id where a port was), an array
// element removed, duplicated, swapped or copied from elsewhere, a key removed or copied, a value
// of another type -- and writes the document back. So most mutants still parse and reach the
// replay and the tile validation instead of dying in the JSON parser.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace carc::fuzz {

namespace json_mut {

using nlohmann::json;

struct Nodes {
  std::vector<json*> all, numbers, strings, arrays, objects;
  std::vector<std::string> string_pool, key_pool;
  void walk(json& j) {
    all.push_back(&j);
    if (j.is_number()) numbers.push_back(&j);
    else if (j.is_string()) {
      strings.push_back(&j);
      string_pool.push_back(j.get<std::string>());
    } else if (j.is_array()) {
      arrays.push_back(&j);
      for (auto& e : j) walk(e);
    } else if (j.is_object()) {
      objects.push_back(&j);
      for (auto it = j.begin(); it != j.end(); ++it) {
        key_pool.push_back(it.key());
        walk(it.value());
      }
    }
  }
};

template <class T>
const T& pick(const std::vector<T>& v, std::mt19937& r) {
  return v[r() % v.size()];
}

inline json interesting_number(const json& old, std::mt19937& r) {
  static const long long ints[] = {0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 15, 16, 31, 32, 33, 63, 64, 90, 96, 97,
                                   100, 119, 120, 121, 127, 128, 129, 180, 255, 256, 270, 360, 1000, 1023, 1024, 1025,
                                   32767, 32768, 65535, 65536, 2147483647LL, -2147483648LL, 4294967295LL, 4294967296LL,
                                   4294967298LL, -128, -129, 9007199254740993LL};
  switch (r() % 6) {
    case 0:
      return r() % 2 ? json(1e300) : json(-0.5);
    case 1:
    case 2:
      if (old.is_number_integer()) return json(old.get<long long>() + static_cast<long long>(r() % 5) - 2);
      [[fallthrough]];
    default:
      return json(ints[r() % (sizeof ints / sizeof ints[0])]);
  }
}

inline json other_type(std::mt19937& r) {
  switch (r() % 6) {
    case 0: return json(nullptr);
    case 1: return json(true);
    case 2: return json::array();
    case 3: return json::object();
    case 4: return json("");
    default: return json(0);
  }
}

// One structural change; false if the document offered nothing to change that way.
inline bool mutate_once(json& doc, std::mt19937& r) {
  Nodes n;
  n.walk(doc);
  switch (r() % 10) {
    case 0:
    case 1:
    case 2:
      if (n.numbers.empty()) return false;
      *pick(n.numbers, r) = interesting_number(*pick(n.numbers, r), r);
      return true;
    case 3:
    case 4:
      if (n.strings.empty()) return false;
      *pick(n.strings, r) = pick(n.string_pool, r);
      return true;
    case 5: {  // remove an array element, or cut the array short
      if (n.arrays.empty()) return false;
      json& a = *pick(n.arrays, r);
      if (a.empty()) return false;
      if (r() % 3 == 0) {
        const std::size_t keep = r() % a.size();
        json cut = json::array();
        for (std::size_t i = 0; i < keep; ++i) cut.push_back(a[i]);
        a = std::move(cut);
      } else {
        a.erase(a.begin() + static_cast<std::ptrdiff_t>(r() % a.size()));
      }
      return true;
    }
    case 6: {  // duplicate an element, swap two, or insert an element copied from any array
      if (n.arrays.empty()) return false;
      json& a = *pick(n.arrays, r);
      json& from = *pick(n.arrays, r);
      if (from.empty()) return false;
      const json e = from[r() % from.size()];
      if (r() % 2 && a.size() >= 2) {
        std::swap(a[r() % a.size()], a[r() % a.size()]);
      } else {
        a.insert(a.begin() + static_cast<std::ptrdiff_t>(a.empty() ? 0 : r() % (a.size() + 1)), e);
      }
      return true;
    }
    case 7: {  // remove a key
      if (n.objects.empty()) return false;
      json& o = *pick(n.objects, r);
      if (o.empty()) return false;
      auto it = o.begin();
      std::advance(it, static_cast<std::ptrdiff_t>(r() % o.size()));
      o.erase(it);
      return true;
    }
    case 8: {  // a key of the document set on an object, with a value from anywhere
      if (n.objects.empty() || n.key_pool.empty()) return false;
      const json v = *pick(n.all, r);
      (*pick(n.objects, r))[pick(n.key_pool, r)] = v;
      return true;
    }
    default:
      if (n.all.size() < 2) return false;
      *n.all[1 + r() % (n.all.size() - 1)] = other_type(r);
      return true;
  }
}

}  // namespace json_mut

// The mutator: bytes [0, prefix) are kept (fuzz_tiles' game byte), the rest is JSON.
inline std::size_t json_mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed,
                               std::size_t prefix) {
  std::mt19937 r(seed);
  if (size <= prefix || r() % 3 == 0) return LLVMFuzzerMutate(data, size, max_size);
  int depth = 0, deepest = 0;  // the walk recurses: leave deeply nested inputs to the byte mutations
  for (std::size_t i = prefix; i < size; ++i) {
    if (data[i] == '[' || data[i] == '{') deepest = std::max(deepest, ++depth);
    else if (data[i] == ']' || data[i] == '}') --depth;
  }
  if (deepest > 64) return LLVMFuzzerMutate(data, size, max_size);
  auto doc = nlohmann::json::parse(data + prefix, data + size, nullptr, false);
  if (doc.is_discarded()) return LLVMFuzzerMutate(data, size, max_size);
  const int rounds = 1 + static_cast<int>(r() % 3);
  bool changed = false;
  for (int i = 0; i < rounds; ++i) changed |= json_mut::mutate_once(doc, r);
  if (!changed) return LLVMFuzzerMutate(data, size, max_size);
  const std::string out = doc.dump(r() % 4 == 0 ? 1 : -1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (prefix + out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data + prefix, out.data(), out.size());
  return prefix + out.size();
}

}  // namespace carc::fuzz

// Defines libFuzzer's custom mutator for a harness whose input is `prefix` bytes and then JSON.
#define CARC_FUZZ_JSON_MUTATOR(prefix)                                                                    \
  extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, \
                                                 unsigned int seed) {                                      \
    return carc::fuzz::json_mutate(data, size, max_size, seed, prefix);                                   \
  }
