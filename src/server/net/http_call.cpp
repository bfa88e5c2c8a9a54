// One HTTP request: the client named, the checks every request gets, its route's handler, and
// the answer to a failure.
#include "server/net/server.hpp"

namespace carc::server::net_side {

namespace {

// Whether `path` matches a route's pattern: the pattern's text exactly, where one '*' stands for
// any text (none too) and one '+' for at least one character (slashes included). `arg` gets what
// the wildcard matched.
bool route_matches(std::string_view pattern, std::string_view path, std::string& arg) {
  const std::size_t w = pattern.find_first_of("*+");
  if (w == std::string_view::npos) {
    arg.clear();
    return path == pattern;
  }
  const std::string_view prefix = pattern.substr(0, w), suffix = pattern.substr(w + 1);
  const std::size_t least = prefix.size() + suffix.size() + (pattern[w] == '+' ? 1 : 0);
  if (path.size() < least || path.substr(0, prefix.size()) != prefix ||
      path.substr(path.size() - suffix.size()) != suffix)
    return false;
  arg = std::string(path.substr(prefix.size(), path.size() - prefix.size() - suffix.size()));
  return true;
}

}  // namespace

void Server::handle_http(http::request<http::string_body>&& req, const std::string& peer,
                         std::function<void(http::response<http::string_body>&&)> reply) {
  ++stats_.http_requests;
  bool replied = false;
  int retry_after = 0;
  auto respond = [&](http::status st, const std::string& body, const std::string& type,
                     const std::vector<std::string>& cookies) {
    http::response<http::string_body> r{st, req.version()};
    r.set(http::field::server, "carcassonne");
    r.set(http::field::content_type, type);
    r.set(http::field::cache_control, "no-store");
    if (retry_after > 0) r.set(http::field::retry_after, std::to_string(retry_after));
    for (const std::string& cookie : cookies) r.insert(http::field::set_cookie, cookie);
    r.body() = body;
    r.prepare_payload();
    ++stats_.http_by_status[static_cast<int>(st)];
    replied = true;
    reply(std::move(r));
  };
  // the client: the peer, or the last address a trusted proxy put in X-Forwarded-For
  std::string client = peer;
  if (!o_.trust_proxy.empty() && peer == o_.trust_proxy) {
    const std::string fwd(req["X-Forwarded-For"]);
    std::string last = fwd.substr(fwd.rfind(',') == std::string::npos ? 0 : fwd.rfind(',') + 1);
    while (!last.empty() && last.front() == ' ') last.erase(0, 1);
    while (!last.empty() && last.back() == ' ') last.pop_back();
    if (!last.empty() && last.size() <= 64 && !has_control_chars(last)) client = last;
  }
  auto problem = [&](http::status st, const std::string& code, const std::string& msg) {
    if (static_cast<int>(st) >= 400 && static_cast<int>(st) != 404) {
      ++stats_.refused[code];
      log_event("refused", {{"status", static_cast<int>(st)},
                            {"code", code},
                            {"client", client},
                            {"method", printable(std::string(req.method_string()))},
                            {"target", printable(std::string(req.target()).substr(0, 200))},
                            {"message", printable(msg)}});
    }
    respond(st, dump(json{{"code", code}, {"message", msg}}), "application/json", {});
  };
  try {
    handle_http_in(req, client, reply, respond, problem, retry_after);
  } catch (const std::exception& e) {
    ++stats_.handler_failures;
    log_event("handler_failed", {{"client", client},
                                 {"method", printable(std::string(req.method_string()))},
                                 {"target", printable(std::string(req.target()).substr(0, 200))},
                                 {"error", printable(e.what())}});
    if (!replied)
      problem(http::status::internal_server_error, "internal",
              "the server failed on this request; nothing of it was kept");
  }
}

void Server::handle_http_in(http::request<http::string_body>& req, const std::string& client,
                            std::function<void(http::response<http::string_body>&&)>& reply, const Respond& respond,
                            const Problem& problem, int& retry_after) {
  // bytes that are not UTF-8 anywhere in the request: refused before anything reads them
  if (!valid_utf8(req.target())) {
    problem(http::status::bad_request, "bad_utf8",
            fmt::format("the request target is not UTF-8 (byte {})", utf8_error_at(req.target()) + 1));
    return;
  }
  for (const auto& f : req) {
    if (!valid_utf8(f.name_string()) || !valid_utf8(f.value())) {
      problem(http::status::bad_request, "bad_utf8",
              fmt::format("the header {} is not UTF-8", printable(f.name_string())));
      return;
    }
  }
  if (!valid_utf8(req.body())) {
    problem(http::status::bad_request, "bad_utf8",
            fmt::format("the request body is not UTF-8 (byte {})", utf8_error_at(req.body()) + 1));
    return;
  }
  // CSRF (docs/security.md): a browser names the page's origin; a foreign one is refused, and a
  // request that changes something with a session's cookie must name it
  const std::string_view origin = req[http::field::origin];
  const bool changes = req.method() != http::verb::get && req.method() != http::verb::head;
  if (!origin.empty() ? !origin_allowed(origin, req[http::field::host]) : changes && !session_secret(req).empty()) {
    problem(http::status::forbidden, "bad_origin",
            origin.empty()
                ? "a request that changes something must come from this server's pages (no Origin)"
                : fmt::format("requests from {} are not accepted here", printable(std::string(origin).substr(0, 100))));
    return;
  }
  HttpCall c{req, client, reply, respond, problem, retry_after, std::string(req.target()), "", "", {}};
  if (const auto q = c.target.find('?'); q != std::string::npos) {
    c.query = c.target.substr(q + 1);
    c.target.resize(q);
  }
  try {
    // every answer's words in the language the query names (?lang=ru; docs/i18n.md), else English
    const std::string lang_text = c.param("lang");
    const auto lang = lang_text.empty() ? std::optional<i18n::Lang>(i18n::Lang::En) : i18n::parse_lang(lang_text);
    if (!lang)
      throw InputError(fmt::format("lang: \"{}\" is not a language (en, ru, ro)", printable(lang_text.substr(0, 40))));
    const i18n::Scope language(*lang);
    bool other_method = false;
    for (const Route& r : routes()) {
      if (!route_matches(r.pattern, c.target, c.arg)) continue;
      if (r.method != req.method()) {
        other_method = true;
        continue;
      }
      (this->*r.handler)(c);
      return;
    }
    if (other_method)
      problem(http::status::method_not_allowed, "bad_method", "method not allowed here");
    else
      problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(c.target)));
  } catch (const NotFound& e) {
    problem(http::status::not_found, "not_found", e.what());
  } catch (const InputError& e) {
    problem(http::status::bad_request, "bad_request", e.what());
  } catch (const StoreError& e) {
    problem(http::status::service_unavailable, "store", e.what());
  }
}

}  // namespace carc::server::net_side
