// fuzz_tiles: byte 0 picks the game (of game_ids(), in its order), the rest is a tile file:
// parse_tileset -> make_ruleset (default options) -> seeded games played to the end on that set
// (docs/fuzzing.md). InputError while loading is the expected answer to a bad file; once a set is
// accepted, every game on it must start, run to its end and score without an error of any kind.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ai/bots.hpp"
#include "engine/engine.hpp"
#include "fuzz_common.hpp"
#include "json_mutator.hpp"

using namespace carc;
using carc::fuzz::bug;

CARC_FUZZ_JSON_MUTATOR(1)

namespace {

constexpr long kMaxDecisions = 100000;  // far above any game on 120 + bonus tiles

// A game through the Game facade (as play and selfplay use it): uniform legal moves, or a bot's.
void facade_game(const std::shared_ptr<const Ruleset>& rs, int players, u64 seed, Bot* bot) {
  std::vector<PlayerInfo> seats(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) seats[static_cast<std::size_t>(p)].name = "P" + std::to_string(p + 1);
  std::optional<Game> g;
  // A set may have no start-board side for this player count: refusing it is an answer.
  if (!fuzz::expect_input_ok("Game (new)", [&] { g.emplace(rs, seats, seed); })) return;
  Rng rng(seed ^ 0x5EED);
  auto ml = std::make_unique<MoveList>();
  long decisions = 0;
  while (!g->over()) {
    if (g->stalled()) bug("a game with a generator stalled");
    if (++decisions > kMaxDecisions) bug("the game does not end");
    ml->clear();
    fuzz::must_succeed("legal_moves", [&] { legal_moves(g->state(), *ml); });
    if (ml->size() == 0) bug("no legal move at a decision (phase " + std::to_string(static_cast<int>(g->state().phase)) + ")");
    const Move m = bot ? bot->choose(g->state(), *ml, rng) : (*ml)[rng.below(static_cast<u32>(ml->size()))];
    fuzz::must_succeed("Game::play of a listed move", [&] { g->play(m); });
  }
  fuzz::must_succeed("record_to_json", [&] { (void)record_to_json(g->record(), g->ruleset()); });
  if (g->record().final_scores.size() != static_cast<std::size_t>(players)) bug("finished game without final scores");
  if (fuzz::verbose()) std::fprintf(stderr, "%d players, %s: %zu moves\n", players, bot ? "greedy" : "random", g->record().moves.size());
}

// A raw playout on the flat state (as bench and the mcts bot play): sample_placement for tiles.
void raw_game(const Ruleset& rs, int players, u64 seed) {
  auto s = std::make_unique<State>();
  bool started = fuzz::expect_input_ok("init_state", [&] { init_state(*s, rs, players); });
  if (!started) return;
  Rng rng(seed);
  auto ml = std::make_unique<MoveList>();
  long decisions = 0;
  fuzz::must_succeed("raw game", [&] {
    while (s->phase != Phase::Over) {
      if (++decisions > kMaxDecisions) bug("the game does not end (raw playout)");
      if (is_chance(*s)) {
        chance_step(*s, rng);
        continue;
      }
      Move m;
      if (s->phase == Phase::Place) {
        m = sample_placement(*s, rng);
        if (!is_legal(*s, m)) bug("sample_placement returned an illegal placement");
      } else {
        ml->clear();
        legal_moves(*s, *ml);
        if (ml->size() == 0) bug("no legal move at a decision (raw playout)");
        m = (*ml)[rng.below(static_cast<u32>(ml->size()))];
      }
      apply_move(*s, m);
    }
  });
}

}  // namespace

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return -1;
  static const std::vector<std::string> ids = game_ids();
  const GameDef* game = find_game(ids[fuzz::game_byte(data[0]) % ids.size()]);
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::optional<TileSet> ts;
  if (!fuzz::expect_input_ok("parse_tileset",
                             [&] { ts.emplace(parse_tileset(text, "fuzz", game->ftypes, game->tile_kinds, game->specials)); }))
    return 0;
  if (ts->game != game->id) return 0;  // load_ruleset refuses a file for another game
  std::shared_ptr<const Ruleset> rs;
  if (!fuzz::expect_input_ok("make_ruleset", [&] { rs = make_ruleset(*game, std::move(*ts), resolve_options(*game, {})); }))
    return 0;
  if (fuzz::verbose()) std::fprintf(stderr, "loaded %s set: %zu tile types\n", game->id.c_str(), rs->tiles.types.size());
  static const std::unique_ptr<Bot> greedy = make_bot("greedy");
  const u64 seed = size;  // varies with the input, reproducible
  facade_game(rs, game->min_players, seed, nullptr);
  raw_game(*rs, game->max_players, seed + 1);
  // the greedy bot (its evaluation walks every feature) is slow under the sanitizers: one set in 8
  if (size % 8 == 0) facade_game(rs, std::min(3, game->max_players), seed + 2, greedy.get());
  return 0;
}
