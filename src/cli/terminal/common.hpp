// Shared by the terminal's drawing and parsing (src/cli/terminal/*.cpp): the glyphs of a cell,
// their styles and text helpers. Internal to src/cli/terminal.
#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "view/look.hpp"
#include "view/view.hpp"

namespace carc::cli::term {

constexpr int kCellW = 5, kCellH = 3;
constexpr int kLeft = 5;  // row labels: "%4d "

// Where each port (and C) is drawn inside a cell: {column, row}.
constexpr std::array<std::array<int, 2>, 13> kPortPos = {{
    {1, 0},
    {2, 0},
    {3, 0},  // NNW N NNE
    {4, 0},
    {4, 1},
    {4, 2},  // ENE E ESE
    {3, 2},
    {2, 2},
    {1, 2},  // SSE S SSW
    {0, 2},
    {0, 1},
    {0, 0},  // WSW W WNW
    {2, 1},  // C
}};

// Road shapes by the sides they leave through (bit 0 N, 1 E, 2 S, 3 W).
constexpr std::array<const char*, 16> kBox = {"·", "╵", "╶", "└", "╷", "│", "┌", "├",
                                              "╴", "┘", "─", "┴", "┐", "┤", "┬", "┼"};

// Mark: a mark of the game's look (its fg and bg colours), e.g. what stands on the board besides tiles.
enum class St : u8 { None, Field, Area, Path, Point, Piece, Slot, SlotLabel, Water, River, Lake, Forest, Mark };

struct Glyph {
  std::string ch = " ";
  St st = St::None;
  u8 shade = 0;   // 0/1: checkerboard of tiles, 2: the last placed tile
  u8 player = 0;  // Piece: whose
  u8 fg = 0;      // a symbol drawn on a feature: bold in this colour on the feature's background
  i16 bg = -1;    // Mark: its background colour (-1 none)
};
using Cell = std::array<std::array<Glyph, kCellW>, kCellH>;  // [row][column]

// Player colours (256-colour palette): background of a follower, and text colour of a name.
constexpr std::array<int, kMaxPlayers> kPlayerBg = {196, 27, 226, 40, 201};
constexpr std::array<int, kMaxPlayers> kPlayerFg = {231, 231, 16, 16, 231};
constexpr std::array<int, kMaxPlayers> kPlayerText = {196, 33, 178, 34, 201};

// Corners and grid points: kCornerDx/kCornerDy and kCornerNames (rules.hpp).
// Where a corner is drawn in a cell {row, column}, and the glyph beside it (a piece there).
constexpr std::array<std::array<int, 2>, 4> kCornerGlyph = {{{0, 4}, {2, 4}, {2, 0}, {0, 0}}};
constexpr std::array<std::array<int, 2>, 4> kCornerBeside = {{{0, 3}, {2, 3}, {2, 1}, {0, 1}}};

struct SymbolGlyph {
  std::string ch;
  u8 fg = 231;
};

struct CornerMarks {
  std::optional<Glyph> mark, beside;
};
struct BoardMarks {
  std::map<std::pair<int, int>, std::vector<Glyph>> cells;  // an empty cell's overlay: its word, 4 columns
  std::map<std::pair<int, int>, std::string> names;         // and what it is (its glyph's title, else its mark)
  std::map<std::pair<int, int>, std::array<CornerMarks, 4>> corners;  // a cell's corners
};

// The options of a Choose decision as listed: those naming something first, the one naming
// nothing ("none") last, each with its move.
struct Listed {
  view::OptionView view;
  Move move;
};

std::string sgr(const Glyph& g);
bool is_water(const FeatureTypeDef& fd);
bool is_river(const FeatureTypeDef& fd);
bool is_lake(const FeatureTypeDef& fd);
St path_style(const FeatureTypeDef& fd);
std::vector<std::string> words(std::string_view s);
std::string plural_of(const std::string& noun);
std::string count_of(int n, const std::string& noun);
std::string emit(std::vector<Glyph> line, bool color);
void put_text(std::vector<Glyph>& line, std::string_view text);
std::string point_letter(const FeatureTypeDef& fd);
Glyph area_glyph(const GameDef& g, const FeatureTypeDef& fd);
Glyph feature_glyph(const Ruleset& rs, const TileType& tt, int f, bool vertical);
FClass feature_class(const Ruleset& rs, const TileType& tt, int f);
bool water_feature(const Ruleset& rs, const TileType& tt, int f);
SymbolGlyph symbol_glyph(const GameDef& g, std::string_view name, int slot);
const FeatureTypeDef& ftype_at(const Ruleset& rs, const TileType& tt, int f);
Cell tile_cell(const Ruleset& rs, const TileType& tt, int rot, u16 covered = 0);
Cell slot_cell(const std::string& label);
std::string pad(const std::string& s, int w);
std::string badge(int p, bool color);
std::optional<int> to_rotation(std::string_view t);
std::string wrap(const std::string& text, int width);
std::string wrap_hang(const std::string& prefix, const std::string& text, int hang, int width);
std::string quote(std::string_view t);
bool is_word(std::string_view t);
std::string piece_mark(int player, int kind);
std::vector<Glyph> mark_glyphs(const view::TermMark& m);
int quarter_of(const OverlayPart& p);
BoardMarks board_marks(const State& s);
std::string capitalized(std::string w);
std::string symbol_noun(const GameDef& g, const std::string& name);
// The game's words in the session's language (its messages.json), English where it has none
// (the track's piece and a noun alone: rules/words.hpp): a symbol's or centre's noun
// ("noun.NAME", else Presentation::nouns), N of them ("symbol.NAME" with n), their plural (a
// symbol named with no number), the network ("network.name"), a piece's role ("role.NAME"), the
// pass option ("option.pass"), and N pieces in supply ("7 followers"; in other languages the
// number alone, the piece being named beside it).
std::string term_noun(const GameDef& g, const std::string& name);
std::string noun_count(const GameDef& g, const std::string& name, int n);
std::string noun_plural(const GameDef& g, const std::string& name);
std::string network_word(const GameDef& g);
std::string role_word(const GameDef& g, const std::string& role);
// A feature's, piece's or symbol's name in the plural, alone ("plural.NAME", else English rules).
std::string plural_word(const GameDef& g, const std::string& name);
std::string pass_word(const GameDef& g);
std::string piece_count(const std::string& piece, int n);
bool has_networks(const GameDef& g);
std::string network_text(const State& s, int net);
std::string network_types(const GameDef& g, int k);
std::string network_owners(const State& s, int net, const std::vector<PlayerInfo>& players, bool color);
// The seat is the reader's: the one person at the table, named "You" in the session's language
// (name.you); their sentences are in the second person.
bool is_you(const std::vector<PlayerInfo>& players, int p);
// A bot level's word in the session's language ("лёгкий"; bot.level.LEVEL), the level itself for
// any other seat kind.
std::string level_word(const std::string& level);
std::string who_verb(const std::vector<PlayerInfo>& players, int p, bool color, std::string_view you_verb,
                     std::string_view verb);
std::string pack(const std::vector<std::string>& items, int indent, int width, std::string_view sep = "   ");
std::string spot_info(const State& s, const PlacedTile& pt, int local);
std::vector<Listed> listed_choices(const State& s);
std::string choice_label(const State& s, const view::OptionView& o);
bool all_target(const std::vector<Listed>& v, std::string_view t);
std::string render_tile_choices(const State& s, const std::vector<Listed>& opts, bool color);

}  // namespace carc::cli::term
