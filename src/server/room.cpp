#include "server/room.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "ai/bots.hpp"
#include "ai/mcts.hpp"
#include "core/core.hpp"
#include "core/json_input.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"
#include "server/crypto.hpp"
#include "view/view.hpp"

namespace carc::server {

using nlohmann::json;

namespace {

constexpr const char* kWhere = "request";
constexpr std::size_t kMaxMoves = 16;  // decisions in one turn command


json settings_json(const Settings& s) {
  json seats = json::array();
  for (const SeatConf& c : s.seats) seats.push_back({{"name", c.name}, {"bot", c.bot}, {"token_hash", c.token_hash}});
  json opts = json::object();
  for (const auto& [k, v] : s.options) opts[k] = v;
  return {{"options", opts},
          {"seats", seats},
          {"clock", {{"type", s.clock}, {"bank_ms", s.bank_ms}, {"increment_ms", s.increment_ms}, {"move_ms", s.move_ms}}},
          {"absence", {{"grace_ms", s.grace_ms}, {"policy", s.absence}, {"bot", s.stand_in}}},
          {"salt", s.salt},
          {"request_hash", s.request_hash}};
}

Settings settings_of(const std::string& text) {
  const json j = json::parse(text);
  Settings s;
  for (const auto& [k, v] : j.at("options").items()) s.options.emplace_back(k, v.get<std::string>());
  for (const json& c : j.at("seats")) s.seats.push_back({c.at("name").get<std::string>(), c.at("bot").get<std::string>(), c.at("token_hash").get<std::string>()});
  const json& ck = j.at("clock");
  s.clock = ck.at("type").get<std::string>();
  s.bank_ms = ck.at("bank_ms").get<std::int64_t>();
  s.increment_ms = ck.at("increment_ms").get<std::int64_t>();
  s.move_ms = ck.at("move_ms").get<std::int64_t>();
  const json& ab = j.at("absence");
  s.grace_ms = ab.at("grace_ms").get<std::int64_t>();
  s.absence = ab.at("policy").get<std::string>();
  s.stand_in = ab.at("bot").get<std::string>();
  s.salt = j.value("salt", "");  // games stored before salts have none
  s.request_hash = j.value("request_hash", "");
  return s;
}

std::vector<std::string> option_settings(const Settings& s) {
  std::vector<std::string> out;
  for (const auto& [k, v] : s.options) out.push_back(k + "=" + v);
  return out;
}

std::vector<PlayerInfo> players_of(const Settings& s) {
  std::vector<PlayerInfo> out;
  for (const SeatConf& c : s.seats) out.push_back({c.name, c.bot});
  return out;
}

// Seconds from a request field as ms, within [lo, hi] seconds.
std::int64_t seconds_ms(const json& o, const char* key, double lo, double hi, std::string_view ctx) {
  const json* v = jin::opt(o, key);
  if (!v) throw InputError(fmt::format("{}: {}.{}: missing", kWhere, ctx, key));
  if (!v->is_number()) throw InputError(fmt::format("{}: {}.{}: expected a number of seconds", kWhere, ctx, key));
  const double x = v->get<double>();
  if (!(x >= lo && x <= hi)) throw InputError(fmt::format("{}: {}.{}: {} is out of range ({} to {} seconds)", kWhere, ctx, key, x, lo, hi));
  return static_cast<std::int64_t>(x * 1000.0);
}

void only(const json& o, std::initializer_list<const char*> keys, std::string_view ctx) {
  for (const auto& item : o.items()) {
    const std::string& k = item.key();
    if (std::none_of(keys.begin(), keys.end(), [&k](const char* x) { return k == x; }))
      throw InputError(fmt::format("{}: {}: unknown field \"{}\"", kWhere, ctx, printable(k)));
  }
}

void add_event(std::vector<Event>& out, std::int64_t& seq, std::string type, int seat, std::string cid, std::int64_t now, const json& body) {
  Event e;
  e.seq = ++seq;
  e.type = std::move(type);
  e.seat = seat;
  e.cid = std::move(cid);
  e.time = now;
  e.body = body.dump();
  out.push_back(std::move(e));
}

// A letter in lower case by Unicode's simple case folding, for the scripts of the server's
// languages and their neighbours: ASCII, Latin-1, Latin Extended-A, Romanian's comma letters
// (U+0218-021B), Greek and Cyrillic. Anything else is itself.
char32_t fold_case(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  if (c == 0x130) return 'i';
  if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177) || (c >= 0x218 && c <= 0x21B)) return c | 1;
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c + 1 : c;
  if (c == 0x178) return 0xFF;
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

bool is_space(char32_t c) {
  return c == ' ' || c == '\t' || c == 0xA0 || c == 0x3000 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F ||
         c == 0x205F;
}

// What tells seats' names apart (a `name` command may not take another seat's): the name without
// spaces at its ends, each run of spaces as one, letters folded to lower case (fold_case), so that
// "Ann", "ann" and " ANN " are one name. The name is valid UTF-8 (checked_name).
std::u32string name_key(std::string_view s) {
  std::u32string out;
  bool space = false;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t c = n == 1 ? b : b & (0x3F >> (n - 1));
    for (int k = 1; k < n && i + static_cast<std::size_t>(k) < s.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
    i += static_cast<std::size_t>(n);
    if (is_space(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out += U' ';
    space = false;
    out += fold_case(c);
  }
  return out;
}

}  // namespace

std::string event_text(const Event& e) {
  // written directly (the body is JSON text already): the same as event_json(e).dump()
  std::string out = "{";
  if (!e.cid.empty()) out += "\"cid\":" + json(e.cid).dump() + ",";
  out += "\"data\":" + e.body + ",\"seat\":" + std::to_string(e.seat) + ",\"seq\":" + std::to_string(e.seq) +
         ",\"time\":" + std::to_string(e.time) + ",\"type\":" + json(e.type).dump() + "}";
  return out;
}

json event_json(const Event& e) {
  json j{{"seq", e.seq}, {"type", e.type}, {"seat", e.seat}, {"time", e.time}, {"data", json::parse(e.body)}};
  if (!e.cid.empty()) j["cid"] = e.cid;
  return j;
}

// ---- the replayed state --------------------------------------------------------------------

struct SeatLive {
  bool resigned = false;  // resigned or out of time: a stand-in plays the seat's tiles to the end
  bool stand_in = false;  // absent: a bot plays the seat until the player is back
  std::int64_t bank = 0;  // realtime: ms left
  int renames = 0;        // `name` events of the seat (at most kMaxRenames)
  std::int64_t renamed_at = 0;  // the time of its last one (the next waits kRenameGapMs)
};

struct Room::Live {
  explicit Live(Game g) : game(std::move(g)) {}
  Game game;
  std::int64_t seq = 0;
  std::vector<SeatLive> seats;
  std::int64_t turn_start = 0;  // when the decision now became due
  std::map<std::pair<int, std::string>, std::int64_t> cids;  // (seat, cid) -> seq of its answer
  std::int64_t job = 0;           // seq of the bot job due (0 none)
  std::string ended;              // "" active; else the end's reason (finished, resign, timeout, aborted)
  bool any_turn = false;
  std::size_t draws = 0, chance = 0;  // draw and chance events seen
  std::string rematch;                // the id of the game's rematch ("" none asked for)
  std::shared_ptr<const std::string> analysis;  // the `analysis` event's body (shared: Live is copied per command)
  // each turn event's moves in words, per language (JSON arrays; shared: Live is copied per command)
  std::map<std::int64_t, std::shared_ptr<const std::array<std::string, i18n::kLangs>>> words;
};

namespace {

// A turn's moves in words in every language (view::turn_words), as JSON arrays: the `words` its
// event is sent with. Said once when the turn is played (or replayed), never stored.
std::shared_ptr<const std::array<std::string, i18n::kLangs>> turn_words(const State& before,
                                                                        const std::vector<Move>& moves) {
  auto out = std::make_shared<std::array<std::string, i18n::kLangs>>();
  for (const i18n::Lang l : i18n::kEveryLang) {
    const i18n::Scope language(l);
    (*out)[static_cast<std::size_t>(l)] = json(view::turn_words(before, moves)).dump();
  }
  return out;
}

// Who decides now (-1: nobody: the game is over or waits for a draw).
int decider(const Room::Live& l) {
  if (!l.ended.empty() || l.game.over() || is_chance(l.game.state())) return -1;
  return to_move(l.game.state());
}

bool bot_controlled(const Settings& st, const Room::Live& l, int seat) {
  const auto i = static_cast<std::size_t>(seat);
  return !st.seats[i].bot.empty() || l.seats[i].resigned || l.seats[i].stand_in;
}

std::string bot_spec(const Settings& st, const Room::Live& l, int seat) {
  const auto i = static_cast<std::size_t>(seat);
  if (!st.seats[i].bot.empty() && !l.seats[i].resigned) return st.seats[i].bot;
  return st.stand_in;
}

// The events of a game's end: final scores (resigned seats rank below the rest), the seed (a
// number, as in the record) and its salt revealed.
json end_body(const Room::Live& l, const std::string& reason, const std::string& seed, const std::string& salt) {
  const Game& g = l.game;
  std::vector<int> scores;
  if (g.over()) {
    scores = g.record().final_scores;
  } else {
    for (int p = 0; p < g.state().nplayers; ++p) scores.push_back(g.state().score[static_cast<std::size_t>(p)]);
  }
  int best = -1;
  for (std::size_t p = 0; p < scores.size(); ++p)
    if (!l.seats[p].resigned) best = std::max(best, scores[p]);
  json winners = json::array();
  if (reason != "aborted")
    for (std::size_t p = 0; p < scores.size(); ++p)
      if (!l.seats[p].resigned && scores[p] == best) winners.push_back(p);
  json resigned = json::array();
  for (std::size_t p = 0; p < l.seats.size(); ++p)
    if (l.seats[p].resigned) resigned.push_back(p);
  json out{{"reason", reason}, {"scores", scores}, {"winners", winners}, {"resigned", resigned}, {"seed", std::stoull(seed)}};
  if (!salt.empty()) out["salt"] = salt;
  return out;
}

// New draws and chance outcomes since the live counters, as events.
void chance_events(Room::Live& l, std::vector<Event>& out, std::int64_t now) {
  const Record& r = l.game.record();
  for (; l.draws < r.draws.size(); ++l.draws) add_event(out, l.seq, "draw", -1, "", now, {{"tile", r.draws[l.draws]}});
  for (; l.chance < r.chance.size(); ++l.chance) add_event(out, l.seq, "chance", -1, "", now, {{"outcome", r.chance[l.chance]}});
}

}  // namespace

// ---- creating a game -----------------------------------------------------------------------

namespace {
// Whether an mcts spec gives the option `name` ("mcts:ms=5,threads=1" gives ms and threads).
bool gives_option(const std::string& spec, std::string_view name) {
  if (spec.rfind("mcts:", 0) != 0) return false;
  for (std::size_t at = 5; at <= spec.size();) {
    const std::size_t comma = std::min(spec.find(',', at), spec.size());
    const std::string_view item = std::string_view(spec).substr(at, comma - at);
    if (item.size() > name.size() && item.substr(0, name.size()) == name && item[name.size()] == '=') return true;
    at = comma + 1;
  }
  return false;
}
}  // namespace

std::string server_bot_spec(const std::string& spec) {
  if (spec != "mcts" && spec.rfind("mcts:", 0) != 0) return spec;
  if (gives_option(spec, "threads")) return spec;
  const std::string options = spec.size() > 5 ? spec.substr(5) : "";
  return "mcts:" + options + (options.empty() ? "" : ",") + "threads=1";
}

void check_bot(const std::string& spec, const BotPolicy& budget, std::string_view field) {
  const std::string levels = fmt::format("{}, random, greedy", fmt::join(bot_level_names(), ", "));
  if (!is_bot_spec(spec)) throw InputError(fmt::format("{}: {}: \"{}\" is not a bot ({}, mcts:...)", kWhere, field, printable(spec), levels));
  if (spec.rfind("mcts", 0) != 0) return;
  // weights=FILE names a file on the server's disk: reading it for a stranger would quote its
  // first line back in the error (any file the server can read)
  if (!budget.any && gives_option(spec, "weights"))
    throw InputError(fmt::format("{}: {}: weights: not an option a request may give (it names a file on the server)",
                                 kWhere, field));
  MctsOptions o;
  try {
    o = parse_mcts_spec(spec);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}: {}", kWhere, field, e.what()));
  }
  if (budget.any) return;
  const BotLimits& l = budget.limits;
  if (over_limits(o, l) != OverLimit::none)
    throw InputError(
        fmt::format("{}: {}: \"{}\" is over this server's budget for a bot (mcts with threads={} and ms up to {} or "
                    "playouts up to {}; "
                    "or a level: {})",
                    kWhere, field, printable(spec), l.max_threads, l.max_ms, l.max_playouts, levels));
}

std::string seed_hash(const GameMeta& meta) {
  const std::string salt = settings_of(meta.settings).salt;
  return sha256_hex(salt.empty() ? meta.seed : salt + ":" + meta.seed);
}

std::string game_id_for_request(const std::string& request_id) {
  if (request_id.size() < 16 || request_id.size() > 64 || has_control_chars(request_id) || has_invisible_chars(request_id))
    throw InputError(fmt::format("{}: request_id: 16 to 64 printable characters are expected (a random string, such as a UUID)", kWhere));
  return sha256_hex("carc-game:" + request_id).substr(0, 12);
}

std::string request_token(const std::string& request_id, std::size_t seat) {
  return sha256_hex(fmt::format("carc-token:{}:{}", seat, request_id)).substr(0, 32);
}

void start_game(Created& c, const std::string& game, Settings st, const std::string& id, u64 seed, std::int64_t now);

Created create_game(const json& req, const std::string& id, std::int64_t now, const BotPolicy& budget, const std::string& request_id) {
  if (!req.is_object()) throw InputError(fmt::format("{}: expected a JSON object", kWhere));
  only(req, {"game", "options", "seats", "clock", "absence", "seed"}, "game");
  Settings st;
  const std::string game = jin::opt(req, "game") ? jin::string(req["game"], kWhere, "game", 32) : "base";
  if (!find_game(game)) throw InputError(fmt::format("{}: game: unknown game \"{}\" (games: {})", kWhere, printable(game), fmt::join(game_ids(), ", ")));
  if (const json* o = jin::opt(req, "options")) {
    for (const auto& [k, v] : jin::object(*o, kWhere, "options").items())
      st.options.emplace_back(printable(k), jin::string(v, kWhere, "options." + printable(k), 40));
  }
  const json& seats = jin::array(jin::need(req, "seats", kWhere), kWhere, "seats", kMaxPlayers);
  std::vector<std::string> specs;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const std::string ctx = fmt::format("seats[{}]", i);
    const json& s = jin::object(seats[i], kWhere, ctx);
    only(s, {"name", "bot"}, ctx);
    SeatConf c;
    if (const json* b = jin::opt(s, "bot")) {
      c.bot = server_bot_spec(jin::string(*b, kWhere, ctx + ".bot", 100));
      check_bot(c.bot, budget, ctx + ".bot");
    }
    specs.push_back(c.bot);
    if (const json* n = jin::opt(s, "name")) c.name = checked_name(*n, kWhere, ctx + ".name");
    st.seats.push_back(std::move(c));
  }
  // names: as given, else "Player N" for people and the bot's label ("greedy #2") for bots
  std::vector<std::string> bots;
  for (const auto& c : st.seats)
    if (!c.bot.empty()) bots.push_back(c.bot);
  const auto labels = bot_labels(bots);
  for (std::size_t i = 0, b = 0; i < st.seats.size(); ++i) {
    SeatConf& c = st.seats[i];
    if (!c.bot.empty() && c.name.empty()) c.name = "Bot " + labels[b];
    if (!c.bot.empty()) ++b;
    if (c.name.empty()) c.name = fmt::format("Player {}", i + 1);
  }
  if (const json* c = jin::opt(req, "clock")) {
    const json& o = jin::object(*c, kWhere, "clock");
    st.clock = jin::string(jin::need(o, "type", "clock"), kWhere, "clock.type", 16);
    if (st.clock == "realtime") {
      only(o, {"type", "bank", "increment"}, "clock");
      st.bank_ms = seconds_ms(o, "bank", 1, 86400, "clock");
      st.increment_ms = jin::opt(o, "increment") ? seconds_ms(o, "increment", 0, 3600, "clock") : 0;
    } else if (st.clock == "days") {
      only(o, {"type", "days"}, "clock");
      const json& d = jin::need(o, "days", "clock");
      st.move_ms = jin::integer(d, 1, 30, kWhere, "clock.days") * 86400000LL;
    } else if (st.clock == "none") {
      only(o, {"type"}, "clock");
    } else {
      throw InputError(fmt::format("{}: clock.type: \"{}\" is not none, realtime or days", kWhere, printable(st.clock)));
    }
  }
  if (const json* a = jin::opt(req, "absence")) {
    const json& o = jin::object(*a, kWhere, "absence");
    only(o, {"grace", "policy", "bot"}, "absence");
    if (jin::opt(o, "grace")) st.grace_ms = seconds_ms(o, "grace", 0, 86400, "absence");
    if (const json* p = jin::opt(o, "policy")) {
      st.absence = jin::string(*p, kWhere, "absence.policy", 8);
      if (st.absence != "wait" && st.absence != "bot") throw InputError(fmt::format("{}: absence.policy: \"{}\" is not wait or bot", kWhere, printable(st.absence)));
    }
    if (const json* b = jin::opt(o, "bot")) {
      st.stand_in = server_bot_spec(jin::string(*b, kWhere, "absence.bot", 100));
      check_bot(st.stand_in, budget, "absence.bot");
    }
  }
  u64 seed = 0;
  if (const json* s = jin::opt(req, "seed")) {
    seed = s->is_number_integer() && !s->is_number_unsigned() && s->get<std::int64_t>() >= 0 ? static_cast<u64>(s->get<std::int64_t>())
                                                                                             : jin::unsigned64(*s, kWhere, "seed");
  } else {
    const std::string h = random_hex(8);
    seed = std::stoull(h, nullptr, 16);
  }
  // the game itself: options and seats checked by the engine
  (void)load_ruleset(game, option_settings(st));
  Created c;
  for (std::size_t i = 0; i < st.seats.size(); ++i) {
    SeatConf& sc = st.seats[i];
    if (!sc.bot.empty()) {
      c.tokens.emplace_back();
      continue;
    }
    // 128 bits: random, or derived from the client's request_id (its secret) for a retry
    c.tokens.push_back(request_id.empty() ? random_hex(16) : request_token(request_id, i));
    sc.token_hash = sha256_hex(c.tokens.back());
  }
  if (!request_id.empty()) st.request_hash = sha256_hex(req.dump());
  start_game(c, game, std::move(st), id, seed, now);
  return c;
}

// The meta and first events of a game with these settings (seats, tokens' hashes, clock, options).
void start_game(Created& c, const std::string& game, Settings st, const std::string& id, u64 seed, std::int64_t now) {
  auto rs = load_ruleset(game, option_settings(st));
  Game g(rs, players_of(st), seed);
  st.salt = random_hex(16);
  c.meta.id = id;
  c.meta.game = game;
  c.meta.settings = settings_json(st).dump();
  c.meta.seed = std::to_string(seed);
  c.meta.created = now;
  c.first.game = id;
  json seat_list = json::array();
  for (const SeatConf& sc : st.seats) seat_list.push_back({{"name", sc.name}, {"bot", sc.bot}});
  json opts = json::object();
  for (const auto& [k, v] : st.options) opts[k] = v;
  std::int64_t seq = 0;
  add_event(c.first.events, seq, "created", -1, "", now,
            {{"game", game}, {"options", opts}, {"seats", seat_list}, {"seed_hash", sha256_hex(st.salt + ":" + c.meta.seed)},
             {"clock", settings_json(st)["clock"]}, {"absence", settings_json(st)["absence"]}});
  Room::Live l(std::move(g));
  l.seq = seq;
  chance_events(l, c.first.events, now);
  // a bot that opens the game: its job is due at once
  const int d = to_move(l.game.state());
  if (!l.game.over() && !is_chance(l.game.state()) && !st.seats[static_cast<std::size_t>(d)].bot.empty())
    c.first.job = Job{id, l.seq, d, st.seats[static_cast<std::size_t>(d)].bot, "", 0};
  c.first.status = "active";
}

std::string rematch_id(const std::string& game) { return sha256_hex("carc-rematch:" + game).substr(0, 12); }

std::string checked_name(const json& v, std::string_view where, const std::string& ctx) {
  // 40 characters (code points), not bytes: a Cyrillic or Romanian name is as long as a Latin one
  std::string name = jin::string(v, where, ctx, 1024);
  if (name.empty()) return name;
  if (const std::string why = name_problem(name, kMaxNameChars); !why.empty())
    throw InputError(fmt::format("{}: {}: {} (\"{}\")", where, ctx, why, printable(utf8_prefix(name, kMaxNameChars))));
  return name;
}

Created rematch_game(const GameMeta& old, std::int64_t now, const std::vector<std::string>& names) {
  Settings st = settings_of(old.settings);
  st.request_hash.clear();
  for (std::size_t i = 0; i < names.size() && i < st.seats.size(); ++i) st.seats[i].name = names[i];
  Created c;
  c.tokens.resize(st.seats.size());  // the same tokens open the same seats: none new
  start_game(c, old.game, std::move(st), rematch_id(old.id), std::stoull(random_hex(8), nullptr, 16), now);
  return c;
}

// ---- replay --------------------------------------------------------------------------------

Room::Room(GameMeta meta, const std::vector<Event>& log) : meta_(std::move(meta)) {
  settings_ = settings_of(meta_.settings);
  rs_ = load_ruleset(meta_.game, option_settings(settings_));
  live_ = std::make_unique<Live>(Game(rs_, players_of(settings_), std::stoull(meta_.seed)));
  live_->seats.resize(settings_.seats.size());
  for (auto& s : live_->seats) s.bank = settings_.bank_ms;
  away_since_.assign(settings_.seats.size(), 0);
  seat_conns_.assign(settings_.seats.size(), 0);
  for (const Event& e : log) {
    if (e.seq != live_->seq + 1) throw InputError(fmt::format("game {}: event {} follows {}: the log has a gap", meta_.id, e.seq, live_->seq));
    replay_event(*live_, e);
    log_.push_back(e);
  }
  if (log_.empty() || log_.front().type != "created") throw InputError(fmt::format("game {}: the log does not start with its creation", meta_.id));
}

Room::~Room() = default;

void Room::replay_event(Live& l, const Event& e) const {
  const json d = json::parse(e.body);
  const Record& r = l.game.record();
  auto fail = [&](const std::string& why) { throw InputError(fmt::format("game {}: event {} ({}): {}", meta_.id, e.seq, e.type, why)); };
  l.seq = e.seq;
  if (!e.cid.empty() && e.seat >= 0) l.cids[{e.seat, e.cid}] = e.seq;
  if (e.type == "created") {
    l.turn_start = e.time;
  } else if (e.type == "draw") {
    // (a log stored before a tile was renamed names it by its alias)
    if (l.draws >= r.draws.size() || r.draws[l.draws] != rs_->tiles.canonical(d.at("tile").get<std::string>())) fail("the replay draws another tile");
    ++l.draws;
  } else if (e.type == "chance") {
    if (l.chance >= r.chance.size() || r.chance[l.chance] != d.at("outcome").get<std::string>()) fail("the replay has another outcome");
    ++l.chance;
  } else if (e.type == "turn") {
    const State before = l.game.state();
    std::vector<Move> played;
    for (const auto& text : d.at("moves")) {
      try {
        played.push_back(parse_notation(l.game.state(), text.get<std::string>()));
        l.game.play(played.back());
      } catch (const InputError& x) {
        fail(x.what());
      }
    }
    l.words[e.seq] = turn_words(before, played);
    const auto i = static_cast<std::size_t>(e.seat);
    if (settings_.clock == "realtime" && i < l.seats.size()) l.seats[i].bank += settings_.increment_ms - d.value("elapsed", std::int64_t{0});
    l.turn_start = e.time;
    l.any_turn = true;
  } else if (e.type == "resign" || e.type == "timeout") {
    const auto i = static_cast<std::size_t>(d.at("seat").get<int>());
    if (i >= l.seats.size()) fail("no such seat");
    l.seats[i].resigned = true;
    if (e.type == "timeout") l.seats[i].bank = 0;
    l.turn_start = e.time;
  } else if (e.type == "seat_bot" || e.type == "seat_back") {
    const auto i = static_cast<std::size_t>(d.at("seat").get<int>());
    if (i >= l.seats.size()) fail("no such seat");
    l.seats[i].stand_in = e.type == "seat_bot";
  } else if (e.type == "abort") {
    l.ended = "aborted";
  } else if (e.type == "end") {
    l.ended = d.at("reason").get<std::string>();
  } else if (e.type == "name") {
    const int i = d.at("seat").get<int>();
    if (i < 0 || static_cast<std::size_t>(i) >= l.seats.size()) fail("no such seat");
    l.game.rename_player(i, d.at("name").get<std::string>());
    ++l.seats[static_cast<std::size_t>(i)].renames;
    l.seats[static_cast<std::size_t>(i)].renamed_at = e.time;
  } else if (e.type == "rematch") {
    if (l.ended.empty()) fail("a rematch before the end");
    l.rematch = d.at("game").get<std::string>();
  } else if (e.type == "analysis") {
    if (l.ended.empty()) fail("an analysis before the end");
    if (l.analysis) fail("a second analysis");
    l.analysis = std::make_shared<const std::string>(e.body);
  } else {
    fail("unknown event type");
  }
  // the job due after this event (what the live room would have asked for)
  const int who = decider(l);
  l.job = who >= 0 && bot_controlled(settings_, l, who) ? l.seq : 0;
}

std::int64_t Room::seq() const { return live_->seq; }
bool Room::over() const { return !live_->ended.empty(); }
const Game& Room::game() const { return live_->game; }

int Room::seat_of_token(const std::string& token) const {
  if (token.empty()) return -1;
  const std::string h = sha256_hex(token);
  for (std::size_t i = 0; i < settings_.seats.size(); ++i)
    if (!settings_.seats[i].token_hash.empty() && settings_.seats[i].token_hash == h) return static_cast<int>(i);
  return -1;
}

// ---- messages ------------------------------------------------------------------------------

std::string Room::reject(const std::string& cid, const std::string& code, const std::string& msg) const {
  return json{{"type", "reject"}, {"cid", cid}, {"code", code}, {"message", msg}, {"seq", live_->seq}}.dump();
}

std::vector<std::int64_t> Room::clocks(std::int64_t now) const {
  std::vector<std::int64_t> out;
  const int who = decider(*live_);
  for (std::size_t i = 0; i < live_->seats.size(); ++i) {
    if (settings_.clock == "realtime") {
      std::int64_t left = live_->seats[i].bank;
      if (static_cast<int>(i) == who) left -= now - live_->turn_start;
      out.push_back(std::max<std::int64_t>(left, 0));
    } else if (settings_.clock == "days") {
      out.push_back(static_cast<int>(i) == who ? std::max<std::int64_t>(live_->turn_start + settings_.move_ms - now, 0) : settings_.move_ms);
    } else {
      out.push_back(-1);
    }
  }
  return out;
}

std::string Room::presence(std::int64_t now) const {
  json seats = json::array();
  const std::vector<int>& conns = seat_conns_;
  for (std::size_t i = 0; i < settings_.seats.size(); ++i) {
    json s{{"seat", i}, {"connected", conns[i] > 0 || !settings_.seats[i].bot.empty()}, {"stand_in", live_->seats[i].stand_in},
           {"resigned", live_->seats[i].resigned}};
    if (conns[i] == 0 && settings_.seats[i].bot.empty() && away_since_[i] > 0 && settings_.absence == "bot" && !live_->seats[i].stand_in)
      s["grace_until"] = away_since_[i] + settings_.grace_ms;
    seats.push_back(std::move(s));
  }
  (void)now;
  return json{{"type", "presence"}, {"seats", seats}, {"spectators", spectators_}}.dump();
}

std::vector<std::string> Room::names() const {
  std::vector<std::string> out;
  for (const PlayerInfo& p : live_->game.record().players) out.push_back(p.name);
  return out;
}

std::vector<std::string> Room::shown_names() const {
  std::vector<std::string> out = names();
  const GameDef& g = *rs_->game;
  std::vector<std::string> bots;
  for (const SeatConf& c : settings_.seats)
    if (!c.bot.empty()) bots.push_back(c.bot);
  const auto labels = bot_labels(bots);
  for (std::size_t i = 0, b = 0; i < settings_.seats.size() && i < out.size(); ++i) {
    const std::string& bot = settings_.seats[i].bot;
    // a name the server gave ("Player 2", "Bot easy #2"), not one a player chose: in words
    const bool given = bot.empty() ? out[i] == fmt::format("Player {}", i + 1) : out[i] == "Bot " + labels[b++];
    if (given) out[i] = seat_name_words(g, out[i]);
  }
  return out;
}

json Room::summary(std::int64_t now) const {
  json seats = json::array();
  const auto now_names = shown_names();
  for (std::size_t i = 0; i < settings_.seats.size(); ++i)
    seats.push_back({{"seat", i}, {"name", now_names[i]}, {"bot", settings_.seats[i].bot}});
  const int who = decider(*live_);
  json j{{"id", meta_.id}, {"game", meta_.game}, {"seq", live_->seq}, {"status", live_->ended.empty() ? "active" : live_->ended == "aborted" ? "aborted" : "finished"},
         {"seats", seats}, {"to_move", who}, {"clocks", clocks(now)}, {"clock", settings_.clock}, {"created", meta_.created},
         {"scores", json::array()}};
  for (int p = 0; p < live_->game.state().nplayers; ++p) j["scores"].push_back(live_->game.state().score[static_cast<std::size_t>(p)]);
  return j;
}

std::string Room::state_message(std::int64_t now) const {
  json j{{"type", "state"},
         {"seq", live_->seq},
         {"view", view::to_json(view::build_view(live_->game, {}, shown_names()))},
         {"clocks", clocks(now)}};
  // however the game ended (a resignation leaves the engine's game unfinished): how, and the rematch
  if (!live_->ended.empty()) {
    for (auto it = log_.rbegin(); it != log_.rend(); ++it) {
      if (it->type != "end") continue;
      const json d = json::parse(it->body);
      j["end"] = {{"reason", d.at("reason")},
                  {"scores", d.at("scores")},
                  {"winners", d.at("winners")},
                  {"resigned", d.at("resigned")}};
      break;
    }
    if (!live_->rematch.empty()) j["rematch"] = live_->rematch;
  }
  return j.dump();
}

std::string Room::rematch() const { return live_->rematch; }

std::int64_t Room::turn_started() const { return live_->turn_start; }

Step Room::ask_rematch(int seat, const std::string& game, std::int64_t now) {
  Step st;
  if (busy() || live_->ended.empty() || !live_->rematch.empty()) return st;
  auto n = std::make_unique<Live>(*live_);
  std::vector<Event> evs;
  n->rematch = game;
  add_event(evs, n->seq, "rematch", seat, "", now, {{"game", game}, {"seat", seat}});
  begin(st, std::move(n), std::move(evs), "", 0, "", -1);
  return st;
}

const std::string* Room::analysis() const { return live_->analysis.get(); }

Step Room::add_analysis(const json& body, std::int64_t now) {
  Step st;
  if (busy() || live_->ended.empty() || live_->analysis) return st;
  auto n = std::make_unique<Live>(*live_);
  std::vector<Event> evs;
  add_event(evs, n->seq, "analysis", -1, "", now, body);
  n->analysis = std::make_shared<const std::string>(evs.back().body);
  begin(st, std::move(n), std::move(evs), "", 0, "", -1);
  return st;
}

std::vector<Out> Room::views(std::int64_t now) const {
  std::vector<Out> out;
  std::array<std::string, i18n::kLangs> text;  // built once per language
  for (const auto& [id, c] : conns_) {
    if (!c.views) continue;
    std::string& t = text[static_cast<std::size_t>(c.lang)];
    if (t.empty()) {
      const i18n::Scope language(c.lang);
      t = state_message(now);
    }
    out.push_back({id, t});
  }
  return out;
}

std::string Room::record_json() const {
  Record r = live_->game.record();
  if (live_->ended.empty()) r.seed.reset();  // the seed is revealed at the end
  // a game ended before its last tile says how (its status), so that its replay is not taken for
  // a game still going
  if (!live_->ended.empty() && live_->ended != "finished" && !live_->game.over())
    r.ended = live_->ended == "resign" ? "resigned" : live_->ended;
  return record_to_json(r, *rs_);
}

// ---- commands ------------------------------------------------------------------------------

std::string Room::events_message(std::int64_t since, i18n::Lang lang) const {
  std::string out = "{\"events\":[";
  bool first = true;
  for (auto it = std::lower_bound(log_.begin(), log_.end(), since + 1, [](const Event& e, std::int64_t s) { return e.seq < s; }); it != log_.end(); ++it) {
    if (!first) out += ',';
    first = false;
    out += event_text(*it);
    // a turn with its moves in words, in the connection's language
    if (const auto w = live_->words.find(it->seq); w != live_->words.end() && w->second) {
      out.pop_back();
      out += ",\"words\":" + (*w->second)[static_cast<std::size_t>(lang)] + "}";
    }
  }
  out += "],\"seq\":" + std::to_string(live_->seq) + ",\"to_move\":" + std::to_string(decider(*live_)) + ",\"type\":\"events\"}";
  return out;
}

Step Room::hello(std::uint64_t conn, int seat, std::int64_t since, bool views_wanted, std::int64_t now,
                 i18n::Lang lang) {
  Step st;
  if (const auto old = conns_.find(conn); old != conns_.end()) {  // a second hello on one connection
    if (old->second.seat < 0) --spectators_;
    else --seat_conns_[static_cast<std::size_t>(old->second.seat)];
  }
  conns_[conn] = {seat, views_wanted, lang};
  if (seat < 0) ++spectators_;
  else ++seat_conns_[static_cast<std::size_t>(seat)];
  if (seat >= 0) away_since_[static_cast<std::size_t>(seat)] = 0;
  json seats = json::array();
  std::vector<std::string> now_names;
  {
    const i18n::Scope language(lang);
    now_names = shown_names();
  }
  for (std::size_t i = 0; i < settings_.seats.size(); ++i)
    seats.push_back({{"seat", i}, {"name", now_names[i]}, {"bot", settings_.seats[i].bot}});
  st.now.push_back({conn, json{{"type", "welcome"}, {"game", meta_.id}, {"kind", meta_.game}, {"seat", seat}, {"seq", live_->seq}, {"seats", seats}}.dump()});
  if (since < 0 || since > live_->seq) since = 0;
  st.now.push_back({conn, events_message(since, lang)});
  if (views_wanted) {
    const i18n::Scope language(lang);
    st.now.push_back({conn, state_message(now)});
  }
  st.now.push_back({seat < 0 ? conn : 0, presence(now)});  // a spectator changes no seat: only it is told
  // back from a stand-in bot: the seat is the player's again
  if (seat >= 0 && live_->seats[static_cast<std::size_t>(seat)].stand_in && live_->ended.empty()) {
    auto n = std::make_unique<Live>(*live_);
    std::vector<Event> evs2;
    n->seats[static_cast<std::size_t>(seat)].stand_in = false;
    add_event(evs2, n->seq, "seat_back", -1, "", now, {{"seat", seat}});
    begin(st, std::move(n), std::move(evs2), "", 0, "", -1);
  }
  return st;
}

void Room::leave(std::uint64_t conn, std::vector<Out>& out, std::int64_t now) {
  const auto it = conns_.find(conn);
  if (it == conns_.end()) return;
  const int seat = it->second.seat;
  conns_.erase(it);
  if (seat < 0) {
    --spectators_;  // nobody's presence changed: nothing to tell (the count goes with the next presence)
    return;
  }
  if (--seat_conns_[static_cast<std::size_t>(seat)] == 0) away_since_[static_cast<std::size_t>(seat)] = now;
  out.push_back({0, presence(now)});
}

Step Room::command(std::uint64_t conn, const json& msg, std::int64_t now) {
  Step st;
  const auto it = conns_.find(conn);
  const int seat = it == conns_.end() ? -1 : it->second.seat;
  const i18n::Scope language(it == conns_.end() ? i18n::Lang::En : it->second.lang);  // the words of views and options
  std::string cid;
  try {
    const std::string type = jin::string(jin::need(msg, "type", "message"), "message", "type", 16);
    if (type == "view") {
      st.now.push_back({conn, state_message(now)});
      return st;
    }
    if (type == "legal") {
      st.now.push_back({conn, legal(seat, msg)});
      return st;
    }
    if (type != "play" && type != "resign" && type != "abort" && type != "name")
      throw InputError(fmt::format("message: type \"{}\" is not hello, play, legal, resign, abort, name, view or ping",
                                   printable(type)));
    if (type == "name") {
      // a seat names itself: not a turn, so it needs no "at" and is never stale
      only(msg, {"type", "cid", "name"}, "message");
      cid = jin::string(jin::need(msg, "cid", "message"), "message", "cid", 64);
      if (cid.empty()) throw InputError("message: cid: empty (a client id unique per seat)");
      const std::string name = checked_name(jin::need(msg, "name", "message"), "message", "name");
      if (name.empty()) throw InputError("message: name: empty");
      if (seat < 0) {
        st.now.push_back({conn, reject(cid, "spectator",
                                       "a spectator has no seat to name: open the game with your seat's invite link")});
        return st;
      }
      return apply(conn, seat, cid, type, live_->seq, {name}, false, now);
    }
    only(msg, {"type", "cid", "at", "moves"}, "message");
    cid = jin::string(jin::need(msg, "cid", "message"), "message", "cid", 64);
    if (cid.empty()) throw InputError("message: cid: empty (a client id unique per seat)");
    const std::int64_t at = jin::integer(jin::need(msg, "at", "message"), 0, std::int64_t{1} << 50, "message", "at");
    std::vector<std::string> moves;
    if (type == "play") {
      const json& mv = jin::array(jin::need(msg, "moves", "message"), "message", "moves", kMaxMoves);
      if (mv.empty()) throw InputError("message: moves: empty (the turn's decisions, in the engine's notation)");
      for (std::size_t i = 0; i < mv.size(); ++i) moves.push_back(jin::string(mv[i], "message", fmt::format("moves[{}]", i), 200));
    } else if (jin::opt(msg, "moves")) {
      throw InputError(fmt::format("message: moves: not part of {}", type));
    }
    if (seat < 0) {
      st.now.push_back({conn, reject(cid, "spectator", "a spectator cannot act: open the game with your seat's invite link")});
      return st;
    }
    return apply(conn, seat, cid, type, at, moves, false, now);
  } catch (const InputError& e) {
    if (cid.empty())
      st.now.push_back({conn, json{{"type", "error"}, {"code", "bad_message"}, {"message", e.what()}}.dump()});
    else
      st.now.push_back({conn, reject(cid, "bad_message", e.what())});
    return st;
  } catch (const json::exception& e) {
    st.now.push_back({conn, json{{"type", "error"}, {"code", "bad_message"}, {"message", std::string("message: ") + e.what()}}.dump()});
    return st;
  }
}

std::string Room::legal(int seat, const json& msg) const {
  only(msg, {"type", "moves"}, "message");
  std::vector<std::string> moves;
  if (const json* mv = jin::opt(msg, "moves")) {
    const json& arr = jin::array(*mv, "message", "moves", kMaxMoves);
    for (std::size_t i = 0; i < arr.size(); ++i) moves.push_back(jin::string(arr[i], "message", fmt::format("moves[{}]", i), 200));
  }
  // on a copy of the position without its draws: what is legal after the tentative moves, and
  // nothing of the tiles to come
  State t = live_->game.state();
  const State before = t;
  std::vector<Move> parsed;
  json applied = json::array();
  const int who = decider(*live_);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (who < 0 || who != seat || t.phase == Phase::Over || is_chance(t) || to_move(t) != seat)
      throw InputError(fmt::format("message: moves[{}]: it is not your decision", i));
    try {
      const Move m = parse_notation(t, moves[i]);
      applied.push_back(notation(t, m));
      parsed.push_back(m);
      apply_move(t, m);
    } catch (const InputError& e) {
      throw InputError(fmt::format("message: moves[{}] \"{}\": {}", i, printable(moves[i]), e.what()));
    }
  }
  const bool yours = who == seat && t.phase != Phase::Over && !is_chance(t) && to_move(t) == seat;
  json opts = json::array();
  if (yours)
    for (const auto& o : view::decision_options(t)) opts.push_back(view::to_json(o));
  return json{{"type", "options"},  {"seq", live_->seq},
              {"moves", applied},   {"words", view::turn_words(before, parsed)},
              {"complete", !yours}, {"options", opts}}
      .dump();
}

Step Room::bot_play(std::uint64_t conn, int seat, const std::string& cid, std::int64_t at, const std::vector<std::string>& moves,
                    std::int64_t now) {
  return apply(conn, seat, cid, "play", at, moves, true, now);
}

Step Room::apply(std::uint64_t conn, int seat, const std::string& cid, const std::string& type, std::int64_t at,
                 const std::vector<std::string>& moves, bool by_bot, std::int64_t now) {
  Step st;
  const Live& l = *live_;
  // a repeated client id: the original answer, never applied twice
  if (const auto c = l.cids.find({seat, cid}); c != l.cids.end()) {
    st.now.push_back({conn, json{{"type", "ack"}, {"cid", cid}, {"seq", c->second}, {"repeat", true}}.dump()});
    return st;
  }
  if (!l.ended.empty()) {
    st.now.push_back({conn, reject(cid, "over", fmt::format("the game is over ({})", l.ended))});
    return st;
  }
  if (at != l.seq) {
    st.now.push_back({conn, reject(cid, "stale", fmt::format("made at seq {}, but the game is at seq {}: resync and decide again", at, l.seq))});
    return st;
  }
  const auto si = static_cast<std::size_t>(seat);
  auto n = std::make_unique<Live>(l);
  std::vector<Event> evs;
  Append a;
  a.game = meta_.id;
  auto fail = [&](const std::string& code, const std::string& why) {
    st.now.push_back({conn, reject(cid, code, why)});
    return st;
  };
  if (type == "name") {
    // renames are limited (docs/server-protocol.md, "name"): each is an event every client gets
    // and the log keeps, so a seat may not grow the log without bound
    const std::string& name = moves.at(0);
    const auto& players = n->game.record().players;
    if (!settings_.seats[si].bot.empty()) return fail("bot_seat", "a bot's seat keeps its name");
    if (l.seats[si].resigned) return fail("resigned", "a seat that resigned or ran out of time keeps its name");
    if (players[si].name == name) return fail("same_name", "the seat has this name already");
    for (std::size_t j = 0; j < players.size(); ++j)
      if (j != si && name_key(players[j].name) == name_key(name))
        return fail("name_taken",
                    fmt::format("seat {} is called \"{}\": choose another name", j, printable(players[j].name)));
    if (l.seats[si].renames >= kMaxRenames)
      return fail("too_many_renames", fmt::format("a seat names itself at most {} times a game", kMaxRenames));
    if (l.seats[si].renames > 0 && now - l.seats[si].renamed_at < kRenameGapMs) {
      const std::int64_t wait_s = (l.seats[si].renamed_at + kRenameGapMs - now + 999) / 1000;
      return fail("rename_too_soon",
                  fmt::format("one name a seat every {} s: try again in {} s", kRenameGapMs / 1000, wait_s));
    }
    add_event(evs, n->seq, "name", seat, cid, now, {{"seat", seat}, {"name", name}});
    n->game.rename_player(seat, name);
    ++n->seats[si].renames;
    n->seats[si].renamed_at = now;
  } else if (type == "abort") {
    if (l.any_turn) return fail("started", "the game has started: resign instead");
    add_event(evs, n->seq, "abort", seat, cid, now, {{"seat", seat}});
    n->ended = "aborted";
    add_event(evs, n->seq, "end", -1, "", now, end_body(*n, "aborted", meta_.seed, settings_.salt));
    a.status = "aborted";
  } else if (type == "resign") {
    if (n->seats[si].resigned) return fail("resigned", "this seat has resigned already");
    add_event(evs, n->seq, "resign", seat, cid, now, {{"seat", seat}});
    a.status = seat_out(*n, seat, "resign", evs, now);
  } else {
    const int who = decider(l);
    if (who != seat) return fail("not_your_turn", who < 0 ? "nobody decides now" : fmt::format("seat {} decides now, not seat {}", who, seat));
    if (by_bot != bot_controlled(settings_, l, seat))
      return fail("not_your_turn", by_bot ? "the seat is not played by a bot now" : "a bot plays this seat now");
    const std::int64_t elapsed = now - l.turn_start;
    if (settings_.clock == "realtime" && elapsed > l.seats[si].bank) return fail("time", "your time has run out");
    if (settings_.clock == "days" && elapsed > settings_.move_ms) return fail("time", "the time for this move has run out");
    const std::size_t d0 = n->game.record().draws.size(), c0 = n->game.record().chance.size();
    const State before = n->game.state();
    std::vector<Move> parsed;
    std::vector<std::string> played;
    bool boundary = false;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (boundary)
        return fail("bad_turn", fmt::format("moves[{}]: the turn ended at moves[{}] (a draw, another player's decision or the end): send the rest after it", i, i - 1));
      try {
        const Move m = parse_notation(n->game.state(), moves[i]);
        played.push_back(notation(n->game.state(), m));
        parsed.push_back(m);
        n->game.play(m);
      } catch (const InputError& e) {
        return fail("illegal_move", fmt::format("moves[{}] \"{}\": {}", i, printable(moves[i]), e.what()));
      }
      boundary = n->game.over() || is_chance(n->game.state()) || n->game.record().draws.size() > d0 ||
                 n->game.record().chance.size() > c0 || to_move(n->game.state()) != seat;
    }
    if (!boundary)
      return fail("incomplete_turn", "the turn goes on after the last move: send every decision up to the next draw or the next player's decision together");
    add_event(evs, n->seq, "turn", seat, cid, now, {{"moves", played}, {"elapsed", elapsed}});
    n->words[n->seq] = turn_words(before, parsed);
    if (settings_.clock == "realtime") n->seats[si].bank += settings_.increment_ms - elapsed;
    n->any_turn = true;
    n->turn_start = now;
    chance_events(*n, evs, now);
    if (n->game.over()) {
      n->ended = "finished";
      add_event(evs, n->seq, "end", -1, "", now, end_body(*n, "finished", meta_.seed, settings_.salt));
      a.status = "finished";
    }
  }
  if (!cid.empty()) n->cids[{seat, cid}] = evs.front().seq;  // the command's own event
  begin(st, std::move(n), std::move(evs), a.status, conn, cid, seat);
  return st;
}

void Room::begin(Step& st, std::unique_ptr<Live> n, std::vector<Event> evs, const std::string& status, std::uint64_t conn,
                 const std::string& cid, int seat) {
  Append a;
  a.game = meta_.id;
  a.status = status;
  // the bot job this leaves due, and the one it settles
  if (live_->job) a.done_jobs.push_back(live_->job);
  const int who = decider(*n);
  n->job = who >= 0 && bot_controlled(settings_, *n, who) ? n->seq : 0;
  if (n->job) a.job = Job{meta_.id, n->job, who, bot_spec(settings_, *n, who), "", 0};
  a.events = evs;
  st.commit = std::move(a);
  pending_events_ = std::move(evs);
  pending_ = std::move(n);
  pending_conn_ = conn;
  pending_cid_ = cid;
  pending_seat_ = seat;
}

std::string Room::seat_out(Live& n, int seat, const std::string& reason, std::vector<Event>& evs, std::int64_t now) const {
  n.seats[static_cast<std::size_t>(seat)].resigned = true;
  n.seats[static_cast<std::size_t>(seat)].stand_in = false;
  n.turn_start = now;
  int left = 0;
  for (const auto& s : n.seats) left += !s.resigned;
  if (left > 1) return "";
  n.ended = reason;
  add_event(evs, n.seq, "end", -1, "", now, end_body(n, reason, meta_.seed, settings_.salt));
  return "finished";
}

Step Room::tick(std::int64_t now) {
  Step st;
  if (busy() || !live_->ended.empty()) return st;
  const Live& l = *live_;
  const int who = decider(l);
  if (who < 0) return st;
  const auto wi = static_cast<std::size_t>(who);
  auto n = std::make_unique<Live>(l);
  std::vector<Event> evs;
  Append a;
  a.game = meta_.id;
  const bool bot = bot_controlled(settings_, l, who);
  const std::int64_t elapsed = now - l.turn_start;
  const bool out_of_time = !bot && ((settings_.clock == "realtime" && elapsed >= l.seats[wi].bank) ||
                                    (settings_.clock == "days" && elapsed >= settings_.move_ms));
  if (out_of_time) {
    n->seats[wi].bank = 0;
    add_event(evs, n->seq, "timeout", -1, "", now, {{"seat", who}, {"elapsed", elapsed}});
    a.status = seat_out(*n, who, "timeout", evs, now);
  } else if (!bot && settings_.absence == "bot" && away_since_[wi] > 0 && now >= away_since_[wi] + settings_.grace_ms) {
    n->seats[wi].stand_in = true;
    add_event(evs, n->seq, "seat_bot", -1, "", now, {{"seat", who}, {"bot", settings_.stand_in}});
  } else {
    return st;
  }
  begin(st, std::move(n), std::move(evs), a.status, 0, "", -1);
  return st;
}

std::int64_t Room::deadline() const {
  const Live& l = *live_;
  const int who = decider(l);
  if (who < 0 || busy()) return 0;
  const auto wi = static_cast<std::size_t>(who);
  if (bot_controlled(settings_, l, who)) return 0;
  std::int64_t t = 0;
  auto soonest = [&](std::int64_t x) { t = t == 0 ? x : std::min(t, x); };
  if (settings_.clock == "realtime") soonest(l.turn_start + l.seats[wi].bank);
  if (settings_.clock == "days") soonest(l.turn_start + settings_.move_ms);
  if (settings_.absence == "bot" && away_since_[wi] > 0) soonest(away_since_[wi] + settings_.grace_ms);
  return t;
}

void Room::committed(std::vector<Out>& out) {
  if (!pending_) return;
  live_ = std::move(pending_);
  const std::int64_t since = log_.empty() ? 0 : log_.back().seq;
  for (Event& e : pending_events_) log_.push_back(std::move(e));
  pending_events_.clear();
  std::array<std::string, i18n::kLangs> text;  // built once per language
  for (const auto& [id, c] : conns_) {
    std::string& t = text[static_cast<std::size_t>(c.lang)];
    if (t.empty()) t = events_message(since, c.lang);
    out.push_back({id, t});
  }
  for (Out& o : views(log_.empty() ? 0 : log_.back().time)) out.push_back(std::move(o));
  if (!pending_cid_.empty() && pending_conn_ != 0)
    out.push_back({pending_conn_, json{{"type", "ack"}, {"cid", pending_cid_}, {"seq", live_->cids.at({pending_seat_, pending_cid_})}}.dump()});
  pending_conn_ = 0;
  pending_cid_.clear();
}

void Room::failed(const std::string& why, std::vector<Out>& out) {
  if (!pending_) return;
  pending_.reset();
  pending_events_.clear();
  if (!pending_cid_.empty() && pending_conn_ != 0) out.push_back({pending_conn_, reject(pending_cid_, "store", "not saved: " + why + "; send it again")});
  pending_conn_ = 0;
  pending_cid_.clear();
}

}  // namespace carc::server
