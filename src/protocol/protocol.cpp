#include "protocol/protocol.hpp"

#include "ai/bot_limits.hpp"
#include "ai/mcts.hpp"
#include "ai/review.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/io.hpp"
#include "core/json_input.hpp"
#include "view/view.hpp"

namespace carc::protocol {

using nlohmann::json;

// A failure with its stable code (docs/engine-protocol.md).
struct ProtocolError : InputError {
  ProtocolError(std::string c, const std::string& msg) : InputError(msg), code(std::move(c)) {}
  std::string code;
};

struct EngineSession::Open {
  std::unique_ptr<Game> game;
  std::map<std::string, std::unique_ptr<Bot>> bots;  // by spec: a bot keeps what it searched
  Rng rng{1};
};

namespace {

const json* opt(const json& o, const char* k) { return jin::opt(o, k); }

void only_keys(const json& req, std::initializer_list<const char*> keys) {
  for (auto it = req.begin(); it != req.end(); ++it) {
    const std::string& k = it.key();
    if (k == "id" || k == "cmd" || k == "lang") continue;
    if (std::none_of(keys.begin(), keys.end(), [&k](const char* a) { return k == a; }))
      throw ProtocolError("bad_request", fmt::format("unknown key \"{}\" (this command takes: {})", printable(k), fmt::join(keys, ", ")));
  }
}

std::string str_field(const json& req, const char* k, std::size_t max_len = 200) {
  const json* v = opt(req, k);
  if (!v) throw ProtocolError("bad_request", fmt::format("{}: missing", k));
  try {
    return jin::string(*v, "request", k, max_len);
  } catch (const InputError& e) {
    throw ProtocolError("bad_request", e.what());
  }
}

bool flag(const json& req, const char* k, bool dflt) {
  const json* v = opt(req, k);
  if (!v) return dflt;
  if (!v->is_boolean()) throw ProtocolError("bad_request", fmt::format("{}: expected true or false", k));
  return v->get<bool>();
}

std::optional<u64> seed_field(const json& req, const char* k) {
  const json* v = opt(req, k);
  if (!v) return std::nullopt;
  try {
    return jin::unsigned64(*v, "request", k);
  } catch (const InputError& e) {
    throw ProtocolError("bad_request", e.what());
  }
}

json events_since(const Game& g, std::size_t from) {
  json out = json::array();
  const auto& ev = g.record().events;
  for (std::size_t i = from; i < ev.size(); ++i)
    out.push_back(view::to_json(view::event_view(g.state(), ev[i], g.record().players)));
  return out;
}

// Where the game stands: the decision and who makes it.
void add_status(json& reply, const Game& g) {
  const State& s = g.state();
  const bool over = g.over();  // played to its end, or ended early (resigned, timeout, aborted)
  const char* phase = over                       ? "over"
                      : s.phase == Phase::Place  ? "place"
                      : s.phase == Phase::Piece  ? "piece"
                      : s.phase == Phase::Choose ? "choose"
                                                 : "waiting";
  reply["phase"] = phase;
  reply["to_move"] = over || is_chance(s) ? json(nullptr) : json(to_move(s));
  reply["tile"] = !over && s.phase == Phase::Place ? json(s.rs->tiles.types[s.in_hand].id) : json(nullptr);
  reply["turn"] = s.turn;
  reply["over"] = over;
  json scores = json::array();
  for (int p = 0; p < s.nplayers; ++p) scores.push_back(s.score[static_cast<std::size_t>(p)]);
  reply["scores"] = scores;
}

// Why no move can be made: the game is over, and how it ended when it ended early.
std::string over_text(const Game& g) {
  return g.ended().empty() ? std::string("the game is over")
                           : fmt::format("the game is over (it ended early: {})", g.ended());
}

// A move: the notation, or {"kind": ...} with its parts.
Move move_of(const Game& g, const json& mv) {
  const State& s = g.state();
  if (g.over()) throw ProtocolError("game_over", over_text(g));
  if (is_chance(s)) throw ProtocolError("waiting", "the game waits for a draw that no source can give (the record's draws ran out)");
  try {
    if (mv.is_string()) return parse_notation(s, jin::string(mv, "request", "move", 200));
    if (!mv.is_object()) throw ProtocolError("bad_request", "move: expected the notation (a string) or an object with \"kind\"");
    const std::string kind = jin::string(jin::need(mv, "kind", "move"), "move", "kind", 20);
    auto integer = [&](const char* k, long long lo, long long hi) { return static_cast<int>(jin::integer(jin::need(mv, k, "move"), lo, hi, "move", k)); };
    auto text = [&](const char* k) { return jin::string(jin::need(mv, k, "move"), "move", k, 200); };
    for (const auto& [k, v] : mv.items())
      if (k != "kind" && k != "x" && k != "y" && k != "rot" && k != "port" && k != "piece" && k != "text")
        throw ProtocolError("bad_request", fmt::format("move: unknown key \"{}\"", printable(k)));
    Move m;
    if (kind == "place") {
      if (s.phase != Phase::Place) throw InputError("no tile is to be placed now");
      m = g.placement(integer("x", -128, 127), integer("y", -128, 127), integer("rot", 0, 270));
    } else if (kind == "piece") {
      if (s.phase != Phase::Piece) throw InputError("no piece can be placed now");
      const json* pc = jin::opt(mv, "piece");
      m = g.piece_at(integer("x", -128, 127), integer("y", -128, 127), text("port"), pc ? jin::string(*pc, "move", "piece", 20) : std::string());
      // the feature's own piece named by name is the feature's own piece
      if (pc && m.pk != 0xFF && s.rs->game->piece_names[std::min<std::size_t>(m.pk, 1)] != jin::string(*pc, "move", "piece", 20)) m.pk = 0xFF;
    } else if (kind == "pass") {
      return parse_notation(s, "pass");
    } else if (kind == "action" || kind == "choice") {
      return parse_notation(s, text("text"));
    } else {
      throw ProtocolError("bad_request", fmt::format("move: kind \"{}\" is not place, piece, pass, action or choice", printable(kind)));
    }
    if (!is_legal(s, m)) throw InputError(fmt::format("{} is not legal now", notation(s, m)));
    return m;
  } catch (const ProtocolError&) {
    throw;
  } catch (const InputError& e) {
    throw ProtocolError("illegal_move", e.what());
  }
}

std::vector<PlayerInfo> players_field(const json& req) {
  const json* pj = opt(req, "players");
  if (!pj) throw ProtocolError("bad_request", "players: missing (a list of names, or {\"name\", \"bot\"} objects)");
  std::vector<PlayerInfo> players;
  try {
    const json& arr = jin::array(*pj, "request", "players", kMaxPlayers);
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string ctx = fmt::format("players[{}]", i);
      PlayerInfo p;
      if (arr[i].is_string()) {
        p.name = jin::string(arr[i], "request", ctx, 64);
      } else {
        jin::object(arr[i], "request", ctx);
        p.name = jin::string(jin::need(arr[i], "name", ctx), "request", ctx + ".name", 64);
        if (const json* b = jin::opt(arr[i], "bot")) p.bot = jin::string(*b, "request", ctx + ".bot", 100);
        if (!p.bot.empty() && !is_bot_spec(p.bot)) throw InputError(fmt::format("request: {}.bot: \"{}\" is not a bot", ctx, printable(p.bot)));
      }
      players.push_back(p);
    }
  } catch (const InputError& e) {
    throw ProtocolError("bad_request", e.what());
  }
  return players;
}

}  // namespace

struct Dispatch {
  EngineSession& ses;
  std::string raw;  // legal: the options array, spliced into the reply as "options"

  EngineSession::Open& open(const json& req) {
    const std::string id = str_field(req, "game", 40);
    const auto it = ses.games_.find(id);
    if (it == ses.games_.end()) throw ProtocolError("unknown_game", fmt::format("game: no open game \"{}\"", printable(id)));
    return *it->second;
  }

  std::string add(std::unique_ptr<Game> g, u64 seed) {
    if (static_cast<int>(ses.games_.size()) >= ses.limits_.max_games)
      throw ProtocolError("too_many_games", fmt::format("at most {} games open at once: close one first", ses.limits_.max_games));
    g->enable_undo(true);
    auto o = std::make_unique<EngineSession::Open>();
    o->game = std::move(g);
    o->rng = Rng(seed ^ 0x5DEECE66DULL);
    const std::string id = fmt::format("g{}", ses.next_id_++);
    ses.games_[id] = std::move(o);
    return id;
  }

  void new_game(const json& req, json& reply) {
    only_keys(req, {"game", "options", "players", "seed", "setup", "view"});
    const std::string game = opt(req, "game") ? str_field(req, "game", 32) : "base";
    const std::vector<PlayerInfo> players = players_field(req);
    const u64 seed = seed_field(req, "seed").value_or(ses.seeds_());
    std::unique_ptr<Game> g;
    try {
      if (const json* su = opt(req, "setup")) {
        json rec{{"game", game}, {"players", *opt(req, "players")}, {"seed", seed}, {"moves", json::array()}, {"setup", *su}};
        if (const json* o = opt(req, "options")) rec["options"] = *o;
        g = std::make_unique<Game>(Game::replay(record_from_json(rec.dump(), "setup"), seed));
      } else {
        std::vector<std::string> settings;
        if (const json* o = opt(req, "options")) {
          const json& obj = jin::object(*o, "request", "options");
          for (const auto& [k, v] : obj.items()) settings.push_back(printable(k) + "=" + jin::string(v, "request", "options." + printable(k), 40));
        }
        if (!find_game(game)) throw InputError(fmt::format("game: unknown game \"{}\" (games: {})", printable(game), fmt::join(game_ids(), ", ")));
        g = std::make_unique<Game>(load_ruleset(game, settings), players, seed);
      }
    } catch (const ProtocolError&) {
      throw;
    } catch (const InputError& e) {
      throw ProtocolError("bad_input", e.what());
    }
    const Game& ref = *g;
    reply["game"] = add(std::move(g), seed);
    reply["seed"] = seed;
    add_status(reply, ref);
    if (flag(req, "view", false)) reply["view"] = view::to_json(view::build_view(ref));
  }

  void load(const json& req, json& reply) {
    only_keys(req, {"record", "seed", "view"});
    const json* r = opt(req, "record");
    if (!r) throw ProtocolError("bad_request", "record: missing (a record object, or its text)");
    const std::optional<u64> seed = seed_field(req, "seed");
    std::unique_ptr<Game> g;
    try {
      const std::string text = r->is_string() ? r->get<std::string>() : r->dump();
      g = std::make_unique<Game>(Game::replay(record_from_json(text, "record"), seed));
    } catch (const ReplayError& e) {
      throw ProtocolError("bad_record", fmt::format("{} ({})", e.what(), e.code));
    } catch (const InputError& e) {
      throw ProtocolError("bad_record", e.what());
    }
    const Game& ref = *g;
    reply["game"] = add(std::move(g), seed.value_or(ses.seeds_()));
    add_status(reply, ref);
    if (flag(req, "view", false)) reply["view"] = view::to_json(view::build_view(ref));
  }

  void view(const json& req, json& reply) {
    only_keys(req, {"game", "features", "options"});
    const Game& g = *open(req).game;
    view::ViewOptions o;
    o.features = flag(req, "features", true);
    o.options = flag(req, "options", true);
    reply["view"] = view::to_json(view::build_view(g, o));
  }

  void legal(const json& req, json& reply) {
    only_keys(req, {"game", "after"});
    const Game& g = *open(req).game;
    add_status(reply, g);
    // the options are written straight into the reply's text (Dispatch::raw), not as JSON objects
    if (const json* after = opt(req, "after")) {
      if (g.over()) throw ProtocolError("game_over", over_text(g));
      if (g.state().phase != Phase::Place) throw ProtocolError("illegal_move", "after: there is no tile to place now");
      const Move place = move_of(g, *after);
      if (place.kind != MoveKind::Place) throw ProtocolError("illegal_move", "after: expected a placement");
      view::append_options_json(raw, view::options_after(g, place));
      reply["after"] = notation(g.state(), place);
    } else {
      view::append_options_json(raw, g.over() ? std::vector<view::OptionView>{} : view::decision_options(g.state()));
    }
  }

  void play(const json& req, json& reply) {
    only_keys(req, {"game", "move", "view"});
    Game& g = *open(req).game;
    const json* mv = opt(req, "move");
    if (!mv) throw ProtocolError("bad_request", "move: missing");
    const Move m = move_of(g, *mv);
    const std::string text = notation(g.state(), m);
    const int who = to_move(g.state());
    const std::size_t before = g.record().events.size();
    try {
      g.play(m);
    } catch (const InputError& e) {
      throw ProtocolError("illegal_move", e.what());
    }
    reply["played"] = text;
    reply["player"] = who;
    reply["events"] = events_since(g, before);
    add_status(reply, g);
    if (flag(req, "view", false)) reply["view"] = view::to_json(view::build_view(g));
  }

  void undo(const json& req, json& reply) {
    only_keys(req, {"game", "player"});
    Game& g = *open(req).game;
    int player = g.over() || is_chance(g.state()) ? g.state().current : to_move(g.state());
    if (const json* p = opt(req, "player")) {
      try {
        player = static_cast<int>(jin::integer(*p, 0, g.state().nplayers - 1, "request", "player"));
      } catch (const InputError& e) {
        throw ProtocolError("bad_request", e.what());
      }
    }
    if (!g.undo_turn(player)) throw ProtocolError("no_undo", fmt::format("player {} has no turn to take back", player));
    add_status(reply, g);
  }

  // A whole number field within [lo, hi], or dflt when absent.
  static int int_field(const json& req, const char* k, int lo, int hi, int dflt) {
    const json* v = opt(req, k);
    if (!v) return dflt;
    try {
      return static_cast<int>(jin::integer(*v, lo, hi, "request", k));
    } catch (const InputError& e) {
      throw ProtocolError("bad_request", e.what());
    }
  }
  int playouts_field(const json& req) const {
    const int cap = ses.limits_.bots.max_playouts > 0 ? ses.limits_.bots.max_playouts : kMctsMaxPlayouts;
    return int_field(req, "playouts", 1, cap, std::min(1000, cap));
  }

  // The search's statistics per option at the game's decision (docs/mcts.md "Analysis").
  void analyze(const json& req, json& reply) {
    only_keys(req, {"game", "playouts", "seed", "top", "force", "ownership"});
    const Game& g = *open(req).game;
    const State& s = g.state();
    if (g.over()) throw ProtocolError("game_over", over_text(g));
    if (is_chance(s)) throw ProtocolError("waiting", "the game waits for a draw that no source can give");
    MctsOptions mo;
    mo.playouts = playouts_field(req);
    mo.threads = 1;
    mo.stop = SearchStop::after_ms(ses.cancel_, ses.limits_.bots.max_ms);  // as a bot's move is bounded
    const int top = int_field(req, "top", 1, 1000, 5);
    std::optional<Move> force;
    if (opt(req, "force")) {
      const std::string text = str_field(req, "force");
      try {
        force = parse_notation(s, text);
      } catch (const InputError& e) {
        throw ProtocolError("illegal_move", fmt::format("force \"{}\": {}", printable(text), e.what()));
      }
    }
    const bool owning = flag(req, "ownership", false);
    const Analysis a =
        mcts_analyze(s, mo, seed_field(req, "seed").value_or(1), force ? &*force : nullptr, 0.25, owning);
    reply["player"] = a.player;
    reply["playouts"] = a.playouts;
    json opts = json::array();
    for (std::size_t i = 0; i < a.options.size() && static_cast<int>(i) < top; ++i)
      opts.push_back(option_json(a.options[i], notation(s, a.options[i].move)));
    reply["options"] = opts;
    if (force)
      for (const OptionStats& st : a.options)
        if (st.move == *force) reply["forced"] = option_json(st, notation(s, st.move));
    if (owning) reply["ownership"] = ownership_json(s, a.ownership);
  }

  // A record reviewed move by move (docs/mcts.md "Review").
  void review(const json& req, json& reply) {
    only_keys(req, {"record", "playouts", "seed", "ownership"});
    const json* r = opt(req, "record");
    if (!r) throw ProtocolError("bad_request", "record: missing (a record object, or its text)");
    ReviewOptions o;
    o.playouts = playouts_field(req);
    o.seed = seed_field(req, "seed").value_or(1);
    o.ownership = flag(req, "ownership", false);
    o.stop = SearchStop::after_ms(ses.cancel_, ses.limits_.review_ms);
    Record rec;
    Review rv;
    try {
      rec = record_from_json(r->is_string() ? r->get<std::string>() : r->dump(), "record");
      // a whole review is bounded like 50 searches at the session's most playouts (a turn has
      // at most 3 decisions)
      const int cap = ses.limits_.bots.max_playouts > 0 ? ses.limits_.bots.max_playouts : kMctsMaxPlayouts;
      const double work =
          static_cast<double>(o.playouts) * 3.0 * static_cast<double>(std::max<std::size_t>(1, rec.moves.size()));
      if (work > 50.0 * cap)
        throw ProtocolError(
            "bad_request",
            fmt::format(
                "playouts: {} per decision over {} turns is more than this session reviews (about {} playouts in all)",
                o.playouts, rec.moves.size(), 50L * cap));
      rv = review_record(rec, o);
    } catch (const ProtocolError&) {
      throw;
    } catch (const ReviewCut& e) {
      throw ProtocolError(
          "time_cap", fmt::format("{}: {} (ask for fewer playouts)", e.what(),
                                  ses.cancel_ && ses.cancel_->load() ? "the input closed"
                                                                     : fmt::format("a review takes at most {:g} s here",
                                                                                   ses.limits_.review_ms / 1000.0)));
    } catch (const ReplayError& e) {
      throw ProtocolError("bad_record", fmt::format("{} ({})", e.what(), e.code));
    } catch (const InputError& e) {
      throw ProtocolError("bad_record", e.what());
    }
    reply["review"] = review_to_json(rv, rec);
  }

  void bot(const json& req, json& reply) {
    only_keys(req, {"game", "bot", "play", "view"});
    EngineSession::Open& o = open(req);
    Game& g = *o.game;
    const State& s = g.state();
    if (g.over()) throw ProtocolError("game_over", over_text(g));
    if (is_chance(s)) throw ProtocolError("waiting", "the game waits for a draw that no source can give");
    const int who = to_move(s);
    std::string spec = opt(req, "bot") ? str_field(req, "bot", 100) : g.record().players[static_cast<std::size_t>(who)].bot;
    if (spec.empty()) spec = "greedy";
    auto it = o.bots.find(spec);
    if (it == o.bots.end()) {
      std::unique_ptr<Bot> b;
      try {
        b = make_bot(spec);
        if (spec.rfind("mcts", 0) == 0) {
          const BotLimits& l = ses.limits_.bots;
          const OverLimit over = over_limits(parse_mcts_spec(spec), l);
          if (over == OverLimit::ms) throw InputError(fmt::format("bot: at most {} ms per move", l.max_ms));
          if (over == OverLimit::playouts)
            throw InputError(fmt::format("bot: at most {} playouts per move", l.max_playouts));
        }
      } catch (const InputError& e) {
        throw ProtocolError("bad_request", e.what());
      }
      if (o.bots.size() >= 8) o.bots.clear();
      it = o.bots.emplace(spec, std::move(b)).first;
    }
    MoveList ml;
    legal_moves(s, ml);
    it->second->set_stop(SearchStop::after_ms(ses.cancel_, ses.limits_.bots.max_ms));
    const Move m = it->second->choose(s, ml, o.rng);
    const BotReport rep = it->second->report();
    reply["bot"] = spec;
    reply["move"] = notation(s, m);
    reply["player"] = who;
    reply["report"] = {{"summary", rep.summary}, {"value", rep.value}, {"visits", rep.visits}, {"total_visits", rep.total_visits}};
    const bool apply = flag(req, "play", false);
    reply["played"] = apply;
    if (apply) {
      const std::size_t before = g.record().events.size();
      g.play(m);
      reply["events"] = events_since(g, before);
    }
    add_status(reply, g);
    if (flag(req, "view", false)) reply["view"] = view::to_json(view::build_view(g));
  }

  void record(const json& req, json& reply) {
    only_keys(req, {"game"});
    const Game& g = *open(req).game;
    reply["record"] = json::parse(record_to_json(g.record(), g.ruleset(), -1));
  }

  void close(const json& req, json& reply) {
    only_keys(req, {"game"});
    const std::string id = str_field(req, "game", 40);
    if (ses.games_.erase(id) == 0) throw ProtocolError("unknown_game", fmt::format("game: no open game \"{}\"", printable(id)));
    reply["closed"] = id;
  }

  void games(const json& req, json& reply) {
    only_keys(req, {});
    json list = json::array();
    for (const auto& [id, o] : ses.games_) {
      json item{{"game", id}, {"kind", o->game->ruleset().game->id}};
      add_status(item, *o->game);
      list.push_back(item);
    }
    reply["games"] = list;
  }
};

EngineSession::EngineSession(ProtocolLimits limits, std::optional<u64> seed) : limits_(limits), seeds_(seed ? *seed : std::random_device{}()) {}
EngineSession::~EngineSession() = default;

std::string EngineSession::handle(std::string_view line) {
  json reply{{"id", nullptr}};
  // an error reply holds its id and the error alone, whatever the command had put in its reply
  // before it failed (the schema's error shape: docs/engine-protocol.schema.json)
  auto fail = [&](const std::string& code, const std::string& msg) {
    const json out{{"id", reply["id"]}, {"ok", false}, {"error", {{"code", code}, {"message", printable(msg)}}}};
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
  };
  if (line.size() > limits_.max_line) return fail("too_long", fmt::format("a request is at most {} bytes; this one is {}", limits_.max_line, line.size()));
  json req;
  try {
    req = jin::parse(std::string(line), "request");
  } catch (const InputError& e) {
    return fail("bad_json", e.what());
  }
  if (!req.is_object()) return fail("bad_json", fmt::format("a request is a JSON object, not {}", jin::type_name(req)));
  if (const auto it = req.find("id"); it != req.end()) {
    if (!(it->is_number_integer() || it->is_number_unsigned() ||
          (it->is_string() && utf8_chars(it->get_ref<const std::string&>()) <= 100) || it->is_null()))
      return fail("bad_request", "id: a whole number or a string of at most 100 characters");
    reply["id"] = *it;
  }
  std::string d_raw;
  try {
    const std::string cmd = str_field(req, "cmd", 20);
    i18n::Lang lang = lang_;
    if (const json* l = opt(req, "lang")) {
      const auto parsed = l->is_string() ? i18n::parse_lang(l->get_ref<const std::string&>()) : std::nullopt;
      if (!parsed || l->get_ref<const std::string&>().size() > 40)
        throw ProtocolError("bad_request",
                            fmt::format("lang: {} is not a language (en, ru, ro)", printable(l->dump())));
      lang = *parsed;
    }
    const i18n::Scope language(lang);  // the words of views, options and events (docs/i18n.md)
    Dispatch d{*this, {}};
    if (cmd == "new") d.new_game(req, reply);
    else if (cmd == "load") d.load(req, reply);
    else if (cmd == "view") d.view(req, reply);
    else if (cmd == "legal") {
      d.legal(req, reply);
      d_raw = std::move(d.raw);
    }
    else if (cmd == "play") d.play(req, reply);
    else if (cmd == "undo") d.undo(req, reply);
    else if (cmd == "bot") d.bot(req, reply);
    else if (cmd == "analyze")
      d.analyze(req, reply);
    else if (cmd == "review")
      d.review(req, reply);
    else if (cmd == "record") d.record(req, reply);
    else if (cmd == "close") d.close(req, reply);
    else if (cmd == "games") d.games(req, reply);
    else if (cmd == "quit") {
      only_keys(req, {});
      done_ = true;
    } else {
      throw ProtocolError("unknown_command", fmt::format("cmd: \"{}\" is not a command (new, load, view, legal, play, "
                                                         "undo, bot, analyze, review, record, close, games, quit)",
                                                         printable(cmd)));
    }
  } catch (const ProtocolError& e) {
    return fail(e.code, e.what());
  } catch (const CapacityError& e) {
    return fail("bad_input", e.what());
  } catch (const InputError& e) {
    return fail("bad_input", e.what());
  } catch (const std::exception& e) {
    return fail("internal", e.what());
  }
  reply["ok"] = true;
  std::string out = reply.dump(-1, ' ', false, json::error_handler_t::replace);
  if (!d_raw.empty()) {  // ,"options":[...] before the closing brace
    out.pop_back();
    out += R"(,"options":)";
    out += d_raw;
    out += '}';
  }
  return out;
}

}  // namespace carc::protocol
