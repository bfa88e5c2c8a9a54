// look: how a game looks, as data (docs/look.md). Each game's look is the JSON file
// src/games/<game>/look.json, compiled in (Presentation::look); src/view/look.json is the generic
// look every game starts from. The SVG pictures, the tile catalog (the browser) and the terminal
// draw with it; no front end names a game's colours or glyphs.
//
// Glyph coordinates: a tile is 64 units square; a glyph is drawn round its origin (a cell's
// centre, a grid point, a piece's anchor). "{{name}}" in a glyph's SVG stands for glyph `name`
// (expanded at load); "$fill" and "$edge" for the colours of the feature it is drawn on. A glyph
// marked `seat` is drawn in a seat's colour: its elements without a fill of their own take the
// seat colour, and "currentColor" is the seat colour too.
#pragma once
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rules.hpp"

namespace carc::view {

struct FeatureStyle {
  std::string fill, edge;
  std::string css;       // the class the SVG gives the feature's group ("" none; default: the type's name)
  bool css_set = false;  // css given by the look
  std::string badge;     // Area: the glyph drawn for its slot-0 symbol at the area's badge spot ("" none)
  std::string glyph;     // Point: the glyph drawn at the tile's centre instead of a building
  bool round_end = false;  // Path: a path ending in the middle of a tile ends round
  std::string texture;     // a glyph tiled over the feature's fill as an SVG <pattern> ("" plain fill)
  std::string stones;      // Area: the wall drawn as stones in this colour ("" a plain wall)
};

struct Glyph {
  std::string svg;    // expanded
  std::string title;  // what it is, in words ("" none)
  double size = 16;   // its extent (units), for keys and panels
  bool seat = false;  // drawn in a seat's colour
};

struct KeyItem {
  std::string glyph, label;
  double scale = 0;  // 0: fit the glyph's size to the key's height
};

struct TrackStyle {
  std::string fill, edge, space, last, text;
  std::string bank;  // the land along the river the track is drawn as
};

// How a text front end (the terminal) draws a symbol, a special, a feature type or an overlay's
// glyph: a mark of a few characters in 256-colour ANSI colours (-1: the front end's default).
struct TermMark {
  std::string mark;      // a symbol's: one character; an overlay glyph's: 1 to 4 ("" with seat)
  int fg = -1, bg = -1;  // 0..255
  bool seat = false;     // an overlay glyph drawn as its seat's piece (the seat's number in its colours)
};

struct TerminalLook {
  std::map<std::string, TermMark, std::less<>> marks;   // symbol, special or feature type name -> mark
  std::map<std::string, TermMark, std::less<>> glyphs;  // overlay glyph name -> mark
  std::vector<std::string> legend;                      // what the overlays' marks mean, a few words each
};

struct Look {
  std::string where;  // where it comes from, for errors ("src/games/<game>/look.json")
  std::map<std::string, FeatureStyle, std::less<>> features;  // by feature type name
  std::map<std::string, FeatureStyle, std::less<>> classes;   // by class: path river area field centre point
  std::map<std::string, Glyph, std::less<>> glyphs;
  std::map<std::string, std::vector<std::string>, std::less<>> symbols;  // symbol -> glyphs, the k-th symbol of a feature takes k mod n
  std::map<std::string, std::string, std::less<>> pieces;  // piece name (or "0", "1", "network") -> glyph
  std::string hand;                                        // the glyph of what a player holds: "{}" is its name
  std::vector<KeyItem> key;                                // the key under a picture's scores
  TrackStyle track;
  TerminalLook terminal;
};

// The look of a game: the generic look overlaid with the game's own (parsed and checked once).
// Throws InputError naming the file and the field if the game's look is not valid.
const Look& look_of(const GameDef& game);
// The generic look alone.
const Look& generic_look();
// Parses a look (`text`) over `base` (nullptr: none). Throws InputError naming `where` and the field.
Look parse_look(std::string_view text, const std::string& where, const Look* base);

// The style of a feature type: the look's by name, else its class's.
const FeatureStyle& style_of(const Look& look, const FeatureTypeDef& ft);
// A glyph by name; nullptr if the look has none.
const Glyph* glyph_of(const Look& look, std::string_view name);
// The glyph name of the k-th symbol `name` of a feature ("" if the look has none).
std::string symbol_glyph(const Look& look, std::string_view name, int k);
// The glyph of piece kind `kind` named `name`; `network`: it claims a whole network.
std::string piece_glyph(const Look& look, std::string_view name, int kind, bool network);

// The terminal's mark of a symbol, special or feature type name / of an overlay glyph; nullptr: none.
const TermMark* term_mark(const Look& look, std::string_view name);
const TermMark* term_glyph(const Look& look, std::string_view glyph);

// The look as the browser's tile catalog gives it (docs/look.md): glyphs, pieces, hand, features.
nlohmann::json look_json(const Look& look);

}  // namespace carc::view
