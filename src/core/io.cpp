#include "core/io.hpp"

#include "core/i18n.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace carc {

namespace {

std::string sys_error() { return std::strerror(errno); }

struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  const std::string who = printable(path);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; we refuse it right after fstat.
  Fd f(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (f.fd < 0) throw InputError(fmt::format("{}: cannot open {}: {}", who, what, sys_error()));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw InputError(fmt::format("{}: cannot read {}: {}", who, what, sys_error()));
  if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("{}: is a folder, not a {}", who, what));
  if (!S_ISREG(st.st_mode)) throw InputError(fmt::format("{}: is not a regular file (a device, pipe or socket); a {} must be a file", who, what));
  if (static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw InputError(fmt::format("{}: the {} is {} bytes; the limit is {} bytes", who, what, st.st_size, max_bytes));
  std::string out;
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  for (;;) {  // the file may grow or shrink while we read: never read past the cap
    if (got == out.size()) {
      if (out.size() >= max_bytes + 1) break;
      out.resize(std::min(max_bytes + 1, out.size() + 4096));
    }
    const ssize_t n = ::read(f.fd, out.data() + got, out.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(fmt::format("{}: cannot read {}: {}", who, what, sys_error()));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) throw InputError(fmt::format("{}: the {} is larger than the limit of {} bytes", who, what, max_bytes));
  out.resize(got);
  return out;
}

void write_file_atomic(const std::string& path, std::string_view content) {
  const std::string who = printable(path);
  std::string tmp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw InputError(fmt::format("{}: cannot write: {}", who, sys_error()));
  auto fail = [&](const char* step) {
    const std::string why = sys_error();
    ::close(fd);
    ::unlink(tmp.c_str());
    throw InputError(fmt::format("{}: {} failed ({}); the previous file is kept", who, step, why));
  };
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      fail("writing");
    }
    done += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0) fail("syncing");
  if (::close(fd) != 0) {
    const std::string why = sys_error();
    ::unlink(tmp.c_str());
    throw InputError(fmt::format("{}: writing failed ({}); the previous file is kept", who, why));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = sys_error();
    ::unlink(tmp.c_str());
    throw InputError(fmt::format("{}: cannot replace the file ({}); the previous file is kept", who, why));
  }
  Fd dir(::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.fd >= 0) ::fsync(dir.fd);  // the rename itself is durable once the folder is synced
}

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t utf8_len(std::string_view s, std::size_t i, u32& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  if (b < 0x80) {
    cp = b;
    return 1;
  }
  if ((b & 0xE0) == 0xC0) n = 2, cp = b & 0x1Fu;
  else if ((b & 0xF0) == 0xE0) n = 3, cp = b & 0x0Fu;
  else if ((b & 0xF8) == 0xF0) n = 4, cp = b & 0x07u;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3Fu);
  }
  static constexpr std::array<u32, 5> kMin = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}
bool is_control(u32 cp) { return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F); }
}  // namespace

std::size_t utf8_error_at(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    u32 cp = 0;
    const std::size_t n = utf8_len(s, i, cp);
    if (n == 0) return i;
    i += n;
  }
  return s.size();
}

bool valid_utf8(std::string_view s) { return utf8_error_at(s) == s.size(); }

namespace {
bool is_invisible(u32 cp) {
  return cp == 0xAD || (cp >= 0x600 && cp <= 0x605) || cp == 0x61C || cp == 0x6DD || cp == 0x70F || cp == 0x180E ||
                        (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2064) ||
                        (cp >= 0x2066 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xFFFE || cp == 0xFFFF ||
                        (cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A) || cp == 0xE0001 || (cp >= 0xE0020 && cp <= 0xE007F);
}
}  // namespace

bool has_invisible_chars(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    u32 cp = 0;
    const std::size_t n = utf8_len(s, i, cp);
    if (n == 0 || is_invisible(cp)) return true;
    i += n;
  }
  return false;
}

namespace {
// Marks drawn over the character before them (general categories Mn and Me, the common blocks),
// the combining grapheme joiner and the variation selectors: no column of their own.
bool is_combining(u32 cp) {
  return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x483 && cp <= 0x489) || (cp >= 0x591 && cp <= 0x5BD) || cp == 0x5BF ||
         cp == 0x5C1 || cp == 0x5C2 || cp == 0x5C4 || cp == 0x5C5 || cp == 0x5C7 || (cp >= 0x610 && cp <= 0x61A) ||
         (cp >= 0x64B && cp <= 0x65F) || cp == 0x670 || (cp >= 0x6D6 && cp <= 0x6DC) || (cp >= 0x6DF && cp <= 0x6E4) ||
         cp == 0x6E7 || cp == 0x6E8 || (cp >= 0x6EA && cp <= 0x6ED) || (cp >= 0x900 && cp <= 0x902) || cp == 0x93C ||
         (cp >= 0x941 && cp <= 0x948) || cp == 0x94D || (cp >= 0xE31 && cp <= 0xE3A && cp != 0xE32 && cp != 0xE33) ||
         (cp >= 0xE47 && cp <= 0xE4E) || (cp >= 0x180B && cp <= 0x180D) || cp == 0x180F ||
         (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0x302A && cp <= 0x302F) || cp == 0x3099 || cp == 0x309A || (cp >= 0xFE00 && cp <= 0xFE0F) ||
         (cp >= 0xFE20 && cp <= 0xFE2F) || (cp >= 0xE0100 && cp <= 0xE01EF) || cp == 0x34F;
}
// Characters that take space and show nothing: spaces of every width and the letters and signs
// drawn blank (Hangul fillers, the blank Braille pattern, Khmer's inherent vowels).
bool is_blank(u32 cp) {
  return cp == ' ' || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0x3164 || cp == 0x115F || cp == 0x1160 || cp == 0xFFA0 ||
         cp == 0x2800 || cp == 0x17B4 || cp == 0x17B5;
}
bool is_wide(u32 cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
         (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
         (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}
}  // namespace

std::size_t utf8_chars(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    u32 cp = 0;
    const std::size_t k = utf8_len(s, i, cp);
    i += k == 0 ? 1 : k;
  }
  return n;
}

std::string utf8_prefix(std::string_view s, std::size_t n) {
  std::size_t i = 0;
  for (std::size_t c = 0; c < n && i < s.size(); ++c) {
    u32 cp = 0;
    const std::size_t k = utf8_len(s, i, cp);
    i += k == 0 ? 1 : k;
  }
  return std::string(s.substr(0, i));
}

int display_columns(std::string_view s) {
  int w = 0;
  for (std::size_t i = 0; i < s.size();) {
    u32 cp = 0;
    const std::size_t k = utf8_len(s, i, cp);
    if (k == 0) {
      ++w;
      ++i;
      continue;
    }
    i += k;
    if (is_combining(cp) || is_invisible(cp) || is_control(cp)) continue;
    w += is_wide(cp) ? 2 : 1;
  }
  return w;
}

std::string name_problem(std::string_view s, std::size_t max_chars) {
  if (!valid_utf8(s)) return "not valid UTF-8";
  const std::size_t n = utf8_chars(s);
  if (n > max_chars) return fmt::format("{} characters; at most {}", n, max_chars);
  bool shows = false;
  for (std::size_t i = 0; i < s.size();) {
    u32 cp = 0;
    i += utf8_len(s, i, cp);
    if (is_control(cp)) return fmt::format("a control character (U+{:04X})", cp);
    if (is_invisible(cp))
      return fmt::format(
          "an invisible character (U+{:04X}: a bidirectional control, a zero-width or other format character)", cp);
    if (cp == 0x2028 || cp == 0x2029) return fmt::format("a line or paragraph separator (U+{:04X})", cp);
    if (!is_blank(cp) && !is_combining(cp) && cp != '\t') shows = true;
  }
  if (!shows) return "blank: nothing to see (only spaces, blank-looking characters or marks)";
  return "";
}

bool has_control_chars(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    u32 cp = 0;
    const std::size_t n = utf8_len(s, i, cp);
    if (n == 0 || is_control(cp)) return true;
    i += n;
  }
  return false;
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    u32 cp = 0;
    const std::size_t n = utf8_len(s, i, cp);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (is_control(cp) || is_invisible(cp)) out += cp < 0x80 ? fmt::format("\\x{:02x}", cp) : fmt::format("\\u{:04x}", cp);
    else out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

bool parse_int(std::string_view text, long long lo, long long hi, long long& out) {
  long long v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool parse_double(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return false;  // "+-1"
  }
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v, std::chars_format::general);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::vector<std::string> typed_words(std::string_view text) { return split_words(text, " \t,();"); }

std::vector<std::string> split_words(std::string_view text, std::string_view seps) {
  std::vector<std::string> out;
  std::string cur;
  for (const char c : text) {
    if (seps.find(c) != std::string_view::npos) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::optional<int> typed_int(std::string_view text) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  long long v = 0;
  if (!parse_int(text, -1000000, 1000000, v)) return std::nullopt;
  return static_cast<int>(v);
}

bool parse_u64(std::string_view text, u64& out) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return false;
  u64 v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) return false;
  out = v;
  return true;
}

}  // namespace carc

namespace carc {
void capacity_exceeded(std::size_t capacity) {
  throw CapacityError(fmt::format("engine capacity of {} exceeded (a validation gap: please report the input)", capacity));
}
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string plural(int n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string article(std::string_view noun) {
  const char* a = !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos ? "an" : "a";
  return i18n::current() == i18n::Lang::Xx ? i18n::pseudo(a) : a;  // the pseudo-locale's English, altered
}

}  // namespace carc
