// ai/review: a game reviewed move by move (docs/mcts.md, "Review"). Every decision of every seat
// that had a choice is searched from its position with the played move forced onto a share of the
// playouts (ai/mcts, mcts_analyze), so both the best option and the played one are measured: the
// loss in points is the best option's expected final margin minus the played one's (never below
// 0), classed against the game's scale (GameDef::review_margin): inaccuracy from 1/8 of it,
// mistake from 1/4, blunder from 1/2. Deterministic for a seed and a number of playouts.
#pragma once
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ai/mcts.hpp"
#include "engine/engine.hpp"

namespace carc {

struct ReviewOptions {
  int playouts = 1000;        // per decision (one thread: deterministic)
  u64 seed = 1;               // the searches' seed (each decision's derived from it and its index)
  double force_share = 0.25;  // of the playouts given to the played move
  bool ownership = false;     // each decision's open features, who scores them (the game server's analysis)
  int value = 0;              // the searches' evaluation (MctsOptions::value): 0 the greedy evaluation, on
                              // whose margins the calibrations were fitted; -1 the game's default
  SearchStop stop;            // review_record stops (ReviewCut) when it is due, between searches or in one
};
// review_record stopped by ReviewOptions::stop: the decisions it had reviewed and their number.
struct ReviewCut : InputError {
  ReviewCut(const std::string& msg, int d, int t) : InputError(msg), done(d), total(t) {}
  int done = 0, total = 0;
};
// The most features a reviewed decision's ownership keeps (the largest).
constexpr std::size_t kReviewOwnershipFeatures = 12;

struct ReviewedDecision {
  int index = 0;  // the decision's number in the game, from 1
  int move = 0;   // the record's move it belongs to, from 1
  int turn = 0;   // the game's turn (tile) number
  int player = 0;
  int options = 0;           // legal moves
  std::string played, best;  // notation
  OptionStats played_stats, best_stats;
  double loss = 0;               // points, >= 0
  double loss_se = 0;            // its standard error (both options' margins' errors combined)
  std::string mark;              // "", "inaccuracy", "mistake", "blunder": review_mark(loss - loss_se, win loss)
  std::vector<OptionStats> top;  // the three most visited options
  std::vector<std::string> top_text;
  // with ReviewOptions::ownership: the position's open features (ownership_json, at most
  // kReviewOwnershipFeatures, largest first); else null
  nlohmann::json ownership;
};

struct Review {
  std::string game;
  int players = 0;
  double scale = 0;                                 // GameDef::review_margin
  double inaccuracy = 0, mistake = 0, blunder = 0;  // thresholds in points
  ReviewOptions options;
  std::vector<ReviewedDecision> decisions;  // the decisions with a choice, in order
  std::vector<int> final_scores;
};

// A review made a few decisions at a time (the game server runs it in slices between bots'
// turns): the constructor replays the record (InputError for a bad one, or bad options), step(n)
// searches the next n decisions. The same review as review_record for the same record and options.
class ReviewRun {
 public:
  ReviewRun(const Record& r, const ReviewOptions& o);
  [[nodiscard]] int total() const { return static_cast<int>(at_.size()); }
  [[nodiscard]] int done() const { return static_cast<int>(rv_.decisions.size()); }
  [[nodiscard]] bool finished() const { return done() == total(); }
  void step(int n = 1);
  [[nodiscard]] const Review& review() const { return rv_; }

 private:
  struct At {
    State s;
    Move m;
    int move;   // the record's move, from 1
    int index;  // the decision's number in the game, from 1
  };
  std::vector<At> at_;
  Review rv_;
  MctsOptions mo_;
};

// progress(done, total) after each decision searched.
Review review_record(const Record& r, const ReviewOptions& o, const std::function<void(int, int)>& progress = {});
// The review as JSON (docs/mcts.md "Review"; `carcassonne review --json`, the engine protocol's
// `review`): names from the record's players.
nlohmann::json review_to_json(const Review& rv, const Record& r);
// One option's statistics as JSON: {move, visits, margin, win}.
nlohmann::json option_json(const OptionStats& st, const std::string& text);
// The ownership of the open features of position s (mcts_analyze with ownership) as JSON, the
// engine protocol's `analyze` and the review's per decision: at most `max` of them, each {feature,
// x, y, port, anchor, tiles, cells, pieces, share, points} (docs/engine-protocol.md).
nlohmann::json ownership_json(const State& s, const std::vector<FeatureOwnership>& own,
                              std::size_t max = static_cast<std::size_t>(-1));
// The class of a loss in points on a scale.
std::string review_mark(double loss, double scale);
// A decision's mark is review_mark of its loss less its standard error, in points alone: a move
// that throws away 15 points in a won game is still a blunder to a Carcassonne player, who counts
// points (docs/mcts.md, "How right the marks are": the chance-to-win condition of before hid
// losses the judge found real).

}  // namespace carc
