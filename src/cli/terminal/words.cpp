#include "cli/terminal/words.hpp"

namespace carc::cli {

namespace {
constexpr std::string_view kMessages =
#include "messages_cli.inc"
    ;
}  // namespace

std::string cli_say(std::string_view id, const MsgArgs& args) {
  return i18n::say({&i18n::catalog(kMessages, "src/cli/messages.json"), &generic_messages()}, id, args);
}

}  // namespace carc::cli
