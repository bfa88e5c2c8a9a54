// carcassonne: the one binary. Subcommands: play, selfplay, replay, review, render, bench, arena, engine, tiles, serve,
// worker, fit-value, admin, ratings, judge.
#include <fmt/format.h>

#include <csignal>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/text.hpp"
#include "core/core.hpp"

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) then fails the write with EFBIG, which is reported and handled
  // (the autosave keeps the previous file), instead of killing the process mid-game.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"Carcassonne family engine: play, self-play, replay, render and benchmark games"};
  app.require_subcommand(1);
  carc::cli::register_play(app);
  carc::cli::register_selfplay(app);
  carc::cli::register_replay(app);
  carc::cli::register_review(app);
  carc::cli::register_judge(app);
  carc::cli::register_render(app);
  carc::cli::register_bench(app);
  carc::cli::register_arena(app);
  carc::cli::register_engine(app);
  carc::cli::register_tiles(app);
  carc::cli::register_serve(app);
  carc::cli::register_worker(app);
  carc::cli::register_fit_value(app);
  carc::cli::register_admin(app);
  carc::cli::register_ratings(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help or the usage error
    return code == 0 ? 0 : 1;      // the README's exit code for bad usage
  } catch (const carc::InputError& e) {
    std::cerr << "error: " << carc::cli::printable_lines(e.what()) << "\n";  // may quote a file's strings
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << carc::cli::printable_lines(e.what()) << "\n";
    return 3;
  }
  return 0;
}
