// features: union-find over feature segments (one segment per feature per placed tile) with the
// tallies every game needs at each root: open ends/sides, pieces per player, attribute sums.
// Members of a feature form a circular list (next) so scoring can walk them (distinct tiles,
// bordering cities) without any allocation.
#pragma once
#include "core/core.hpp"

namespace carc {

struct Segment {
  u16 parent = 0, next = 0, size = 1;
  u16 tile = 0;   // placed tile index
  u8 local = 0;   // feature index on that tile
  u8 ftype = 0;
  i16 open = 0;   // at the root: open ends (path), open sides (area), missing neighbours (point)
  std::array<u8, kMaxPlayers> pieces{};  // at the root: pieces per player
  u8 npieces = 0;
  std::array<u8, kAttrs> attr{};  // at the root: attribute sums
  u8 scored = 0;
  u8 covered = 0;  // this segment's symbols no longer count (Hunters' pit trap)
  // A second union-find over the same segments: networks of features joined through others (Hunters'
  // river systems: rivers and lakes). At the network root: pieces claiming the network (huts), the
  // sum of symbol slot 0 over its members (fish), how many centre features (lakes) it has, and
  // flags of the specials on its members.
  u16 net = 0;
  std::array<u8, kMaxPlayers> net_pieces{};
  u8 net_npieces = 0;
  u8 net_attr = 0;
  u8 net_centres = 0;
  u8 net_flags = 0;
};

class FeatureGraph {
 public:
  void clear() { segs_.clear(); }
  [[nodiscard]] int size() const { return static_cast<int>(segs_.size()); }
  int add(u16 tile, u8 local, u8 ftype, i16 open, const std::array<u8, kAttrs>& attr) {
    // built in place: a Segment assembled on the stack and copied in stalled the copy's wide
    // loads on the narrow stores just made (store forwarding; 12% of place_tile in a profile)
    const auto id = static_cast<u16>(segs_.size());
    Segment& s = segs_.emplace_back();
    s.parent = s.next = s.net = id;
    s.tile = tile;
    s.local = local;
    s.ftype = ftype;
    s.open = open;
    s.attr = attr;
    return id;
  }
  [[nodiscard]] int find(int a) const {
    while (segs_[static_cast<std::size_t>(a)].parent != a) a = segs_[static_cast<std::size_t>(a)].parent;
    return a;
  }
  int find_compress(int a) {
    while (segs_[static_cast<std::size_t>(a)].parent != a) {
      auto& s = segs_[static_cast<std::size_t>(a)];
      s.parent = segs_[s.parent].parent;
      a = s.parent;
    }
    return a;
  }
  // Merge two features; returns the new root. Tallies add up.
  int unite(int a, int b) {
    a = find_compress(a);
    b = find_compress(b);
    if (a == b) return a;
    if (segs_[static_cast<std::size_t>(a)].size < segs_[static_cast<std::size_t>(b)].size) std::swap(a, b);
    Segment& ra = segs_[static_cast<std::size_t>(a)];
    Segment& rb = segs_[static_cast<std::size_t>(b)];
    rb.parent = static_cast<u16>(a);
    ra.size = static_cast<u16>(ra.size + rb.size);
    ra.open = static_cast<i16>(ra.open + rb.open);
    for (int p = 0; p < kMaxPlayers; ++p) ra.pieces[p] = static_cast<u8>(ra.pieces[p] + rb.pieces[p]);
    ra.npieces = static_cast<u8>(ra.npieces + rb.npieces);
    for (int k = 0; k < kAttrs; ++k) ra.attr[k] = static_cast<u8>(ra.attr[k] + rb.attr[k]);
    std::swap(ra.next, rb.next);  // splice the two circular member lists
    return a;
  }
  [[nodiscard]] int net_find(int a) const {
    while (segs_[static_cast<std::size_t>(a)].net != a) a = segs_[static_cast<std::size_t>(a)].net;
    return a;
  }
  // Join two networks; returns the new network root. Network tallies add up.
  int net_unite(int a, int b) {
    a = net_find(a);
    b = net_find(b);
    if (a == b) return a;
    if (a > b) std::swap(a, b);  // the older segment stays root (shallow enough: networks are small)
    Segment& ra = segs_[static_cast<std::size_t>(a)];
    Segment& rb = segs_[static_cast<std::size_t>(b)];
    rb.net = static_cast<u16>(a);
    for (int p = 0; p < kMaxPlayers; ++p) ra.net_pieces[p] = static_cast<u8>(ra.net_pieces[p] + rb.net_pieces[p]);
    ra.net_npieces = static_cast<u8>(ra.net_npieces + rb.net_npieces);
    ra.net_attr = static_cast<u8>(ra.net_attr + rb.net_attr);
    ra.net_centres = static_cast<u8>(ra.net_centres + rb.net_centres);
    ra.net_flags = static_cast<u8>(ra.net_flags | rb.net_flags);
    return a;
  }
  Segment& operator[](int i) { return segs_[static_cast<std::size_t>(i)]; }
  const Segment& operator[](int i) const { return segs_[static_cast<std::size_t>(i)]; }

 private:
  StaticVec<Segment, kMaxSegments> segs_;
};

}  // namespace carc
