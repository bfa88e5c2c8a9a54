// fuzz_record: bytes -> record_from_json -> Game::replay -> record_to_json, and the written record
// must replay again to the same game (docs/fuzzing.md). The Python module's reading of a record
// (bindings/python/record_input.hpp) gets every input too. InputError is the expected answer to a
// bad record; any other exception, crash, sanitizer report or hang is a bug.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "../bindings/python/record_input.hpp"
#include "engine/engine.hpp"
#include "fuzz_common.hpp"
#include "json_mutator.hpp"

using namespace carc;
using carc::fuzz::bug;

CARC_FUZZ_JSON_MUTATOR(0)

namespace {

std::string summary(const State& s) {
  std::string out = "phase " + std::to_string(static_cast<int>(s.phase)) + " turn " + std::to_string(s.turn) +
                    " current " + std::to_string(s.current) + " pile " + std::to_string(s.pile) + " tiles " +
                    std::to_string(s.tiles.size()) + " scores";
  for (int p = 0; p < s.nplayers; ++p) out += " " + std::to_string(s.score[static_cast<std::size_t>(p)]);
  return out;
}

}  // namespace

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // carcassonne.from_record, Game.deserialize_state and unpickling read records this way: the
  // engine's reader, then (a record without a seed) the text parsed again
  (void)fuzz::expect_input_ok("py_record::read", [&] { (void)py_record::read(text); });
  Record rec;
  if (!fuzz::expect_input_ok("record_from_json", [&] { rec = record_from_json(text, "fuzz"); })) return 0;
  // A record's "tiles" key names a file that replay would open: the fuzzer must not read arbitrary
  // files, so such records are not followed (and not kept in the corpus).
  if (!rec.tiles.empty()) return -1;

  std::optional<Game> g;
  if (!fuzz::expect_input_ok("Game::replay", [&] { g.emplace(Game::replay(rec)); })) return 0;

  // What the engine writes must read and replay again, to the same record and the same state.
  std::string out;
  fuzz::must_succeed("record_to_json", [&] { out = record_to_json(g->record(), g->ruleset()); });
  Record rec2;
  fuzz::must_succeed("record_from_json of the written record", [&] { rec2 = record_from_json(out, "fuzz-output"); });
  std::optional<Game> g2;
  fuzz::must_succeed("Game::replay of the written record", [&] { g2.emplace(Game::replay(rec2)); });
  std::string out2;
  fuzz::must_succeed("record_to_json of the replayed record",
                     [&] { out2 = record_to_json(g2->record(), g2->ruleset()); });
  if (out2 != out)
    bug("the written record replays to a different record:\n--- first\n" + out + "\n--- second\n" + out2);
  const std::string s1 = summary(g->state()), s2 = summary(g2->state());
  if (s1 != s2) bug("the written record replays to a different state: " + s1 + " vs " + s2);
  if (g->over() != g2->over() || g->stalled() != g2->stalled()) bug("replayed game differs in over/stalled");
  if (fuzz::verbose()) std::fprintf(stderr, "replayed %zu moves: %s\n", g->record().moves.size(), s1.c_str());

  // play --resume: the same record continued with a fresh seed (recorded draws past the last move
  // are kept while they fit), a few more random decisions, and the record it then saves must
  // replay to the same game.
  if (!g->over()) {
    std::optional<Game> r;
    if (g->stalled()) {
      // Without a generator the game stalled before the recorded draws past the last move were
      // reached; a seed reaches them, and one that cannot be drawn (an unknown tile, say) is then a
      // clear error about the draw after the last move, not a bug.
      if (!fuzz::expect_input_ok("Game::replay with a continue seed (stalled record)",
                                 [&] { r.emplace(Game::replay(rec, static_cast<u64>(size))); }))
        return 0;
    } else {
      fuzz::must_succeed("Game::replay with a continue seed",
                         [&] { r.emplace(Game::replay(rec, static_cast<u64>(size))); });
    }
    Rng rng(size);
    MoveList ml;
    const auto mid_turn = [&] { return r->state().phase == Phase::Choose || r->state().phase == Phase::Piece; };
    for (int k = 0; (k < 12 || mid_turn()) && !r->over(); ++k) {  // a few decisions, to the end of a turn
      if (k > 1000) bug("a turn of the resumed game does not end");
      if (r->stalled()) bug("a resumed game with a seed stalled");
      ml.clear();
      legal_moves(r->state(), ml);
      if (ml.size() == 0) bug("no legal move at a decision of the resumed game");
      const Move m = ml[rng.below(static_cast<u32>(ml.size()))];
      fuzz::must_succeed("Game::play of a listed move (resumed game)", [&] { r->play(m); });
    }
    std::string saved, again;
    fuzz::must_succeed("record_to_json (resumed game)", [&] { saved = record_to_json(r->record(), r->ruleset()); });
    fuzz::must_succeed("replay of the resumed game's save", [&] {
      const Game r2 = Game::replay(record_from_json(saved, "fuzz-resumed"));
      again = record_to_json(r2.record(), r2.ruleset());
    });
    if (again != saved)
      bug("the resumed game's save replays to a different record:\n--- saved\n" + saved + "\n--- replayed\n" + again);
  }
  return 0;
}
