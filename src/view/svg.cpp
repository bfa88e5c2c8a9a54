// view/svg: the record helpers of the SVG pictures (see svg.hpp); the pictures themselves are
// drawn by tile_art.cpp (one tile) and svg_board.cpp (a board).
#include "view/svg.hpp"

#include <fmt/format.h>

#include "rules/words.hpp"

namespace carc::view {

Game replay_prefix(const Record& r, std::optional<int> moves, const std::string& where) {
  Record cut = r;
  if (moves) {
    if (*moves < 0 || static_cast<std::size_t>(*moves) > r.moves.size())
      throw InputError(fmt::format("{}: turn {} is out of range: the record has {} move{} (use 0..{})", where, *moves,
                                   r.moves.size(), r.moves.size() == 1 ? "" : "s", r.moves.size()));
    cut.moves.resize(static_cast<std::size_t>(*moves));
    cut.events.clear();
    cut.final_scores.clear();
    cut.finished = false;
    // what the record states about its end is not about the cut (a finished game cut at a turn)
    cut.stated_events.reset();
    cut.stated_status.reset();
    cut.ended.clear();
  }
  try {
    return Game::replay(cut);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", where, e.what()));
  }
}

SvgOptions record_svg_options(const Record& r, const Game& g, std::optional<int> moves, const std::string& where) {
  SvgOptions o;
  const GameDef& game = *g.ruleset().game;
  o.title = fmt::format("{} \u2014 {}", has_message(game, "game.title") ? say(game, "game.title") : game.title, where);
  const std::size_t done = moves ? static_cast<std::size_t>(*moves) : r.moves.size();
  o.subtitle = say("svg.turn_of", {{"n", done}, {"all", r.moves.size()}});
  // a bot's seat: its name, and what bot it is unless the name says so ("Bot (normal)")
  for (const PlayerInfo& p : r.players) {
    const std::string label = p.bot.rfind("mcts:", 0) == 0 ? "mcts" : p.bot;
    bool said = p.bot.empty() || p.name.find(label) != std::string::npos;
    for (const char* lv : {"(easy)", "(normal)", "(hard)"}) said = said || p.name.find(lv) != std::string::npos;
    const std::string name = seat_name_words(game, p.name);  // "Bot easy" in words
    o.player_names.push_back(said ? name : fmt::format("{} ({})", name, label));
  }
  return o;
}

}  // namespace carc::view
