#include "cli/commands.hpp"
namespace carc::cli {
void register_play(CLI::App& app) { app.add_subcommand("play", "TODO"); }
}
