#include "rl/vec_env.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace carc::rl {

namespace {

constexpr u64 kChanceBit = 1ull << 63, kOwnChanceBit = 1ull << 16;

u64 pack(const Move& m) {
  return static_cast<u64>(m.kind) | static_cast<u64>(m.player) << 8 | static_cast<u64>(static_cast<u8>(m.x)) << 16 |
         static_cast<u64>(static_cast<u8>(m.y)) << 24 | static_cast<u64>(m.rot) << 32 | static_cast<u64>(m.feat) << 40 |
         static_cast<u64>(m.pk) << 48;
}
Move unpack(u64 v) {
  Move m;
  m.kind = static_cast<MoveKind>(v & 0xFF);
  m.player = static_cast<u8>(v >> 8);
  m.x = static_cast<i8>(static_cast<u8>(v >> 16));
  m.y = static_cast<i8>(static_cast<u8>(v >> 24));
  m.rot = static_cast<u8>(v >> 32);
  m.feat = static_cast<u8>(v >> 40);
  m.pk = static_cast<u8>(v >> 48);
  return m;
}

}  // namespace

VecEnv::VecEnv(std::shared_ptr<const Encoding> enc, const Options& o) : enc_(std::move(enc)), opt_(o) {
  if (o.num_envs < 1 || o.num_envs > 1 << 16) throw InputError(fmt::format("num_envs {}: must be from 1 to 65536", o.num_envs));
  if (o.threads < 1 || o.threads > 256) throw InputError(fmt::format("threads {}: must be from 1 to 256", o.threads));
  n_ = o.num_envs;
  players_ = enc_->nplayers();
  A_ = enc_->num_actions();
  O_ = o.observations ? enc_->observation_size() : 0;
  envs_.resize(static_cast<std::size_t>(n_));
  reseed_sampling(o.seed ^ 0x5EED5A3C0FFEE123ULL);
  obs_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(O_), 0.0f);
  mask_.assign(static_cast<std::size_t>(n_) * static_cast<std::size_t>(A_), 0);
  rew_.assign(static_cast<std::size_t>(n_ * players_), 0.0f);
  scores_.assign(static_cast<std::size_t>(n_ * players_), 0.0f);
  done_.assign(static_cast<std::size_t>(n_), 0);
  to_play_.assign(static_cast<std::size_t>(n_), 0);
  const int t = std::min(o.threads, n_);
  for (int w = 1; w < t; ++w)
    workers_.emplace_back([this, w, t] {
      u64 seen = 0;
      for (;;) {
        const std::function<void(int, int)>* job;
        {
          std::unique_lock lk(mu_);
          cv_.wait(lk, [&] { return stop_ || generation_ != seen; });
          if (stop_) return;
          seen = generation_;
          job = job_;
        }
        (*job)(n_ * w / t, n_ * (w + 1) / t);
        std::lock_guard lk(mu_);
        if (--pending_ == 0) done_cv_.notify_one();
      }
    });
}

VecEnv::~VecEnv() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& w : workers_) w.join();
}

long long VecEnv::episodes() const {
  long long n = 0;
  for (const Env& e : envs_) n += e.episode;
  return n;
}

// Runs f over [begin, end) slices of the games: the caller's thread takes the first slice.
void VecEnv::run(const std::function<void(int, int)>& f) {
  const int t = static_cast<int>(workers_.size()) + 1;
  if (t == 1) {
    f(0, n_);
    return;
  }
  {
    std::lock_guard lk(mu_);
    job_ = &f;
    pending_ = t - 1;
    ++generation_;
  }
  cv_.notify_all();
  f(0, n_ / t);
  std::unique_lock lk(mu_);
  done_cv_.wait(lk, [&] { return pending_ == 0; });
}

void VecEnv::start_game(int i) {
  Env& e = envs_[static_cast<std::size_t>(i)];
  e.rng.reseed(opt_.seed + static_cast<u64>(i) + static_cast<u64>(e.episode) * static_cast<u64>(n_));
  ++e.episode;
  init_state(e.s, enc_->ruleset(), players_);
  e.log.clear();
  advance(i);
}

void VecEnv::advance(int i) {
  Env& e = envs_[static_cast<std::size_t>(i)];
  State& s = e.s;
  while (is_chance(s)) {
    if (s.phase == Phase::Chance) {
      const Hooks& hk = s.rs->game->hooks;
      const int o = hk.sample_chance(s, e.rng);
      if (opt_.records) e.log.push_back(kChanceBit | kOwnChanceBit | static_cast<u64>(o));
      hk.apply_chance(s, o, nullptr);
      continue;
    }
    if (s.pile == 0 && !s.extra) {
      end_if_pile_empty(s, nullptr);
      break;
    }
    const int t = sample_draw(s, e.rng);
    if (opt_.records) e.log.push_back(kChanceBit | static_cast<u64>(t));
    apply_draw(s, t, nullptr);
  }
}

void VecEnv::publish(int i, int seat) {
  Env& e = envs_[static_cast<std::size_t>(i)];
  std::uint8_t* mask = mask_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(A_);
  for (const int a : e.set_mask) mask[a] = 0;
  e.set_mask.clear();
  enc_->legal(e.s, e.legal);
  for (const int a : e.legal.actions) {
    mask[a] = 1;
    e.set_mask.push_back(a);
  }
  const bool over = e.s.phase == Phase::Over;
  const int p = over ? std::max(seat, 0) : to_move(e.s);
  to_play_[static_cast<std::size_t>(i)] = over ? kTerminal : p;
  if (O_) enc_->observe(e.s, p, obs_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(O_), &e.legal, &e.obs_set);
}

void VecEnv::finish(int i) {
  Env& e = envs_[static_cast<std::size_t>(i)];
  const State& s = e.s;
  float* r = rew_.data() + static_cast<std::size_t>(i * players_);
  float* sc = scores_.data() + static_cast<std::size_t>(i * players_);
  const auto ret = final_returns(s);
  for (int p = 0; p < players_; ++p) {
    r[p] = ret[static_cast<std::size_t>(p)];
    sc[p] = s.score[static_cast<std::size_t>(p)];
  }
  done_[static_cast<std::size_t>(i)] = 1;
  if (opt_.records) {
    std::vector<PlayerInfo> seats;
    for (int p = 0; p < players_; ++p) seats.push_back({fmt::format("player {}", p + 1), ""});
    Game g = Game::with_explicit_chance(enc_->ruleset_ptr(), seats, std::nullopt);
    for (const u64 v : e.log) {
      if (v & kChanceBit) g.apply_chance_outcome(static_cast<int>(v & 0xFFFF));
      else g.play(unpack(v));
    }
    e.record = record_to_json(g.record(), g.ruleset());
  }
}

void VecEnv::reset(std::optional<u64> seed) {
  if (seed) {  // a new seed: the games and the sampling start as in a new env of that seed
    opt_.seed = *seed;
    reseed_sampling(*seed ^ 0x5EED5A3C0FFEE123ULL);
  }
  for (Env& e : envs_) e.episode = 0;
  run([this](int b, int e) {
    for (int i = b; i < e; ++i) {
      start_game(i);
      envs_[static_cast<std::size_t>(i)].ended = false;
      done_[static_cast<std::size_t>(i)] = 0;
      std::fill_n(rew_.data() + static_cast<std::size_t>(i * players_), players_, 0.0f);
      publish(i);
    }
  });
}

void VecEnv::step(const std::int32_t* actions) {
  // every action is checked before any game moves
  for (int i = 0; i < n_; ++i) {
    const int a = actions[i];
    if (envs_[static_cast<std::size_t>(i)].ended) continue;  // restarts: its action is ignored
    if (a < 0 || a >= A_ || !mask_[static_cast<std::size_t>(i) * static_cast<std::size_t>(A_) + static_cast<std::size_t>(a)])
      throw InputError(fmt::format("env {}: action {} is not legal there", i, a));
  }
  run([this, actions](int b, int e) {
    for (int i = b; i < e; ++i) {
      Env& env = envs_[static_cast<std::size_t>(i)];
      done_[static_cast<std::size_t>(i)] = 0;
      std::fill_n(rew_.data() + static_cast<std::size_t>(i * players_), players_, 0.0f);
      if (env.ended) {
        env.ended = false;
        start_game(i);
        publish(i);
        continue;
      }
      const int mover = to_move(env.s);
      const auto it = std::find(env.legal.actions.begin(), env.legal.actions.end(), actions[i]);
      const Move m = env.legal.moves[static_cast<std::size_t>(it - env.legal.actions.begin())];
      if (opt_.records) env.log.push_back(pack(m));
      apply_move(env.s, m, nullptr);
      advance(i);
      if (env.s.phase == Phase::Over) {
        finish(i);
        if (opt_.next_step_reset)
          env.ended = true;  // shown over now, restarted at the next step
        else
          start_game(i);
      }
      publish(i, mover);
    }
  });
  if (opt_.records)
    for (Env& e : envs_)
      if (!e.record.empty()) records_.push_back(std::move(e.record)), e.record.clear();
}

void VecEnv::reseed_sampling(u64 seed) {
  for (int i = 0; i < n_; ++i) envs_[static_cast<std::size_t>(i)].policy.reseed(seed + static_cast<u64>(i));
}

void VecEnv::sample_actions(std::int32_t* out) {
  for (int i = 0; i < n_; ++i) {
    Env& e = envs_[static_cast<std::size_t>(i)];
    // a game shown over or cut (next_step_reset) takes any action: 0
    out[i] = e.ended                   ? 0
             : e.legal.actions.empty() ? -1
                                       : e.legal.actions[e.policy.below(static_cast<u32>(e.legal.actions.size()))];
  }
}

void VecEnv::truncate(const std::vector<int>& which) {
  for (const int i : which)
    if (i < 0 || i >= n_) throw InputError(fmt::format("truncate: env {} is not in 0..{}", i, n_ - 1));
  for (const int i : which) {
    Env& e = envs_[static_cast<std::size_t>(i)];
    if (opt_.next_step_reset) {
      e.ended = true;  // its position stays shown; the next step restarts it
      continue;
    }
    start_game(i);
    publish(i);
  }
}

std::vector<std::string> VecEnv::take_records() {
  std::vector<std::string> out;
  out.swap(records_);
  return out;
}

}  // namespace carc::rl
