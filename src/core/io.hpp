// core/io: reading and writing files given by users, and making strings from files safe to print.
// Everything here throws InputError naming the file; nothing quotes a file's content.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/core.hpp"

namespace carc {

// Documented limits on inputs (docs/limits.md), far above any real game.
inline constexpr std::size_t kMaxRecordBytes = 4u << 20;  // a finished 5-player game is ~25 KB
inline constexpr std::size_t kMaxTileFileBytes = 1u << 20;  // the largest set is ~50 KB
inline constexpr std::size_t kMaxRecordArray = 2000;  // draws, chance outcomes, moves, events
inline constexpr std::size_t kMaxStringBytes = 200;   // any string in a record (names, ids, actions)

// Reads a whole regular file of at most max_bytes. Refuses directories, devices, FIFOs and sockets
// without blocking on them; `what` names the kind of file in messages ("record", "tile file").
std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what);

// Replaces `path` with `content` so that a crash or a full disk leaves either the old file or the
// new one, never a truncated one: write a temporary file beside it, check every write, fsync it,
// rename it over `path`, fsync the folder. On failure the temporary file is removed, `path` is
// untouched, and InputError says what failed (with the system's reason).
void write_file_atomic(const std::string& path, std::string_view content);

// True if s is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF);
// utf8_error_at gives the offset of the first byte that is not (s.size() if none).
bool valid_utf8(std::string_view s);
std::size_t utf8_error_at(std::string_view s);
// True if s holds a character that shows nothing and can change how text around it reads:
// Unicode format characters (category Cf: bidirectional controls U+202A-202E and U+2066-2069,
// the marks U+200E/U+200F, zero-width U+200B-200D, U+2060-2064, U+FEFF...) and the
// noncharacters U+FFFE and U+FFFF (which XML forbids). Names shown to other people refuse them.
bool has_invisible_chars(std::string_view s);
// The number of characters (Unicode code points) of s; an invalid UTF-8 byte counts as one.
std::size_t utf8_chars(std::string_view s);
// The first n characters of s (never cut inside one).
std::string utf8_prefix(std::string_view s, std::size_t n);
// Columns s takes in a terminal: combining marks, variation selectors and invisible characters 0,
// East Asian wide and fullwidth characters (and emoji) 2, every other character 1.
int display_columns(std::string_view s);
// Why s cannot be a name shown to other people, or "" if it can: at most max_chars characters,
// valid UTF-8, no control, invisible (has_invisible_chars) or line/paragraph separator
// (U+2028/2029), and something to see: a name made only of spaces, blank-looking letters
// (U+3164, U+115F, U+1160, U+FFA0, U+2800, U+00A0, U+3000, U+2000-U+200A...), combining marks,
// grapheme joiners or variation selectors is refused.
std::string name_problem(std::string_view s, std::size_t max_chars);
// True if s holds a control character (C0, DEL, or a UTF-8-encoded C1) or is not valid UTF-8.
bool has_control_chars(std::string_view s);
// s made safe for a terminal or a log line: control characters, invisible format characters
// (has_invisible_chars) and invalid UTF-8 bytes become visible escapes (\x1b, \u0085, \u202e),
// everything else is kept.
std::string printable(std::string_view s);

// Parses a whole decimal integer in [lo, hi]; no sign for unsigned use, no spaces, no suffix.
// Returns false if the text is not such a number (out of range included).
bool parse_int(std::string_view text, long long lo, long long hi, long long& out);
bool parse_u64(std::string_view text, u64& out);
// Parses a whole finite decimal number ("0.25", "-3", "+1e-3"): no spaces, no suffix, no inf or
// nan. Returns false if the text is not such a number.
bool parse_double(std::string_view text, double& out);

// What a person typed, in words: split at spaces, tabs and the separators , ( ) ; ("N at 3,-1"
// reads as N at 3 -1).
std::vector<std::string> typed_words(std::string_view text);
// text split into words at any of the characters in seps (empty words dropped).
std::vector<std::string> split_words(std::string_view text, std::string_view seps);
// A typed whole number ("+3" too) from -1000000 to 1000000, or nullopt: range-checked before it is
// narrowed, far from overflow in what is computed from it (cells must still be checked).
std::optional<int> typed_int(std::string_view text);

// Words for text shown to people, shared by the games' presentation and the front ends.
std::string lower(std::string_view s);  // ASCII letters only
std::string upper(std::string_view s);
// "1 tile", "3 tiles"
std::string plural(int n, std::string_view one, std::string_view many);
// "an" before a vowel, else "a" ("an elephant", "a lion")
std::string article(std::string_view noun);

}  // namespace carc
