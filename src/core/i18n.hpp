#pragma once
// Messages in the players' languages (docs/i18n.md).
//
// Every sentence a player reads is a message: an id and named parameters, whose text in each
// language is in a catalog (a JSON file beside the code that owns the words: a game's
// src/games/<game>/messages.json, the engine's src/rules/messages.json, the terminal's
// src/cli/messages.json), compiled in. A text holds "{name}" for a parameter and
// "{name|form|form...}" for a form chosen by the plural rule of the language from the parameter's
// number ("#" in a form stands for the number): English one|other, Russian one|few|many,
// Romanian one|few|other.
//
// The language is the calling thread's (Scope sets it for a block): a view, a terminal screen
// or a protocol answer is built in one language, and the rules below it need not carry one.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace carc::i18n {

// En, Ru and Ro are the players' languages, written in the catalogs. Xx is the pseudo-locale
// ("xx", never offered to players): every text is its English one visibly altered (letters
// accented, lengthened by a third, bracketed; see pseudo()), so that a screen in it shows at once
// which words did not come from a message.
enum class Lang : std::uint8_t { En, Ru, Ro, Xx };
inline constexpr int kLangs = 4;  // slots of a per-language array (the pseudo-locale's too)
inline constexpr std::array<Lang, 3> kAllLangs = {Lang::En, Lang::Ru, Lang::Ro};  // written languages
inline constexpr std::array<Lang, kLangs> kEveryLang = {Lang::En, Lang::Ru, Lang::Ro, Lang::Xx};

// "en", "ru", "ro" (and "xx", the pseudo-locale); also a locale or browser tag ("ru-RU",
// "ro_RO.UTF-8"). nullopt otherwise.
std::optional<Lang> parse_lang(std::string_view text);
std::string_view code(Lang l);
// The language's own name ("Русский").
std::string_view native_name(Lang l);
// Plural forms a text gives for a number, and which of them a number takes.
int plural_forms(Lang l);
int plural_index(Lang l, long long n);

// One parameter: a name and a text or a number (a number can choose a plural form).
struct Arg {
  std::string_view name;
  std::string text;
  long long num = 0;
  bool is_num = false;
  Arg(std::string_view n, std::string t) : name(n), text(std::move(t)) {}
  Arg(std::string_view n, const char* t) : name(n), text(t) {}
  Arg(std::string_view n, std::string_view t) : name(n), text(t) {}
  Arg(std::string_view n, int v) : name(n), text(std::to_string(v)), num(v), is_num(true) {}
  Arg(std::string_view n, long long v) : name(n), text(std::to_string(v)), num(v), is_num(true) {}
  Arg(std::string_view n, std::size_t v) : Arg(n, static_cast<long long>(v)) {}
};

class Catalog {
 public:
  // Parses and checks a catalog: an object of id -> {"en": text, "ru": text, "ro": text,
  // "note": "for translators"}; every message has English; the other languages use no parameter the
  // English text does not, and give as many plural forms as their rule has. Throws InputError naming the catalog,
  // the id and the language.
  static Catalog parse(std::string_view json_text, std::string name);

  const std::string& name() const { return name_; }
  // The text of `id` in `l`; nullptr when the catalog has no such id or no text in that language.
  const std::string* find(std::string_view id, Lang l) const;
  bool has(std::string_view id) const { return find(id, Lang::En) != nullptr; }
  // Every id, sorted; the ids without a text in `l`, sorted.
  std::vector<std::string> ids() const;
  std::vector<std::string> missing(Lang l) const;
  // The parameter names a message's English text uses.
  std::vector<std::string> params(std::string_view id) const;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::string name_;
  std::unordered_map<std::string, std::array<std::string, kLangs>, Hash, std::equal_to<>> texts_;
};

// The catalog compiled from `json_text` (a string with static storage, e.g. an embedded file),
// parsed and checked once. Throws InputError if it is not valid.
const Catalog& catalog(std::string_view json_text, std::string_view name);

// The calling thread's language (English until a Scope sets another).
Lang current();
class Scope {
 public:
  explicit Scope(Lang l);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Lang saved_;
};

// The pseudo-locale's text for an English one: ASCII letters accented (a -> á ...), a text of
// three letters or more bracketed and lengthened by a third ("[Ýóú ŵóñ ~~]"); parameters and
// their names are kept (plural forms are altered like text, '#' kept), and so is what stands in
// ASCII double quotes, which is what a player types (notation, commands).
std::string pseudo(std::string_view english);

// A text with its parameters put in, in language `l` (plural forms by `l`'s rule).
std::string format(std::string_view text, const std::vector<Arg>& args, Lang l);

// The message `id` from the first catalog of `chain` that has it, in the current language (its
// English text when that language has none). An id no catalog has gives "[id]" (a test checks
// that every id the code uses is in a catalog).
std::string say(std::initializer_list<const Catalog*> chain, std::string_view id, const std::vector<Arg>& args = {});

}  // namespace carc::i18n
