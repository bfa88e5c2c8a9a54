// protocol: the engine protocol (docs/engine-protocol.md), namespace carc::protocol. JSON lines:
// one request object per line in, one reply object per line out, with the request's id. Several
// games at once, each by its id. `carcassonne engine` runs it over stdin/stdout; benchmarks,
// fuzzers and tests call it directly.
//
// A session never throws and never exits on bad input: every failure is a reply
// {"id", "ok": false, "error": {"code", "message"}} with a stable code (docs/engine-protocol.md).
#pragma once
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "ai/bot_limits.hpp"
#include "ai/bots.hpp"
#include "core/i18n.hpp"
#include "engine/engine.hpp"

namespace carc::protocol {

struct ProtocolLimits {
  std::size_t max_line = 4u << 20;  // bytes of one request (a record fits)
  int max_games = 64;               // games open at once in one session
  // what a "bot" request may ask an mcts bot for: its time and its playouts per move
  BotLimits bots = kProtocolBotLimits;
  // The time a request's searching may take: `analyze` and `bot` stop at bots.max_ms (a search cut
  // there answers with the playouts it made), `review` at review_ms for the whole review (then
  // the error time_cap). 0: no cap.
  int review_ms = 300000;
};

class EngineSession {
 public:
  // seed: where the seeds of games started without one come from (default: random).
  explicit EngineSession(ProtocolLimits limits = {}, std::optional<u64> seed = std::nullopt);
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  // One request line (without its newline) in, one reply line (without a newline) out.
  std::string handle(std::string_view line);
  // A "quit" request was answered: the caller stops reading.
  [[nodiscard]] bool done() const { return done_; }
  [[nodiscard]] std::size_t open_games() const { return games_.size(); }
  // The language of the words in replies when a request names none ("lang").
  void set_lang(i18n::Lang l) { lang_ = l; }
  // A flag another thread sets to end the searches of this session (`carcassonne engine`: the
  // input closed): a search in progress or to come stops within moments with what it has (a
  // review with the error time_cap). nullptr: none.
  void set_cancel(const std::atomic<bool>* flag) { cancel_ = flag; }

 private:
  struct Open;
  std::map<std::string, std::unique_ptr<Open>> games_;
  ProtocolLimits limits_;
  long next_id_ = 1;
  bool done_ = false;
  i18n::Lang lang_ = i18n::Lang::En;
  const std::atomic<bool>* cancel_ = nullptr;
  std::mt19937_64 seeds_;
  friend struct Dispatch;
};

}  // namespace carc::protocol
