// The conformance suite: one set of checks over every game, the test games of tests/games/GAMES
// included (as OpenSpiel's basic_tests run over every game), at every player count the game
// supports (2..5 within its range), its options taken in turn:
//
// - RandomGames: seeded random games on a bare State, chance from the game's generator: every
//   listed move legal (is_legal, by the player to move; a sample of a long list), the picked and
//   sampled moves among them, scores never fall, pieces conserved (supply + on the board + held
//   elsewhere = the start), no event of negative points, the events add up to the scores, the
//   game ends with its pile empty; and the game's own checks (conformance.hpp), registered beside
//   the game (src/games/<game>/test_*.cpp).
// - BotGames: greedy and random bots through Game: every choice legal and accepted, the live game
//   equals the replay of its record (through JSON; without its seed too), undo of a whole turn
//   gives back the copy from before it (and the same decisions replay the same turn), and every
//   legal move's notation reads back as that move.
// - MidTurnRecords: a record written at every k-th decision (chance explicit) loads back at the
//   same decision, with the same legal moves, and goes on the same way.
// - ViewsObservationsLanguages: the view builds in en, ru and ro without a missing message, its
//   options written straight to text are its JSON, the game's catalogs are complete, and the
//   learning interface's actions and observation fit the game's action space.
//
// Size: scaled() (tests/property_support.hpp): sanitizer builds play half the games and sample
// fewer decisions.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "ai/driver.hpp"
#include "conformance.hpp"
#include "games/games.hpp"
#include "property_support.hpp"
#include "rl/encoding.hpp"
#include "rules/words.hpp"
#include "view/view.hpp"

namespace carc::test::conformance {

namespace {
std::map<std::string, Registration>& registry() {
  static std::map<std::string, Registration> r;
  return r;
}
}  // namespace

bool register_checks(const std::string& game, Plan plan, std::function<std::unique_ptr<GameChecks>()> make) {
  registry()[game] = Registration{plan, std::move(make)};
  return true;
}

TestGamesOn::TestGamesOn() {
  if (const char* v = std::getenv("CARCASSONNE_TEST_GAMES")) had_ = true, saved_ = v;
  setenv("CARCASSONNE_TEST_GAMES", "1", 1);
}

TestGamesOn::~TestGamesOn() {
  if (had_)
    setenv("CARCASSONNE_TEST_GAMES", saved_.c_str(), 1);
  else
    unsetenv("CARCASSONNE_TEST_GAMES");
}

std::vector<std::string> every_game() {
  const TestGamesOn on;
  return game_ids();
}

Registration registration(const std::string& game) {
  if (const auto it = registry().find(game); it != registry().end()) return it->second;
  return Registration{Plan{}, [] { return std::make_unique<GameChecks>(); }};
}

namespace {

using nlohmann::json;

// The player counts the suite plays: the game's range within 2..5.
std::vector<int> player_counts(const GameDef& g) {
  std::vector<int> out;
  for (int p = std::max(2, g.min_players); p <= std::min(5, g.max_players); ++p) out.push_back(p);
  return out;
}

// Game k's players and options: the player counts in turn, then each option's values in turn.
struct GameSetup {
  int players = 2;
  std::vector<std::string> options;
};
GameSetup setup(const GameDef& g, int k) {
  const auto counts = player_counts(g);
  GameSetup su;
  su.players = counts[static_cast<std::size_t>(k) % counts.size()];
  int rest = k / static_cast<int>(counts.size());
  for (const OptionDef& o : g.options) {
    const int n = static_cast<int>(o.values.size());
    su.options.push_back(o.name + "=" + o.values[static_cast<std::size_t>(rest % n)]);
    rest /= n;
  }
  return su;
}

std::string where(const std::string& id, const GameSetup& su, u64 seed) {
  return fmt::format("{} {} players [{}] seed {}", id, su.players, fmt::join(su.options, " "), seed);
}

bool same_move(const Move& a, const Move& b) {
  return a.kind == b.kind && a.x == b.x && a.y == b.y && a.rot == b.rot && a.feat == b.feat && a.pk == b.pk &&
         a.player == b.player;
}

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    gd_ = find_game(GetParam());
    ASSERT_NE(gd_, nullptr) << GetParam();
  }
  TestGamesOn on_;
  const GameDef* gd_ = nullptr;
};

// ---- RandomGames -------------------------------------------------------------------------------

struct Tally {
  long games = 0, decisions = 0, chance = 0;
  long bad_legal = 0, bad_player = 0, bad_pick = 0, score_fell = 0, bad_conservation = 0, bad_event = 0;
  long bad_event_sum = 0, bad_end = 0, endless = 0;
};

int on_board(const State& s, int p, int kind) {
  int n = 0;
  for (const auto& pc : s.pieces) n += pc.player == p && pc.kind == kind;
  return n;
}

void check_after(const State& s, const State& before, const State& start, const GameChecks& gc, Tally& t) {
  for (int p = 0; p < kMaxPlayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    if (s.score[pi] < before.score[pi]) ++t.score_fell;
    if (p >= s.nplayers) {
      if (s.score[pi] != 0 || s.supply[pi] != 0 || s.supply2[pi] != 0) ++t.bad_conservation;
      continue;
    }
    if (s.supply[pi] + on_board(s, p, 0) + gc.held_elsewhere(s, p, 0) != start.supply[pi] ||
        s.supply2[pi] + on_board(s, p, 1) + gc.held_elsewhere(s, p, 1) != start.supply2[pi])
      ++t.bad_conservation;
  }
}

void random_game(const Ruleset& rs, int players, u64 seed, GameChecks& gc, Tally& t) {
  State s;
  init_state(s, rs, players);
  const State start = s;
  Rng rng(seed), check_rng(seed ^ 0x9e3779b97f4a7c15ULL);
  EventSink ev;
  MoveList ml;
  long steps = 0;
  State before;  // assigned each step (keeps its vectors' storage)
  while (s.phase != Phase::Over) {
    if (++steps > 100000) {
      ++t.endless;
      return;
    }
    before = s;
    const std::size_t ev_from = ev.size();
    const Move* played = nullptr;
    Move m;
    bool placed = true;
    if (is_chance(s)) {
      ++t.chance;
      placed = chance_step(s, rng, &ev);
    } else {
      ++t.decisions;
      legal_moves(s, ml);
      if (ml.empty()) ++t.bad_legal;
      const int who = to_move(s);
      for (const Move& x : ml) t.bad_player += x.player != who;
      // is_legal relists the moves (quadratic over a long list): all of a short list, a sample of a long one
      if (ml.size() <= 48) {
        for (const Move& x : ml) t.bad_legal += !is_legal(s, x);
      } else {
        for (int i = 0; i < 48; ++i) t.bad_legal += !is_legal(s, ml[check_rng.below(static_cast<u32>(ml.size()))]);
      }
      gc.decision(s, ml, rng);
      if (const auto own = gc.pick(s, ml, rng)) {
        m = *own;
      } else if (s.phase == Phase::Place && rng.below(2) == 0) {
        m = sample_placement(s, rng);
      } else {
        m = ml[rng.below(static_cast<u32>(ml.size()))];
      }
      if (std::find(ml.begin(), ml.end(), m) == ml.end()) ++t.bad_pick;
      apply_move(s, m, &ev);
      played = &m;
    }
    for (std::size_t i = ev_from; i < ev.size(); ++i)
      if (ev[i].points < 0 || ev[i].player >= s.nplayers) ++t.bad_event;
    check_after(s, before, start, gc, t);
    gc.step(before, s, played, placed, std::span<const ScoreEvent>(ev.data() + ev_from, ev.size() - ev_from));
  }
  ++t.games;
  if (s.pile != 0) ++t.bad_end;
  std::array<int, kMaxPlayers> sum{};
  for (const auto& e : ev) sum[e.player] += e.points;
  for (int p = 0; p < kMaxPlayers; ++p)
    if (sum[static_cast<std::size_t>(p)] != s.score[static_cast<std::size_t>(p)]) ++t.bad_event_sum;
  gc.end(s, ev);
}

TEST_P(Conformance, RandomGames) {
  const std::string id = GetParam();
  const Registration reg = registration(id);
  const auto gc = reg.make();
  const int n = scaled(reg.plan.random_games);
  Tally t;
  std::map<std::string, std::shared_ptr<const Ruleset>> rules;
  for (int k = 0; k < n; ++k) {
    const GameSetup su = setup(*gd_, k);
    auto& rs = rules[fmt::format("{}", fmt::join(su.options, " "))];
    if (!rs) rs = load_ruleset(id, su.options);
    gc->begin(*rs, su.players, k);
    random_game(*rs, su.players, 1000 + static_cast<u64>(k), *gc, t);
  }
  EXPECT_EQ(t.games, n) << id;
  EXPECT_GT(t.decisions, 10L * n) << id;
  EXPECT_GT(t.chance, 0) << id;
  EXPECT_EQ(t.endless, 0) << id << ": a game did not end in 100000 steps";
  EXPECT_EQ(t.bad_legal, 0) << id << ": an empty list, or a listed move is_legal rejects";
  EXPECT_EQ(t.bad_player, 0) << id << ": a listed move of another player than the one to move";
  EXPECT_EQ(t.bad_pick, 0) << id << ": a picked or sampled move not among the listed moves";
  EXPECT_EQ(t.score_fell, 0) << id << ": a score fell";
  EXPECT_EQ(t.bad_conservation, 0) << id << ": pieces not conserved (supply + on the board + held elsewhere != start)";
  EXPECT_EQ(t.bad_event, 0) << id << ": an event of negative points or of no player";
  EXPECT_EQ(t.bad_event_sum, 0) << id << ": the events do not add up to the scores";
  EXPECT_EQ(t.bad_end, 0) << id << ": the game ended with tiles left in the pile";
  gc->expect(t.games);
}

// ---- BotGames ----------------------------------------------------------------------------------

std::string to_json(const Game& g) { return record_to_json(g.record(), g.ruleset()); }

// What undo must give back: the record and the position (the state's parts a player sees and
// the next decisions depend on).
struct Snap {
  std::string record;
  std::array<i16, kMaxPlayers> score{};
  std::array<u8, kMaxPlayers> supply{}, supply2{};
  std::vector<Move> legal;
  int turn = 0, current = 0, in_hand = 0, pile = 0, tiles = 0, pieces = 0;
  Phase phase{};
  bool operator==(const Snap& o) const {
    return record == o.record && score == o.score && supply == o.supply && supply2 == o.supply2 && turn == o.turn &&
           current == o.current && in_hand == o.in_hand && pile == o.pile && tiles == o.tiles && pieces == o.pieces &&
           phase == o.phase && legal.size() == o.legal.size() &&
           std::equal(legal.begin(), legal.end(), o.legal.begin(), same_move);
  }
};

Snap snap(const Game& g) {
  Snap sn;
  const State& s = g.state();
  sn.record = to_json(g);
  sn.score = s.score;
  for (int p = 0; p < kMaxPlayers; ++p) {
    sn.supply[static_cast<std::size_t>(p)] = static_cast<u8>(s.supply[static_cast<std::size_t>(p)]);
    sn.supply2[static_cast<std::size_t>(p)] = static_cast<u8>(s.supply2[static_cast<std::size_t>(p)]);
  }
  if (!g.over() && !is_chance(s)) {
    MoveList ml;
    legal_moves(s, ml);
    sn.legal.assign(ml.begin(), ml.end());
  }
  sn.turn = s.turn;
  sn.current = s.current;
  sn.in_hand = s.in_hand;
  sn.pile = s.pile;
  sn.tiles = static_cast<int>(s.tiles.size());
  sn.pieces = static_cast<int>(s.pieces.size());
  sn.phase = s.phase;
  return sn;
}

TEST_P(Conformance, BotGames) {
  const std::string id = GetParam();
  const int n = scaled(registration(id).plan.bot_games);
  // notation read back at every k-th decision, a turn undone every 9th turn
  const int every = scaled(100) >= 100 ? 4 : 10;
  long notations = 0, undos = 0;
  for (int k = 0; k < n; ++k) {
    const GameSetup su = setup(*gd_, k);
    const u64 seed = 5000 + static_cast<u64>(k);
    const std::string at = where(id, su, seed);
    std::vector<PlayerInfo> infos;
    std::vector<std::unique_ptr<Bot>> bots;
    for (int p = 0; p < su.players; ++p) {
      const char* spec = (p + k) % 3 == 0 ? "random" : "greedy";
      infos.push_back({fmt::format("p{}", p + 1), spec});
      bots.push_back(make_bot(spec));
    }
    Game g(load_ruleset(id, su.options), infos, seed);
    g.enable_undo(true);
    Rng rng(seed);
    MoveList ml;
    long decision = 0;
    int undo_turns = 0;
    while (!g.over()) {
      g.advance();
      if (g.over()) break;
      legal_moves(g.state(), ml);
      ASSERT_FALSE(ml.empty()) << at;
      // undo: a whole turn of the player to place, taken back, gives back the copy from before it;
      // the same decisions then play the same turn again
      if (g.state().phase == Phase::Place && g.state().turn % 9 == 4 && undo_turns != g.state().turn) {
        undo_turns = g.state().turn;
        const int me = g.state().current;
        const Snap before = snap(g);
        std::vector<Move> played;
        MoveList tl;
        while (!g.over()) {
          g.advance();
          if (g.over() || (g.state().phase == Phase::Place && g.state().turn != before.turn)) break;
          legal_moves(g.state(), tl);
          played.push_back(bots[static_cast<std::size_t>(to_move(g.state()))]->choose(g.state(), tl, rng));
          g.play(played.back());
        }
        const Snap after = snap(g);
        ASSERT_TRUE(g.undo_turn(me)) << at << " turn " << before.turn;
        EXPECT_TRUE(snap(g) == before) << at << ": undo of turn " << before.turn << " is not the copy from before it";
        for (const Move& m : played) g.play(m);
        g.advance();
        EXPECT_TRUE(snap(g) == after) << at << ": turn " << before.turn << " replayed after undo differs";
        ++undos;
        continue;
      }
      if (decision++ % every == 0) {
        for (const Move& m : ml) {
          const std::string text = notation(g.state(), m);
          Move back;
          try {
            back = parse_notation(g.state(), text);
          } catch (const InputError& e) {
            ADD_FAILURE() << at << ": \"" << text << "\" does not read back: " << e.what();
            continue;
          }
          EXPECT_TRUE(same_move(back, m)) << at << ": " << text << " read back as " << notation(g.state(), back);
          ++notations;
        }
      }
      const Move m = bots[static_cast<std::size_t>(to_move(g.state()))]->choose(g.state(), ml, rng);
      ASSERT_TRUE(std::find(ml.begin(), ml.end(), m) != ml.end()) << at << ": the bot chose an unlisted move";
      g.play(m);
    }
    ASSERT_TRUE(g.over()) << at;
    // the live game equals the replay of its record, through JSON; without its seed too
    const std::string text = to_json(g);
    const Game h = Game::replay(record_from_json(text, "mem"));
    EXPECT_EQ(to_json(h), text) << at;
    EXPECT_EQ(h.state().score, g.state().score) << at;
    EXPECT_EQ(h.state().supply, g.state().supply) << at;
    EXPECT_EQ(h.state().supply2, g.state().supply2) << at;
    EXPECT_EQ(h.state().tiles.size(), g.state().tiles.size()) << at;
    EXPECT_TRUE(h.over()) << at;
    Record r = record_from_json(text, "mem");
    r.seed.reset();
    const Game u = Game::replay(r);
    EXPECT_TRUE(u.over()) << at;
    EXPECT_EQ(u.state().score, g.state().score) << at << ": without its seed";
    EXPECT_EQ(u.record().events.size(), g.record().events.size()) << at << ": without its seed";
  }
  EXPECT_GT(notations, 100) << id;
  EXPECT_GT(undos, 0) << id;
}

// ---- MidTurnRecords ----------------------------------------------------------------------------

// A record written at a decision loads back at the same decision (the same record, the same
// legal moves) and goes on the same way after the next move; chance is chosen by the test's own
// generator. Every k-th decision of one game per player count (a different residue per count).
TEST_P(Conformance, MidTurnRecords) {
  const std::string id = GetParam();
  const int every = scaled(100) >= 100 ? 3 : 6;
  long checked = 0;
  for (const int players : player_counts(*gd_)) {
    std::vector<PlayerInfo> seats;
    for (int p = 0; p < players; ++p) seats.push_back({fmt::format("p{}", p + 1), ""});
    Game g = Game::with_explicit_chance(load_ruleset(id, {}), seats, 1);
    Rng rng(1000003 + static_cast<u64>(players));
    MoveList ml, hl;
    std::vector<std::pair<int, double>> odds;
    long decision = 0;
    while (!g.over()) {
      if (is_chance(g.state())) {
        chance_odds(g.state(), odds);
        ASSERT_FALSE(odds.empty());
        g.apply_chance_outcome(odds[rng.below(static_cast<u32>(odds.size()))].first);
        continue;
      }
      legal_moves(g.state(), ml);
      const Move m = ml[rng.below(static_cast<u32>(ml.size()))];
      if ((decision++ + players) % every != 0) {
        g.play(m);
        continue;
      }
      ++checked;
      const std::string text = to_json(g);
      const std::string at = fmt::format("{} {} players move {}", id, players, g.record().moves.size());
      std::optional<Game> h;
      try {
        h.emplace(Game::replay(record_from_json(text, "mid-turn.json")));
      } catch (const InputError& e) {
        FAIL() << at << ": the record does not load: " << e.what();
      }
      ASSERT_EQ(to_json(*h), text) << at;
      h->set_explicit_chance(std::nullopt);  // both stop at the next chance node
      legal_moves(h->state(), hl);
      ASSERT_EQ(hl.size(), ml.size()) << at;
      ASSERT_EQ(h->state().current, g.state().current) << at;
      ASSERT_EQ(h->state().phase, g.state().phase) << at;
      ASSERT_TRUE(std::find(hl.begin(), hl.end(), m) != hl.end()) << at;
      g.play(m);
      h->play(m);
      ASSERT_EQ(to_json(*h), to_json(g)) << at;
    }
  }
  EXPECT_GT(checked, 20) << id;
}

// ---- ViewsObservationsLanguages ----------------------------------------------------------------

// A message id no catalog has is shown as "[id]" (src/core/i18n.hpp): "[" then a lower-case
// letter, then dotted parts of [a-z0-9_-] (at least one dot), then "]". Scanned by hand: g++ 12's
// <regex> trips -Wmaybe-uninitialized in the sanitizer build.
bool has_missing_message(const std::string& s) {
  const auto part = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '[' || i + 1 >= s.size() || s[i + 1] < 'a' || s[i + 1] > 'z') continue;
    std::size_t j = i + 1;
    bool dot = false;
    bool empty_part = false;
    while (j < s.size() && (part(s[j]) || s[j] == '.')) {
      if (s[j] == '.') {
        if (j + 1 >= s.size() || !part(s[j + 1])) empty_part = true;
        dot = true;
      }
      ++j;
    }
    if (j < s.size() && s[j] == ']' && dot && !empty_part) return true;
  }
  return false;
}

void expect_no_missing_message(const json& j, const std::string& at) {
  if (j.is_string()) {
    EXPECT_FALSE(has_missing_message(j.get<std::string>()))
        << at << ": a missing message in \"" << j.get<std::string>() << "\"";
  } else if (j.is_structured()) {
    for (const auto& v : j) expect_no_missing_message(v, at);
  }
}

TEST(ConformanceSupport, MissingMessageScanFindsOnlyDottedIds) {
  EXPECT_TRUE(has_missing_message("[log.placed]"));
  EXPECT_TRUE(has_missing_message("a [ui.score-track.title] b"));
  EXPECT_FALSE(has_missing_message("[x]"));
  EXPECT_FALSE(has_missing_message("[Log.placed]"));
  EXPECT_FALSE(has_missing_message("[log.]"));
  EXPECT_FALSE(has_missing_message("[log..x]"));
  EXPECT_FALSE(has_missing_message("x [1.5] y"));
}

TEST_P(Conformance, ViewsObservationsLanguages) {
  const std::string id = GetParam();
  // the game's catalogs are complete in every language
  if (const i18n::Catalog* c = game_messages(*gd_)) {
    for (const i18n::Lang l : i18n::kAllLangs) {
      EXPECT_TRUE(c->missing(l).empty()) << id << ": messages with no " << i18n::code(l) << " text";
    }
  }
  const int every = scaled(100) >= 100 ? 12 : 30;
  long views = 0, observations = 0;
  for (const int players : player_counts(*gd_)) {
    auto rs = load_ruleset(id, {});
    const rl::Encoding enc(rs, players);
    ASSERT_GT(enc.num_actions(), 0) << id;
    ASSERT_GT(enc.observation_size(), 0) << id;
    std::vector<PlayerInfo> seats;
    for (int p = 0; p < players; ++p) seats.push_back({fmt::format("p{}", p + 1), ""});
    const u64 seed = 23 + static_cast<u64>(players);
    Game g(rs, seats, seed);
    Rng rng(seed);
    MoveList ml;
    std::vector<float> obs(static_cast<std::size_t>(enc.observation_size()) + 1);
    long decision = 0;
    while (true) {
      g.advance();
      const bool last = g.over();
      const std::string at = fmt::format("{} {} players decision {}", id, players, decision);
      if (!last) legal_moves(g.state(), ml);
      if (last || decision++ % every == 0) {
        ++views;
        for (const i18n::Lang l : i18n::kAllLangs) {
          view::ViewOptions o;
          o.lang = l;
          const view::View v = view::build_view(g, o);
          EXPECT_EQ(v.game, id) << at;
          EXPECT_EQ(v.tiles.size(), g.state().tiles.size()) << at;
          expect_no_missing_message(view::to_json(v), fmt::format("{} {}", at, i18n::code(l)));
        }
        // the options written straight to text are the same JSON as to_json
        const auto opts = view::decision_options(g.state());
        std::string text;
        view::append_options_json(text, opts);
        json expected = json::array();
        for (const auto& o : opts) expected.push_back(view::to_json(o));
        EXPECT_EQ(json::parse(text), expected) << at;
        if (!last) {
          // every legal move named has an action of its own in the game's action space, and the
          // observation fills its size exactly
          rl::Encoding::Legal lg;
          enc.legal(g.state(), lg);
          EXPECT_FALSE(lg.actions.empty()) << at;
          EXPECT_EQ(lg.actions.size(), lg.moves.size()) << at;
          EXPECT_LE(lg.moves.size(), ml.size()) << at;
          const std::set<int> distinct(lg.actions.begin(), lg.actions.end());
          EXPECT_EQ(distinct.size(), lg.actions.size()) << at << ": two legal moves share an action";
          for (const int a : lg.actions) {
            EXPECT_GE(a, 0) << at;
            EXPECT_LT(a, enc.num_actions()) << at;
          }
          obs.back() = 12345.0f;
          enc.observe(g.state(), to_move(g.state()), obs.data(), &lg);
          EXPECT_EQ(obs.back(), 12345.0f) << at << ": the observation wrote past its size";
          EXPECT_TRUE(std::all_of(obs.begin(), obs.end() - 1, [](float f) { return std::isfinite(f); })) << at;
          ++observations;
        }
      }
      if (last) break;
      g.play(ml[rng.below(static_cast<u32>(ml.size()))]);
    }
  }
  // every player count built views at its first decision and at its end, and observations between
  // (a count that does not depend on the game's length: the test games' are short, and the
  // sanitizer builds sample one decision in 30)
  const auto counts = static_cast<long>(player_counts(*gd_).size());
  EXPECT_GE(views, 2 * counts) << id;
  EXPECT_GE(observations, counts) << id;
}

INSTANTIATE_TEST_SUITE_P(EveryGame, Conformance, ::testing::ValuesIn(every_game()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace carc::test::conformance
