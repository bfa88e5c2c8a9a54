// rl/vec_env: many games stepped at once, in the style of EnvPool (docs/python.md). Whole arrays
// in and out: actions in; observations, legal masks, rewards, done flags and the player to move
// out, in buffers the environment owns and overwrites at each step (no allocation per step).
// Chance is applied inside from each game's seeded generator. A finished game starts the next one
// at once (its last rewards and done flag are reported with the new game's first decision), or,
// with next_step autoreset (Gymnasium's default), shows its final position at the step it ends and
// starts anew at the next step, which ignores its action.
// The games are split over worker threads that run while the caller waits.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "rl/encoding.hpp"

namespace carc::rl {

class VecEnv {
 public:
  struct Options {
    int num_envs = 1;
    u64 seed = 0;
    int threads = 1;
    bool observations = true;  // write observations (off: masks, rewards and players only)
    bool records = false;      // keep each finished game's record (take_records)
    bool next_step_reset = false;  // a finished game waits for the next step to restart
  };
  static constexpr std::int32_t kTerminal = -4;  // to_play of a finished game (next_step_reset)
  VecEnv(std::shared_ptr<const Encoding> enc, const Options& o);
  ~VecEnv();
  VecEnv(const VecEnv&) = delete;
  VecEnv& operator=(const VecEnv&) = delete;

  [[nodiscard]] int num_envs() const { return n_; }
  [[nodiscard]] bool has_observations() const { return O_ != 0; }
  [[nodiscard]] const Encoding& encoding() const { return *enc_; }
  // Buffers: observations [num_envs x observation_size], masks [num_envs x num_actions] (0/1),
  // rewards [num_envs x players] (the game's returns when it ended at this step, else 0), done
  // [num_envs], to_play [num_envs] (the seat deciding now), and per env the episode's final scores
  // [num_envs x players] when done.
  float* observations() { return obs_.data(); }
  std::uint8_t* masks() { return mask_.data(); }
  float* rewards() { return rew_.data(); }
  std::uint8_t* done() { return done_.data(); }
  std::int32_t* to_play() { return to_play_.data(); }
  float* final_scores() { return scores_.data(); }
  [[nodiscard]] long long episodes() const;

  // Starts every game anew (game i from seed + i, then the next seeds); with a seed, from that
  // seed instead (and so from then on), as a new env of that seed would.
  void reset(std::optional<u64> seed = std::nullopt);
  // One decision per game: actions[i] must be legal in game i (else InputError naming it; no game
  // has moved then). With next_step_reset, a game that ended at the last step restarts instead and
  // its action is ignored.
  void step(const std::int32_t* actions);
  // Cuts games short (Gymnasium's truncation): game i of each listed index ends without returns,
  // restarting at once (same step) or at the next step, which ignores its action (next_step_reset),
  // as if it had ended. Throws InputError for an index out of range, before cutting any.
  void truncate(const std::vector<int>& which);
  // One uniformly random legal action per game, drawn in C++ from each game's sampling generator:
  // never the generator of its chance events, so sampling changes no game's deal.
  void sample_actions(std::int32_t* out);
  // Restarts the sampling generators (game i from seed + i); the default is from the env's seed.
  void reseed_sampling(u64 seed);
  // The records of the games finished since the last call (JSON text): by step, then by game.
  std::vector<std::string> take_records();
  // The state of game i (for tests and tools).
  [[nodiscard]] const State& state(int i) const { return envs_[static_cast<std::size_t>(i)].s; }

 private:
  struct Env {
    State s;
    Rng rng;     // chance: the tiles and tokens of this game
    Rng policy;  // sample_actions' draws, apart from chance
    Encoding::Legal legal;
    std::vector<int> set_mask;  // mask entries set now (cleared at the next write)
    std::vector<u32> obs_set;   // observation entries set now (likewise)
    std::vector<u64> log;       // this game's chance outcomes and moves (for its record)
    long long episode = 0;      // games started in this slot
    bool ended = false;         // over and shown as such (next_step_reset): restarts at the next step
    std::string record;         // the record of the game that ended at this step, if any
  };
  void run(const std::function<void(int, int)>& f);
  void start_game(int i);
  void advance(int i);  // chance until a decision or the end
  void publish(int i, int seat = -1);  // mask, observation (from seat, default the one to move), to_play
  void finish(int i);   // rewards, record; then a new game

  std::shared_ptr<const Encoding> enc_;
  Options opt_;
  int n_ = 0, players_ = 2, A_ = 0, O_ = 0;
  std::vector<Env> envs_;
  std::vector<float> obs_, rew_, scores_;
  std::vector<std::uint8_t> mask_, done_;
  std::vector<std::int32_t> to_play_;
  std::vector<std::string> records_;
  // the worker pool
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int, int)>* job_ = nullptr;
  u64 generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace carc::rl
