// rl: the learning interface's fixed encodings of one game (docs/python.md). Every decision is an
// integer action in a fixed range, and a position is feature planes over a fixed window of cells
// around the start cell plus a vector of scalars, so that a network's policy head and input are
// well defined. Nothing here names a game: the game's own blocks of actions are data
// (GameDef::action_blocks). Used by the Python module (bindings/python) and the batched
// environment (rl/vec_env).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.hpp"

namespace carc::rl {

// Cells x, y within `radius` of the game's window centre (GameDef::window_centre, the start cell
// unless the game says otherwise): 2 * radius + 1 on a side. -1: the game's own radius.
inline constexpr int kDefaultRadius = -1;

// One block of the action space: a kind of move and the fields that vary within it.
struct ActionBlock {
  std::string name, help;
  MoveKind kind = MoveKind::Pass;
  u8 pk = 0xFF;
  bool cell = false;   // x, y: a window cell
  int slots = 0;       // Piece: the tile placed this turn (0: the first, 1: a double tile's second cell)
  int rots = 0;        // rot in [0, rots)
  bool rot_turns = false;  // rot is a quarter turn or a corner: it turns with the board
  int feats = 0;       // feat in [0, feats)
  bool none = false;   // feat may also be 0xFF (the last value)
  int pks = 0;         // Piece: the piece kind (0: the feature's own, 1 + k: kind k on its network)
  int offset = 0, size = 0;
};

// The zero-sum returns of a finished game: the k top scorers share a win, (n w - 1) / (n - 1) with
// w = 1/k for them and 0 for the others (two players: +1 / -1, a tie 0 / 0).
std::array<float, kMaxPlayers> final_returns(const State& s);

class Encoding {
 public:
  Encoding(std::shared_ptr<const Ruleset> rs, int nplayers, int radius = kDefaultRadius);

  [[nodiscard]] int radius() const { return radius_; }
  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int num_actions() const { return num_actions_; }
  [[nodiscard]] int nplayers() const { return nplayers_; }
  [[nodiscard]] const std::vector<ActionBlock>& blocks() const { return blocks_; }
  [[nodiscard]] const Ruleset& ruleset() const { return *rs_; }
  [[nodiscard]] std::shared_ptr<const Ruleset> ruleset_ptr() const { return rs_; }
  [[nodiscard]] int centre_x() const { return cx_; }
  [[nodiscard]] int centre_y() const { return cy_; }
  [[nodiscard]] bool in_window(int x, int y) const {
    return x - cx_ >= -radius_ && x - cx_ <= radius_ && y - cy_ >= -radius_ && y - cy_ <= radius_;
  }
  [[nodiscard]] int cell_index(int x, int y) const { return (y - cy_ + radius_) * width_ + (x - cx_ + radius_); }

  // The action of a legal move of state s; -1 when it cannot be named (a cell off the window).
  [[nodiscard]] int action(const State& s, const Move& m) const;
  // The legal moves of s that have an action, with their actions. A placement decision whose
  // every legal placement lies off the window has one action, "place_outside": the first of them
  // in the engine's order.
  struct Legal {
    MoveList moves;
    std::vector<int> actions;  // per entry of moves
    int off_window = 0;        // legal moves left out: off the window
  };
  void legal(const State& s, Legal& out) const;

  // Observation: planes x width x width floats, then scalars; see plane_names / scalar_names.
  [[nodiscard]] int num_planes() const { return num_planes_; }
  [[nodiscard]] int num_scalars() const { return num_scalars_; }
  [[nodiscard]] int observation_size() const { return num_planes_ * width_ * width_ + num_scalars_; }
  [[nodiscard]] const std::vector<std::string>& plane_names() const { return plane_names_; }
  [[nodiscard]] const std::vector<std::string>& scalar_names() const { return scalar_names_; }
  // Writes observation_size() floats for `player` (seats are numbered from the player: "seat +1"
  // is the next one to play after them). legal: the legal moves of s (for the placement planes),
  // or nullptr to compute them.
  // touched: for a buffer written by observe before (and not changed since), the entries it set
  // then: only those are cleared (instead of the whole buffer), and it receives this call's.
  void observe(const State& s, int player, float* out, const Legal* legal = nullptr, std::vector<u32>* touched = nullptr) const;

  // Symmetries: the board turned k quarter turns clockwise about the start cell (k in 0..3).
  // Only for games whose rules allow it (GameDef::turn_symmetric; otherwise only k = 0).
  [[nodiscard]] bool turn_symmetric() const { return rs_->game->turn_symmetric; }
  // The observation of the turned position (cells or sites turned off the window are dropped).
  // in_hand: the tile in hand (State::in_hand; 0xFF none), whose placement planes list only its
  // distinct rotations.
  void turn_observation(const float* in, float* out, int k, int in_hand) const;
  // The action of the turned position that does what `a` does in this one; -1 off the window.
  // s: the position (a placement's rotation is brought to the tile's first rotation with the
  // same picture, as the engine lists them).
  [[nodiscard]] int turn_action(const State& s, int a, int k) const;

 private:
  void build_planes();
  std::shared_ptr<const Ruleset> rs_;
  int nplayers_ = 2, radius_ = 15, width_ = 31, cx_ = 0, cy_ = 0;
  std::vector<ActionBlock> blocks_;
  int num_actions_ = 0;
  int place_ = 0, piece_ = 1, pass_ = 2, outside_ = 3;  // indices of the generic blocks
  int max_feats_ = 0, ntypes_ = 0, nftypes_ = 0;
  // planes
  int num_planes_ = 0, num_scalars_ = 0;
  int p_tile_ = 0, p_frontier_ = 0, p_fits_ = 0, p_this_turn_ = 0, p_last_ = 0, p_port_type_ = 0, p_port_closed_ = 0,
      p_port_pieces_ = 0, p_piece_here_ = 0, p_symbols_ = 0, p_own_ = 0;
  std::vector<int> own_plane_;  // the first plane of each of the game's own (GameDef::observation)
  std::vector<std::string> plane_names_, scalar_names_;
  // plane permutation under one quarter turn (port and rotation planes move)
  std::vector<int> plane_turn_;
  std::vector<bool> plane_is_site_;
};

}  // namespace carc::rl
