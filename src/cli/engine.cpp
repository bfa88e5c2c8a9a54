// engine: the engine protocol over standard input and output (docs/engine-protocol.md). One JSON
// request per line in, one reply per line out, flushed at once; ends at "quit" or end of input.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "core/i18n.hpp"
#include "protocol/protocol.hpp"

namespace carc::cli {

// After the end of input, the searches still running (or to come for lines already read) stop
// at most this long later.
constexpr long long kGraceMs = 5000;

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
    // Lines are read by a thread of their own, so that the end of input is seen while a request
    // is being answered: the session's searches then stop within kGraceMs (docs/engine-protocol.md,
    // "Limits"), the requests already read are answered, and the process ends.
    struct Line {
      std::string text;
      bool over = false;  // longer than the hard cap: refused unread
    };
    // shared with the reader thread, which may outlive this function after `quit` (blocked in a read)
    struct Shared {
      std::mutex mu;
      std::condition_variable cv;
      std::deque<Line> lines;
      bool eof = false, finished = false;
      std::atomic<bool> cancel{false};
    };
    const auto sh = std::make_shared<Shared>();
    session.set_cancel(&sh->cancel);
    std::thread reader([sh] {
      // a line longer than the protocol's limit is still read whole and refused by the session;
      // reading stops at a bound well above it, so that a stream without newlines cannot fill memory
      constexpr std::size_t kHardCap = 16u << 20;
      constexpr std::size_t kQueued = 16;  // lines read ahead of the answers
      // read(2), not stdio: a read blocked here never holds a lock the process's exit needs
      char buf[65536];
      std::size_t at = 0, have = 0;
      bool closed = false;
      const auto next = [&]() -> int {
        if (at == have) {
          if (closed) return EOF;
          ssize_t n = 0;
          do n = ::read(STDIN_FILENO, buf, sizeof buf);
          while (n < 0 && errno == EINTR);
          if (n <= 0) {
            closed = true;
            return EOF;
          }
          at = 0;
          have = static_cast<std::size_t>(n);
        }
        return static_cast<unsigned char>(buf[at++]);
      };
      for (;;) {
        Line line;
        int c = 0;
        bool got = false;
        while ((c = next()) != EOF) {
          got = true;
          if (c == '\n') break;
          if (line.text.size() < kHardCap)
            line.text.push_back(static_cast<char>(c));
          else
            line.over = true;
        }
        std::unique_lock<std::mutex> lk(sh->mu);
        if (got) sh->lines.push_back(std::move(line));
        if (c == EOF) {
          sh->eof = true;
          sh->cv.notify_all();
          // the input is closed: whatever is still searching has kGraceMs to finish
          if (!sh->cv.wait_for(lk, std::chrono::milliseconds(kGraceMs), [&] { return sh->finished; }))
            sh->cancel = true;
          return;
        }
        sh->cv.notify_all();
        sh->cv.wait(lk, [&] { return sh->lines.size() < kQueued || sh->finished; });
        if (sh->finished) return;
      }
    });
    for (;;) {
      Line line;
      {
        std::unique_lock<std::mutex> lk(sh->mu);
        sh->cv.wait(lk, [&] { return !sh->lines.empty() || sh->eof; });
        if (sh->lines.empty()) break;
        line = std::move(sh->lines.front());
        sh->lines.pop_front();
        sh->cv.notify_all();  // room for the reader
      }
      if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
      if (line.text.empty() && !line.over) continue;
      std::string reply =
          line.over
              ? R"({"id":null,"ok":false,"error":{"code":"too_long","message":"a request is at most 4194304 bytes"}})"
              : session.handle(line.text);
      std::fwrite(reply.data(), 1, reply.size(), stdout);
      std::fputc('\n', stdout);
      std::fflush(stdout);
      if (session.done()) break;
    }
    session.set_cancel(nullptr);
    bool eof = false;
    {
      std::lock_guard<std::mutex> lk(sh->mu);
      sh->finished = true;
      eof = sh->eof;
    }
    sh->cv.notify_all();
    // after `quit` with the input still open the reader may be blocked in a read: it ends with the
    // process
    if (eof)
      reader.join();
    else
      reader.detach();
  });
}

}  // namespace carc::cli
