// web_api: the HTTP resources the browser client reads besides the games themselves
// (docs/server-protocol.md, "For browsers"): the catalog of games, each game's tile pictures and
// index, each game's rules page, and the position view at any step of a record. No I/O and no
// Beast here.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/core.hpp"

namespace carc::server {

// A request for something that is not there: a 404.
struct NotFound : InputError {
  using InputError::InputError;
};

// GET /api/catalog: every game (id, title, seats, options with their values and help) and the
// bot levels a lobby offers.
std::string catalog_json();

// GET /api/tiles/GAME: the game's tile index (carc::view::tile_catalog) with each tile's SVG
// picture inline ("svg"), built once per process. Throws InputError for an unknown game.
std::string tiles_json(const std::string& game);

// GET /api/rules/GAME: the game's rules page (its folder's rules.json) in the calling thread's
// language: {"game", "title", "lang", "sections": [{"id", "title", "text": [paragraphs], "tiles":
// [tile ids]}]}; no sections for a game without one. Throws NotFound for an unknown game and
// std::logic_error for a page that is not valid (a test checks every game's).
std::string rules_json(const std::string& game);

// POST /api/replay with {"record": RECORD, "step": N}: the record replayed up to its N-th turn
// (default: all of them) as {"steps", "step", "view"}. Records naming a tile file of their own are
// refused: the server replays only the shipped tile sets. Throws InputError naming what is wrong.
std::string replay_json(const std::string& body);
// Each reviewed option of an analysis (`review.decisions[].played`, `best`, `top[]`) with `words`:
// its move in the current language's words (view::move_words), from the game's record.
void add_move_words(nlohmann::json& review, const std::string& record_json);

// GET /api/games/ID/analysis/K: decision K of a game's stored analysis (its `review` JSON,
// ai/review) with the position after its better move: {"decision": the review's entry, "step": the
// record's turns before that decision's turn (POST /api/replay's step for the position as played),
// "view": the view after the better move in place of the played one}. Throws NotFound when the
// review has no decision K.
std::string whatif_json(const std::string& record_json, const std::string& review_json, int k);

// The file a GET of `path` (a request target without its query) serves from the browser client's
// folder, relative to it: "index.html" for the client's own pages (/, /play/ID, /replay: a last
// segment without a dot), else the path's segments. Percent-escapes are decoded first; empty and
// "." segments are dropped and ".." takes the segment before it away. Throws InputError (a 400)
// for a path that is not absolute, an escape that is malformed or decodes to a slash, a backslash,
// a NUL or a control character, a path that is not UTF-8, or ".." above the root; NotFound for a
// segment starting with "." (hidden files).
std::string web_file(std::string_view path);

}  // namespace carc::server
