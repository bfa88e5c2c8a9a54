// Terminal drawing of a game for `play` (owned by the play command).
#pragma once
#include <string>

#include "engine/engine.hpp"

namespace carc::cli {}
