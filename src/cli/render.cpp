#include "cli/commands.hpp"
namespace carc::cli {
void register_render(CLI::App& app) { app.add_subcommand("render", "TODO"); }
}
