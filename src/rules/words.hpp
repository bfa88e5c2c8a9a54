#pragma once
// The engine's and the games' words (docs/i18n.md): a message of the game's catalog
// (Presentation::messages, src/games/<game>/messages.json) or of the engine's
// (src/rules/messages.json), in the calling thread's language (i18n::Scope).
#include <string>
#include <string_view>
#include <vector>

#include "core/i18n.hpp"

namespace carc {

struct GameDef;
struct State;

using MsgArgs = std::vector<i18n::Arg>;

// The engine's own catalog (src/rules/messages.json).
const i18n::Catalog& generic_messages();
// The game's catalog, or nullptr if it has none.
const i18n::Catalog* game_messages(const GameDef& g);

// A message of the game's catalog, else of the engine's.
std::string say(const GameDef& g, std::string_view id, const MsgArgs& args = {});
std::string say(const State& s, std::string_view id, const MsgArgs& args = {});
// A message of the engine's catalog.
std::string say(std::string_view id, const MsgArgs& args = {});
// Whether the game's or the engine's catalog has `id`.
bool has_message(const GameDef& g, std::string_view id);

// The name of a feature type, a piece, a symbol kind ("feature.road", "piece.follower",
// "symbol.shield" with n) in the current language; the game's identifier itself (and, for a
// symbol, "N name(s)" in English) where no catalog names it.
std::string feature_word(const GameDef& g, std::string_view name);
std::string piece_word(const GameDef& g, std::string_view name);
std::string symbols_word(const GameDef& g, std::string_view name, int n);
// A feature type's word in the form a sentence needs ("feature.<name>.<form>", docs/i18n.md):
// "on" (where a piece stands, with its preposition: "на дороге", "în oraș"), "acc" (as an
// object: "за низину"), "done" / "open" (a completed / an unfinished one as an object:
// "завершённую дорогу", "mănăstire finalizată"); the plain word where the catalogs have no such form.
std::string feature_form(const GameDef& g, std::string_view name, std::string_view form);
// What stands on the game's track ("track.<track_name>"; a boat) and a kind of token or symbol
// named alone ("noun.<name>"; a hand's lion, the legend's lion), else the identifier.
std::string track_word(const GameDef& g);
std::string noun_word(const GameDef& g, std::string_view name);
// A seat's name as stored (records keep English) in the current language's words: a name the
// server gave, "Bot LEVEL" or "Bot LEVEL #N" (bot.name.LEVEL, bot.numbered) and "Player N"
// (seat.player); any other name as it is.
std::string seat_name_words(const GameDef& g, const std::string& stored);
// "{pN}": seat N's name, put in by whoever shows the text (the view, the terminal, a record).
std::string seat_ref(int seat);
// `text` with every "{pN}" replaced by names[N] (those beyond the list as "player N+1", in the
// current language).
std::string with_seat_names(std::string text, const std::vector<std::string>& names);

}  // namespace carc
