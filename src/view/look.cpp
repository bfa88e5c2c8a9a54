#include "view/look.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "core/io.hpp"
#include "core/json_input.hpp"

namespace carc::view {

namespace {

using json = nlohmann::json;

constexpr std::string_view kGenericLook =
#include "look_generic.inc"
    ;

[[noreturn]] void fail(const std::string& where, const std::string& field, const std::string& what) {
  throw InputError(fmt::format("{}: {}: {}", where, field, what));
}

void check_keys(const json& j, const std::string& where, const std::string& field, std::initializer_list<std::string_view> keys) {
  if (!j.is_object()) fail(where, field, "must be an object");
  for (const auto& [k, v] : j.items()) {
    bool known = false;
    for (const auto key : keys) known = known || k == key;
    if (!known) fail(where, field.empty() ? k : field + "." + k, "unknown field");
  }
}

std::string str(const json& j, const std::string& where, const std::string& field) {
  if (!j.is_string()) fail(where, field, "must be a string");
  return j.get<std::string>();
}

std::string colour(const json& j, const std::string& where, const std::string& field) {
  std::string c = str(j, where, field);
  const bool hex = (c.size() == 7 || c.size() == 4) && c[0] == '#' && std::all_of(c.begin() + 1, c.end(), [](char x) {
                     return std::isxdigit(static_cast<unsigned char>(x)) != 0;
                   });
  if (!hex) fail(where, field, fmt::format("\"{}\" is not a colour (#rrggbb)", printable(c)));
  return c;
}

// Whether lower-cased markup holds an attribute like ` onclick =`: white space, "on", letters, white space, '='.
bool has_event_handler(const std::string& low) {
  const auto space = [&](std::size_t k) {
    return k < low.size() && std::isspace(static_cast<unsigned char>(low[k])) != 0;
  };
  for (std::size_t i = 0; i + 3 < low.size(); ++i) {
    if (!space(i) || low.compare(i + 1, 2, "on") != 0) continue;
    std::size_t k = i + 3;
    const std::size_t letters = k;
    while (k < low.size() && low[k] >= 'a' && low[k] <= 'z') ++k;
    if (k == letters) continue;
    while (space(k)) ++k;
    if (k < low.size() && low[k] == '=') return true;
  }
  return false;
}

// A glyph's SVG: elements only, no script, no event handler, no external reference, tags balanced.
void check_svg(const std::string& svg, const std::string& where, const std::string& field) {
  if (!valid_utf8(svg)) fail(where, field, "is not UTF-8");
  for (std::size_t i = 0; i < svg.size(); ++i)
    if (static_cast<unsigned char>(svg[i]) < 0x20 && svg[i] != '\n' && svg[i] != '\t' && svg[i] != '\r')
      fail(where, field, fmt::format("a control character at byte {}", i + 1));
  std::string low = svg;
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const std::string_view bad : {"<script", "javascript:", "<foreignobject", "href", "<!", "<?"})
    if (low.find(bad) != std::string::npos) fail(where, field, fmt::format("may not hold \"{}\"", bad));
  if (has_event_handler(low)) fail(where, field, "may not hold event handlers (on...=)");
  std::vector<std::string> open;
  std::size_t i = 0;
  while ((i = svg.find('<', i)) != std::string::npos) {
    const std::size_t e = svg.find('>', i);
    if (e == std::string::npos) fail(where, field, fmt::format("a tag at byte {} does not end", i + 1));
    std::string tag = svg.substr(i + 1, e - i - 1);
    i = e + 1;
    if (tag.empty()) fail(where, field, "an empty tag");
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        fail(where, field, fmt::format("</{}> closes {}", printable(name), open.empty() ? "nothing" : "<" + open.back() + ">"));
      open.pop_back();
      continue;
    }
    if (tag.back() == '/') continue;
    open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
  }
  if (!open.empty()) fail(where, field, fmt::format("<{}> is not closed", printable(open.back())));
}

// Attributes quoted with ' (easier to write in JSON) requoted with ", as every SVG the program
// writes quotes them: name='v' becomes name="v" inside tags (a value holding " keeps its quotes).
std::string requote(const std::string& svg) {
  std::string out = svg;
  bool in_tag = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '<') in_tag = true;
    else if (out[i] == '>') in_tag = false;
    else if (in_tag && out[i] == '=' && i + 1 < out.size() && out[i + 1] == '\'') {
      const std::size_t e = out.find('\'', i + 2);
      if (e == std::string::npos) break;
      if (out.substr(i + 2, e - i - 2).find('"') == std::string::npos) {
        out[i + 1] = '"';
        out[e] = '"';
      }
      i = e;
    }
  }
  return out;
}

FeatureStyle style(const json& j, const std::string& where, const std::string& field, FeatureStyle s) {
  check_keys(j, where, field, {"fill", "edge", "class", "badge", "glyph", "dead_end", "texture", "stones"});
  if (j.contains("fill")) s.fill = colour(j["fill"], where, field + ".fill");
  if (j.contains("edge")) s.edge = colour(j["edge"], where, field + ".edge");
  if (j.contains("class")) {
    s.css = str(j["class"], where, field + ".class");
    s.css_set = true;
    for (const char c : s.css)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
        fail(where, field + ".class", "letters, digits, - and _ only");
  }
  if (j.contains("badge")) s.badge = str(j["badge"], where, field + ".badge");
  if (j.contains("glyph")) s.glyph = str(j["glyph"], where, field + ".glyph");
  if (j.contains("dead_end")) {
    const std::string d = str(j["dead_end"], where, field + ".dead_end");
    if (d != "round" && d != "square") fail(where, field + ".dead_end", "must be \"round\" or \"square\"");
    s.round_end = d == "round";
  }
  if (j.contains("texture")) s.texture = str(j["texture"], where, field + ".texture");
  if (j.contains("stones")) s.stones = colour(j["stones"], where, field + ".stones");
  if (s.fill.empty() || s.edge.empty()) fail(where, field, "needs a fill and an edge");
  return s;
}

// "{{name}}" references expanded, each glyph at most 8 deep (a cycle is an error).
std::string expand(const Look& l, const std::string& name, int depth) {
  const auto it = l.glyphs.find(name);
  if (depth > 8) fail(l.where, "glyphs." + name, "references nest deeper than 8 (a cycle?)");
  std::string out, svg = it->second.svg;
  std::size_t i = 0;
  while (true) {
    const std::size_t a = svg.find("{{", i);
    if (a == std::string::npos) break;
    const std::size_t b = svg.find("}}", a);
    if (b == std::string::npos) fail(l.where, "glyphs." + name + ".svg", "\"{{\" without \"}}\"");
    const std::string ref = svg.substr(a + 2, b - a - 2);
    if (!l.glyphs.count(ref)) fail(l.where, "glyphs." + name + ".svg", fmt::format("refers to no glyph \"{}\"", printable(ref)));
    out += svg.substr(i, a - i) + expand(l, ref, depth + 1);
    i = b + 2;
  }
  return out + svg.substr(i);
}

void need_glyph(const Look& l, const std::string& name, const std::string& field) {
  if (!l.glyphs.count(name)) fail(l.where, field, fmt::format("no glyph \"{}\"", printable(name)));
}

// Printable text for a terminal: UTF-8 without control characters (no escapes).
std::string term_text(const json& j, const std::string& where, const std::string& field) {
  const std::string t = str(j, where, field);
  if (!valid_utf8(t)) fail(where, field, "is not UTF-8");
  for (const char c : t)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) fail(where, field, "may not hold control characters");
  return t;
}

std::size_t code_points(std::string_view t) {
  std::size_t n = 0;
  for (const char c : t) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// A terminal mark: {"mark", "fg", "bg"} (and for an overlay glyph "seat"); `most`: its longest mark.
TermMark term_mark_of(const json& j, const std::string& where, const std::string& field, std::size_t most, bool glyph) {
  if (glyph)
    check_keys(j, where, field, {"mark", "fg", "bg", "seat"});
  else
    check_keys(j, where, field, {"mark", "fg", "bg"});
  TermMark m;
  if (j.contains("mark")) m.mark = term_text(j["mark"], where, field + ".mark");
  if (j.contains("seat")) {
    if (!j["seat"].is_boolean()) fail(where, field + ".seat", "must be true or false");
    m.seat = j["seat"].get<bool>();
  }
  const std::size_t n = code_points(m.mark);
  if (!m.seat && (n == 0 || n > most))
    fail(where, field + ".mark", most == 1 ? "must be one character" : fmt::format("must be 1 to {} characters", most));
  if (m.seat && n > 0) fail(where, field, "a seat's piece has no mark of its own");
  for (const auto& [key, slot] : {std::pair{"fg", &m.fg}, std::pair{"bg", &m.bg}}) {
    if (!j.contains(key)) continue;
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 255)
      fail(where, field + "." + key, "must be a colour number 0..255 (256-colour ANSI)");
    *slot = static_cast<int>(v.get<long long>());
  }
  return m;
}

void terminal_section(const json& t, const std::string& where, TerminalLook& out) {
  check_keys(t, where, "terminal", {"marks", "glyphs", "legend"});
  if (t.contains("marks")) {
    if (!t["marks"].is_object()) fail(where, "terminal.marks", "must be an object");
    for (const auto& [k, v] : t["marks"].items())
      out.marks[k] = term_mark_of(v, where, "terminal.marks." + k, 1, false);
  }
  if (t.contains("glyphs")) {
    if (!t["glyphs"].is_object()) fail(where, "terminal.glyphs", "must be an object");
    for (const auto& [k, v] : t["glyphs"].items())
      out.glyphs[k] = term_mark_of(v, where, "terminal.glyphs." + k, 4, true);
  }
  if (t.contains("legend")) {
    if (!t["legend"].is_array()) fail(where, "terminal.legend", "must be a list of strings");
    out.legend.clear();
    for (std::size_t i = 0; i < t["legend"].size(); ++i)
      out.legend.push_back(term_text(t["legend"][i], where, fmt::format("terminal.legend[{}]", i)));
  }
}

}  // namespace

Look parse_look(std::string_view text, const std::string& where, const Look* base) {
  Look l = base ? *base : Look{};
  l.where = where;
  json j;
  j = jin::parse(text, where);
  check_keys(j, where, "",
             {"comment", "classes", "features", "pieces", "glyphs", "symbols", "hand", "key", "track", "terminal"});
  if (j.contains("classes")) {
    check_keys(j["classes"], where, "classes", {"path", "river", "area", "field", "centre", "point"});
    for (const auto& [k, v] : j["classes"].items()) l.classes[k] = style(v, where, "classes." + k, l.classes[k]);
  }
  if (j.contains("features")) {
    if (!j["features"].is_object()) fail(where, "features", "must be an object");
    for (const auto& [k, v] : j["features"].items()) l.features[k] = style(v, where, "features." + k, l.features[k]);
  }
  std::set<std::string> fresh;
  if (j.contains("glyphs")) {
    if (!j["glyphs"].is_object()) fail(where, "glyphs", "must be an object");
    for (const auto& [k, v] : j["glyphs"].items()) {
      const std::string f = "glyphs." + k;
      if (k.empty() || k.find_first_of(" {}\"'<>&") != std::string::npos) fail(where, f, "a glyph's name may not hold spaces, braces, quotes or markup");
      check_keys(v, where, f, {"svg", "title", "size", "seat"});
      Glyph g;
      g.svg = str(v.value("svg", json()), where, f + ".svg");
      check_svg(g.svg, where, f + ".svg");
      if (v.contains("title")) g.title = str(v["title"], where, f + ".title");
      if (v.contains("size")) {
        if (!v["size"].is_number() || v["size"].get<double>() <= 0 || v["size"].get<double>() > 256)
          fail(where, f + ".size", "must be a number in (0, 256]");
        g.size = v["size"].get<double>();
      }
      if (v.contains("seat")) {
        if (!v["seat"].is_boolean()) fail(where, f + ".seat", "must be true or false");
        g.seat = v["seat"].get<bool>();
      }
      l.glyphs[k] = std::move(g);
      fresh.insert(k);
    }
  }
  if (j.contains("symbols")) {
    if (!j["symbols"].is_object()) fail(where, "symbols", "must be an object");
    for (const auto& [k, v] : j["symbols"].items()) {
      std::vector<std::string> names;
      if (v.is_string()) names.push_back(v.get<std::string>());
      else if (v.is_array() && !v.empty())
        for (std::size_t i = 0; i < v.size(); ++i) names.push_back(str(v[i], where, fmt::format("symbols.{}[{}]", k, i)));
      else fail(where, "symbols." + k, "must be a glyph's name or a list of them");
      l.symbols[k] = names;
    }
  }
  if (j.contains("pieces")) {
    if (!j["pieces"].is_object()) fail(where, "pieces", "must be an object");
    for (const auto& [k, v] : j["pieces"].items()) l.pieces[k] = str(v, where, "pieces." + k);
  }
  if (j.contains("hand")) {
    l.hand = str(j["hand"], where, "hand");
    if (l.hand.find("{}") == std::string::npos) fail(where, "hand", "must hold \"{}\" (the name of what is held)");
  }
  if (j.contains("key")) {
    if (!j["key"].is_array()) fail(where, "key", "must be a list");
    l.key.clear();
    for (std::size_t i = 0; i < j["key"].size(); ++i) {
      const json& e = j["key"][i];
      const std::string f = fmt::format("key[{}]", i);
      KeyItem k;
      if (e.is_string()) {
        k.glyph = e.get<std::string>();
      } else {
        check_keys(e, where, f, {"glyph", "label", "scale"});
        k.glyph = str(e.value("glyph", json()), where, f + ".glyph");
        if (e.contains("label")) k.label = str(e["label"], where, f + ".label");
        if (e.contains("scale")) {
          if (!e["scale"].is_number() || e["scale"].get<double>() <= 0) fail(where, f + ".scale", "must be a positive number");
          k.scale = e["scale"].get<double>();
        }
      }
      l.key.push_back(k);
    }
  }
  if (j.contains("track")) {
    const json& t = j["track"];
    check_keys(t, where, "track", {"fill", "edge", "space", "last", "text", "bank"});
    if (t.contains("fill")) l.track.fill = colour(t["fill"], where, "track.fill");
    if (t.contains("edge")) l.track.edge = colour(t["edge"], where, "track.edge");
    if (t.contains("space")) l.track.space = colour(t["space"], where, "track.space");
    if (t.contains("last")) l.track.last = colour(t["last"], where, "track.last");
    if (t.contains("text")) l.track.text = colour(t["text"], where, "track.text");
    if (t.contains("bank")) l.track.bank = colour(t["bank"], where, "track.bank");
  }
  if (j.contains("terminal")) terminal_section(j["terminal"], where, l.terminal);
  // every reference names a glyph; this look's glyphs expanded (the base's are already)
  for (const std::string& k : fresh) l.glyphs[k].svg = requote(expand(l, k, 0));
  for (const auto& [k, v] : l.symbols)
    for (const std::string& g : v) need_glyph(l, g, "symbols." + k);
  for (const auto& [k, v] : l.pieces) need_glyph(l, v, "pieces." + k);
  for (std::size_t i = 0; i < l.key.size(); ++i) need_glyph(l, l.key[i].glyph, fmt::format("key[{}]", i));
  for (const auto& [k, v] : l.features) {
    if (!v.badge.empty()) need_glyph(l, v.badge, "features." + k + ".badge");
    if (!v.glyph.empty()) need_glyph(l, v.glyph, "features." + k + ".glyph");
    if (!v.texture.empty()) need_glyph(l, v.texture, "features." + k + ".texture");
  }
  for (const auto& [k, v] : l.classes)
    if (!v.texture.empty()) need_glyph(l, v.texture, "classes." + k + ".texture");
  for (const auto& [k, v] : l.terminal.glyphs) need_glyph(l, k, "terminal.glyphs." + k);
  return l;
}

const Look& generic_look() {
  static const Look look = [] {
    Look l = parse_look(kGenericLook, "src/view/look.json", nullptr);
    for (const std::string_view c : {"path", "river", "area", "field", "centre", "point"})
      if (!l.classes.count(c)) fail(l.where, "classes", fmt::format("needs a style for \"{}\"", c));
    for (const std::string_view g : {"meeple", "tent", "house", "building", "cross", "track-piece"})
      if (!l.glyphs.count(g)) fail(l.where, "glyphs", fmt::format("needs a glyph \"{}\"", g));
    return l;
  }();
  return look;
}

const Look& look_of(const GameDef& game) {
  static std::mutex mu;
  static std::map<const GameDef*, std::unique_ptr<const Look>> looks;
  const std::lock_guard lock(mu);
  auto& slot = looks[&game];
  if (!slot) {
    const std::string where = fmt::format("src/games/{}/look.json", game.id);
    Look l = game.present.look.empty() ? generic_look() : parse_look(game.present.look, where, &generic_look());
    for (const auto& [k, v] : l.features) {
      bool known = false;
      for (const FeatureTypeDef& ft : game.ftypes) known = known || ft.name == k;
      if (!known) fail(where, "features." + k, fmt::format("the game has no feature type \"{}\"", k));
    }
    for (const auto& [k, v] : l.terminal.marks) {  // a symbol, a special or a feature type of the game
      bool known = std::find(game.specials.begin(), game.specials.end(), k) != game.specials.end();
      for (const FeatureTypeDef& ft : game.ftypes)
        known = known || ft.name == k || std::find(ft.attrs.begin(), ft.attrs.end(), k) != ft.attrs.end();
      if (!known)
        fail(where, "terminal.marks." + k, fmt::format("the game has no symbol, special or feature type \"{}\"", k));
    }
    slot = std::make_unique<const Look>(std::move(l));
  }
  return *slot;
}

const FeatureStyle& style_of(const Look& look, const FeatureTypeDef& ft) {
  if (const auto it = look.features.find(ft.name); it != look.features.end()) return it->second;
  std::string_view c = "point";
  switch (ft.cls) {
    case FClass::Path: c = ft.claimable ? "path" : "river"; break;
    case FClass::Area: c = "area"; break;
    case FClass::Field: c = "field"; break;
    case FClass::Centre: c = "centre"; break;
    case FClass::Point: c = "point"; break;
  }
  return look.classes.find(c)->second;
}

const Glyph* glyph_of(const Look& look, std::string_view name) {
  const auto it = look.glyphs.find(name);
  return it == look.glyphs.end() ? nullptr : &it->second;
}

std::string symbol_glyph(const Look& look, std::string_view name, int k) {
  if (const auto it = look.symbols.find(name); it != look.symbols.end())
    return it->second[static_cast<std::size_t>(k) % it->second.size()];
  return look.glyphs.count(name) ? std::string(name) : std::string();
}

std::string piece_glyph(const Look& look, std::string_view name, int kind, bool network) {
  if (const auto it = look.pieces.find(name); it != look.pieces.end()) return it->second;
  if (network)
    if (const auto it = look.pieces.find("network"); it != look.pieces.end()) return it->second;
  if (const auto it = look.pieces.find(std::to_string(kind)); it != look.pieces.end()) return it->second;
  return "meeple";
}

const TermMark* term_mark(const Look& look, std::string_view name) {
  const auto it = look.terminal.marks.find(name);
  return it == look.terminal.marks.end() ? nullptr : &it->second;
}

const TermMark* term_glyph(const Look& look, std::string_view glyph) {
  const auto it = look.terminal.glyphs.find(glyph);
  return it == look.terminal.glyphs.end() ? nullptr : &it->second;
}

json look_json(const Look& look) {
  json glyphs = json::object();
  for (const auto& [k, g] : look.glyphs) {
    json e = {{"svg", g.svg}, {"size", g.size}};
    if (!g.title.empty()) e["title"] = g.title;
    if (g.seat) e["seat"] = true;
    glyphs[k] = e;
  }
  json features = json::object();
  for (const auto& [k, f] : look.features) features[k] = {{"fill", f.fill}, {"edge", f.edge}};
  json pieces = json::object();
  for (const auto& [k, v] : look.pieces) pieces[k] = v;
  json symbols = json::object();
  for (const auto& [k, v] : look.symbols) symbols[k] = v;
  json out = {{"glyphs", glyphs}, {"features", features}, {"pieces", pieces}, {"symbols", symbols}};
  if (!look.hand.empty()) out["hand"] = look.hand;
  return out;
}

}  // namespace carc::view
