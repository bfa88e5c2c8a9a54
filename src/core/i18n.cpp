#include "core/i18n.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "core/core.hpp"
#include "core/io.hpp"

namespace carc::i18n {

namespace {

thread_local Lang tl_lang = Lang::En;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw InputError(fmt::format("{}: {}", where, what));
}

// The parts of a text: literal runs and {name} or {name|form|...} parameters.
struct Param {
  std::string name;
  std::vector<std::string> forms;  // empty: a plain parameter
};

// Splits `text` into its parameters (checked: braces balanced, names of [a-z0-9_]).
std::vector<Param> params_of(std::string_view text, const std::string& where) {
  std::vector<Param> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '}') bad(where, fmt::format("a '}}' at byte {} closes nothing", i + 1));
    if (text[i] != '{') continue;
    const std::size_t e = text.find('}', i);
    if (e == std::string_view::npos) bad(where, fmt::format("the '{{' at byte {} is not closed", i + 1));
    const std::string_view inner = text.substr(i + 1, e - i - 1);
    if (inner.find('{') != std::string_view::npos)
      bad(where, fmt::format("a '{{' inside a parameter at byte {}", i + 1));
    Param p;
    std::size_t bar = inner.find('|');
    p.name = std::string(inner.substr(0, bar));
    if (p.name.empty() || !std::all_of(p.name.begin(), p.name.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        }))
      bad(where, fmt::format("\"{{{}}}\" is not a parameter (a name of a-z, 0-9, _)", inner));
    while (bar != std::string_view::npos) {
      const std::size_t next = inner.find('|', bar + 1);
      p.forms.emplace_back(
          inner.substr(bar + 1, next == std::string_view::npos ? std::string_view::npos : next - bar - 1));
      bar = next;
    }
    out.push_back(std::move(p));
    i = e;
  }
  return out;
}

std::set<std::string> names_of(const std::vector<Param>& ps) {
  std::set<std::string> out;
  for (const Param& p : ps) out.insert(p.name);
  return out;
}

// The pseudo-locale's letter for an ASCII letter (UTF-8), nullptr for any other byte.
const char* pseudo_letter(char c) {
  static constexpr const char* kLower[26] = {"á", "ƀ", "ç", "đ", "é", "ƒ", "ĝ", "ĥ", "í", "ĵ", "ķ", "ĺ", "ɱ",
                                             "ñ", "ó", "þ", "ǫ", "ŕ", "š", "ţ", "ú", "ṽ", "ŵ", "ẋ", "ý", "ž"};
  static constexpr const char* kUpper[26] = {"Á", "Ɓ", "Ç", "Đ", "É", "Ƒ", "Ĝ", "Ĥ", "Í", "Ĵ", "Ķ", "Ĺ", "Ṁ",
                                             "Ñ", "Ó", "Þ", "Ǫ", "Ŕ", "Š", "Ţ", "Ú", "Ṽ", "Ŵ", "Ẋ", "Ý", "Ž"};
  if (c >= 'a' && c <= 'z') return kLower[c - 'a'];
  if (c >= 'A' && c <= 'Z') return kUpper[c - 'A'];
  return nullptr;
}

}  // namespace

std::string pseudo(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 2 + 8);
  int letters = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') quoted = !quoted;
    if (c == '{' && !quoted) {  // a parameter: its name kept, its plural forms altered
      const std::size_t e = text.find('}', i);
      if (e == std::string_view::npos) {
        out.append(text.substr(i));
        break;
      }
      const std::string_view inner = text.substr(i, e - i + 1);
      const std::size_t bar = inner.find('|');
      out.append(inner.substr(0, bar == std::string_view::npos ? inner.size() : bar));
      if (bar != std::string_view::npos)
        for (const char f : inner.substr(bar)) {
          const char* p = pseudo_letter(f);
          out.append(p ? std::string_view(p) : std::string_view(&f, 1));
          letters += p ? 1 : 0;
        }
      i = e;
      continue;
    }
    const char* p = quoted ? nullptr : pseudo_letter(c);
    if (p) {
      out.append(p);
      ++letters;
    } else {
      out.push_back(c);
    }
  }
  if (letters < 3) return out;  // a mark or a symbol: altered, not lengthened (it may be one cell)
  // the padding and the bracket go before a trailing line break or space, which stays last
  const std::size_t end = out.find_last_not_of(" \n") + 1;
  std::string pad;  // in runs of 10, so that a long text's padding wraps like words
  for (int k = 0; k < (letters + 2) / 3; ++k) pad += k > 0 && k % 10 == 0 ? " ~" : "~";
  return "[" + out.substr(0, end) + " " + pad + "]" + out.substr(end);
}

std::optional<Lang> parse_lang(std::string_view text) {
  const std::string t = lower(text.substr(0, std::min(text.find_first_of("-_.@"), text.size())));
  if (t == "en") return Lang::En;
  if (t == "ru") return Lang::Ru;
  if (t == "ro") return Lang::Ro;
  if (t == "xx") return Lang::Xx;
  return std::nullopt;
}

std::string_view code(Lang l) {
  switch (l) {
    case Lang::Ru:
      return "ru";
    case Lang::Ro:
      return "ro";
    case Lang::Xx:
      return "xx";
    case Lang::En:
      break;
  }
  return "en";
}

std::string_view native_name(Lang l) {
  switch (l) {
    case Lang::Ru:
      return "Русский";
    case Lang::Ro:
      return "Română";
    case Lang::Xx:
      return "Pseudo";
    case Lang::En:
      break;
  }
  return "English";
}

int plural_forms(Lang l) { return l == Lang::En || l == Lang::Xx ? 2 : 3; }

int plural_index(Lang l, long long n) {
  const long long a = n < 0 ? -n : n;
  switch (l) {
    case Lang::En:
    case Lang::Xx:
      return a == 1 ? 0 : 1;
    case Lang::Ru:  // CLDR: one (1, 21, 31...), few (2-4, 22-24...), many (the rest)
      if (a % 10 == 1 && a % 100 != 11) return 0;
      if (a % 10 >= 2 && a % 10 <= 4 && (a % 100 < 12 || a % 100 > 14)) return 1;
      return 2;
    case Lang::Ro:  // CLDR: one (1), few (0, 2-19, 101-119...), other (20, 21...)
      if (a == 1) return 0;
      if (a == 0 || (a % 100 >= 1 && a % 100 <= 19)) return 1;
      return 2;
  }
  return 0;
}

Catalog Catalog::parse(std::string_view json_text, std::string name) {
  Catalog c;
  c.name_ = std::move(name);
  const std::string& cn = c.name_;
  if (!valid_utf8(json_text)) bad(cn, "not valid UTF-8");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    bad(cn, fmt::format("not JSON: {}", e.what()));
  }
  if (!j.is_object()) bad(cn, "must be an object of message id -> texts");
  for (const auto& [id, m] : j.items()) {
    const std::string where = fmt::format("{}: {}", cn, id);
    if (id.empty() || !std::all_of(id.begin(), id.end(), [](char ch) {
          return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        }))
      bad(where, "a message id is made of a-z, 0-9, '.', '_' and '-'");
    if (!m.is_object()) bad(where, "must be an object of language -> text");
    std::array<std::string, kLangs> texts;
    std::set<std::string> en_names;
    std::set<std::string> extra;  // "params": parameters the caller gives that English leaves out
    for (const auto& [key, v] : m.items()) {
      if (key == "note") {
        if (!v.is_string()) bad(where + ".note", "must be a string");
        continue;
      }
      if (key == "params") {
        if (!v.is_array()) bad(where + ".params", "must be an array of parameter names");
        for (const auto& x : v) {
          if (!x.is_string() || x.get<std::string>().empty())
            bad(where + ".params", "must be an array of parameter names");
          extra.insert(x.get<std::string>());
        }
        continue;
      }
      const auto l = parse_lang(key);
      if (!l || key != code(*l) || *l == Lang::Xx)
        bad(where + "." + key, "unknown field (languages: en, ru, ro; or note, params)");
      if (!v.is_string()) bad(where + "." + key, "must be a string");
      const std::string text = v.get<std::string>();
      if (text.empty()) bad(where + "." + key, "is empty (leave the language out instead)");
      for (const char ch : text)
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n') bad(where + "." + key, "holds a control character");
      const auto ps = params_of(text, where + "." + key);
      for (const Param& p : ps)
        if (!p.forms.empty() && static_cast<int>(p.forms.size()) != plural_forms(*l))
          bad(where + "." + key,
              fmt::format("{{{}|...}} gives {} forms; {} has {}", p.name, p.forms.size(), key, plural_forms(*l)));
      texts[static_cast<std::size_t>(*l)] = text;
    }
    if (texts[0].empty()) bad(where, "has no English text (en)");
    en_names = names_of(params_of(texts[0], where));
    for (std::size_t k = 1; k < kAllLangs.size(); ++k) {
      if (texts[k].empty()) continue;
      const auto names = names_of(params_of(texts[k], where));
      for (const std::string& n : names)
        if (!en_names.count(n) && !extra.count(n))
          bad(where + "." + std::string(code(kAllLangs[k])),
              fmt::format("uses the parameter {{{}}}, which the English text does not (nor its \"params\")", n));
    }
    texts[static_cast<std::size_t>(Lang::Xx)] = pseudo(texts[0]);
    c.texts_.emplace(id, std::move(texts));
  }
  return c;
}

const std::string* Catalog::find(std::string_view id, Lang l) const {
  const auto it = texts_.find(id);
  if (it == texts_.end()) return nullptr;
  const std::string& t = it->second[static_cast<std::size_t>(l)];
  return t.empty() ? nullptr : &t;
}

std::vector<std::string> Catalog::ids() const {
  std::vector<std::string> out;
  for (const auto& [id, t] : texts_) out.push_back(id);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Catalog::missing(Lang l) const {
  std::vector<std::string> out;
  for (const auto& [id, t] : texts_)
    if (t[static_cast<std::size_t>(l)].empty()) out.push_back(id);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Catalog::params(std::string_view id) const {
  const std::string* t = find(id, Lang::En);
  if (!t) return {};
  const auto names = names_of(params_of(*t, name_));
  return {names.begin(), names.end()};
}

const Catalog& catalog(std::string_view json_text, std::string_view name) {
  static std::mutex mu;
  static std::map<const char*, std::unique_ptr<Catalog>> parsed;
  const std::lock_guard lock(mu);
  auto& slot = parsed[json_text.data()];
  if (!slot) slot = std::make_unique<Catalog>(Catalog::parse(json_text, std::string(name)));
  return *slot;
}

Lang current() { return tl_lang; }
Scope::Scope(Lang l) : saved_(tl_lang) { tl_lang = l; }
Scope::~Scope() { tl_lang = saved_; }

std::string format(std::string_view text, const std::vector<Arg>& args, Lang l) {
  std::string out;
  out.reserve(text.size() + 16);
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t b = text.find('{', i);
    if (b == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, b - i));
    const std::size_t e = text.find('}', b);
    if (e == std::string_view::npos) {  // checked at parse; kept whole if not
      out.append(text.substr(b));
      break;
    }
    const std::string_view inner = text.substr(b + 1, e - b - 1);
    const std::size_t bar = inner.find('|');
    const std::string_view name = inner.substr(0, bar);
    const Arg* a = nullptr;
    for (const Arg& x : args)
      if (x.name == name) a = &x;
    if (!a) {
      out.append(text.substr(b, e - b + 1));  // a parameter the caller did not give stays visible
    } else if (bar == std::string_view::npos) {
      out.append(a->text);
    } else {
      std::vector<std::string_view> forms;
      for (std::size_t k = bar; k != std::string_view::npos;) {
        const std::size_t next = inner.find('|', k + 1);
        forms.push_back(inner.substr(k + 1, next == std::string_view::npos ? std::string_view::npos : next - k - 1));
        k = next;
      }
      const int idx = std::min(plural_index(l, a->num), static_cast<int>(forms.size()) - 1);
      const std::string_view form = forms[static_cast<std::size_t>(idx)];
      for (const char ch : form)
        if (ch == '#')
          out.append(a->text);
        else
          out.push_back(ch);
    }
    i = e + 1;
  }
  return out;
}

std::string say(std::initializer_list<const Catalog*> chain, std::string_view id, const std::vector<Arg>& args) {
  const Lang l = current();
  for (const Catalog* c : chain) {
    if (!c) continue;
    if (const std::string* t = c->find(id, l)) return format(*t, args, l);
    if (const std::string* t = c->find(id, Lang::En)) return format(*t, args, Lang::En);
  }
  return fmt::format("[{}]", id);
}

}  // namespace carc::i18n
