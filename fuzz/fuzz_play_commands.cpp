// fuzz_play_commands: what a player types in `carcassonne play`, line by line, against a live game
// (docs/fuzzing.md). Byte 0 picks the game (of game_ids(), in its order) and the number of
// seats, byte 1 the seed (low 7 bits) and colour (bit 7); the rest is typed lines.
//
// play's Session (src/cli/play.cpp) reads std::cin and has no entry point for given input, so this
// harness drives the same pieces the way Session does: the typed-line parsers and renderers of
// src/cli/terminal/ (parse_placement, parse_choice, parse_port, the games' shorthands, the view
// command's coordinates, every panel) and the Game calls they lead to (placement, piece_at,
// play, undo_turn). Extra harness commands: "." lets a random bot play the turn; "resume" saves
// the game as play's autosave does, mid-turn too, reads the record back and goes on from its
// replay, as `play --resume` does (issue 49: a record cut at any decision must resume at it).
// An InputError (a move that is not possible) is the expected answer; anything else is a bug, and
// the record play would autosave at the end must replay to the same game.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "ai/bots.hpp"
#include "ai/driver.hpp"
#include "cli/terminal/terminal.hpp"
#include "cli/text.hpp"
#include "engine/engine.hpp"
#include "fuzz_common.hpp"

using namespace carc;
using namespace carc::cli;
using carc::fuzz::bug;

namespace {

constexpr int kMaxLines = 300;

// trim, lower and words: play's own (cli/text.hpp)

const std::vector<std::string>& games() {
  static const std::vector<std::string> ids = game_ids();
  return ids;
}

std::shared_ptr<const Ruleset> ruleset(std::size_t g) {
  static std::vector<std::shared_ptr<const Ruleset>> cache(games().size());
  if (!cache[g]) cache[g] = load_ruleset(games()[g], {});
  return cache[g];
}

struct Driver {
  explicit Driver(Game& game) : g(game) {}
  Game& g;
  ViewOptions view;
  std::string sink;  // rendered text (kept so the renderers are not optimised away)
  std::unique_ptr<Bot> bot = make_bot("random");
  Rng rng{7};

  [[nodiscard]] const std::vector<PlayerInfo>& players() const { return g.record().players; }
  [[nodiscard]] const GameDef& game() const { return *g.ruleset().game; }
  void out(const std::string& s) { sink += s; }

  // play.cpp's common_command: help, scores, panels, view.
  bool common(const std::string& cmd, const std::vector<std::string>& args) {
    const State& s = g.state();
    if (cmd == "help" || cmd == "?") return out(help_text(s)), true;
    if (cmd == "scores" || cmd == "score") {
      out(render_scores(s, players(), view.color) + render_panels(s, players(), view.color));
      return true;
    }
    if (cmd == "panels") return out(render_panels(s, players(), view.color)), true;
    if (cmd == "actions") return out(render_decision(s, players(), view.color, true, 100)), true;
    if (cmd == "board") return out(render_board(s, view, placement_candidates(s))), true;
    if (cmd == "moves" || cmd == "list") {
      out(s.phase == Phase::Place ? render_placements(s, placement_candidates(s), view.width)
                                  : render_choices(s, players(), view.color));
      if (s.phase == Phase::Piece) out(render_piece_options(s, players(), view.color));
      return true;
    }
    if (cmd == "view") {
      if (args.empty() || args[0] == "last" || args[0] == "auto") {
        view.centre.reset();
      } else {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        for (char& c : joined)
          if (c == ',') c = ' ';
        int x = 0, y = 0;
        char extra = 0;
        if (std::sscanf(joined.c_str(), "%d %d %c", &x, &y, &extra) != 2) return true;
        view.centre = std::pair{x, y};
      }
      out(render_board(s, view, placement_candidates(s)));
      return true;
    }
    return false;
  }

  // What play shows after a decision: the move, the turn's summary, the next prompt's panel.
  void after_move(std::size_t events_before) {
    const State& s = g.state();
    if (!g.record().moves.empty()) out(describe_record_move(s, g.record().moves.back(), players(), view.color));
    if (s.phase == Phase::Place || s.phase == Phase::Over) out(turn_summary(s, g.record(), events_before, players(), view.color));
    if (s.phase == Phase::Piece) out(render_piece_options(s, players(), view.color));
    if (s.phase == Phase::Choose) out(render_choices(s, players(), view.color));
    if (s.phase == Phase::Place) out(render_hand(s, placement_candidates(s), view));
  }

  // One typed line at the prompt of the current decision.
  void line(const std::string& raw) {
    const std::string l = trim(raw);
    const auto [cmd, args] = words(l);
    const State& s = g.state();
    const std::size_t ev0 = g.record().events.size();
    if (l == ".") {  // a random bot plays the rest of this turn
      if (s.phase == Phase::Place) g.forget_undo();
      fuzz::must_succeed("play_bot_turn", [&] { play_bot_turn(g, [&](int) { return bot.get(); }, rng); });
      after_move(ev0);
      return;
    }
    if (l == "resume") {
      const std::string saved = record_to_json(g.record(), g.ruleset());
      fuzz::must_succeed("resume", [&] {
        g = Game::replay(record_from_json(saved, "autosave"));
        g.enable_undo(true);
      });
      const std::string again = record_to_json(g.record(), g.ruleset());
      if (again != saved)
        bug("a resumed game's record differs from the saved one:\n--- saved\n" + saved + "\n--- resumed\n" + again);
      after_move(ev0);
      return;
    }
    if (cmd == "undo") {
      if (s.phase == Phase::Place) {
        const auto& moves = g.record().moves;
        if (!moves.empty()) g.undo_turn(moves.back().player);
      } else {
        g.undo_turn(s.current);
      }
      return;
    }
    if (common(cmd, args) || l.empty()) return;
    if (s.phase == Phase::Place) {
      const auto cands = placement_candidates(s);
      const ParsedPlacement pp = parse_placement(l, cands);
      if (!pp.error.empty()) return;
      fuzz::expect_input_ok("place", [&] {
        const Move m = g.placement(pp.x, pp.y, pp.rot);
        g.forget_undo();
        g.play(m);
      });
    } else if (s.phase == Phase::Choose) {
      const ParsedChoice pc = parse_choice(l, s);
      if (!pc.error.empty()) return;
      fuzz::expect_input_ok("choose", [&] { g.play(pc.move); });
    } else if (s.phase == Phase::Piece) {
      const ParsedPort pp = parse_port(l, s);
      if (!pp.error.empty()) {
        // as play: the game's shorthand ("f l 2,1 ne"), else the engine's notation
        std::optional<Move> m;
        if (!fuzz::expect_input_ok("alias", [&] { m = parse_alias(s, l); })) return;
        if (!m && !fuzz::expect_input_ok("notation", [&] { m = parse_notation(s, l); })) return;
        if (m) fuzz::expect_input_ok("action", [&] { g.play(*m); });
      } else {
        fuzz::expect_input_ok("piece", [&] {
          if (!pp.piece.empty()) {
            const PlacedTile& t = s.tiles[s.piece_from];
            const auto [x, y] = pp.at.value_or(std::pair<int, int>{t.x, t.y});
            g.play(g.piece_at(x, y, pp.port, pp.piece));
          } else {
            g.play(pp.at ? g.piece_at(pp.at->first, pp.at->second, pp.port) : g.piece_at_port(pp.port));
          }
        });
      }
    } else {
      bug("a decision is due in an unexpected phase " + std::to_string(static_cast<int>(s.phase)));
    }
    after_move(ev0);
  }
};

}  // namespace

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return -1;
  const std::size_t ngames = games().size();
  const std::size_t gi = fuzz::game_byte(data[0]) % ngames;
  std::shared_ptr<const Ruleset> rs;
  fuzz::must_succeed("load_ruleset", [&] { rs = ruleset(gi); });
  const GameDef& gd = *rs->game;
  const int players =
      gd.min_players + static_cast<int>(fuzz::game_byte(data[0]) / ngames) % (gd.max_players - gd.min_players + 1);
  std::vector<PlayerInfo> seats(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) seats[static_cast<std::size_t>(p)].name = p == 0 ? "You" : "P" + std::to_string(p + 1);
  std::optional<Game> g;
  fuzz::must_succeed("Game (new)", [&] { g.emplace(rs, seats, data[1] & 0x7F); });
  g->enable_undo(true);
  Driver d(*g);
  d.view.color = (data[1] & 0x80) != 0;

  const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
  std::size_t at = 0;
  for (int n = 0; n < kMaxLines && at <= text.size() && !g->over(); ++n) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    fuzz::must_succeed("typed line", [&] { d.line(line); });
  }
  if (g->over()) {
    fuzz::must_succeed("final panels", [&] {
      d.out(render_final(g->state(), g->record().players, d.view.color));
      for (const ScoreEvent& e : g->record().events)
        if (is_final_event(g->state(), e)) d.out(describe_event_named(g->state(), e, g->record().players, d.view.color));
    });
  }
  // End of input: play takes back the turn in progress, then the autosave must replay exactly.
  if (g->state().phase != Phase::Place && !g->over()) g->undo_turn(g->state().current);
  std::string saved, again;
  fuzz::must_succeed("autosave", [&] { saved = record_to_json(g->record(), g->ruleset()); });
  fuzz::must_succeed("replay of the autosave", [&] {
    const Game r = Game::replay(record_from_json(saved, "autosave"));
    again = record_to_json(r.record(), r.ruleset());
  });
  if (fuzz::verbose())
    std::fprintf(stderr, "%s, %d players: %zu moves, phase %d%s\n", gd.id.c_str(), players, g->record().moves.size(),
                 static_cast<int>(g->state().phase), g->over() ? " (over)" : "");
  if (again != saved) bug("the autosave replays to a different record:\n--- saved\n" + saved + "\n--- replayed\n" + again);
  return 0;
}
