// MCTS: legal moves in every game and decision kind, determinism with a fixed seed and budget,
// and an immediate win of points found in a built position.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "ai/bot_limits.hpp"
#include "ai/driver.hpp"
#include "ai/mcts.hpp"
#include "games/games.hpp"
#include "scenario.hpp"
#include "search_support.hpp"

namespace carc {
namespace {

using test::decisions_searched_otherwise;
using test::Scenario;

constexpr int kRed = 0, kBlue = 1;

// The rulebook's monastery: red's monk below the start tile with 7 of 8 neighbours placed. Red
// draws E, the game's last tile: it completes the monastery at 0,2 (9 points instead of 8 at the
// end), or closes the start city at 0,-1 for a knight (4 points). The search must find the best.
TEST(Mcts, FindsTheBestLastTurn) {
  // the last tile of the game: completed now the monastery pays 9, left open 8 at the end
  Scenario sc = test::monastery_last_tile();
  ASSERT_EQ(sc.s.phase, Phase::Place);
  // the best margin red can reach, by brute force over the placement and the piece decision
  MoveList places, pieces;
  legal_moves(sc.s, places);
  ASSERT_GT(places.size(), 4u);  // a real choice: many placements
  int best = -1000, best_at_gap = -1000;
  for (const Move& pm : places) {
    State t = sc.s;
    apply_move(t, pm);
    legal_moves(t, pieces);
    for (const Move& km : pieces) {
      State u = t;
      apply_move(u, km);
      EXPECT_EQ(u.phase, Phase::Over);
      const int margin = u.score[kRed] - u.score[kBlue];
      best = std::max(best, margin);
      if (pm.x == 0 && pm.y == 2) best_at_gap = std::max(best_at_gap, margin);
    }
  }
  // the same tile can instead close the start city for a knight: 4 more points than the monastery's 1
  EXPECT_GT(best, best_at_gap);
  // with the default prior and cut-off playouts, and as plain search (no prior, playouts to the end)
  // and with sequential halving at the root
  for (const int variant : {0, 1, 2}) {
    const bool plain = variant == 1;
    MctsOptions o;
    o.playouts = 3000;
    o.threads = 1;
    if (plain) {
      o.prior = 0;
      o.horizon = 0;
    }
    if (variant == 2) o.halving = 8;
    auto bot = make_mcts_bot(o);
    Rng rng(5);
    State t = sc.s;
    EventSink ev;
    while (t.phase != Phase::Over) {
      MoveList legal;
      legal_moves(t, legal);
      apply_move(t, bot->choose(t, legal, rng), &ev);
    }
    EXPECT_EQ(t.score[kRed] - t.score[kBlue], best) << (variant == 1   ? "plain search"
                                                        : variant == 2 ? "halving"
                                                                       : "with prior");
  }
}

// Every game, every decision kind the game has: the bot's moves go through Game::play, which
// refuses an illegal move. Counts the kinds of decisions the search made.
TEST(Mcts, PlaysOnlyLegalMovesInEveryGame) {
  std::map<std::string, std::array<int, 5>> kinds_of;
  for (const std::string& id : game_ids()) {
    for (const u64 seed : {77, 78, 79, 80}) {  // four deals: every decision kind comes up
      SCOPED_TRACE(fmt::format("{} seed {}", id, seed));
      auto rs = load_ruleset(id, {});
      const int players = id == "safari" ? 3 : 2;
      std::vector<PlayerInfo> info;
      std::vector<std::unique_ptr<Bot>> bots;
      for (int p = 0; p < players; ++p) {
        const std::string spec = "mcts:playouts=24,threads=1";
        info.push_back({spec, spec});
        bots.push_back(make_bot(spec));
      }
      Game g(rs, info, seed);
      Rng rng(3);
      std::array<int, 5>& kinds = kinds_of[id];
      MoveList ml;
      while (!g.over()) {
        const State& s = g.state();
        legal_moves(s, ml);
        const int who = to_move(s);
        const Move m = bots[static_cast<std::size_t>(who)]->choose(s, ml, rng);
        if (info[static_cast<std::size_t>(who)].bot.rfind("mcts", 0) == 0) ++kinds[static_cast<std::size_t>(m.kind)];
        ASSERT_NO_THROW(g.play(m)) << id << ": " << notation(s, m);
      }
      EXPECT_GT(kinds[static_cast<std::size_t>(MoveKind::Place)], 20) << id;
      EXPECT_GT(kinds[static_cast<std::size_t>(MoveKind::Piece)] + kinds[static_cast<std::size_t>(MoveKind::Pass)], 20)
          << id;
      // the record replays to the same result
      const Game r = Game::replay(record_from_json(record_to_json(g.record(), *rs), "mcts game"));
      EXPECT_EQ(r.record().final_scores, g.record().final_scores) << id;
      if (seed != 80) continue;  // the kinds of decisions, over the four games
      if (id == "safari") {
        EXPECT_GT(kinds[static_cast<std::size_t>(MoveKind::Act)], 0) << "no jeep move or watering hole searched";
        EXPECT_GT(kinds[static_cast<std::size_t>(MoveKind::Choose)], 0) << "no hand-in or relocation searched";
      }
      if (id == "amazonas") {
        EXPECT_GT(kinds[static_cast<std::size_t>(MoveKind::Choose)], 0) << "no double tile searched";
      }
      if (id == "hunters") {
        EXPECT_GT(kinds[static_cast<std::size_t>(MoveKind::Choose)], 0) << "no shaman's choice searched";
      }
    }
  }
}

TEST(Mcts, DeterministicWithASeedAndAPlayoutBudget) {
  auto rs = load_ruleset("base", {});
  auto run = [&](const std::string& spec) {
    std::vector<PlayerInfo> info = {{"a", spec}, {"b", "greedy"}};
    std::vector<std::unique_ptr<Bot>> bots;
    for (const auto& p : info) bots.push_back(make_bot(p.bot));
    Game g(rs, info, 12);
    Rng rng(4);
    play_out(g, bots, rng);
    return record_to_json(g.record(), *rs);
  };
  EXPECT_EQ(run("mcts:playouts=64,threads=2"), run("mcts:playouts=64,threads=2"));
  // common random numbers draw from their own streams: as reproducible, and another game
  const auto crn = run("mcts:playouts=64,threads=2,crn=1");
  EXPECT_EQ(crn, run("mcts:playouts=64,threads=2,crn=1"));
  // (the moves, not the records' names of the bots)
  EXPECT_NE(nlohmann::json::parse(crn)["moves"], nlohmann::json::parse(run("mcts:playouts=64,threads=2"))["moves"]);
}

// The playouts add what a game says an option gains (Hooks::option_gain; Safari's watering holes):
// `gains` scales it, so Safari's search with gains=0 (the policy before) spends its playouts
// otherwise at some decision, and the default is gains=1; analysis keeps 0 (its calibrations).
TEST(Mcts, GainsChangeSafarisPlayoutsAndAnalysisKeepsNone) {
  const int differ = decisions_searched_otherwise(
      "safari", "mcts:playouts=200,threads=1", "mcts:playouts=200,threads=1,gains=1",
      "mcts:playouts=200,threads=1,gains=0", 12, [](const State& s) { return s.phase == Phase::Piece; },
      [](MctsOptions& o) { o.gains = 0; });
  EXPECT_GT(differ, 0) << "gains=0 searches alike";
}

// A 2-player base game between greedy bots, a few turns in, at a tile placement with many options
// (rs: the base game's rules, which the state points to).
State base_placement_with_many_options(const std::shared_ptr<const Ruleset>& rs) {
  std::vector<PlayerInfo> info = {{"a", "greedy"}, {"b", "greedy"}};
  Game g(rs, info, 31);
  std::vector<std::unique_ptr<Bot>> bots;
  for (const auto& p : info) bots.push_back(make_bot(p.bot));
  Rng rng(2);
  MoveList ml;
  while (!g.over()) {
    const State& s = g.state();
    legal_moves(s, ml);
    if (s.phase == Phase::Place && s.turn >= 6 && ml.size() > 12) return s;
    g.play(bots[static_cast<std::size_t>(to_move(s))]->choose(s, ml, rng));
  }
  ADD_FAILURE() << "the game ended before such a placement";
  return g.state();
}

// Sequential halving at the root: the budget is spent exactly, only the prior's best k options
// get playouts, each round's survivors get more than those it dropped, and the one left standing
// is the most visited, which the bot plays.
TEST(Mcts, HalvingSpendsTheBudgetOnTheBestOptionsByThePrior) {
  const auto rs = load_ruleset("base", {});
  const State root = base_placement_with_many_options(rs);
  ASSERT_NE(root.phase, Phase::Over);
  for (const bool real_q : {false, true}) {
    MctsOptions o;
    o.playouts = 1000;
    o.threads = 1;
    o.halving = 8;
    o.halving_q = real_q ? 1 : 0;
    const SearchVisits sv = mcts_search(root, o, 9);
    long total = 0, best_visits = 0;
    std::vector<long> v;
    for (const auto& [m, n] : sv.visits) {
      total += n;
      if (n > 0) v.push_back(n);
      if (m == sv.best) best_visits = n;
    }
    EXPECT_EQ(total, 1000) << real_q;
    EXPECT_LE(v.size(), 8u) << real_q;  // the expanding playout goes to the prior's first, a candidate
    EXPECT_GE(v.size(), 8u) << real_q;  // 8 candidates: a place with more than 12 options
    std::sort(v.rbegin(), v.rend());
    EXPECT_EQ(best_visits, v[0]);
    EXPECT_GT(v[0], v[1]) << "the last one standing has the tenth kept back";
    // rounds of 300: 8 x 37, 4 x 75, 2 x 150; then 100 more for the last one
    EXPECT_EQ(v[7], 37);
    EXPECT_GE(v[0], 37 + 75 + 150 + 100);
    // without halving the same search spreads over more options
    o.halving = 0;
    const SearchVisits plain = mcts_search(root, o, 9);
    int visited = 0;
    for (const auto& [m, n] : plain.visits) visited += n > 0;
    EXPECT_GT(visited, 8);
  }
}

// The prior deeper in the tree (pdepth): tile placements below the root's turn (the opponent's
// reply, the next turn) are expanded with the prior only down to that many decisions from the
// root; with pcheap=0 they are judged as the root's are, else by the position after the tile;
// with plazy=1 a node is expanded on its second visit.
TEST(Mcts, PriorDepthReachesTilePlacementsBelowTheRootsTurn) {
  const auto rs = load_ruleset("base", {});
  const State root = base_placement_with_many_options(rs);
  ASSERT_NE(root.phase, Phase::Over);
  MctsOptions o;
  o.playouts = 600;
  o.threads = 1;
  const auto search = [&](int depth, int cheap) {
    o.prior_depth = depth;
    o.prior_cheap = cheap;
    return mcts_search(root, o, 9);
  };
  const SearchVisits d1 = search(1, 1), d2 = search(2, 1), d4 = search(4, 1), d4full = search(4, 0);
  EXPECT_EQ(d1.deep_priors, 0);               // the root's turn only, as before
  EXPECT_GT(d2.deep_priors, 0);               // the opponent's placements
  EXPECT_GT(d4.deep_priors, d2.deep_priors);  // and the root player's next ones
  EXPECT_GT(d4full.deep_priors, 0);
  // the cheap judgement is another prior: the search spends its playouts otherwise
  EXPECT_NE(d4.visits, d4full.visits);
  // expanded on their second visit (plazy=1, the default) or their first: most are reached once
  o.prior_lazy = 0;
  const SearchVisits eager = search(4, 1);
  o.prior_lazy = 1;
  EXPECT_GT(eager.deep_priors, 2 * d4.deep_priors);
  // the game's default (GameDef::prior_depth_for) is what the search uses unless told
  const int game_depth = rs->game->prior_depth_for(2);
  const SearchVisits def = search(-1, 1), same = search(game_depth, 1);
  EXPECT_EQ(def.visits, same.visits);
  EXPECT_EQ(def.deep_priors, same.deep_priors);
  EXPECT_EQ(def.deep_priors > 0, game_depth > 1);
}

// With four players Amazonas' prior also judges the next player's tile placement, as the root's
// options are judged (GameDef::prior_depth_for and prior_full_for: pdepth=2, pcheap=0, plazy=0);
// with two, three and five players, and in the base game with three, the prior stays at the root's
// turn.
TEST(Mcts, AmazonasWithFourPlayersJudgesTheNextPlayersReplyInThePrior) {
  const auto rs = load_ruleset("amazonas", {});
  EXPECT_EQ(rs->game->prior_depth_for(2), 1);
  EXPECT_FALSE(rs->game->prior_full_for(2));
  // with three players the search keeps the root's turn (no better at equal CPU on fresh deals)
  EXPECT_EQ(rs->game->prior_depth_for(3), 1);
  EXPECT_FALSE(rs->game->prior_full_for(3));
  EXPECT_EQ(rs->game->prior_depth_for(4), 2);
  EXPECT_TRUE(rs->game->prior_full_for(4));
  // with five players too (measured no better there)
  EXPECT_EQ(rs->game->prior_depth_for(5), 1);
  EXPECT_FALSE(rs->game->prior_full_for(5));
  const auto base = load_ruleset("base", {});
  EXPECT_EQ(base->game->prior_depth_for(3), 1);
  EXPECT_FALSE(base->game->prior_full_for(3));
  for (const int players : {2, 3, 4, 5}) {
    std::vector<PlayerInfo> info;
    for (int p = 0; p < players; ++p) info.push_back({fmt::format("p{}", p), "greedy"});
    Game g(rs, info, 17);
    auto bot = make_bot("greedy");
    Rng rng(3);
    MoveList ml;
    while (!g.over() && !(g.state().phase == Phase::Place && g.state().turn >= 4)) {
      legal_moves(g.state(), ml);
      g.play(bot->choose(g.state(), ml, rng));
    }
    const State root = g.state();
    ASSERT_EQ(root.phase, Phase::Place);
    MctsOptions o;
    o.playouts = 400;
    o.threads = 1;
    const SearchVisits def = mcts_search(root, o, 5);
    o.prior_depth = 2;
    o.prior_cheap = 0;
    o.prior_lazy = 0;
    const SearchVisits full = mcts_search(root, o, 5);
    o.prior_depth = 1;
    o.prior_cheap = 1;
    o.prior_lazy = 1;
    const SearchVisits shallow = mcts_search(root, o, 5);
    if (players != 4) {
      EXPECT_EQ(def.deep_priors, 0);
      EXPECT_EQ(def.visits, shallow.visits);
      EXPECT_GT(full.deep_priors, 0);
    } else {
      EXPECT_GT(def.deep_priors, 0);  // the next player's placements
      EXPECT_EQ(def.deep_priors, full.deep_priors);
      EXPECT_EQ(def.visits, full.visits);
      EXPECT_NE(def.visits, shallow.visits);
      EXPECT_EQ(shallow.deep_priors, 0);
    }
  }
}

TEST(Mcts, BotListsKeepABotsOptionsTogether) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_bot_list("mcts:ms=500,threads=1,greedy"), (V{"mcts:ms=500,threads=1", "greedy"}));
  EXPECT_EQ(split_bot_list("random, mcts:playouts=10,prior=0 ,mcts"),
            (V{"random", "mcts:playouts=10,prior=0", "mcts"}));
  EXPECT_EQ(split_bot_list("greedy,,random"), (V{"greedy", "", "random"}));
  // an option with no bot before it stays a part of its own (and make_bot names it)
  EXPECT_EQ(split_bot_list("threads=1,greedy"), (V{"threads=1", "greedy"}));
  EXPECT_THROW(make_bot("threads=1"), InputError);
}

TEST(Mcts, SpecParsing) {
  EXPECT_EQ(parse_mcts_spec("mcts:playouts=2000").playouts, 2000);
  EXPECT_EQ(parse_mcts_spec("mcts:ms=500,threads=1").ms, 500);
  EXPECT_EQ(parse_mcts_spec("mcts:ms=500,threads=1").threads, 1);
  EXPECT_EQ(parse_mcts_spec("mcts").playouts, 0);
  EXPECT_EQ(parse_mcts_spec("mcts:prior=0,horizon=12").prior, 0);
  EXPECT_EQ(parse_mcts_spec("mcts:prior=0,horizon=12").horizon, 12);
  EXPECT_THROW(parse_mcts_spec("mcts:horizon=-1"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:playouts=abc"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:depth=3"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:playouts"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:threads=0"), InputError);
  EXPECT_THROW(make_bot("mcts:c=-1"), InputError);
  EXPECT_TRUE(is_bot_spec("mcts:playouts=10"));
  // every option a spec can set comes back in the bot's spec (records and arena tables name it)
  const std::string all =
      "mcts:playouts=100,threads=1,prior=5,horizon=12,c=0.4,eps=0.1,widen=0.5,scale=12,econ=3,informed=2,gains=0.5,"
      "pprior=0,"
      "pdepth=3,pcheap=0,plazy=0,follow=2,pw=0.5,halving=16,hq=1,crn=1,race=0,value=2";
  EXPECT_EQ(make_bot(all)->spec(), all);
  const MctsOptions o = parse_mcts_spec(all);
  EXPECT_EQ(o.scale, 12);
  EXPECT_EQ(o.econ, 3);
  EXPECT_EQ(o.informed, 2);
  EXPECT_EQ(o.gains, 0.5);
  EXPECT_EQ(o.piece_prior, 0);
  EXPECT_EQ(o.prior_depth, 3);
  EXPECT_EQ(o.prior_cheap, 0);
  EXPECT_EQ(o.prior_lazy, 0);
  EXPECT_EQ(o.follow, 2);
  EXPECT_EQ(o.value, 2);
  EXPECT_EQ(o.halving, 16);
  EXPECT_EQ(o.halving_q, 1);
  EXPECT_EQ(o.crn, 1);
  EXPECT_EQ(o.race, 0);
  EXPECT_EQ(parse_mcts_spec("mcts:race=0.5").race, 0.5);
  EXPECT_THROW(parse_mcts_spec("mcts:race=-1"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:race=11"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:hq=2"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:crn=2"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:gains=-1"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:halving=-1"), InputError);
  EXPECT_EQ(parse_mcts_spec("mcts:value=3").value, 3);
  EXPECT_THROW(parse_mcts_spec("mcts:value=4"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:scale=0"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:informed=0"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:follow=3"), InputError);
  EXPECT_THROW(parse_mcts_spec("mcts:econ=-1"), InputError);
  for (const char* bad : {"mcts:c=nan", "mcts:eps=nan", "mcts:widen=nan", "mcts:scale=inf", "mcts:pw=-1"})
    EXPECT_THROW(parse_mcts_spec(bad), InputError) << bad;
}

// ai/bot_limits: the levels, what is over a cap, a worker's capped searches, the cheap lane.
TEST(BotLimits, LevelsCapsAndTheCheapLane) {
  EXPECT_EQ(bot_level_names(), (std::vector<std::string>{"easy", "normal", "hard"}));
  for (const BotLevel& lv : kBotLevels) EXPECT_EQ(bot_level_spec(lv.name), lv.spec);
  EXPECT_TRUE(cheap_bot("easy"));
  EXPECT_TRUE(cheap_bot("greedy"));
  EXPECT_FALSE(cheap_bot("normal"));
  EXPECT_FALSE(cheap_bot("mcts:playouts=300,threads=1"));
  const BotLimits l{1000, 500, 1};
  EXPECT_EQ(over_limits(parse_mcts_spec("mcts:ms=1000,threads=1"), l), OverLimit::none);
  EXPECT_EQ(over_limits(parse_mcts_spec("mcts:ms=1001,threads=1"), l), OverLimit::ms);
  EXPECT_EQ(over_limits(parse_mcts_spec("mcts:playouts=501,threads=1"), l), OverLimit::playouts);
  EXPECT_EQ(over_limits(parse_mcts_spec("mcts:playouts=500,threads=1,ms=99999"), l), OverLimit::none)
      << "a spec with playouts searches by them";
  EXPECT_EQ(over_limits(parse_mcts_spec("mcts:ms=10,threads=2"), l), OverLimit::threads);
  EXPECT_EQ(over_limits(parse_mcts_spec("mcts:ms=3600000,threads=64"), BotLimits{}), OverLimit::none) << "0: no cap";
  EXPECT_EQ(make_bot_within("mcts:ms=4000,threads=2", {.max_ms = 50, .max_threads = 1})->spec(),
            "mcts:ms=50,threads=1");
  EXPECT_EQ(make_bot_within("mcts:playouts=300,threads=1", {.max_ms = 50, .max_threads = 1})->spec(),
            "mcts:playouts=300,threads=1");
  EXPECT_EQ(make_bot_within("hard", {})->spec(), "hard") << "a level's bot is named by its level";
  EXPECT_THROW((void)make_level_bot("medium", {}), InputError);
  EXPECT_EQ(make_bot_within("greedy", {.max_ms = 50})->spec(), "greedy");
}

// Each game's levels (GameDef::levels): mcts specs a stranger's server allows (one thread, a fixed
// number of playouts within kServerBotLimits: the same strength on every machine), and a level's
// bot plays the spec of the game it is in, game after game.
TEST(BotLimits, EachGameHasItsOwnLevelsAndALevelBotPlaysThem) {
  for (const std::string& id : game_ids()) {
    const GameDef* g = find_game(id);
    ASSERT_NE(g, nullptr);
    for (const BotLevel& lv : kBotLevels) {
      const std::string spec = bot_level_spec(lv.name, g);
      const MctsOptions o = parse_mcts_spec(spec);
      EXPECT_EQ(o.threads, 1) << id << " " << lv.name << ": " << spec;
      EXPECT_GT(o.playouts, 0) << id << " " << lv.name << ": " << spec;
      EXPECT_EQ(over_limits(o, kServerBotLimits), OverLimit::none) << id << " " << lv.name << ": " << spec;
    }
  }
  const auto level = make_bot("easy");
  for (const std::string& id : game_ids()) {
    const auto rs = load_ruleset(id, {});
    const auto own = make_bot(bot_level_spec("easy", rs->game));
    State s;
    init_state(s, *rs, 2);
    Rng deal(3), a(11), b(11);
    MoveList ml;
    for (int k = 0; k < 6 && s.phase != Phase::Over;) {
      if (is_chance(s)) {
        chance_step(s, deal);
        continue;
      }
      legal_moves(s, ml);
      const Move m = level->choose(s, ml, a);
      EXPECT_EQ(m, own->choose(s, ml, b)) << id << ": the level plays the game's own spec";
      EXPECT_EQ(level->report().summary, own->report().summary) << id;
      apply_move(s, m);
      ++k;
    }
  }
}

// The clairvoyant search (mcts:seer=1, docs/mcts.md "Strength"): the generator a bot is told
// (Game::generator) draws the game's own next tiles and outcomes, in every game, and a search
// given it sees one outcome at each chance node; without it, or with seer=0, the search samples.
TEST(Mcts, TheClairvoyantSearchSeesTheGamesOwnDraws) {
  for (const std::string& id : game_ids()) {
    SCOPED_TRACE(id);
    auto rs = load_ruleset(id, {});
    std::vector<PlayerInfo> info = {{"a", "greedy"}, {"b", "greedy"}};
    Game g(rs, info, 31);
    const auto greedy = make_bot("greedy");
    Rng rng(2);
    MoveList ml;
    int checked = 0, draws = 0;
    for (int d = 0; d < 40 && !g.over(); ++d) {
      const Rng* gen = g.generator();
      ASSERT_NE(gen, nullptr);
      legal_moves(g.state(), ml);
      const Move m = greedy->choose(g.state(), ml, rng);
      // what the generator's copy says comes after the move is what the game then does
      State t = g.state();
      Rng future = *gen;
      apply_move(t, m);
      while (is_chance(t)) {
        if (t.phase == Phase::Draw) {
          if (t.pile == 0 && !t.extra) break;
          apply_draw(t, sample_draw(t, future));
          ++draws;
        } else {
          const Hooks& hk = t.rs->game->hooks;
          hk.apply_chance(t, hk.sample_chance(t, future), nullptr);
        }
      }
      g.play(m);
      if (g.over()) break;
      const State& s = g.state();
      ASSERT_EQ(t.tiles.size(), s.tiles.size());
      EXPECT_EQ(t.tiles.back().type, s.tiles.back().type);
      EXPECT_EQ(t.pile, s.pile);
      EXPECT_EQ(t.phase, s.phase);
      EXPECT_EQ(t.in_hand, s.in_hand);
      EXPECT_EQ(t.score, s.score);
      ++checked;
    }
    EXPECT_GT(checked, 10);
    EXPECT_GT(draws, 5);
    ASSERT_FALSE(g.over());
    // the search: one outcome per chance node with the future, several without
    MctsOptions o = parse_mcts_spec("mcts:playouts=300,threads=1,seer=1,widen=0");
    EXPECT_GT(mcts_search(g.state(), o, 5).widest_chance, 1) << "seer=1 told no future searches fairly";
    o.future = *g.generator();
    const SearchVisits seen = mcts_search(g.state(), o, 5);
    EXPECT_EQ(seen.widest_chance, 1);
    // the bot is told the future by play_bots, and plays the game on
    std::vector<std::unique_ptr<Bot>> bots;
    bots.push_back(make_bot("mcts:playouts=60,seer=1"));
    bots.push_back(make_bot("greedy"));
    play_out(g, bots, rng);
    EXPECT_TRUE(g.over());
  }
}

}  // namespace
}  // namespace carc
