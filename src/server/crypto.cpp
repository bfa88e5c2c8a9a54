#include "server/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

namespace carc::server {
namespace {

std::string hex(const unsigned char* p, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return out;
}

}  // namespace

std::string random_hex(int bytes) {
  std::vector<unsigned char> buf(static_cast<std::size_t>(bytes));
  if (RAND_bytes(buf.data(), bytes) != 1) throw std::runtime_error("no random bytes from the system");
  return hex(buf.data(), buf.size());
}

std::string sha256_hex(std::string_view text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(text.data(), text.size(), md, &n, EVP_sha256(), nullptr) != 1) throw std::runtime_error("SHA-256 failed");
  return hex(md, n);
}

}  // namespace carc::server
