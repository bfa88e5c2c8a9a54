// cli: one file per subcommand; each registers itself on the app.
#pragma once
#include <CLI/CLI.hpp>

namespace carc::cli {
void register_play(CLI::App& app);
void register_selfplay(CLI::App& app);
void register_replay(CLI::App& app);
void register_review(CLI::App& app);
void register_render(CLI::App& app);
void register_bench(CLI::App& app);
void register_arena(CLI::App& app);
void register_engine(CLI::App& app);
void register_tiles(CLI::App& app);
void register_serve(CLI::App& app);
void register_worker(CLI::App& app);
void register_fit_value(CLI::App& app);
void register_admin(CLI::App& app);
void register_ratings(CLI::App& app);
void register_judge(CLI::App& app);
}  // namespace carc::cli
