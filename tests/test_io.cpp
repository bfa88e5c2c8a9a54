// core/io: atomic writes that keep the old file when the disk is full (a file-size limit stands in
// for a full disk; save_record, play's autosave, goes through them), reads that refuse folders,
// FIFOs, devices and oversized files without blocking, printable()/has_control_chars for strings
// from files, strict integer parsing; and how the terminal game uses them (names and tile ids from
// files neutralised, typed numbers range-checked).
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/terminal/panels.hpp"
#include "cli/terminal/terminal.hpp"
#include "cli/text.hpp"
#include "core/io.hpp"
#include "engine/engine.hpp"

namespace carc {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test, removed afterwards.
class IoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "carc-io-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }
  [[nodiscard]] std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path dir_;
};

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs f in a child process under a file-size limit of `limit` bytes with SIGXFSZ ignored (so an
// oversized write fails with EFBIG instead of killing the process). The child's exit code: 0 if
// f threw InputError, 1 if it returned, 2 if it threw something else.
int with_file_size_limit(rlim_t limit, const std::function<void()>& f) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit rl{limit, limit};
    if (::setrlimit(RLIMIT_FSIZE, &rl) != 0) ::_exit(3);
    int code = 1;
    try {
      f();
    } catch (const InputError&) {
      code = 0;
    } catch (...) {
      code = 2;
    }
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST_F(IoTest, WriteFileAtomicWritesAndReplaces) {
  const std::string p = path("save.json");
  write_file_atomic(p, "first");
  EXPECT_EQ(slurp(p), "first");
  write_file_atomic(p, std::string(100000, 'x'));
  EXPECT_EQ(slurp(p), std::string(100000, 'x'));
  write_file_atomic(p, "");
  EXPECT_EQ(slurp(p), "");
  EXPECT_EQ(files(), std::vector<std::string>{"save.json"});  // no temporary file left
}

TEST_F(IoTest, WriteFileAtomicKeepsTheOldFileWhenTheDiskIsFull) {
  const std::string p = path("save.json");
  const std::string old(3000, 'o');
  write_file_atomic(p, old);
  // a new content larger than the limit: the write fails, the old file stays whole
  EXPECT_EQ(with_file_size_limit(1024, [&] { write_file_atomic(p, std::string(5000, 'n')); }), 0);
  EXPECT_EQ(slurp(p), old);
  EXPECT_EQ(files(), std::vector<std::string>{"save.json"});
  // a small content (under the buffer size of a stream: the case that used to go unchecked) fits
  EXPECT_EQ(with_file_size_limit(1024, [&] { write_file_atomic(p, "small"); }), 1);
  EXPECT_EQ(slurp(p), "small");
  EXPECT_EQ(files(), std::vector<std::string>{"save.json"});
}

// The autosave of `play`: a record saved to a full disk (a small one, which a stream would have kept
// in its buffer and lost unchecked on close) fails loudly and leaves the previous save whole.
TEST_F(IoTest, SaveRecordOnAFullDiskKeepsThePreviousSave) {
  const std::string p = path("autosave.json");
  auto rs = load_ruleset("base", {});
  Game g(rs, {{"Ann", ""}, {"Bob", "greedy"}}, 12345);
  save_record(g.record(), g.ruleset(), p);
  const std::string before = slurp(p);
  ASSERT_GT(before.size(), 150u);
  EXPECT_EQ(with_file_size_limit(100, [&] { save_record(g.record(), g.ruleset(), p); }), 0);
  EXPECT_EQ(slurp(p), before);
  EXPECT_EQ(files(), std::vector<std::string>{"autosave.json"});
  const Record r = record_from_json(slurp(p), p);
  EXPECT_EQ(r.players.size(), 2u);
}

TEST_F(IoTest, WriteFileAtomicSaysWhatFailed) {
  const std::string p = path("save.json");
  write_file_atomic(p, "old");
  const pid_t pid = ::fork();
  if (pid == 0) {  // the message, checked in the child (exit 0: as expected)
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit rl{512, 512};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    try {
      write_file_atomic(p, std::string(4096, 'n'));
    } catch (const InputError& e) {
      const std::string w = e.what();
      ::_exit(w.find("save.json") != std::string::npos && w.find("previous file is kept") != std::string::npos ? 0 : 1);
    }
    ::_exit(2);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(slurp(p), "old");
}

TEST_F(IoTest, WriteFileAtomicRefusesAFolderAndAMissingFolder) {
  fs::create_directory(path("dir"));
  EXPECT_THROW(write_file_atomic(path("dir"), "x"), InputError);
  EXPECT_TRUE(fs::is_directory(path("dir")));
  EXPECT_THROW(write_file_atomic(path("no-such-folder/save.json"), "x"), InputError);
  EXPECT_EQ(files(), std::vector<std::string>{"dir"});
}

TEST_F(IoTest, ReadInputFileReadsARegularFile) {
  const std::string p = path("r.json");
  write_file_atomic(p, "{\"a\": 1}");
  EXPECT_EQ(read_input_file(p, 100, "record"), "{\"a\": 1}");
  EXPECT_EQ(read_input_file(p, 8, "record"), "{\"a\": 1}");  // exactly the cap
}

TEST_F(IoTest, ReadInputFileRefusesAFolder) {
  try {
    read_input_file(dir_.string(), 1000, "record");
    FAIL() << "a folder was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("folder"), std::string::npos) << e.what();
  }
}

TEST_F(IoTest, ReadInputFileRefusesAFifoWithoutBlocking) {
  const std::string p = path("fifo");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  // no writer ever opens it: a blocking open or read would hang the test (ctest's timeout)
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(read_input_file(p, 1000, "record"), InputError);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST_F(IoTest, ReadInputFileRefusesDevices) {
  EXPECT_THROW(read_input_file("/dev/zero", 1u << 20, "record"), InputError);  // would read forever
  EXPECT_THROW(read_input_file("/dev/null", 1000, "record"), InputError);
}

TEST_F(IoTest, ReadInputFileRefusesAFileOverTheCap) {
  const std::string p = path("big.json");
  write_file_atomic(p, std::string(1001, ' '));
  try {
    read_input_file(p, 1000, "tile file");
    FAIL() << "a file over the cap was read";
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("1000"), std::string::npos) << w;
    EXPECT_NE(w.find("tile file"), std::string::npos) << w;
    EXPECT_EQ(w.find("    "), std::string::npos) << "quotes the content: " << w;
  }
}

TEST_F(IoTest, ReadInputFileNamesAMissingFile) {
  try {
    read_input_file(path("missing.json"), 1000, "record");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.json"), std::string::npos);
  }
}

TEST(Printable, KeepsTextAndEscapesControlCharacters) {
  EXPECT_EQ(printable("Ann"), "Ann");
  EXPECT_EQ(printable("Zoë 🐘 Ω"), "Zoë 🐘 Ω");  // UTF-8 is kept
  EXPECT_EQ(printable("a\x1b[2Jb"), "a\\x1b[2Jb");  // clear screen
  EXPECT_EQ(printable("\x1b]0;title\x07"), "\\x1b]0;title\\x07");  // retitle the terminal
  EXPECT_EQ(printable("line\nforged"), "line\\x0aforged");  // a forged line
  EXPECT_EQ(printable("cr\r"), "cr\\x0d");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
  EXPECT_EQ(printable("c1\xc2\x9b"), "c1\\u009b");  // CSI as a UTF-8 C1 control
  EXPECT_EQ(printable("bad\xff"), "bad\\xff");  // invalid UTF-8
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");  // overlong encoding
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(printable("cut\xe2\x82"), "cut\\xe2\\x82");  // truncated sequence
  EXPECT_EQ(printable(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(printable(""), "");
}

TEST(Printable, OutputHasNoControlCharacters) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  EXPECT_TRUE(has_control_chars(all));
  EXPECT_FALSE(has_control_chars(printable(all)));
}

TEST(HasControlChars, FindsEachKind) {
  EXPECT_FALSE(has_control_chars("Ann"));
  EXPECT_FALSE(has_control_chars("Zoë 🐘"));
  EXPECT_FALSE(has_control_chars(""));
  EXPECT_TRUE(has_control_chars("a\tb"));
  EXPECT_TRUE(has_control_chars("a\nb"));
  EXPECT_TRUE(has_control_chars("\x1b[31m"));
  EXPECT_TRUE(has_control_chars("\x7f"));
  EXPECT_TRUE(has_control_chars("\xc2\x85"));  // NEL
  EXPECT_TRUE(has_control_chars("\xff"));
  EXPECT_TRUE(has_control_chars(std::string("\0", 1)));
}

TEST(ParseInt, WholeNumbersInRangeOnly) {
  long long v = 7;
  EXPECT_TRUE(parse_int("-128", -128, 127, v));
  EXPECT_EQ(v, -128);
  EXPECT_TRUE(parse_int("127", -128, 127, v));
  EXPECT_EQ(v, 127);
  v = 7;
  EXPECT_FALSE(parse_int("128", -128, 127, v));
  EXPECT_FALSE(parse_int("-2147483648", -128, 127, v));
  EXPECT_FALSE(parse_int("99999999999999999999999", -128, 127, v));
  EXPECT_FALSE(parse_int("", -128, 127, v));
  EXPECT_FALSE(parse_int("1e3", 0, 10000, v));
  EXPECT_FALSE(parse_int("3 ", 0, 10, v));
  EXPECT_FALSE(parse_int(" 3", 0, 10, v));
  EXPECT_FALSE(parse_int("0x10", 0, 100, v));
  EXPECT_EQ(v, 7);  // untouched on failure
}

TEST(ParseDouble, WholeFiniteDecimalsOnly) {
  double v = 7;
  EXPECT_TRUE(parse_double("0.25", v));
  EXPECT_EQ(v, 0.25);
  EXPECT_TRUE(parse_double("-3", v));
  EXPECT_EQ(v, -3.0);
  EXPECT_TRUE(parse_double("+1e-3", v));
  EXPECT_EQ(v, 1e-3);
  EXPECT_TRUE(parse_double("17.5E2", v));
  EXPECT_EQ(v, 1750.0);
  v = 7;
  for (const char* bad :
       {"", "+", "-", "+-1", "++1", "-+1", " 1", "1 ", "1x", "0x10", "nan", "inf", "-inf", "1e999", ".", "1,5", "\xff"})
    EXPECT_FALSE(parse_double(bad, v)) << bad;
  EXPECT_FALSE(parse_double(std::string_view("1\0", 2), v));
  EXPECT_EQ(v, 7.0);  // untouched on failure
}

TEST(ParseU64, TheWholeRangeAndNothingElse) {
  u64 v = 7;
  EXPECT_TRUE(parse_u64("0", v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(parse_u64("18446744073709551615", v));
  EXPECT_EQ(v, ~u64{0});
  v = 7;
  EXPECT_FALSE(parse_u64("18446744073709551616", v));
  EXPECT_FALSE(parse_u64("-1", v));
  EXPECT_FALSE(parse_u64("+1", v));
  EXPECT_FALSE(parse_u64("", v));
  EXPECT_FALSE(parse_u64("12abc", v));
  EXPECT_EQ(v, 7u);
}

// Strings from files as the terminal game prints them (defence in depth: the record parser and the
// tile loader refuse control characters, but what reaches the terminal is neutralised anyway).
bool raw_controls(std::string_view text) {  // a control character other than a line break
  for (const char ch : text) {
    const auto b = static_cast<unsigned char>(ch);
    if ((b < 0x20 && b != '\n') || b == 0x7f) return true;
  }
  return false;
}

TEST(CliPrintable, PlayerNamesFromARecord) {
  const std::vector<PlayerInfo> players = {{"Eve\x1b]0;pwned\x07\x1b[2J", ""}, {"Bob\r\nforged", "greedy"}};
  EXPECT_EQ(cli::player_name(players, 0, false, true), "Eve\\x1b]0;pwned\\x07\\x1b[2J");
  EXPECT_EQ(cli::player_name(players, 0, false), "Eve\\x1b]0;pwned\\x07\u2026");  // cut to 20 columns
  EXPECT_EQ(cli::player_name(players, 1, false), "Bob\\x0d\\x0aforged");
  // with colour, the only escapes are the colour's own
  EXPECT_FALSE(raw_controls(cli::strip_ansi(cli::player_name(players, 0, true))));
  auto rs = load_ruleset("base", {});
  Game g(rs, players, 7);
  EXPECT_FALSE(raw_controls(cli::render_scores(g.state(), players, false)));
  EXPECT_FALSE(raw_controls(cli::render_final(g.state(), players, false)));
}

TEST(CliPrintable, TileIdsAndMoveTexts) {
  auto rs = std::make_shared<Ruleset>(*load_ruleset("base", {}));
  for (auto& t : rs->tiles.types) {
    t.id += "\x1b[2J";
    t.description += "\a";
  }
  Game g(rs, {{"Ann", ""}, {"Bob", "greedy"}}, 7);
  const std::string hand = cli::render_hand(g.state(), cli::placement_candidates(g.state()), cli::ViewOptions{});
  EXPECT_NE(hand.find("\\x1b[2J"), std::string::npos) << hand;
  EXPECT_FALSE(raw_controls(hand)) << hand;
  RecordMove m;
  m.tile = "A\x1b[2J";
  m.follower = "N\x1b]0;x\x07";
  EXPECT_FALSE(raw_controls(cli::describe_record_move(g.state(), m, g.record().players, false)));
  m.follower.reset();
  m.action = "jeep \x1b[2J";
  EXPECT_FALSE(raw_controls(cli::describe_record_move(g.state(), m, g.record().players, false)));
}

// Numbers typed in play are range-checked before they are narrowed: a cell off the map does not
// alias to a cell on it (265,0 is not 9,0 for the map's 8-bit keys).
TEST(CliTypedNumbers, CellsOffTheMapAreRefused) {
  auto rs = load_ruleset("hunters", {});
  Game g(rs, {{"Ann", ""}, {"Bob", ""}}, 3);
  const auto cands = cli::placement_candidates(g.state());
  ASSERT_FALSE(cands.empty());
  g.play(g.placement(cands[0].x, cands[0].y, cands[0].rots[0]));
  ASSERT_EQ(g.state().phase, Phase::Piece);
  const int x = cands[0].x, y = cands[0].y;
  for (const std::string& typed : {fmt::format("N at {},{}", x + 256, y), fmt::format("C {} {}", x, y - 512),
                                  fmt::format("N at {},{}", x + 4294967296LL, y), std::string("N at 99999999999999999999,0")}) {
    const cli::ParsedPort pp = cli::parse_port(typed, g.state());
    EXPECT_FALSE(pp.error.empty()) << typed << " was read as a cell on the map";
  }
  // the same typed at the tile's own cell is about the tile (whatever the port holds)
  const cli::ParsedPort own = cli::parse_port(fmt::format("N at {},{}", x, y), g.state());
  EXPECT_EQ(own.error.find("not a tile placed this turn"), std::string::npos) << own.error;
  const cli::ParsedPort off = cli::parse_port(fmt::format("N at {},{}", x + 256, y), g.state());
  EXPECT_NE(off.error.find("not a tile placed this turn"), std::string::npos) << off.error;
  const cli::ParsedPlacement pl = cli::parse_placement("-2147483648 0 90", cands);
  EXPECT_FALSE(pl.error.empty());
}

TEST(CliPrintable, ErrorMessagesKeepTheirLines) {
  EXPECT_EQ(cli::printable_lines("a: \"\x1b[2J\"\nsecond line"), "a: \"\\x1b[2J\"\nsecond line");
  EXPECT_EQ(cli::printable_lines("one\n"), "one\n");
  EXPECT_EQ(cli::printable_lines("bell\a\r"), "bell\\x07\\x0d");
}

// Issue 49, item 7: names are counted in characters, not bytes; a name that shows nothing, or
// holds a line separator, is refused; the terminal measures names in columns.
TEST(Names, CountedInCharactersAndRefusedWhenTheyShowNothing) {
  EXPECT_EQ(utf8_chars("Ann"), 3u);
  EXPECT_EQ(utf8_chars("Александра"), 10u);
  EXPECT_EQ(utf8_prefix("Александра", 3), "Але");
  EXPECT_EQ(name_problem("Ann", 40), "");
  EXPECT_EQ(name_problem("Şerban", 40), "");
  EXPECT_EQ(name_problem("S\u0327erban", 40), "");  // a decomposed Ş
  EXPECT_EQ(name_problem("Jean\u00A0Paul", 40), "");
  EXPECT_EQ(name_problem("李小龍", 40), "");
  // 21 Cyrillic letters are 42 bytes and 21 characters
  std::string cyr;
  for (int i = 0; i < 21; ++i) cyr += "Ж";
  EXPECT_EQ(name_problem(cyr, 40), "");
  std::string forty_one(41, 'a');
  EXPECT_NE(name_problem(forty_one, 40).find("41 characters"), std::string::npos);
  for (const char* blank : {"\u3164", "\u115F", "\uFFA0", "\u2800", "\u00A0", "\u3000", "\u2002", "\u0301", "\u034F",
                            "\uFE0F", "\u180B", " ", "\u3164\u3164 \u2800", "\u2002\u0301"})
    EXPECT_NE(name_problem(blank, 40), "") << printable(blank);
  for (const char* sep : {"a\u2028b", "a\u2029b"})
    EXPECT_NE(name_problem(sep, 40).find("separator"), std::string::npos);
  EXPECT_NE(name_problem("a\u202Eb", 40).find("invisible"), std::string::npos);
  EXPECT_NE(name_problem("a\x1b[2Jb", 40).find("control"), std::string::npos);
  EXPECT_NE(name_problem("a\xff"
                         "b",
                         40),
            "");
  // columns: a combining mark takes none, a wide character two
  EXPECT_EQ(display_columns("S\u0327erban"), 6);
  EXPECT_EQ(display_columns("李小龍"), 6);
  EXPECT_EQ(display_columns("Ann"), 3);
  EXPECT_EQ(cli::display_width("\x1b[1mS\u0327\x1b[0m"), 1);
}

TEST(Names, TheTerminalCutsLongNamesToTheirColumns) {
  std::vector<PlayerInfo> players = {
      {"S\u0327erban", ""}, {std::string(40, 'W'), ""}, {"Жжжжжжжжжжжжжжжжжжжжжжжжж", ""}};
  EXPECT_EQ(cli::player_name(players, 0, false), "S\u0327erban");
  for (int p = 1; p < 3; ++p) {
    const std::string n = cli::player_name(players, p, false);
    EXPECT_EQ(cli::display_width(n), cli::kNameColumns) << n;
    EXPECT_EQ(n.substr(n.size() - 3), "\u2026");
    EXPECT_TRUE(valid_utf8(n));
  }
}

}  // namespace
}  // namespace carc
