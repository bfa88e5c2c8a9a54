#include "server/http_client.hpp"

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <stdexcept>

namespace carc::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

HttpReply http_call(const std::string& base, const std::string& method, const std::string& path, const std::string& body,
                    const std::vector<std::pair<std::string, std::string>>& headers, int timeout_ms) {
  const std::string scheme = "http://";
  if (base.rfind(scheme, 0) != 0) throw std::runtime_error("the server's address starts with http:// (" + base + ")");
  std::string hostport = base.substr(scheme.size());
  while (!hostport.empty() && hostport.back() == '/') hostport.pop_back();
  const auto colon = hostport.rfind(':');
  const std::string host = colon == std::string::npos ? hostport : hostport.substr(0, colon);
  const std::string port = colon == std::string::npos ? "80" : hostport.substr(colon + 1);
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  beast::tcp_stream stream(ioc);
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  stream.connect(resolver.resolve(host, port));
  http::request<http::string_body> req{http::string_to_verb(method), path, 11};
  req.set(http::field::host, host);
  req.set(http::field::user_agent, "carcassonne");
  req.set(http::field::content_type, "application/json");
  for (const auto& [k, v] : headers) req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buf;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  http::read(stream, buf, parser);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  const auto& res = parser.get();
  return {static_cast<int>(res.result_int()), res.body()};
}

}  // namespace carc::server
