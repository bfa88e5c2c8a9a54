// The terminal game (session.hpp): the turn loop, bots and people at their decisions, the screen of
// each turn, saves and resuming.
#include <fmt/format.h>

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <functional>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>

#include "ai/bot_limits.hpp"
#include "ai/bots.hpp"
#include "ai/driver.hpp"
#include "ai/mcts.hpp"
#include "ai/review.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/review.hpp"
#include "cli/terminal/common.hpp"
#include "cli/terminal/saves.hpp"
#include "cli/terminal/session.hpp"
#include "cli/terminal/terminal.hpp"
#include "cli/terminal/words.hpp"
#include "cli/text.hpp"
#include "engine/engine.hpp"
#include "view/view.hpp"

namespace carc::cli {

namespace {

// Every line of `text` within `width` columns: a wider line is broken at spaces, its next lines
// indented to the column of its text after a gap of two spaces or more (a table's or a help
// section's row), else two more than its own (lines that fit, a board's among them, are kept).
std::string fit_lines(const std::string& text, int width) {
  if (width < 20) return text;
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string::npos ? text.size() : nl;
    const std::string line = text.substr(at, end - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    const std::string tail = nl == std::string::npos ? "" : "\n";
    if (display_width(line) <= width) {
      out += line + tail;
      continue;
    }
    const std::size_t lead = std::min<std::size_t>(line.find_first_not_of(' '), 20);
    std::string cur(lead, ' '), rest = line.substr(lead);
    const bool spaced = rest.back() == ' ';  // a prompt keeps its space before the input
    // a row of a table or a help section ("  X Y ROT      column X, ..."): its text's column, else
    // two more than the line's own indent
    std::size_t hang = lead + 2;
    if (const std::size_t gap = line.find("  ", lead); gap != std::string::npos) {
      const std::size_t text_at = line.find_first_not_of(' ', gap);
      const int col = text_at == std::string::npos ? 0 : display_width(line.substr(0, text_at));
      if (col > static_cast<int>(lead) && col <= 40) hang = static_cast<std::size_t>(col);
    }
    while (!rest.empty() && rest.back() == ' ') rest.pop_back();
    while (display_width(cur + rest) > width) {  // break at the last space that fits (spacing kept)
      std::size_t cut = std::string::npos;
      for (std::size_t sp = rest.find(' '); sp != std::string::npos; sp = rest.find(' ', sp + 1)) {
        if (sp > 0 && display_width(cur + rest.substr(0, sp)) > width) break;
        if (sp > 0) cut = sp;
      }
      if (cut == std::string::npos) cut = rest.find(' ', 1);  // a word wider than the line: alone
      if (cut == std::string::npos) break;
      std::string head = rest.substr(0, cut);
      while (!head.empty() && head.back() == ' ') head.pop_back();
      out += cur + head + "\n";
      const std::size_t next = rest.find_first_not_of(' ', cut);
      rest = rest.substr(next);  // not npos: rest ends in a letter
      cur = std::string(hang, ' ');
    }
    out += cur + rest + (spaced ? " " : "") + tail;
  }
  return out;
}

// The levels' words, for the level prompt's {easy}, {normal} and {hard}.
MsgArgs level_words() {
  return {
      {"easy", term::level_word("easy")}, {"normal", term::level_word("normal")}, {"hard", term::level_word("hard")}};
}

using namespace term;
using Opts = PlayOptions;

bool is_human_spec(const std::string& s) {
  const std::string l = lower(s);
  return l == "human" || l == "you" || l == "me" || l == "h";
}

// Set by SIGWINCH: the terminal was resized (read_line draws the screen again).
volatile std::sig_atomic_t g_resized = 0;
extern "C" void on_resize(int) { g_resized = 1; }
void watch_resizes() {
  struct sigaction sa {};
  sa.sa_handler = on_resize;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: the blocked read returns, and the screen is redrawn
  sigaction(SIGWINCH, &sa, nullptr);
}

u64 clock_seed() {
  const auto t = static_cast<u64>(std::chrono::system_clock::now().time_since_epoch().count());
  std::random_device rd;
  return (t ^ (static_cast<u64>(rd()) << 32) ^ rd()) % 1000000000ULL;  // short enough to retype
}

// The seats of a new game from --players / --seats / --level / --name. A seat may name a level
// (easy, normal, hard) for the mcts bot of that strength; default: you against mcts at `level`.
std::vector<PlayerInfo> make_seats(const Opts& o, const std::string& level) {
  std::vector<std::string> specs;
  if (!o.seats.empty()) {
    for (auto& sp : split_bot_list(o.seats)) specs.push_back(sp);
    if (o.players != 0 && static_cast<int>(specs.size()) != o.players)
      throw InputError(fmt::format("--seats names {} seats but --players is {}", specs.size(), o.players));
  } else {
    const int n = o.players == 0 ? 2 : o.players;
    specs.push_back("human");
    for (int i = 1; i < n; ++i) specs.push_back(level);
  }
  std::vector<std::string> level_names(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::string bot = bot_level_spec(specs[i], find_game(o.game));
    if (bot.empty()) continue;
    level_names[i] = specs[i];
    specs[i] = bot;
  }
  for (auto& sp : specs) {
    if (sp.empty())
      throw InputError("--seats has an empty entry (use human, easy, normal, hard, mcts, greedy or random)");
    if (is_human_spec(sp))
      sp = "";
    else
      make_bot(sp);  // throws InputError naming the unknown bot or the bad option
  }
  std::vector<std::string> names;
  for (const auto& n : o.names)
    for (auto& part : split(n, ',')) names.push_back(trim(part));
  if (names.size() > specs.size())
    throw InputError(fmt::format("--name gives {} names for {} seats", names.size(), specs.size()));
  int humans = 0;
  for (const auto& sp : specs) humans += sp.empty();
  std::vector<PlayerInfo> players;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    PlayerInfo pi;
    pi.bot = specs[i];
    if (i < names.size() && !names[i].empty()) {
      pi.name = names[i];
    } else if (pi.bot.empty()) {
      pi.name = humans == 1 ? cli_say("name.you") : cli_say("name.player", {{"n", i + 1}});
    } else if (!level_names[i].empty()) {
      int same = 0;
      for (const auto& ln : level_names) same += ln == level_names[i];
      const std::string word = level_word(level_names[i]);
      pi.name =
          same == 1 ? cli_say("name.bot", {{"level", word}}) : cli_say("name.bot_n", {{"n", i + 1}, {"level", word}});
    } else {
      int same = 0;
      for (const auto& sp : specs) same += sp == pi.bot;
      pi.name = same == 1 ? pi.bot : fmt::format("{} {}", pi.bot, i + 1);
    }
    players.push_back(pi);
  }
  for (std::size_t i = 0; i < players.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (players[i].name == players[j].name) players[i].name += fmt::format(" ({})", i + 1);
  return players;
}

enum class Outcome { Done, Undone, Quit };

class Session {
 public:
  explicit Session(const Opts& o) : o_(o) {}

  void run();

 private:
  // I/O
  bool read_line(const std::string& prompt, std::string& line);
  void say(const std::string& text) {
    fmt::print("{}", fit_lines(text, view_.width));
    std::fflush(stdout);
  }
  bool save();
  void quit_message(const std::string& why);
  // The file the last good save is in and how far it goes ("" if none was made).
  [[nodiscard]] std::string last_save_note() const;
  // At the start of a new game: the unfinished saved games, and (at a terminal) which to continue.
  // Returns the file to continue, "" for a new game, nullopt to stop (end of input).
  std::optional<std::string> offer_resume();
  // Whether the game may be saved to `path` given by --autosave: a file there is replaced only when
  // the player agrees (at a terminal) or --overwrite is given. Throws InputError when it may not
  // and nobody can be asked; false when the player said no.
  bool may_save_to(const std::string& path, const std::string& resumed_from);

  // game flow
  Outcome human_turn();
  Outcome place_phase();
  Outcome piece_phase();
  Outcome bot_turn();
  // The decisions after the piece or action (a game's choices by any player: token hand-ins, a
  // marker's new cell), each by the player who decides it: bots at once, humans at a prompt.
  Outcome rest_of_turn(int turn_player);
  // A Choose decision of any game, asked of human `d` on `turn_player`'s turn: the game's
  // explanation and the options (render_choices), answered by number, label, shorthand or notation.
  // Another player than the turn's cannot take the turn back; quitting takes back the turn in progress.
  Outcome choose(int d, int turn_player);
  // Quitting (or end of input) while another player's turn is in progress: that turn is taken back.
  Outcome quit_off_turn(int turn_player, const std::string& why);
  void after_turn(std::size_t events_before);
  bool common_command(const std::string& cmd, const std::vector<std::string>& args);
  // With the tile placed and the turn unfinished: "quit"/"exit" and "undo" take the tile back.
  std::optional<Outcome> take_back_tile(const std::string& cmd, int p);
  Outcome end_of_input(int p);
  void show_turn();
  // The engine's notation typed at a prompt (what the view, the protocol and records write:
  // "U 1,0 r90", "follower N", "double D2 r180"...): the move, if it is one of `kinds` and legal now.
  [[nodiscard]] std::optional<Move> notation_move(const std::string& line, std::initializer_list<MoveKind> kinds) const;
  // The terminal's size (columns into view_.width, lines into rows_), again after a resize.
  void measure_terminal();
  void finish();
  // `hint`: the search's three best options at the decision now, noted in the record (when the
  // game allows hints).
  void give_hint();
  // After the end: the review of the game offered, and shown when asked for.
  void offer_review();
  // The seat's bot; nullptr for a person.
  [[nodiscard]] Bot* bot_of(int p) const { return bots_[static_cast<std::size_t>(p)].get(); }
  [[nodiscard]] bool is_bot(int p) const { return bot_of(p) != nullptr; }
  [[nodiscard]] const std::vector<PlayerInfo>& players() const { return g_->record().players; }
  [[nodiscard]] std::string name(int p) const { return player_name(players(), p, view_.color); }
  [[nodiscard]] const GameDef& game() const { return *g_->ruleset().game; }
  // The board around this turn's tiles (the piece and double-tile prompts).
  [[nodiscard]] std::string small_board() const;

  Opts o_;
  std::optional<Game> g_;
  std::vector<std::unique_ptr<Bot>> bots_;
  Rng bot_rng_{1};
  std::string save_path_;
  bool save_failed_ = false;     // the last save failed (the player was told)
  std::string save_error_;       // why
  std::size_t saved_turns_ = 0;  // turns in the last good save
  bool interactive_ = false;     // stdin is a terminal: questions may be asked
  ViewOptions view_;
  bool echo_ = false;             // stdin is not a terminal: echo what was read, so transcripts read well
  bool out_tty_ = false;          // stdout is a terminal
  int rows_ = 0;                  // terminal lines each turn's screen must fit in (0: no limit)
  std::function<void()> redraw_;  // what a resize draws again before the prompt is repeated
  bool any_human_ = false;
  bool legend_shown_ = false;            // games other than the base game: the board legend, once (and in help)
  Hands turn_hands_;                     // what the players held when the turn began (news: what they drew)
  std::vector<std::string> news_;        // turns since the last board a human saw
  std::vector<std::string> shown_news_;  // what that board listed (shown again by `board`)
};

std::optional<Move> Session::notation_move(const std::string& line, std::initializer_list<MoveKind> kinds) const {
  try {
    const Move m = parse_notation(g_->state(), line);
    for (const MoveKind k : kinds)
      if (m.kind == k) return m;
  } catch (const InputError&) {
    // not the notation of a legal move: the prompt's own message stands
  }
  return std::nullopt;
}

void Session::measure_terminal() {
  view_.width = 80;
  view_.max_rows = 10;
  rows_ = 0;
  if (out_tty_) {
    winsize ws{};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
      view_.width = std::clamp<int>(ws.ws_col, 40, 300);
      if (ws.ws_row > 0) {
        rows_ = std::max<int>(ws.ws_row, 16);
        view_.max_rows = std::clamp((ws.ws_row - 16) / 3, 5, 25);
      }
    }
  }
  if (o_.width > 0) view_.width = std::max(o_.width, 30);
  if (o_.rows > 0) rows_ = o_.rows;
}

bool Session::read_line(const std::string& prompt, std::string& line) {
  say(prompt);
  // a resized terminal interrupts the read (no SA_RESTART): the screen is drawn again for the
  // new size and the prompt repeated; what was typed so far stays in the terminal's line
  for (;;) {
    errno = 0;
    if (std::cin && std::getline(std::cin, line)) break;
    if (g_resized != 0 && errno == EINTR) {
      g_resized = 0;
      std::cin.clear();
      clearerr(stdin);
      measure_terminal();
      if (redraw_) redraw_();
      say(prompt);
      continue;
    }
    say("\n");
    return false;
  }
  if (echo_) say(line + "\n");
  line = trim(line);
  return true;
}

bool Session::save() {
  try {
    save_record(g_->record(), g_->ruleset(), save_path_);
    if (save_failed_) say(cli_say("save.again", {{"file", printable(save_path_)}}));
    save_failed_ = false;
    saved_turns_ = g_->record().moves.size();
    return true;
  } catch (const InputError& e) {
    // told once when saving starts failing (a full disk fails every turn); the game goes on
    if (!save_failed_) say(cli_say("save.warning", {{"why", printable_lines(e.what())}, {"note", last_save_note()}}));
    save_failed_ = true;
    save_error_ = printable_lines(e.what());
    return false;
  }
}

std::string Session::last_save_note() const {
  return cli_say("save.last_good", {{"file", printable(save_path_)}, {"turns", saved_turns_}});
}

void Session::quit_message(const std::string& why) {
  if (!why.empty()) say(why + "\n");
  const std::string file = printable(save_path_);
  if (save())
    say(cli_say("save.saved", {{"file", file}}));
  else
    say(cli_say("save.failed", {{"why", save_error_}, {"note", last_save_note()}, {"file", file}}));
}

std::optional<std::string> Session::offer_resume() {
  const std::vector<SaveInfo> saves = unfinished_saves();
  if (saves.empty()) return "";
  const std::size_t shown = std::min<std::size_t>(saves.size(), 9);
  std::string out;
  if (!interactive_) {  // nobody to ask: say how, and start the new game
    out = cli_say("resume.list_batch", {{"n", saves.size()}});
    for (std::size_t i = 0; i < shown; ++i)
      out += fmt::format("  {}\n      {}\n", printable(saves[i].path), describe_save(saves[i]));
    if (saves.size() > shown) out += cli_say("resume.older_batch", {{"n", saves.size() - shown}, {"dir", kSavesDir}});
    say(out);
    return "";
  }
  out = cli_say("resume.list", {{"n", saves.size()}});
  for (std::size_t i = 0; i < shown; ++i)
    out += fmt::format("  {}. {}\n     {}\n", i + 1, describe_save(saves[i]), printable(saves[i].path));
  if (saves.size() > shown) out += cli_say("resume.older", {{"n", saves.size() - shown}, {"dir", kSavesDir}});
  say(out);
  const std::string prompt = shown == 1 ? cli_say("resume.prompt_one") : cli_say("resume.prompt", {{"n", shown}});
  for (;;) {
    std::string line;
    if (!read_line(prompt, line)) return std::nullopt;
    line = lower(line);
    if (line.empty() || line == "n" || line == "new" || line == "no") return "";
    if (line == "quit" || line == "exit" || line == "q") return std::nullopt;
    long long k = 0;
    if (parse_int(line, 1, static_cast<long long>(shown), k)) return saves[static_cast<std::size_t>(k - 1)].path;
    say(cli_say("resume.hint", {{"n", shown}}));
  }
}

bool Session::may_save_to(const std::string& path, const std::string& resumed_from) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string who = printable(path);
  if (fs::is_directory(path, ec))
    throw InputError(fmt::format("--autosave {}: is a folder; give the file to save the game in", who));
  if (!fs::exists(fs::symlink_status(path, ec))) return true;
  if (!resumed_from.empty() && fs::equivalent(path, resumed_from, ec)) return true;  // the game's own file
  if (o_.overwrite) return true;
  const auto si = read_save(path);
  const std::string what = !si            ? cli_say("save.not_record")
                           : si->finished ? cli_say("save.finished_game", {{"what", describe_save(*si)}})
                                          : cli_say("save.unfinished_game", {{"what", describe_save(*si)}});
  const std::string resume_hint = si && !si->finished ? cli_say("save.resume_hint", {{"file", who}}) : std::string();
  if (!interactive_)
    throw InputError(
        cli_say("save.kept_batch", {{"file", who}, {"what", what}, {"hint", resume_hint}, {"dir", kSavesDir}}));
  say(cli_say("save.holds", {{"file", who}, {"what", what}}));
  std::string line;
  if (!read_line(cli_say("save.replace"), line)) return false;
  line = lower(line);
  if (line == "y" || line == "yes") return true;
  say(cli_say("save.kept", {{"file", who}}));
  return false;
}

void Session::run() {
  const bool out_tty = isatty(STDOUT_FILENO) != 0;
  out_tty_ = out_tty;
  const char* nc = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  view_.color = !o_.no_color && out_tty && !(nc && *nc) && !(term && std::string(term) == "dumb");
  echo_ = isatty(STDIN_FILENO) == 0;
  measure_terminal();
  watch_resizes();

  interactive_ = isatty(STDIN_FILENO) != 0;

  const u64 fresh = o_.seed.value_or(clock_seed());
  std::string resume = o_.resume;
  std::shared_ptr<const Ruleset> rs;
  bool autosave_checked = false;
  if (resume.empty()) {
    // everything the command line asks for is checked before anything is printed or asked
    rs = load_ruleset(o_.game, o_.options, o_.tiles);
    (void)make_seats(o_, o_.level.empty() ? "normal" : o_.level);  // seats, bots and their options, names
    // a file named by --autosave is never replaced without asking
    if (!o_.autosave.empty() && !may_save_to(o_.autosave, "")) return;
    autosave_checked = true;
    // unfinished games on disk: offer to continue one rather than start another
    const auto picked = offer_resume();
    if (!picked) return;
    resume = *picked;
  }
  if (!resume.empty()) {
    const Record rec = load_record(resume);
    g_.emplace(Game::replay(rec, fresh, o_.tiles));
    save_path_ = o_.autosave.empty() ? resume : o_.autosave;
    if (!o_.autosave.empty() && !autosave_checked && !may_save_to(o_.autosave, resume)) return;
  } else {
    save_path_ = o_.autosave;
    std::string level = o_.level.empty() ? "normal" : o_.level;
    if (o_.level.empty() && o_.seats.empty() && interactive_) {
      // a newcomer's first question: how strong the opponents are
      std::string line;
      for (;;) {
        if (!read_line(cli_say("level.prompt", level_words()), line)) return;
        line = fold_typed(line);
        if (line.empty()) break;
        for (const char* lv : {"easy", "normal", "hard"})  // the level's word in the player's language
          if (line == fold_typed(carc::say(std::string("bot.level.") + lv))) line = lv;
        if (!bot_level_spec(line).empty()) {
          level = line;
          break;
        }
        auto args = level_words();
        args.emplace_back("word", printable(line));
        say(cli_say("level.bad", args));
      }
    }
    g_.emplace(rs, make_seats(o_, level), fresh);
    // hints: on with one person at the table; between people only when they all agreed (--hints)
    int people = 0;
    for (const auto& pl : players()) people += pl.bot.empty();
    g_->allow_hints(o_.hints >= 0 ? o_.hints == 1 : people <= 1);
    if (save_path_.empty()) save_path_ = new_save_path(o_.game, fresh);
  }
  // every seat's bot (a resumed record names them) before the game is announced
  for (const auto& p : players()) {
    bots_.push_back(p.bot.empty() ? nullptr : make_bot(p.bot));
    any_human_ |= p.bot.empty();
  }
  std::error_code ec;
  const auto abs = std::filesystem::absolute(save_path_, ec);
  if (!ec) save_path_ = abs.string();
  // Fail now rather than after an hour of play if the game cannot be saved there.
  try {
    save_record(g_->record(), g_->ruleset(), save_path_);
    saved_turns_ = g_->record().moves.size();
  } catch (const InputError& e) {
    throw InputError(cli_say("save.cannot", {{"why", e.what()}}));
  }
  if (!resume.empty() && (o_.players != 0 || !o_.seats.empty() || !o_.names.empty() || !o_.options.empty() ||
                          o_.game != "base" || o_.hints >= 0))
    say(cli_say("resume.note"));
  if (!resume.empty())
    say(cli_say("resumed",
                {{"title", has_message(game(), "game.title") ? carc::say(game(), "game.title") : game().title},
                 {"file", printable(resume)},
                 {"moves", g_->record().moves.size()}}));
  else
    say(cli_say("new_game",
                {{"title", has_message(game(), "game.title") ? carc::say(game(), "game.title") : game().title},
                 {"seed", std::to_string(fresh)}}));
  g_->enable_undo(true);
  bot_rng_ = Rng(g_->record().seed.value_or(fresh) ^ 0xB07B07B07ULL);
  std::vector<std::string> seats;
  for (int p = 0; p < static_cast<int>(players().size()); ++p) {
    const PlayerInfo& pl = players()[static_cast<std::size_t>(p)];
    // a level's bot is named by its level ("Бот 2 (лёгкий)"): "bot" says the rest; another by its kind
    bool level = false;
    for (const char* lv : {"easy", "normal", "hard"})
      level |= pl.name.find(fmt::format("({})", level_word(lv))) != std::string::npos;
    const std::string name = player_name(players(), p, view_.color, true);  // the whole name, once
    seats.push_back(
        level ? name
              : fmt::format("{} ({})", name,
                            is_bot(p) ? cli_say("seat.bot", {{"bot", printable(pl.bot)}}) : cli_say("seat.human")));
  }
  say(cli_say("players", {{"list", fmt::format("{}", fmt::join(seats, ", "))}}));
  if (g_->ended().empty()) {  // a game that ended early is only shown (finish)
    say(cli_say("saved_every_turn", {{"file", printable(save_path_)}}));
    if (any_human_) say(cli_say("type_help"));
  }
  if (g_->record().moves.empty()) {  // what the players hold before the first turn (a game's opening deal)
    std::string deal = hand_news({}, g_->state(), players(), view_.color);
    for (std::size_t at; (at = deal.find("    ")) != std::string::npos;) deal.replace(at, 4, "  ");
    if (!deal.empty()) say(cli_say("opening_deal") + deal);
  }

  try {
    while (!g_->over()) {
      if (g_->stalled()) {
        say(cli_say("stalled"));
        save();
        return;
      }
      const int p = g_->state().current;
      if (is_bot(p)) {
        if (bot_turn() == Outcome::Quit) return;
        continue;
      }
      if (human_turn() == Outcome::Quit) return;
    }
  } catch (...) {
    save();  // whatever happened, keep the game
    throw;
  }
  finish();
  offer_review();
}

void Session::after_turn(std::size_t events_before) {
  // the move, then its events (final scoring: at the end), then what the players drew
  news_.push_back(turn_summary(g_->state(), g_->record(), events_before, players(), view_.color) +
                  hand_news(turn_hands_, g_->state(), players(), view_.color));
  save();
}

Outcome Session::bot_turn() {
  const int p = g_->state().current;
  const int turn = g_->state().turn;
  const std::size_t ev0 = g_->record().events.size();
  turn_hands_ = hands_of(g_->state());
  g_->forget_undo();  // a new player acts: earlier turns can no longer be taken back
  // the tile, a choice if it asks for one, then a piece or none; each decision by the bot of the
  // player who makes it, and a human's (a game's choice off turn) at a prompt
  const auto bots = [this](int q) { return bot_of(q); };
  // a searching bot takes a moment: say so on a terminal, then clear the line
  const bool thinking = any_human_ && out_tty_;
  if (thinking) say(cli_say("thinking", {{"player", name(p)}}));
  while (!play_bot_turn(*g_, bots, bot_rng_)) {
    const State& s = g_->state();
    if (s.phase != Phase::Choose && s.phase != Phase::Piece) break;  // the turn is over
    const Outcome o = choose(to_move(s), p);
    if (o == Outcome::Quit) return o;
    if (s.phase != Phase::Choose && s.phase != Phase::Piece) break;
  }
  if (thinking) say("\r\033[K");
  after_turn(ev0);
  if (!any_human_) {
    say(cli_say("turn.line", {{"turn", fmt::format("{:>2}", turn)}, {"text", news_.back()}}));
    news_.clear();
  }
  return Outcome::Done;
}

void Session::show_turn() {
  redraw_ = [this] { show_turn(); };
  const State& s = g_->state();
  const auto cands = placement_candidates(s);
  const bool bonus_piles = g_->ruleset().tiles.bonus_total > 0;
  const std::string head =
      bonus_piles ? cli_say(is_you(players(), s.current) ? "turn.head_bonus_you" : "turn.head_bonus",
                            {{"turn", s.turn},
                             {"player", player_name(players(), s.current, false)},
                             {"bonus", s.in_extra ? cli_say("turn.bonus_tile") : std::string()},
                             {"pile", s.pile},
                             {"bonus_pile", s.bonus_pile}})
                  : cli_say(is_you(players(), s.current) ? "turn.head_you" : "turn.head",
                            {{"turn", s.turn}, {"player", player_name(players(), s.current, false)}, {"pile", s.pile}});
  std::string header = "──" + head;
  for (int i = 2 + display_width(head); i < std::min(view_.width, 80); ++i) header += "─";
  header += "\n";
  if (s.in_extra) header += "*** " + extra_turn_text(s, players(), view_.color) + " ***\n";  // a bonus turn
  // what is read once: the news since the last board, the legend, the game's panels, the scores
  std::string info;
  if (!news_.empty()) {
    shown_news_ = std::move(news_);
    news_.clear();
  }
  if (!shown_news_.empty()) {
    info += cli_say("turn.since");
    for (const auto& n : shown_news_) info += "  " + n;
  }
  if (!legend_shown_ && help_text(s) != help_text()) {  // a game with more than the plain help's board
    info += board_legend(game());
    legend_shown_ = true;
  }
  info += render_scores(s, players(), view_.color);
  info += render_panels(s, players(), view_.color, view_.width);  // the game's own panels
  // what the decision needs in view: the tile in hand and where it fits
  const bool fit = rows_ > 0;
  const bool compact = fit && rows_ < 45;
  const std::string hand = render_hand(s, cands, view_);
  auto lines_of = [](const std::string& t) {
    std::vector<std::string> v;
    std::size_t i = 0;
    while (i < t.size()) {
      const std::size_t j = std::min(t.find('\n', i), t.size());
      v.push_back(t.substr(i, j - i));
      i = j + 1;
    }
    return v;
  };
  const auto count = [](const std::string& t) { return static_cast<int>(std::count(t.begin(), t.end(), '\n')); };
  ViewOptions v = view_;
  std::string decide = hand + render_placements(s, cands, view_.width);
  if (compact) {
    // a short terminal: the board gets the lines. Below it only the tile in hand, and beside it
    // the letters of the places shown on the board with their rotations ('moves' lists all)
    v.bottom_axis = false;
    auto hl = lines_of(render_hand(s, cands, view_, true));
    const std::string title = hl.empty() ? std::string() : hl.front();  // "In hand: tile U (...)"
    if (!hl.empty()) hl.erase(hl.begin());
    int hw = 0;
    for (const auto& l : hl) hw = std::max(hw, display_width(l));
    const int right = view_.width - hw - 2;
    const int left = rows_ - count(header) - 1 - 1 - static_cast<int>(hl.size()) - 1 - 1 - (view_.centre ? 1 : 0);
    v.max_rows = std::clamp(left / 3, 1, 25);
    if (right >= 24) {
      const auto [x0, x1, y0, y1] = board_window(s, v, cands);
      std::vector<Candidate> shown;
      for (const Candidate& c : cands)
        if (c.x >= x0 && c.x <= x1 && c.y >= y0 && c.y <= y1) shown.push_back(c);
      auto pl = lines_of(render_placements(s, shown, right, true));
      const std::size_t room = std::max<std::size_t>(hl.size(), 2);
      if (shown.size() < cands.size() || pl.size() > room) {
        if (pl.size() > room - 1) pl.resize(room - 1);
        pl.push_back(cli_say("places_in_all", {{"n", cands.size()}}));
      }
      if (!pl.empty()) pl.front() = shown.size() < cands.size() ? cli_say("on_the_board") : pl.front();
      decide = title + "\n";
      for (std::size_t i = 0; i < std::max(hl.size(), pl.size()); ++i) {
        const std::string l = i < hl.size() ? hl[i] : std::string();
        std::string row = l + std::string(static_cast<std::size_t>(std::max(0, hw + 2 - display_width(l))), ' ') +
                          (i < pl.size() ? pl[i] : std::string());
        while (!row.empty() && row.back() == ' ') row.pop_back();
        decide += row + "\n";
      }
    }
  } else if (fit) {
    const int left = rows_ - count(header) - count(decide) - 2 - 1 - 1 - (view_.centre ? 1 : 0);
    v.max_rows = std::clamp(left / 3, 1, 25);
  }
  std::string out = "\n";
  if (fit)  // what is read once scrolls away above the board
    out += info + header + render_board(s, v, cands);
  else
    out += header + render_board(s, v, cands) + info;
  if (view_.centre)
    out += fmt::format("(view centred on {},{}; type 'view' to follow the play)\n", view_.centre->first,
                       view_.centre->second);
  out += decide;
  say(out);
}

bool Session::common_command(const std::string& cmd, const std::vector<std::string>& args) {
  if (cmd == "help" || cmd == "?") {
    say(help_text(g_->state()));
    return true;
  }
  if ((cmd == "hint" || cmd == "hints") && args.empty()) {
    give_hint();
    return true;
  }
  if (cmd == "scores" || cmd == "score") {
    say(render_scores(g_->state(), players(), view_.color));
    say(render_panels(g_->state(), players(), view_.color, view_.width));
    return true;
  }
  if (cmd == "panels" || cmd == "panel") {
    say(render_panels(g_->state(), players(), view_.color, view_.width));
    return true;
  }
  // a panel by its id (e.g. "tokens"; a plural id also in the singular), the game's panels of
  // the decision in full ("actions")
  const State& st = g_->state();
  auto named = [&](const std::string& id) {  // a word alone: "NAME 3,1" is a move
    return args.empty() && (cmd == id || (id.size() > 1 && id.back() == 's' && cmd == id.substr(0, id.size() - 1)));
  };
  if (const auto make = game().present.decision_panels; make && (st.phase == Phase::Piece || st.phase == Phase::Choose))
    for (const Panel& p : make(st, true))
      if (named(p.id)) {
        say(render_panel(st, p, players(), view_.color, std::min(view_.width, 100)));
        return true;
      }
  if (const auto make = game().present.panels)
    for (const Panel& p : make(st))
      if (named(p.id)) {
        say(render_panel(st, p, players(), view_.color, view_.width));
        return true;
      }
  if (cmd == "view") {
    if (args.empty() || args[0] == "last" || args[0] == "auto") {
      view_.centre.reset();
      say(cli_say("view.follow"));
    } else {
      std::string joined = fmt::format("{}", fmt::join(args, " "));
      for (char& c : joined)
        if (c == ',') c = ' ';
      std::vector<std::string> xy;
      for (auto& w : split(joined, ' '))
        if (!w.empty()) xy.push_back(w);
      // cells of the map only: a number is range-checked before it is narrowed or added to
      long long x = 0, y = 0;
      if (xy.size() != 2 || !parse_int(xy[0], -128, 127, x) || !parse_int(xy[1], -128, 127, y)) {
        say(cli_say("view.usage"));
        return true;
      }
      view_.centre = std::pair{static_cast<int>(x), static_cast<int>(y)};
    }
    const State& s = g_->state();
    say(render_board(s, view_, placement_candidates(s)));
    return true;
  }
  return false;
}

Outcome Session::human_turn() {
  for (;;) {
    turn_hands_ = hands_of(g_->state());
    const int p = g_->state().current;
    if (g_->state().phase == Phase::Place) {  // else a turn resumed mid-way: its tile is placed already
      const Outcome r = place_phase();
      if (r == Outcome::Quit) return r;
      if (r == Outcome::Undone) return r;  // another player's turn was taken back: the main loop decides
    }
    if (g_->state().phase == Phase::Choose) {  // a choice the tile asks for (a tile to add, a piece to move)
      const Outcome c = rest_of_turn(p);
      if (c == Outcome::Undone) continue;  // the tile was taken back: place it again
      if (c == Outcome::Quit) return c;
    }
    const Outcome q = piece_phase();
    if (q == Outcome::Undone) continue;  // the tile was taken back: place it again
    return q;
  }
}

Outcome Session::place_phase() {
  const int p = g_->state().current;
  show_turn();
  for (;;) {
    std::string line;
    if (!read_line(
            cli_say("prompt.place", {{"player", name(p)}, {"tile", g_->ruleset().tiles.types[g_->state().in_hand].id}}),
            line)) {
      quit_message(cli_say("end_of_input"));
      return Outcome::Quit;
    }
    if (line.empty()) {
      say(cli_say("prompt.place_hint"));
      continue;
    }
    const auto [cmd, args] = words(line);
    if (cmd == "quit" || cmd == "exit") {
      quit_message("");
      return Outcome::Quit;
    }
    if (cmd == "board") {
      show_turn();
      continue;
    }
    if (cmd == "moves" || cmd == "list") {
      say(render_placements(g_->state(), placement_candidates(g_->state()), view_.width));
      continue;
    }
    if (cmd == "undo") {
      // Take back the previous turn, if a human made it and nobody has acted since.
      const auto& moves = g_->record().moves;
      const int q = moves.empty() ? -1 : moves.back().player;
      if (q >= 0 && !is_bot(q) && g_->undo_turn(q)) {
        save();
        news_.clear();
        shown_news_.clear();
        say(cli_say("undo.took", {{"player", name(q)}}));
        return Outcome::Undone;
      }
      say(cli_say("undo.nothing"));
      continue;
    }
    if (common_command(cmd, args)) continue;
    const auto cands = placement_candidates(g_->state());
    const ParsedPlacement pp = parse_placement(line, cands);
    if (!pp.error.empty()) {
      if (const auto m = notation_move(line, {MoveKind::Place})) {  // "U 1,0 r90"
        g_->forget_undo();
        g_->play(*m);
        return Outcome::Done;
      }
      say(pp.error + "\n");
      continue;
    }
    try {
      const Move m = g_->placement(pp.x, pp.y, pp.rot);
      // a new player acts: older turns can no longer be taken back (this turn's snapshot is kept)
      g_->forget_undo();
      g_->play(m);
      return Outcome::Done;
    } catch (const InputError& e) {
      std::string hint;
      for (const Candidate& c : cands)
        if (c.x == pp.x && c.y == pp.y) {
          std::vector<std::string> rots;
          for (int r : c.rots) rots.push_back(fmt::format("r{}", r));
          hint =
              cli_say("not_possible.fits_as", {{"rots", fmt::format("{}", fmt::join(rots, cli_say("list.or_forms")))}});
        }
      say(cli_say("not_possible", {{"why", printable_lines(e.what())}, {"hint", hint}}));
    }
  }
}

std::string Session::small_board() const {
  const State& s = g_->state();
  ViewOptions small = view_;
  small.max_cols = 5;
  small.max_rows = 3;
  // centre on this turn's tiles (a "!" tile and its double tile: the double tile's first cell)
  const std::size_t i = std::min<std::size_t>(s.piece_from, s.tiles.size() - 1);
  small.centre = std::pair{s.tiles[i].x, s.tiles[i].y};
  return render_board(s, small);
}

std::optional<Outcome> Session::take_back_tile(const std::string& cmd, int p) {
  // a turn resumed from a save mid-way has no snapshot of its start: it goes on from where it was
  if (cmd == "quit" || cmd == "exit") {
    quit_message(g_->undo_turn(p) ? cli_say("quit.tile_back") : "");
    return Outcome::Quit;
  }
  if (cmd == "undo") {  // the callers ask can_undo first
    g_->undo_turn(p);
    say(cli_say("tile_back"));
    return Outcome::Undone;
  }
  return std::nullopt;
}

Outcome Session::quit_off_turn(int turn_player, const std::string& why) {
  g_->undo_turn(turn_player);  // a turn is saved whole: this one is played again on --resume
  news_.clear();
  quit_message((why.empty() ? std::string() : why + " ") + cli_say("quit.turn_back", {{"player", name(turn_player)}}));
  return Outcome::Quit;
}

Outcome Session::end_of_input(int p) {
  g_->undo_turn(p);  // an unfinished turn is not saved: the tile goes back in hand
  quit_message(cli_say("quit.eoi_tile_back"));
  return Outcome::Quit;
}

Outcome Session::choose(int d, int turn_player) {
  const int p = turn_player;
  const bool own = d == p;
  const std::string undo = own ? cli_say("choice.undo") : "";
  const auto intro = [this, d, p, own] {
    const State& s = g_->state();
    if (!own)  // a decision on another player's turn: what happened so far
      say(cli_say(
          players()[static_cast<std::size_t>(d)].name == cli_say("name.you") ? "decision.other_you" : "decision.other",
          {{"chooser", name(d)},
           {"player", name(p)},
           {"what", describe_record_move(s, g_->record().moves.back(), players(), view_.color)}}));
    const auto cells = choice_cells(s);
    const auto opts = view::decision_options(s);
    const bool pieces =
        std::any_of(opts.begin(), opts.end(), [](const view::OptionView& o) { return o.target == "piece"; });
    if (!cells.empty() || pieces) {  // cells to label, or pieces anywhere on the board: the whole board
      ViewOptions v = view_;
      v.centre.reset();
      say(render_board(s, v, cells));
    } else {
      say(small_board());
    }
    say(render_choices(s, players(), view_.color));
  };
  const auto opts = view::decision_options(g_->state());
  const bool cells = !choice_cells(g_->state()).empty();
  const bool tiles = !opts.empty() && std::all_of(opts.begin(), opts.end(),
                                                  [](const view::OptionView& o) { return o.target == "tile"; });
  const std::string example =
      tiles ? cli_say("choice.example", {{"tile", opts[0].tile}, {"rot", opts[opts.size() > 1 ? 1 : 0].rot}})
            : std::string();
  const std::string prompt = cells   ? cli_say("choice.cell", {{"undo", undo}})
                             : tiles ? cli_say("choice.tile", {{"example", example}, {"undo", undo}})
                                     : cli_say("choice.option", {{"undo", undo}});
  const std::string hint = cells   ? cli_say("choice.cell_hint")
                           : tiles ? cli_say("choice.tile_hint", {{"example", example}})
                                   : cli_say("choice.option_hint");
  bool first = true;
  for (;;) {
    if (first) {
      redraw_ = intro;
      intro();
      first = false;
    }
    std::string line;
    if (!read_line(fmt::format("{}, {}> ", name(d), prompt), line))
      return own ? end_of_input(p) : quit_off_turn(p, cli_say("end_of_input"));
    if (line.empty()) {
      say(hint + "\n");
      continue;
    }
    const auto [cmd, args] = words(line);
    if (!own && (cmd == "quit" || cmd == "exit")) return quit_off_turn(p, "");
    if (!own && cmd == "undo") {
      say(cli_say("undo.not_yours", {{"player", name(p)}}));
      continue;
    }
    if (cmd == "undo" && !g_->can_undo(p)) {  // a turn resumed from a save mid-way: its start is not kept
      say(cli_say("tile_back.resumed"));
      continue;
    }
    if (const auto o = take_back_tile(cmd, p)) return *o;
    if (cmd == "board") {
      first = true;
      continue;
    }
    if (cmd == "moves" || cmd == "list") {
      say(render_choices(g_->state(), players(), view_.color));
      continue;
    }
    if (common_command(cmd, args)) continue;
    const ParsedChoice pc = parse_choice(line, g_->state());
    if (!pc.error.empty()) {
      say(printable_lines(pc.error) + "\n");
      continue;
    }
    try {
      g_->play(pc.move);
      if (!own) say(cli_say("chose", {{"player", name(d)}, {"option", pc.option}}));
      return Outcome::Done;
    } catch (const InputError& e) {
      say(cli_say("not_possible", {{"why", printable_lines(e.what())}, {"hint", ""}}));
    }
  }
}

Outcome Session::rest_of_turn(int turn_player) {
  // the choices the turn's tiles ask for (Phase::Choose), each by whoever makes it: a bot's at
  // once, a person's at a prompt
  const auto bots = [this](int q) { return bot_of(q); };
  const auto choices_made = [](const Game& g, long) { return g.state().phase != Phase::Choose; };
  while (play_bots(*g_, bots, bot_rng_, choices_made).needs_person) {
    const Outcome o = choose(to_move(g_->state()), turn_player);
    if (o != Outcome::Done) return o;
  }
  return Outcome::Done;
}

Outcome Session::piece_phase() {
  const int p = static_cast<int>(g_->record().moves.back().player);
  // placing the tile scores nothing: this turn's events are the ones added from here on
  const std::size_t ev0 = g_->record().events.size();
  const bool two = game().pieces2_per_player > 0;
  const std::string& n0 = game().piece_names[0];
  const std::string& n1 = game().piece_names[1];
  if (g_->state().phase == Phase::Piece) {
    MoveList ml;
    legal_moves(g_->state(), ml);  // pieces, the game's actions, the pass
    const bool actions = game().hooks.gen_actions != nullptr;
    bool first = true;
    if (ml.size() == 1) {
      say(render_piece_options(g_->state(), players(), view_.color));
      if (actions)
        say(cli_say("pass.actions", {{"piece", piece_word(game(), n0)}}));
      else if (two)
        say(cli_say("pass.two", {{"piece", piece_word(game(), n0)}, {"piece2", piece_word(game(), n1)}}));
      else
        say(cli_say("pass.one"));
      g_->play(ml[0]);
    } else {
      bool networks = false;  // a piece that claims networks: "PIECE PORT"
      for (const FeatureTypeDef& fd : game().ftypes) networks |= fd.network_kind != 0xFF;
      const std::string prompt =
          networks
              ? cli_say("prompt.piece_network",
                        {{"player", name(p)}, {"piece", piece_word(game(), n0)}, {"piece2", piece_word(game(), n1)}})
          : two     ? cli_say("prompt.piece_two",
                              {{"player", name(p)}, {"piece", piece_word(game(), n0)}, {"piece2", piece_word(game(), n1)}})
          : actions ? cli_say("prompt.piece_action", {{"player", name(p)}, {"piece", piece_word(game(), n0)}})
                    : cli_say("prompt.piece", {{"player", name(p)}});
      for (;;) {
        if (first) {
          redraw_ = [this] {
            say(small_board());
            say(render_piece_options(g_->state(), players(), view_.color));
          };
          redraw_();
          first = false;
        }
        std::string line;
        if (!read_line(prompt, line)) {
          return end_of_input(p);
        }
        const auto [cmd, args] = words(line);
        if (cmd == "undo" && !g_->can_undo(p)) {  // a turn resumed from a save mid-way: its start is not kept
          say(cli_say("tile_back.resumed"));
          continue;
        }
        if (const auto o = take_back_tile(cmd, p)) return *o;
        if (cmd == "board") {
          say(render_board(g_->state(), view_));
          first = true;
          continue;
        }
        if (common_command(cmd, args)) continue;
        if (actions && line.empty()) {
          say(cli_say("piece.action_hint", {{"piece", piece_word(game(), n0)}}));
          continue;
        }
        const ParsedPort pp = parse_port(line, g_->state());
        if (!pp.error.empty()) {
          try {  // the game's shorthand ("f l 2,1 ne"): its own message when it is of its forms but wrong
            if (const auto m = parse_alias(g_->state(), line)) {
              g_->play(*m);
              break;
            }
          } catch (const InputError& e) {
            say(printable_lines(e.what()) + "\n");
            continue;
          }
          if (const auto m =
                  notation_move(line, {MoveKind::Piece, MoveKind::Pass, MoveKind::Act})) {  // "follower N", "PIECE W"
            g_->play(*m);
            break;
          }
          say(pp.error + "\n");
          continue;
        }
        try {
          if (!pp.piece.empty()) {  // a piece on the network through that feature
            const PlacedTile& t = g_->state().tiles[g_->state().piece_from];
            const auto [x, y] = pp.at.value_or(std::pair<int, int>{t.x, t.y});
            g_->play(g_->piece_at(x, y, pp.port, pp.piece));
          } else {
            g_->play(pp.at ? g_->piece_at(pp.at->first, pp.at->second, pp.port) : g_->piece_at_port(pp.port));
          }
          break;
        } catch (const InputError& e) {
          say(cli_say("not_possible", {{"why", printable_lines(e.what())}, {"hint", ""}}));
        }
      }
    }
  }
  // the game's choices after the piece, by any player (token hand-ins, a marker's new cell)
  if (const Outcome r = rest_of_turn(p); r != Outcome::Done) return r;
  after_turn(ev0);
  say(news_.back());
  // With bots to move next (or the game over), offer to take the turn back before they act.
  bool offer = g_->over();
  if (!g_->over() && !g_->stalled()) offer = is_bot(g_->state().current);
  if (!offer) return Outcome::Done;
  std::string line;
  for (;;) {
    if (!read_line(g_->over() ? cli_say("prompt.continue_final") : cli_say("prompt.continue"), line)) {
      quit_message(cli_say("end_of_input"));
      return Outcome::Quit;
    }
    const std::string l = lower(line);
    if (l == "undo") {
      if (!g_->undo_turn(p)) {  // a turn resumed from a save mid-way: its start is not kept
        say(cli_say("tile_back.resumed"));
        continue;
      }
      news_.pop_back();
      save();
      say(cli_say("undo.turn_back"));
      return Outcome::Undone;
    }
    if (l == "quit" || l == "exit") {
      quit_message("");
      return Outcome::Quit;
    }
    if (l.empty() || l == "c" || l == "continue" || l == "ok" || l == "y") return Outcome::Done;
    if (l == "help" || l == "?") {
      say(cli_say("continue.help"));
      continue;
    }
    if (l == "board") {
      say(render_board(g_->state(), view_));
      continue;
    }
    say(cli_say("continue.hint"));
  }
}

void Session::give_hint() {
  if (!g_->record().hints_allowed) {
    say(cli_say("hint.off"));
    return;
  }
  const State& s = g_->state();
  const int p = to_move(s);
  MctsOptions mo;
  mo.playouts = o_.hint_playouts;
  mo.threads = 1;
  // seeded by the game and the decision: the same hint at the same decision
  const u64 seed = g_->record().seed.value_or(0) ^ (0x9E3779B97F4A7C15ULL * (g_->record().moves.size() + 1)) ^
                   (0xC2B2AE3D27D4EB4FULL * static_cast<u64>(s.phase));
  const Analysis a = mcts_analyze(s, mo, seed);
  g_->note_hint(p);
  save();
  std::string out = cli_say(is_you(players(), p) ? "hint.head_you" : "hint.head",
                            {{"player", name(p)}, {"playouts", static_cast<long long>(a.playouts)}});
  for (std::size_t k = 0; k < a.options.size() && k < 3; ++k) {
    const OptionStats& o = a.options[k];
    out += cli_say("hint.option", {{"n", static_cast<long long>(k + 1)},
                                   {"move", notation(s, o.move)},
                                   {"margin", fmt::format("{:+.1f}", o.margin)},
                                   {"win", static_cast<long long>(std::lround(100 * o.win_prob))}});
  }
  out += cli_say(is_you(players(), p) ? "hint.noted_you" : "hint.noted",
                 {{"player", name(p)}, {"move", static_cast<long long>(g_->record().moves.size() + 1)}});
  say(out);
}

void Session::offer_review() {
  if (!any_human_) return;
  std::string line;
  if (!read_line(cli_say("review.offer", {{"playouts", o_.hint_playouts}}), line)) return;
  const std::string l = lower(line);
  if (l != "review" && l != "r") return;
  ReviewOptions ro;
  ro.playouts = o_.hint_playouts;
  ro.seed = g_->record().seed.value_or(1);
  int shown = 0;
  const Review rv = review_record(g_->record(), ro, [&](int done, int total) {
    if (out_tty_ && (done == total || done - shown >= std::max(1, total / 10))) {
      shown = done;
      say(cli_say("review.progress", {{"done", done}, {"total", total}}));
    }
  });
  say(render_review(rv, g_->record()));
}

void Session::finish() {
  const State& s = g_->state();
  std::string out = "\n";
  if (!news_.empty()) {
    out += cli_say("final.last_turns");
    for (const auto& n : news_) out += "  " + n;
    news_.clear();
  }
  ViewOptions v = view_;
  v.centre.reset();
  v.max_rows = std::max(v.max_rows, 30);  // the whole height: the terminal scrolls
  if (!g_->ended().empty()) {             // ended before its last tile (resigned, timeout, aborted)
    const std::string& how = g_->ended();
    const std::string status = how == "resigned"  ? cli_say("final.ended.resigned")
                               : how == "timeout" ? cli_say("final.ended.timeout")
                                                  : cli_say("final.ended.aborted");
    out += cli_say("final.ended", {{"status", status}});
    out += render_board(s, v);
    out += render_panels(s, players(), view_.color, view_.width);
    say(out);
    return;
  }
  out += cli_say("final.over");
  out += render_board(s, v);
  out += render_panels(s, players(), view_.color, view_.width);
  out += cli_say("final.scoring");
  bool any = false;
  for (const ScoreEvent& e : g_->record().events)
    if (is_final_event(s, e)) {
      out += "  " + describe_event_named(s, e, players(), view_.color) + "\n";
      any = true;
    }
  if (!any) out += cli_say("final.nothing");
  out += render_final(s, players(), view_.color);
  if (save())
    out += cli_say("final.record", {{"file", printable(save_path_)}});
  else
    out += cli_say("final.not_saved", {{"why", save_error_}, {"note", last_save_note()}});
  say(out);
}

}  // namespace

void run_play(const PlayOptions& o) {
  const i18n::Scope language(o.lang);  // the game's and the terminal's words (docs/i18n.md)
  Session session(o);
  session.run();
}

}  // namespace carc::cli
