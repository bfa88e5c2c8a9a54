#pragma once
// The terminal game's own words (src/cli/messages.json, docs/i18n.md) in the calling thread's
// language (`play --lang` sets it for the session); the engine's catalog after it.
#include <string>
#include <string_view>

#include "rules/words.hpp"

namespace carc::cli {

std::string cli_say(std::string_view id, const MsgArgs& args = {});

}  // namespace carc::cli
