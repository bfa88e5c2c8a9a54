// SVG drawing of a board for `render` (owned by the render command).
#pragma once
#include <string>

#include "engine/engine.hpp"

namespace carc::cli {}
