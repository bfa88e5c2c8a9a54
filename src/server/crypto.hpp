// server/crypto: what the server needs of OpenSSL's libcrypto: random tokens and SHA-256.
#pragma once
#include <string>
#include <string_view>

namespace carc::server {

// `bytes` random bytes from the system's CSPRNG, as lowercase hex (128 bits: 32 characters).
std::string random_hex(int bytes = 16);
// SHA-256 of `text`, lowercase hex.
std::string sha256_hex(std::string_view text);

}  // namespace carc::server
