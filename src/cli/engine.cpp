// engine: the engine protocol over standard input and output (docs/engine-protocol.md). One JSON
// request per line in, one reply per line out, flushed at once; ends at "quit" or end of input.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "core/i18n.hpp"
#include "protocol/protocol.hpp"

namespace carc::cli {

void register_engine(CLI::App& app) {
  auto* cmd = app.add_subcommand("engine", "Serve the engine protocol: JSON lines on stdin/stdout (docs/engine-protocol.md)");
  auto lang = std::make_shared<std::string>("en");
  cmd->add_option("--lang", *lang,
                  "Language of the words in replies (views, options, events) when a request names none: en, ru, ro")
      ->check([](const std::string& v) {
        return i18n::parse_lang(v) ? std::string() : "not a language (en, ru, ro): " + v;
      });
  cmd->callback([lang] {
    std::ios::sync_with_stdio(false);
    protocol::EngineSession session;
    session.set_lang(*i18n::parse_lang(*lang));
    std::string line;
    // a line longer than the protocol's limit is still read whole and refused by the session;
    // reading stops at a bound well above it, so that a stream without newlines cannot fill memory
    constexpr std::size_t kHardCap = 16u << 20;
    while (!session.done()) {
      line.clear();
      int c = 0;
      bool got = false, over = false;
      while ((c = std::getchar()) != EOF) {
        got = true;
        if (c == '\n') break;
        if (line.size() < kHardCap)
          line.push_back(static_cast<char>(c));
        else
          over = true;
      }
      if (!got) break;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      std::string reply = over ? R"({"id":null,"ok":false,"error":{"code":"too_long","message":"a request is at most 4194304 bytes"}})" : session.handle(line);
      std::fwrite(reply.data(), 1, reply.size(), stdout);
      std::fputc('\n', stdout);
      std::fflush(stdout);
      if (c == EOF) break;
    }
  });
}

}  // namespace carc::cli
