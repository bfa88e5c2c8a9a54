// server/http_client: a small blocking HTTP/1.1 client (Boost.Beast, in http_client.cpp only) for
// `carcassonne worker` and the soak tool.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace carc::server {

struct HttpReply {
  int status = 0;
  std::string body;
};

// base: "http://HOST:PORT" (no TLS: put a proxy in front for that). Throws std::runtime_error
// when the server cannot be reached or the exchange fails within timeout_ms.
HttpReply http_call(const std::string& base, const std::string& method, const std::string& path, const std::string& body = "",
                    const std::vector<std::pair<std::string, std::string>>& headers = {}, int timeout_ms = 10000);

}  // namespace carc::server
