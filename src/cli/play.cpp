// play: an interactive game in the terminal (src/cli/terminal/session.hpp). Seats are humans or
// bots in any mix (hot-seat humans allowed). The record is saved after every turn, so a game is
// never lost: `quit`, end of input or a closed terminal leave a file that --resume continues.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <memory>

#include "ai/bot_limits.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/terminal/session.hpp"
#include "core/i18n.hpp"
#include "engine/engine.hpp"

namespace carc::cli {

void register_play(CLI::App& app) {
  auto o = std::make_shared<PlayOptions>();
  auto* c = app.add_subcommand("play", "Play a game in the terminal against bots or other people (hot seat)");
  c->add_option("--game", o->game, fmt::format("Game: {}", fmt::join(game_ids(), ", ")))->capture_default_str();
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the game's default (e.g. a corrected reconstruction)");
  add_int_option(c, "--players", o->players, 2, 5, "Number of seats: you against mcts bots (default 2)", false);
  c->add_option("--seats", o->seats,
                "Comma-separated seats: human, easy, normal, hard (mcts bots of that strength), mcts[:...], greedy or "
                "random (e.g. human,human,hard)");
  c->add_option("--level", o->level,
                "Strength of the default opponents: easy, normal or hard (each wins about 3 games in 4 against the one "
                "below); asked "
                "when not given")
      ->check(CLI::IsMember(bot_level_names()));
  c->add_option("--name", o->names, "Player names in seat order (repeat, or comma-separated)")->delimiter(',');
  add_seed_option(c, "--seed", o->seed, "Seed of the tile draws (default: from the clock)");
  c->add_option("--option", o->options, "Rule option name=value (e.g. farmers=off); repeatable");
  c->add_option("--autosave", o->autosave,
                "Save the game here after every turn (default: a new file in carcassonne-saves/ named by game, date, "
                "time and seed, or the --resume file); an existing file is replaced only if you agree or give --overwrite");
  c->add_option("--resume", o->resume, "Continue the saved game in this file (a new game lists the unfinished ones)");
  auto* hints_on = c->add_flag_callback(
      "--hints", [o] { o->hints = 1; },
      "Allow the hint command (default: on against bots, off between people unless they all agree with --hints); "
      "fixed when the game is created, and the record says who used hints when");
  c->add_flag_callback(
       "--no-hints", [o] { o->hints = 0; }, "No hints in this game, even against bots")
      ->excludes(hints_on);
  add_int_option(c, "--hint-playouts", o->hint_playouts, 10, 1000000,
                 "Search playouts behind a hint, and per decision of the review offered at the end");
  c->add_flag("--overwrite", o->overwrite, "Let --autosave replace an existing file (a game in progress included) without asking");
  c->add_flag("--no-color", o->no_color, "No ANSI colours (also off when NO_COLOR is set or output is not a terminal)");
  add_int_option(c, "--width", o->width, 30, 1000, "Terminal width to draw for (default: the terminal's, or 80)", false);
  add_int_option(c, "--rows", o->rows, 16, 1000,
                 "Terminal height to fit each turn's screen in (default: the terminal's; piped output: no fitting)", false);
  auto lang = std::make_shared<std::string>();
  c->add_option(
       "--lang", *lang,
       "Language of the game's and the terminal's words: en, ru, ro (default: from LC_ALL, LC_MESSAGES or LANG "
       "when it is one of them, else en)")
      ->check([](const std::string& v) {
        return i18n::parse_lang(v) ? std::string() : "not a language (en, ru, ro): " + v;
      });
  c->callback([o, lang] {
    if (!lang->empty()) {
      o->lang = *i18n::parse_lang(*lang);
    } else {
      for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* v = std::getenv(var);
        if (!v || !*v) continue;
        if (const auto l = i18n::parse_lang(v)) o->lang = *l;
        break;  // the first one set decides, as in POSIX locales
      }
    }
    run_play(*o);
  });
}

}  // namespace carc::cli
