// The terminal game's drawing and parsing (src/cli/terminal/): the board, the text beside it and
// what a player types. `play` (src/cli/play.cpp, src/cli/terminal/session.cpp) is built on them.
#pragma once
#include "cli/terminal/board.hpp"
#include "cli/terminal/input.hpp"
#include "cli/terminal/panels.hpp"
