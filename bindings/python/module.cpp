// The Python module `carcassonne` (its compiled part, carcassonne._core): OpenSpiel-shaped games
// and states over the engine, with the fixed action space and observation of src/rl
// (docs/python.md). A thin layer: every rule is the engine's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <ctime>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "ai/bots.hpp"
#include "ai/mcts.hpp"
#include "core/i18n.hpp"
#include "engine/engine.hpp"
#include "games/games.hpp"
#include "record_input.hpp"
#include "rl/batched_mcts.hpp"
#include "rl/encoding.hpp"
#include "rl/vec_env.hpp"
#include "view/svg.hpp"
#include "view/view.hpp"

namespace py = pybind11;
using namespace carc;

namespace {

constexpr int kChance = -1;    // OpenSpiel's kChancePlayerId
constexpr int kTerminal = -4;  // OpenSpiel's kTerminalPlayerId

// numpy.bool_ and the PlayerAction named tuple, set when the module loads (kept for its life)
PyObject* g_numpy_bool = nullptr;
PyObject* g_player_action = nullptr;

// A str argument as UTF-8: one that cannot be (a lone surrogate, "\ud800") is a ValueError naming
// the argument, as any bad value is, not pybind11's cast error.
std::string utf8_arg(const py::handle& o, const char* name) {
  if (!PyUnicode_Check(o.ptr()))
    throw py::type_error(fmt::format("{}: a str, not {}", name, Py_TYPE(o.ptr())->tp_name));
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(o.ptr(), &n);
  if (p == nullptr) {
    PyErr_Clear();
    throw InputError(fmt::format("{}: not valid Unicode text (a lone surrogate?)", name));
  }
  return {p, static_cast<std::size_t>(n)};
}

py::object json_to_py(const nlohmann::json& j) { return py::module_::import("json").attr("loads")(j.dump()); }
std::string py_to_json_text(const py::object& o) {
  if (py::isinstance<py::str>(o)) return utf8_arg(o, "record");
  try {
    return py::module_::import("json").attr("dumps")(o).cast<std::string>();
  } catch (py::error_already_set& e) {
    // a value nested deeper than Python's recursion limit: as deep text is, refused as input
    if (e.matches(PyExc_RecursionError)) throw InputError("record: nested too deep to be a record");
    throw;
  }
}

// A bool, Python's or numpy's (numpy.bool_ still answers __index__, with a warning).
bool is_bool(const py::handle& o) {
  return PyBool_Check(o.ptr()) ||
         (g_numpy_bool != nullptr && PyObject_TypeCheck(o.ptr(), reinterpret_cast<PyTypeObject*>(g_numpy_bool)));
}

// Integer arguments as Python gives them: an int or anything with __index__ (numpy's integers),
// never a float or a bool, and never wrapped: out of range is a ValueError naming the argument
// (pybind11's own int conversion answers a numpy int64 past int32 with a bare signature error).
long long int_arg(const py::handle& o, const char* name) {
  if (is_bool(o) || !PyIndex_Check(o.ptr()))
    throw py::type_error(fmt::format("{}: an integer, not {}", name, Py_TYPE(o.ptr())->tp_name));
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(o.ptr()));
  if (!i) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) throw InputError(fmt::format("{}: {} is out of range", name, py::str(i).cast<std::string>()));
  return v;
}
int int_arg(const py::handle& o, const char* name, long long lo, long long hi) {
  const long long v = int_arg(o, name);
  if (v < lo || v > hi) throw InputError(fmt::format("{}: {} is not from {} to {}", name, v, lo, hi));
  return static_cast<int>(v);
}
int int32_arg(const py::handle& o, const char* name) { return int_arg(o, name, -(1LL << 31), (1LL << 31) - 1); }
// A seed: None, or an integer from 0 to 2**64 - 1.
std::optional<u64> seed_arg(const py::handle& o, const char* name = "seed") {
  if (o.is_none()) return std::nullopt;
  if (is_bool(o) || !PyIndex_Check(o.ptr()))
    throw py::type_error(fmt::format("{}: an integer or None, not {}", name, Py_TYPE(o.ptr())->tp_name));
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(o.ptr()));
  if (!i) throw py::error_already_set();
  const unsigned long long v = PyLong_AsUnsignedLongLong(i.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw InputError(fmt::format("{}: {} is not from 0 to 2**64 - 1", name, py::str(i).cast<std::string>()));
  }
  return static_cast<u64>(v);
}
u64 seed_or_zero(const py::handle& o, const char* name = "seed") { return seed_arg(o, name).value_or(0); }

struct PyGame {
  std::string name;
  int players = 2;
  std::map<std::string, std::string> options;
  std::shared_ptr<const Ruleset> rs;
  std::shared_ptr<const rl::Encoding> enc;

  int radius_asked = rl::kDefaultRadius;  // as given (kDefaultRadius: the game's own)

  PyGame(const std::string& game, int nplayers, const std::map<std::string, std::string>& opts, int radius)
      : name(game), players(nplayers), radius_asked(radius) {
    std::vector<std::string> settings;
    for (const auto& [k, v] : opts) settings.push_back(k + "=" + v);
    rs = load_ruleset(game, settings);
    options = rs->options;
    if (nplayers < rs->game->min_players || nplayers > rs->game->max_players)
      throw InputError(fmt::format("players: {} takes {} to {} players, not {}", game, rs->game->min_players,
                                   rs->game->max_players, nplayers));
    if (radius != rl::kDefaultRadius && (radius < 2 || radius > 60))
      throw InputError(fmt::format("radius: {} is not from 2 to 60 (or None: the game's own)", radius));
    enc = std::make_shared<rl::Encoding>(rs, nplayers, radius);
    init_state(start, *rs, nplayers);
  }
  State start;  // the game's first position (names the game's own chance outcomes without a state)
  [[nodiscard]] int ntypes() const { return static_cast<int>(rs->tiles.types.size()); }
  [[nodiscard]] int max_chance_outcomes() const { return ntypes() + rs->game->chance_outcomes; }
  // A decision's action in words even when it is not legal now: its block and fields.
  [[nodiscard]] std::string describe(int a) const {
    const rl::Encoding& e = *enc;
    const auto& bl = e.blocks();
    std::size_t bi = 0;
    while (bi + 1 < bl.size() && a >= bl[bi + 1].offset) ++bi;
    const rl::ActionBlock& b = bl[bi];
    int i = a - b.offset;
    const auto field = [&i](int n) {
      const int v = i % std::max(n, 1);
      i /= std::max(n, 1);
      return v;
    };
    const int pk = field(b.pks), feat = field(b.feats + (b.none ? 1 : 0)), rot = field(b.rots), slot = field(b.slots);
    std::string out = b.name;
    if (b.cell)
      out +=
          fmt::format(" {},{}", i % e.width() - e.radius() + e.centre_x(), i / e.width() - e.radius() + e.centre_y());
    if (b.slots > 1) out += fmt::format(" slot {}", slot);
    if (b.rots > 0) out += fmt::format(" rot {}", rot);
    if (b.feats > 0) out += b.none && feat == b.feats ? std::string(" none") : fmt::format(" feat {}", feat);
    if (b.pks > 1) out += fmt::format(" kind {}", pk);
    return out;
  }
  // Any id in words without a state (OpenSpiel's Game.action_to_string): a chance id (player
  // kChance) as its outcome, a decision's by its block and fields.
  [[nodiscard]] std::string action_to_string(int player, int a) const {
    if (player == kChance) {
      if (a < 0 || a >= max_chance_outcomes())
        throw InputError(fmt::format("action: {} is not a chance outcome id (0..{})", a, max_chance_outcomes() - 1));
      if (a < ntypes()) return "draw " + rs->tiles.types[static_cast<std::size_t>(a)].id;
      // the game's own outcome in its words (Safari: a species), as a state names it
      if (const auto text = rs->game->hooks.chance_text) return text(start, a - ntypes());
      return fmt::format("chance outcome {}", a - ntypes());
    }
    if (a < 0 || a >= enc->num_actions())
      throw InputError(fmt::format("action: {} is not an action id (0..{})", a, enc->num_actions() - 1));
    return describe(a);
  }
  // A bound on a game's actions, chance outcomes included: (tiles + 1) x (1 + a turn's most).
  [[nodiscard]] int max_game_length() const {
    return (total_tiles() + 1) * (1 + rs->game->turn_actions + rs->game->turn_actions_per_player * players);
  }
  [[nodiscard]] int total_tiles() const {
    int n = 0;
    for (const auto& t : rs->tiles.types) n += t.count;
    return n;
  }
};

// Games by (name, players, options, radius), shared while anyone holds them: unpickled states of
// one game share its encoding instead of building one each.
std::shared_ptr<PyGame> shared_game(const std::string& name, int players,
                                    const std::map<std::string, std::string>& options, int radius) {
  static std::map<std::string, std::weak_ptr<PyGame>> cache;
  std::string key = fmt::format("{}|{}|{}", name, players, radius);
  for (const auto& [k, v] : options) key += "|" + k + "=" + v;
  if (auto g = cache[key].lock()) return g;
  auto g = std::make_shared<PyGame>(name, players, options, radius);
  cache[key] = g;
  return g;
}

std::vector<PlayerInfo> seat_names(int n) {
  std::vector<PlayerInfo> p;
  for (int i = 0; i < n; ++i) p.push_back({fmt::format("player {}", i + 1), ""});
  return p;
}

struct PyState {
  std::shared_ptr<const PyGame> game;
  Game g;
  std::vector<double> last_rewards;
  // every action applied since the initial state, and who took it (kChance for chance outcomes);
  // for a state loaded from a record, derived from it (history_known false where it could not be:
  // a prepared position, or a record the actions do not reproduce)
  std::vector<int> history, history_players;
  bool history_known = true;

  PyState(std::shared_ptr<const PyGame> pg, Game gm) : game(std::move(pg)), g(std::move(gm)) {}

  [[nodiscard]] const State& s() const { return g.state(); }
  [[nodiscard]] bool terminal() const { return g.over(); }
  [[nodiscard]] bool chance() const { return !terminal() && is_chance(s()); }
  [[nodiscard]] int current_player() const {
    if (terminal()) return kTerminal;
    if (chance()) return kChance;
    return to_move(s());
  }
  void legal(rl::Encoding::Legal& l) const { game->enc->legal(s(), l); }

  [[nodiscard]] std::vector<std::pair<int, double>> chance_outcomes() const {
    if (!chance()) throw InputError("chance_outcomes: this is not a chance node");
    std::vector<std::pair<int, double>> odds;
    chance_odds(s(), odds);
    if (s().phase == Phase::Chance)
      for (auto& o : odds) o.first += game->ntypes();
    return odds;
  }
  [[nodiscard]] std::vector<int> legal_actions() const {
    if (terminal()) return {};
    if (chance()) {
      std::vector<int> a;
      for (const auto& o : chance_outcomes()) a.push_back(o.first);
      return a;
    }
    rl::Encoding::Legal l;
    legal(l);
    std::vector<int> a = l.actions;
    std::sort(a.begin(), a.end());
    return a;
  }
  // The legal move of action a (a decision), or InputError saying why there is none.
  [[nodiscard]] Move move_of(int a) const {
    if (a < 0 || a >= game->enc->num_actions())
      throw InputError(fmt::format("action {} is not in 0..{}", a, game->enc->num_actions() - 1));
    rl::Encoding::Legal l;
    legal(l);
    for (std::size_t i = 0; i < l.actions.size(); ++i)
      if (l.actions[i] == a) return l.moves[i];
    throw InputError(fmt::format("action {} ({}) is not legal now", a, describe(a)));
  }
  void apply_action(int a) {
    if (terminal()) throw InputError(fmt::format("apply_action({}): the game is over", a));
    const int who = current_player();
    if (chance()) {
      int o = a;
      if (s().phase == Phase::Chance) o -= game->ntypes();
      if (a < 0 || a >= game->max_chance_outcomes() || (s().phase == Phase::Chance) != (a >= game->ntypes()))
        throw InputError(fmt::format("action {} is not a chance outcome of this node", a));
      g.apply_chance_outcome(o);
    } else {
      g.play(move_of(a));
    }
    history.push_back(a);
    history_players.push_back(who);
    settle_rewards();
  }
  void settle_rewards() {
    last_rewards = terminal() ? returns() : std::vector<double>(static_cast<std::size_t>(game->players), 0.0);
  }
  [[nodiscard]] std::string describe(int a) const { return game->describe(a); }
  // OpenSpiel's ActionToString(player, action): the action as `player` would take it, here or
  // anywhere in the game (a past draw named by CHANCE, a seat's id by its block and fields).
  [[nodiscard]] std::string action_to_string(int player, int a) const {
    if (player == kChance) return chance() ? action_to_string(a) : game->action_to_string(kChance, a);
    if (player < 0 || player >= game->players)
      throw InputError(
          fmt::format("player: {} is not a seat of this game (0..{}) or CHANCE", player, game->players - 1));
    if (!chance() && !terminal() && player == current_player()) return action_to_string(a);
    return game->action_to_string(player, a);
  }
  // Any action id in words (OpenSpiel's ActionToString): chance ids as their outcome, a legal
  // decision in the engine's notation, any other decision id by its block and fields.
  [[nodiscard]] std::string action_to_string(int a) const {
    if (chance()) {
      if (a < 0 || a >= game->max_chance_outcomes())
        throw InputError(
            fmt::format("action: {} is not a chance outcome id (0..{})", a, game->max_chance_outcomes() - 1));
      if (a < game->ntypes()) return "draw " + game->rs->tiles.types[static_cast<std::size_t>(a)].id;
      const auto text = game->rs->game->hooks.chance_text;
      return text ? text(s(), a - game->ntypes()) : fmt::format("outcome {}", a - game->ntypes());
    }
    if (a < 0 || a >= game->enc->num_actions())
      throw InputError(fmt::format("action: {} is not an action id (0..{})", a, game->enc->num_actions() - 1));
    if (!terminal()) {
      rl::Encoding::Legal l;
      legal(l);
      for (std::size_t i = 0; i < l.actions.size(); ++i)
        if (l.actions[i] == a) return notation(s(), l.moves[i]);
    }
    return describe(a) + " (not legal now)";
  }
  [[nodiscard]] int string_to_action(const std::string& text) const {
    if (chance()) {
      for (const auto& [a, p] : chance_outcomes())
        if (action_to_string(a) == text) return a;
      throw InputError(fmt::format("\"{}\" is not a chance outcome of this node", text));
    }
    if (terminal()) throw InputError("the game is over");
    const Move m = parse_notation(s(), text);
    int a = game->enc->action(s(), m);
    if (a < 0) {  // off the window: legal only as the decision's place_outside action
      rl::Encoding::Legal l;
      legal(l);
      for (std::size_t i = 0; i < l.moves.size(); ++i)
        if (l.moves[i] == m) a = l.actions[i];
    }
    if (a < 0)
      throw InputError(fmt::format("\"{}\" lies off the action space's window (radius {})", text, game->enc->radius()));
    return a;
  }
  [[nodiscard]] std::vector<double> scores() const {
    std::vector<double> r;
    for (int p = 0; p < game->players; ++p) r.push_back(s().score[static_cast<std::size_t>(p)]);
    return r;
  }
  // Zero-sum: the top scorers share a win; (n w - 1) / (n - 1) with w = 1/k for k tied winners.
  // Computed in double here (rl::final_returns gives float32): they sum to 0 exactly as doubles can.
  [[nodiscard]] std::vector<double> returns() const {
    const int n = game->players;
    std::vector<double> r(static_cast<std::size_t>(n), 0.0);
    if (!terminal()) return r;
    int best = s().score[0], k = 0;
    for (int p = 0; p < n; ++p) best = std::max<int>(best, s().score[static_cast<std::size_t>(p)]);
    for (int p = 0; p < n; ++p) k += s().score[static_cast<std::size_t>(p)] == best;
    for (int p = 0; p < n; ++p) {
      const double w = s().score[static_cast<std::size_t>(p)] == best ? 1.0 / k : 0.0;
      r[static_cast<std::size_t>(p)] = (n * w - 1) / (n - 1);
    }
    return r;
  }
  [[nodiscard]] py::array_t<float> observation(int player) const {
    if (player < 0 || player >= game->players)
      throw InputError(fmt::format("player {} is not in 0..{}", player, game->players - 1));
    py::array_t<float> out(game->enc->observation_size());
    game->enc->observe(s(), player, out.mutable_data());
    return out;
  }
  // OpenSpiel's sizes: max_chance_outcomes() at a chance node, num_distinct_actions() elsewhere.
  [[nodiscard]] py::array_t<std::uint8_t> mask() const {
    py::array_t<std::uint8_t> out(chance() ? game->max_chance_outcomes() : game->enc->num_actions());
    std::fill(out.mutable_data(), out.mutable_data() + out.size(), 0);
    if (!terminal() && !chance()) {
      rl::Encoding::Legal l;
      legal(l);
      for (const int a : l.actions) out.mutable_data()[a] = 1;
    } else if (chance()) {
      for (const auto& o : chance_outcomes())
        if (o.first < out.size()) out.mutable_data()[o.first] = 1;
    }
    return out;
  }
};

// A player id of OpenSpiel's LegalActions(player): a seat, CHANCE or TERMINAL; anything else is
// a ValueError (a seat the game does not have is a mistake, not a player who has no moves).
int player_id_arg(const PyState& st, const py::handle& o) {
  const int p = int32_arg(o, "player");
  if (p != kChance && p != kTerminal && (p < 0 || p >= st.game->players))
    throw InputError(fmt::format("player: {} is not a seat of this game (0..{}), CHANCE ({}) or TERMINAL ({})", p,
                                 st.game->players - 1, kChance, kTerminal));
  return p;
}

// Python threads may share a VecEnv or a BatchedMCTS (docs/python.md, "Threads"): each has a lock
// that every call holds, so calls from several threads run one after another. The lock is waited
// for with the GIL released: the thread inside may need the GIL to go on (search calls the
// evaluator, step takes the GIL back to return), and a thread waiting with the GIL held would
// deadlock with it. A call from the thread inside already (an evaluator calling its own search)
// is refused: it would wait for itself.
struct ObjectLock {
  std::mutex mu;
  std::atomic<std::thread::id> owner{};
};
class Locked {
 public:
  Locked(ObjectLock& l, const char* what) : l_(l) {
    if (l.owner.load() == std::this_thread::get_id())
      throw std::runtime_error(fmt::format(
          "{}: called again from inside its own call on the same thread (an evaluator calling its own search?)", what));
    if (!l.mu.try_lock()) {
      py::gil_scoped_release nogil;
      l.mu.lock();
    }
    l.owner.store(std::this_thread::get_id());
  }
  ~Locked() {
    l_.owner.store(std::thread::id());
    l_.mu.unlock();
  }
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;

 private:
  ObjectLock& l_;
};
struct PyVecEnv : rl::VecEnv {
  using rl::VecEnv::VecEnv;
  ObjectLock lock;
};
struct PyBatchedMcts : rl::BatchedMcts {
  using rl::BatchedMcts::BatchedMcts;
  ObjectLock lock;
};

// An object that Python made with __new__ and never initialised (State.__new__(State), a
// Game.__new__ whose __init__ was skipped): pybind11 would hand its methods uninitialised memory.
// Every class's arguments, self included, are loaded through the casters below, which refuse one
// with a TypeError first.
template <class T>
void require_initialised(py::handle src) {
  const auto* ti = py::detail::get_type_info(typeid(T));
  if (ti == nullptr || !src || !PyObject_TypeCheck(src.ptr(), ti->type)) return;
  const auto vh = reinterpret_cast<py::detail::instance*>(src.ptr())->get_value_and_holder(ti, false);
  if (vh.inst != nullptr && !vh.holder_constructed())
    throw py::type_error(fmt::format(
        "this {} was made by __new__ without __init__ (nor __setstate__): it holds nothing to use; make one with "
        "its constructor",
        Py_TYPE(src.ptr())->tp_name));
}

}  // namespace

namespace pybind11::detail {
#define CARC_INITIALISED_CASTER(T)                    \
  template <>                                         \
  struct type_caster<T> : type_caster_base<T> {       \
    bool load(handle src, bool convert) {             \
      require_initialised<T>(src);                    \
      return type_caster_base<T>::load(src, convert); \
    }                                                 \
  };
// and for a class held by a shared_ptr, its holder
#define CARC_INITIALISED_HOLDER_CASTER(T)                                                  \
  CARC_INITIALISED_CASTER(T)                                                               \
  template <>                                                                              \
  struct type_caster<std::shared_ptr<T>> : copyable_holder_caster<T, std::shared_ptr<T>> { \
    bool load(handle src, bool convert) {                                                  \
      require_initialised<T>(src);                                                         \
      return copyable_holder_caster<T, std::shared_ptr<T>>::load(src, convert);            \
    }                                                                                      \
  };
CARC_INITIALISED_CASTER(PyState)
CARC_INITIALISED_HOLDER_CASTER(PyGame)
CARC_INITIALISED_HOLDER_CASTER(PyVecEnv)
CARC_INITIALISED_HOLDER_CASTER(PyBatchedMcts)
#undef CARC_INITIALISED_HOLDER_CASTER
#undef CARC_INITIALISED_CASTER
}  // namespace pybind11::detail

namespace {

// The state a record leads to, with its action history and, for a record with a seed, the
// generator exactly where the recorded game left it: the record's events are played again as
// actions on a fresh game of that seed (a chance node keeps the generator in step whatever the
// outcome), and the result is checked against the engine's own replay of the record. A record
// this cannot reproduce (a prepared position, its own tile file, an early end, a move off the
// window) is the engine's replay with a generator derived from the seed, and no history.
PyState from_record_text(const std::string& text, std::shared_ptr<PyGame> pg = nullptr) {
  Record r = py_record::read(text);
  const std::optional<u64> seed = r.seed;
  if (pg) {
    if (r.game != pg->name || static_cast<int>(r.players.size()) != pg->players)
      throw InputError(fmt::format("record: a game of {} for {} players, not of this game ({}, {} players)", r.game,
                                   r.players.size(), pg->name, pg->players));
  } else {
    pg = shared_game(r.game, static_cast<int>(r.players.size()), r.options, rl::kDefaultRadius);
  }
  r.seed.reset();  // stop where the record stops: the next chance event is a chance node
  std::vector<Move> moves;
  Game g = Game::replay(r, std::nullopt, "", [&moves](const State&, const Move& m, int) { moves.push_back(m); });
  if (g.ruleset().options != pg->rs->options) throw InputError("record: its options are not this game's");
  if (!r.setup && r.tiles.empty() && r.ended.empty()) {
    PyState sh(pg, Game::with_explicit_chance(pg->rs, r.players, seed));
    const Record& done = g.record();
    std::size_t di = 0, ci = 0, mi = 0;
    bool ok = true;
    try {
      while (ok && !sh.terminal()) {
        const State& s = sh.s();
        if (sh.chance()) {
          int a = -1;
          if (s.phase == Phase::Chance) {
            if (ci >= done.chance.size()) break;
            for (const auto& [o, p] : sh.chance_outcomes())
              if (sh.action_to_string(o) == done.chance[ci]) a = o;
            ++ci;
          } else {
            if (di >= done.draws.size()) break;
            for (int t = 0; t < pg->ntypes(); ++t)
              if (pg->rs->tiles.types[static_cast<std::size_t>(t)].id == done.draws[di]) a = t;
            ++di;
          }
          if (a < 0)
            ok = false;
          else
            sh.apply_action(a);
        } else {
          if (mi >= moves.size()) break;
          const Move m = moves[mi++];
          const int a = pg->enc->action(s, m);
          if (a < 0)
            ok = false;  // off the window: no action names it
          else
            sh.apply_action(a);
        }
      }
    } catch (const InputError&) {
      ok = false;
    }
    Record replayed = g.record();
    replayed.seed = seed;  // taken off for the replay above
    if (ok && mi == moves.size() && di == done.draws.size() && ci == done.chance.size() &&
        record_to_json(sh.g.record(), sh.g.ruleset()) == record_to_json(replayed, g.ruleset()))
      return sh;
    if (std::getenv("CARC_DEBUG_FROM_RECORD"))
      fmt::print(stderr, "from_record: ok {} moves {}/{} draws {}/{} chance {}/{}\n{}\n{}\n", ok, mi, moves.size(), di,
                 done.draws.size(), ci, done.chance.size(), record_to_json(sh.g.record(), sh.g.ruleset()),
                 record_to_json(replayed, g.ruleset()));
  }
  g.set_explicit_chance(seed ? std::optional<u64>(*seed ^ (0x9E3779B97F4A7C15ull *
                                                           (g.record().draws.size() + g.record().chance.size() + 1)))
                             : std::nullopt);
  PyState st(pg, std::move(g));
  st.history_known = false;
  st.settle_rewards();
  return st;
}

// What pickles a game: its name, players, options and the radius it was asked for.
py::tuple game_state_tuple(const PyGame& g) { return py::make_tuple(g.name, g.players, g.options, g.radius_asked); }
std::shared_ptr<PyGame> game_from_tuple(const py::tuple& t) {
  if (t.size() != 4) throw InputError("a pickled carcassonne.Game holds 4 fields");
  return shared_game(t[0].cast<std::string>(), t[1].cast<int>(), t[2].cast<std::map<std::string, std::string>>(),
                     t[3].cast<int>());
}

// The environment's buffers as read-only numpy views (the next step overwrites them, and
// clears only what it wrote: an array changed in place would spoil the next observation).
template <class T>
py::array view_of(const std::shared_ptr<PyVecEnv>& v, std::vector<py::ssize_t> shape, const T* data) {
  py::array_t<T> a(shape, data, py::cast(v));
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}
py::object vec_obs(const std::shared_ptr<PyVecEnv>& v) {
  if (!v->has_observations()) return py::none();
  return view_of<float>(v, {v->num_envs(), v->encoding().observation_size()}, v->observations());
}
py::array vec_mask(const std::shared_ptr<PyVecEnv>& v) {
  return view_of<std::uint8_t>(v, {v->num_envs(), v->encoding().num_actions()}, v->masks());
}
py::array vec_rewards(const std::shared_ptr<PyVecEnv>& v) {
  return view_of<float>(v, {v->num_envs(), v->encoding().nplayers()}, v->rewards());
}
py::array vec_done(const std::shared_ptr<PyVecEnv>& v) {
  return view_of<bool>(v, {v->num_envs()}, reinterpret_cast<const bool*>(v->done()));
}
py::array vec_to_play(const std::shared_ptr<PyVecEnv>& v) {
  return view_of<std::int32_t>(v, {v->num_envs()}, v->to_play());
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() =
      "Carcassonne, Amazonas, Hunters & Gatherers and Safari: the engine's OpenSpiel-shaped interface (docs/python.md)";
  py::register_exception<InputError>(m, "CarcassonneError", PyExc_ValueError);
  g_numpy_bool = py::object(py::module_::import("numpy").attr("bool_")).release().ptr();
  {
    // pyspiel's PlayerAction (full_history's items): .player and .action, and a tuple as before
    py::object nt = py::module_::import("collections")
                        .attr("namedtuple")("PlayerAction", py::make_tuple("player", "action"),
                                            py::arg("module") = "carcassonne._core");
    m.attr("PlayerAction") = nt;
    g_player_action = nt.release().ptr();
  }
  m.attr("CHANCE") = kChance;
  m.attr("TERMINAL") = kTerminal;
  m.attr("DEFAULT_RADIUS") = rl::kDefaultRadius;
  m.def("games", &game_ids, "The games this engine plays.");
  m.def(
      "game_definition",
      [](const std::string& id) {
        const GameDef* g = find_game(id);
        if (!g) throw InputError(fmt::format("game: unknown game \"{}\" (games: {})", id, fmt::join(game_ids(), ", ")));
        py::dict d;
        d["id"] = g->id;
        d["title"] = g->title;
        d["min_players"] = g->min_players;
        d["max_players"] = g->max_players;
        d["test_only"] = is_test_game(id);
        return d;
      },
      py::arg("id"),
      "What the game's definition says of it: id, title, min_players, max_players, test_only (a game of "
      "tests/games/GAMES).");

  py::class_<PyGame, std::shared_ptr<PyGame>>(m, "Game")
      .def(py::init([](const std::string& name, const py::object& players,
                       const std::map<std::string, py::object>& options, const py::object& radius) {
             std::map<std::string, std::string> o;
             for (const auto& [k, v] : options) o[k] = py::str(v).cast<std::string>();
             return std::make_shared<PyGame>(
                 name, int_arg(players, "players", 0, 1000), o,
                 radius.is_none() ? rl::kDefaultRadius : int_arg(radius, "radius", -1, 1000));
           }),
           py::arg("name") = "base", py::arg("players") = 2, py::arg("options") = std::map<std::string, py::object>{},
           py::arg("radius") = rl::kDefaultRadius)
      .def_readonly("name", &PyGame::name)
      .def_readonly("options", &PyGame::options)
      .def("num_players", [](const PyGame& g) { return g.players; })
      .def("num_distinct_actions", [](const PyGame& g) { return g.enc->num_actions(); })
      .def("max_chance_outcomes", &PyGame::max_chance_outcomes)
      .def("observation_tensor_shape", [](const PyGame& g) { return std::vector<int>{g.enc->observation_size()}; })
      .def("observation_tensor_size", [](const PyGame& g) { return g.enc->observation_size(); })
      .def("observation_planes_shape",
           [](const PyGame& g) {
             return std::vector<int>{g.enc->num_planes(), g.enc->width(), g.enc->width()};
           })
      .def("observation_scalars_size", [](const PyGame& g) { return g.enc->num_scalars(); })
      .def("plane_names", [](const PyGame& g) { return g.enc->plane_names(); })
      .def("scalar_names", [](const PyGame& g) { return g.enc->scalar_names(); })
      .def("radius", [](const PyGame& g) { return g.enc->radius(); })
      .def("window_centre",
           [](const PyGame& g) {
             return std::vector<int>{g.enc->centre_x(), g.enc->centre_y()};
           })
      .def("turn_symmetric", [](const PyGame& g) { return g.enc->turn_symmetric(); })
      .def("action_blocks",
           [](const PyGame& g) {
             py::list out;
             for (const auto& b : g.enc->blocks()) {
               py::dict d;
               d["name"] = b.name;
               d["help"] = b.help;
               d["offset"] = b.offset;
               d["size"] = b.size;
               d["cell"] = b.cell;
               d["slots"] = b.slots;
               d["rots"] = b.rots;
               d["feats"] = b.feats + (b.none ? 1 : 0);
               d["pks"] = b.pks;
               out.append(d);
             }
             return out;
           })
      .def(
          "new_initial_state",
          [](std::shared_ptr<PyGame> g, const py::object& seed_obj) {
            const std::optional<u64> seed = seed_arg(seed_obj);
            PyState st(g, Game::with_explicit_chance(g->rs, seat_names(g->players), seed));
            st.last_rewards.assign(static_cast<std::size_t>(g->players), 0.0);
            return st;
          },
          py::arg("seed") = py::none())
      .def(
          "min_utility", [](const PyGame& g) { return -1.0 / (g.players - 1); },
          "The lowest return: -1/(players-1), a seat that does not share the win.")
      .def(
          "max_utility", [](const PyGame&) { return 1.0; }, "The highest return: 1, a win alone.")
      .def(
          "utility_sum", [](const PyGame&) { return 0.0; }, "The returns of every finished game sum to 0.")
      .def("max_game_length", &PyGame::max_game_length,
           "A bound on the actions of a game, chance outcomes included (not a typical length): (tiles + 1) x (1 + the "
           "most actions of a turn).")
      .def("max_move_number", &PyGame::max_game_length)
      .def(
          "action_to_string",
          [](const PyGame& g, const py::object& player, const py::object& a) {
            return g.action_to_string(int32_arg(player, "player"), int32_arg(a, "action"));
          },
          py::arg("player"), py::arg("action"),
          "Any id in words without a state: a chance id (player CHANCE) as its outcome, a decision's by its block and "
          "fields.")
      .def("information_state_tensor_shape",
           [](const PyGame& g) { return std::vector<int>{g.enc->observation_size()}; })
      .def("information_state_tensor_size", [](const PyGame& g) { return g.enc->observation_size(); })
      .def("policy_tensor_shape", [](const PyGame& g) { return std::vector<int>{g.enc->num_actions()}; })
      .def(
          "get_parameters",
          [](const PyGame& g) {
            py::dict d;
            d["players"] = g.players;
            if (g.radius_asked != rl::kDefaultRadius) d["radius"] = g.radius_asked;
            for (const auto& [k, v] : g.options) d[py::str(k)] = v;
            return d;
          },
          "The game's parameters as load_game reads them: players, radius (if not the game's own), its rule options.")
      .def(
          "deserialize_state",
          [](std::shared_ptr<PyGame> g, const py::object& text) {
            // str (as serialize() gives it), or bytes as they are
            return from_record_text(py::isinstance<py::bytes>(text) ? text.cast<std::string>() : utf8_arg(text, "text"),
                                    std::move(g));
          },
          py::arg("text"), "The state of a serialize_state() text (the engine's record) of this game.")
      .def("__eq__",
           [](const PyGame& a, const PyGame& b) {
             return a.name == b.name && a.players == b.players && a.options == b.options &&
                    a.enc->radius() == b.enc->radius();
           })
      .def("__hash__", [](const PyGame& g) { return py::hash(py::make_tuple(g.name, g.players, g.enc->radius())); })
      .def(py::pickle([](const PyGame& g) { return game_state_tuple(g); },
                      [](const py::tuple& t) { return game_from_tuple(t); }))
      .def("__repr__",
           [](const PyGame& g) { return fmt::format("carcassonne.Game(\"{}\", players={})", g.name, g.players); });

  py::class_<PyState>(m, "State")
      .def("current_player", &PyState::current_player)
      .def("is_chance_node", &PyState::chance)
      .def("is_terminal", &PyState::terminal)
      .def("chance_outcomes", &PyState::chance_outcomes)
      .def(
          "sample_chance_outcome",
          [](const PyState& st) {
            const int o = st.g.sample_chance_outcome();
            return st.s().phase == Phase::Chance ? o + st.game->ntypes() : o;
          },
          "The outcome the state's seeded generator draws here (apply it to follow the engine's own deal).")
      .def("legal_actions", [](const PyState& st) { return st.legal_actions(); })
      .def(
          "legal_actions",
          [](const PyState& st, const py::object& player) {
            return player_id_arg(st, player) == st.current_player() ? st.legal_actions() : std::vector<int>{};
          },
          py::arg("player"))
      .def("legal_actions_mask", [](const PyState& st) { return st.mask(); })
      .def(
          "legal_actions_mask",
          [](const PyState& st, const py::object& player) {
            if (player_id_arg(st, player) == st.current_player()) return st.mask();
            py::array_t<std::uint8_t> z(st.game->enc->num_actions());
            std::fill(z.mutable_data(), z.mutable_data() + z.size(), 0);
            return z;
          },
          py::arg("player"))
      .def(
          "apply_action", [](PyState& st, const py::object& a) { st.apply_action(int32_arg(a, "action")); },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const PyState& st, const py::object& a) { return st.action_to_string(int32_arg(a, "action")); },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const PyState& st, const py::object& player, const py::object& a) {
            return st.action_to_string(int32_arg(player, "player"), int32_arg(a, "action"));
          },
          py::arg("player"), py::arg("action"))
      .def(
          "string_to_action",
          [](const PyState& st, const py::object& t) { return st.string_to_action(utf8_arg(t, "text")); },
          py::arg("text"))
      .def(
          "string_to_action",
          [](const PyState& st, const py::object& player, const py::object& t) {
            (void)int32_arg(player, "player");
            return st.string_to_action(utf8_arg(t, "text"));
          },
          py::arg("player"), py::arg("text"))
      .def("returns", &PyState::returns)
      .def("rewards", [](const PyState& st) { return st.last_rewards; })
      .def("scores", &PyState::scores)
      .def(
          "observation_tensor",
          [](const PyState& st, const py::object& player_arg) {
            std::optional<int> player;
            if (!player_arg.is_none()) player = int32_arg(player_arg, "player");
            if (player && (*player < 0 || *player >= st.game->players))
              throw InputError(fmt::format("observation_tensor: player {} is not a seat of this game (0..{})", *player,
                                           st.game->players - 1));
            int p = player ? *player : st.current_player();
            if (p < 0) p = 0;  // a chance node or the end, with no player given: seat 0's view
            return st.observation(p);
          },
          py::arg("player") = py::none())
      .def("clone", [](const PyState& st) { return PyState(st); })
      .def(
          "child",
          [](const PyState& st, const py::object& a) {
            PyState c(st);
            c.apply_action(int32_arg(a, "action"));
            return c;
          },
          py::arg("action"), "A copy with the action applied (this state unchanged).")
      .def(
          "history", [](const PyState& st) { return st.history; },
          "Every action applied since the initial state, chance outcomes included.")
      .def("history_str", [](const PyState& st) { return fmt::format("{}", fmt::join(st.history, ", ")); })
      .def(
          "full_history",
          [](const PyState& st) {
            py::list out;
            const auto player_action = py::reinterpret_borrow<py::object>(g_player_action);
            for (std::size_t i = 0; i < st.history.size(); ++i)
              out.append(player_action(st.history_players[i], st.history[i]));
            return out;
          },
          "PlayerAction(player, action) per action of history() (pyspiel's PlayerAction: .player, .action; a named "
          "tuple): the seat that chose it, CHANCE for a chance outcome.")
      .def(
          "history_known", [](const PyState& st) { return st.history_known; },
          "False for a state loaded from a record that actions cannot reproduce (a prepared position, a tile file of "
          "its own, an early end, a move off the window): its history() is then empty.")
      .def("is_player_node", [](const PyState& st) { return !st.terminal() && !st.chance(); })
      .def("is_simultaneous_node", [](const PyState&) { return false; })
      .def("is_mean_field_node", [](const PyState&) { return false; })
      .def("is_initial_state", [](const PyState& st) { return st.history_known && st.history.empty(); })
      .def(
          "player_return",
          [](const PyState& st, const py::object& player) {
            const int p = int32_arg(player, "player");
            if (p < 0 || p >= st.game->players)
              throw InputError(fmt::format("player: {} is not a seat of this game (0..{})", p, st.game->players - 1));
            return st.returns()[static_cast<std::size_t>(p)];
          },
          py::arg("player"))
      .def(
          "player_reward",
          [](const PyState& st, const py::object& player) {
            const int p = int32_arg(player, "player");
            if (p < 0 || p >= st.game->players)
              throw InputError(fmt::format("player: {} is not a seat of this game (0..{})", p, st.game->players - 1));
            return st.last_rewards[static_cast<std::size_t>(p)];
          },
          py::arg("player"))
      .def("apply_action_with_legality_check", &PyState::apply_action, py::arg("action"))
      .def(
          "undo_action",
          [](PyState& st, const py::object& player_arg, const py::object& action_arg) {
            const int player = int32_arg(player_arg, "player");
            const int action = int32_arg(action_arg, "action");
            if (!st.history_known || st.history.empty()) throw InputError("undo_action: no action to take back");
            if (st.history.back() != action || st.history_players.back() != player)
              throw InputError(fmt::format("undo_action: the last action is {} by {}, not {} by {}", st.history.back(),
                                           st.history_players.back(), action, player));
            // the game again from its start without the last action (the generator in step too)
            PyState fresh(st.game, Game::with_explicit_chance(st.game->rs, st.g.record().players, st.g.record().seed));
            for (std::size_t i = 0; i + 1 < st.history.size(); ++i) fresh.apply_action(st.history[i]);
            st = std::move(fresh);
          },
          py::arg("player"), py::arg("action"),
          "Takes back the last action (OpenSpiel's UndoAction: player and action must be it).")
      .def(
          "serialize", [](const PyState& st) { return record_to_json(st.g.record(), st.g.ruleset()); },
          "The engine's record of the game so far (Game.deserialize_state reads it).")
      .def(py::pickle(
          [](const PyState& st) {
            return py::make_tuple(game_state_tuple(*st.game), record_to_json(st.g.record(), st.g.ruleset(), -1));
          },
          [](const py::tuple& t) {
            if (t.size() != 2) throw InputError("a pickled carcassonne.State holds 2 fields");
            return from_record_text(t[1].cast<std::string>(), game_from_tuple(t[0].cast<py::tuple>()));
          }))
      .def("__copy__", [](const PyState& st) { return PyState(st); })
      .def("__deepcopy__", [](const PyState& st, py::dict) { return PyState(st); })
      .def("get_game", [](const PyState& st) { return std::const_pointer_cast<PyGame>(st.game); })
      .def("move_number", [](const PyState& st) { return static_cast<int>(st.g.record().moves.size()); })
      .def("to_record",
           [](const PyState& st) {
             return json_to_py(nlohmann::json::parse(record_to_json(st.g.record(), st.g.ruleset())));
           })
      .def("to_record_json", [](const PyState& st) { return record_to_json(st.g.record(), st.g.ruleset()); })
      .def(
          "view",
          [](const PyState& st, const py::object& lang_arg) {
            // a str: en, ru or ro in any case, or a locale name that starts with one (ru_RU.UTF-8)
            const std::string lang = utf8_arg(lang_arg, "lang");
            const auto l = i18n::parse_lang(lang);
            if (!l) throw InputError("lang: \"" + printable(lang.substr(0, 40)) + "\" is not a language (en, ru, ro)");
            view::ViewOptions o;
            o.lang = *l;
            const i18n::Scope language(*l);
            return json_to_py(view::to_json(view::build_view(st.g, o)));
          },
          py::arg("lang") = "en")
      .def(
          "render_svg",
          [](const PyState& st, const py::object& tile_px) {
            view::SvgOptions o;
            o.tile_px = int32_arg(tile_px, "tile_px");
            return view::render_svg(st.s(), o);
          },
          py::arg("tile_px") = 64)
      .def(
          "off_window_moves",
          [](const PyState& st) {
            if (st.terminal() || st.chance()) return 0;
            rl::Encoding::Legal l;
            st.legal(l);
            return l.off_window;
          },
          "Legal moves of the decision now that lie off the action space's window (left out of legal_actions).")
      .def(
          "turn_observation",
          [](const PyState& st, py::array_t<float, py::array::c_style | py::array::forcecast> obs,
             const py::object& k_arg) {
            const int k = int_arg(k_arg, "k", -(1LL << 30), 1LL << 30);
            if (obs.size() != st.game->enc->observation_size())
              throw InputError(fmt::format("turn_observation: {} floats, expected {}", obs.size(),
                                           st.game->enc->observation_size()));
            if (!st.game->enc->turn_symmetric() && k % 4 != 0)
              throw InputError(fmt::format("{}: a turned board is not a position of this game", st.game->name));
            py::array_t<float> out(obs.size());
            st.game->enc->turn_observation(obs.data(), out.mutable_data(), ((k % 4) + 4) % 4,
                                           st.s().in_hand == 0xFF ? -1 : st.s().in_hand);
            return out;
          },
          py::arg("observation"), py::arg("k"),
          "The observation of this position with the board turned k quarter turns clockwise.")
      .def(
          "turn_policy",
          [](const PyState& st, py::array_t<float, py::array::c_style | py::array::forcecast> pol,
             const py::object& k_arg) {
            const int k = int_arg(k_arg, "k", -(1LL << 30), 1LL << 30);
            const int n = st.game->enc->num_actions();
            if (pol.size() != n) throw InputError(fmt::format("turn_policy: {} entries, expected {}", pol.size(), n));
            if (!st.game->enc->turn_symmetric() && k % 4 != 0)
              throw InputError(fmt::format("{}: a turned board is not a position of this game", st.game->name));
            py::array_t<float> out(n);
            std::fill(out.mutable_data(), out.mutable_data() + n, 0.0f);
            for (int a = 0; a < n; ++a) {
              const float v = pol.data()[a];
              if (v == 0) continue;
              const int b = st.game->enc->turn_action(st.s(), a, ((k % 4) + 4) % 4);
              if (b >= 0) out.mutable_data()[b] += v;
            }
            return out;
          },
          py::arg("policy"), py::arg("k"),
          "A policy over this position's actions, for the board turned k quarter turns clockwise.")
      .def(
          "turn_action",
          [](const PyState& st, const py::object& a_arg, const py::object& k_arg) {
            const int a = int32_arg(a_arg, "action");
            const int k = int_arg(k_arg, "k", -(1LL << 30), 1LL << 30);
            if (a < 0 || a >= st.game->enc->num_actions())
              throw InputError(fmt::format("turn_action: action {} is not an action id (0..{})", a,
                                           st.game->enc->num_actions() - 1));
            if (!st.game->enc->turn_symmetric() && k % 4 != 0)
              throw InputError(fmt::format("{}: a turned board is not a position of this game", st.game->name));
            return st.game->enc->turn_action(st.s(), a, ((k % 4) + 4) % 4);
          },
          py::arg("action"), py::arg("k"))
      .def("__str__", [](const PyState& st) {
        return fmt::format("{} turn {}, phase {}, scores {}", st.game->name, st.s().turn,
                           static_cast<int>(st.s().phase), fmt::join(st.scores(), " "));
      });

  py::class_<PyVecEnv, std::shared_ptr<PyVecEnv>>(
      m, "VecEnv",
      "Many games stepped at once, EnvPool-style (docs/python.md). Threads may share one: its calls take turns.")
      .def(
          py::init([](const py::object& game, const py::object& num_envs_arg, const py::object& players_arg,
                      const py::object& seed_obj, const py::object& threads_arg, bool observations, bool records,
                      const std::string& autoreset) {
            const int num_envs = int32_arg(num_envs_arg, "num_envs"), threads = int32_arg(threads_arg, "threads");
            std::optional<int> players;
            if (!players_arg.is_none()) players = int32_arg(players_arg, "players");
            if (autoreset != "same_step" && autoreset != "next_step")
              throw InputError(fmt::format("autoreset: \"{}\" is not same_step or next_step", autoreset.substr(0, 40)));
            std::shared_ptr<PyGame> g;
            if (py::isinstance<PyGame>(game)) {
              g = game.cast<std::shared_ptr<PyGame>>();
              if (players && *players != g->players)
                throw InputError(fmt::format("players={} but the game is for {}", *players, g->players));
            } else {
              g = std::make_shared<PyGame>(game.cast<std::string>(), players.value_or(2),
                                           std::map<std::string, std::string>{}, rl::kDefaultRadius);
            }
            rl::VecEnv::Options o;
            o.num_envs = num_envs;
            o.seed = seed_or_zero(seed_obj);
            o.threads = threads;
            o.observations = observations;
            o.records = records;
            o.next_step_reset = autoreset == "next_step";
            return std::make_shared<PyVecEnv>(g->enc, o);
          }),
          py::arg("game"), py::arg("num_envs"), py::arg("players") = py::none(), py::arg("seed") = 0,
          py::arg("threads") = 1, py::arg("observations") = true, py::arg("records") = false,
          py::arg("autoreset") = "same_step",
          "autoreset: same_step (a finished game restarts within the step that ends it; done and rewards come with "
          "the new game's first decision) or next_step (Gymnasium's default: the step that ends a game shows its "
          "final position, masks all 0, to_play TERMINAL, the observation from the seat that moved last; the next "
          "step ignores its action and starts a new game)")
      .def_property_readonly("num_envs", [](const PyVecEnv& v) { return v.num_envs(); })
      .def_property_readonly(
          "episodes",
          [](PyVecEnv& v) {
            const Locked lk(v.lock, "VecEnv.episodes");
            return v.episodes();
          },
          "Games started so far (finished ones and those under way).")
      .def(
          "reset",
          [](const std::shared_ptr<PyVecEnv>& v, const py::object& seed_obj) {
            const std::optional<u64> seed = seed_arg(seed_obj);
            const Locked lk(v->lock, "VecEnv.reset");
            {
              py::gil_scoped_release nogil;
              v->reset(seed);
            }
            return py::make_tuple(vec_obs(v), vec_mask(v), vec_to_play(v));
          },
          py::arg("seed") = py::none(),
          "Starts every game: (observations or None, masks, to_play). With seed, the games (and sample_actions) start "
          "as in a new env of that seed. The arrays are the environment's own: the next call overwrites them.")
      .def(
          "step",
          [](const std::shared_ptr<PyVecEnv>& v, const py::object& given) {
            const int n = v->num_envs(), A = v->encoding().num_actions();
            py::array_t<std::int32_t> actions(n);
            if (!py::isinstance<py::array>(given)) {
              // a list or tuple: each item an integer as apply_action takes one (never a bool or float)
              if (!py::isinstance<py::list>(given) && !py::isinstance<py::tuple>(given))
                throw py::type_error(fmt::format("step: actions are a numpy array, list or tuple of integers, not {}",
                                                 Py_TYPE(given.ptr())->tp_name));
              const auto seq = py::reinterpret_borrow<py::sequence>(given);
              if (static_cast<py::ssize_t>(seq.size()) != n)
                throw InputError(fmt::format("step: {} actions for {} games", seq.size(), n));
              for (int i = 0; i < n; ++i) {
                const std::string name = fmt::format("step: actions[{}]", i);
                actions.mutable_data()[i] = int_arg(seq[static_cast<std::size_t>(i)], name.c_str(), 0, A - 1);
              }
            } else {
              const auto raw = py::reinterpret_borrow<py::array>(given);
              // integers only, each as it is: a float or an id beyond int32 is refused, never cast
              const char kind = raw.dtype().kind();
              if (kind != 'i' && kind != 'u')
                throw py::type_error(fmt::format("step: actions must be integers, not dtype {}",
                                                 py::str(raw.dtype()).cast<std::string>()));
              if (raw.ndim() != 1 || raw.shape(0) != v->num_envs())
                throw InputError(fmt::format("step: {} actions for {} games", raw.size(), v->num_envs()));
              const auto wide = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(raw);
              for (py::ssize_t i = 0; i < wide.size(); ++i) {
                const long long a = wide.data()[i];
                if (a < 0 || a >= v->encoding().num_actions())
                  throw InputError(fmt::format("step: actions[{}] = {} is not an action id (0..{})", i, a,
                                               v->encoding().num_actions() - 1));
                actions.mutable_data()[i] = static_cast<std::int32_t>(a);
              }
            }
            const Locked lk(v->lock, "VecEnv.step");
            {
              py::gil_scoped_release nogil;
              v->step(actions.data());
            }
            return py::make_tuple(vec_obs(v), vec_mask(v), vec_rewards(v), vec_done(v), vec_to_play(v));
          },
          py::arg("actions"),
          "One action per game: (observations or None, masks, rewards [envs x players], done, to_play). A finished "
          "game restarts at once.")
      .def(
          "sample_actions",
          [](PyVecEnv& v, const py::object& seed_obj) {
            const std::optional<u64> seed = seed_arg(seed_obj);
            const Locked lk(v.lock, "VecEnv.sample_actions");
            if (seed) v.reseed_sampling(*seed);
            py::array_t<std::int32_t> out(v.num_envs());
            v.sample_actions(out.mutable_data());
            return out;
          },
          py::arg("seed") = py::none(),
          "One uniformly random legal action per game, drawn in C++ from generators of their own (never the games' "
          "chance): the deal does not depend on it. seed restarts them (game i from seed + i).")
      .def(
          "final_scores",
          [](const std::shared_ptr<PyVecEnv>& v) {
            const Locked lk(v->lock, "VecEnv.final_scores");
            return view_of<float>(v, {v->num_envs(), v->encoding().nplayers()}, v->final_scores());
          },
          "Per game: the scores of the game that ended at the last step (where done).")
      .def(
          "truncate",
          [](PyVecEnv& v, const py::iterable& given) {
            // each index an integer as any other (never a bool: truncate([True]) is not game 1)
            std::vector<int> envs;
            for (const py::handle item : given) {
              const std::string name = fmt::format("truncate: envs[{}]", envs.size());
              envs.push_back(int_arg(item, name.c_str(), -(1LL << 31), (1LL << 31) - 1));
            }
            const Locked lk(v.lock, "VecEnv.truncate");
            v.truncate(envs);
          },
          py::arg("envs"),
          "Cuts the listed games short (Gymnasium's truncation): each ends without returns and restarts at once "
          "(same_step: the arrays now show its new game) or at the next step, which ignores its action (next_step).")
      .def(
          "take_records",
          [](PyVecEnv& v) {
            const Locked lk(v.lock, "VecEnv.take_records");
            return v.take_records();
          },
          "The records (JSON text) of the games finished since the last call; needs records=True.");

  // The same loop as a Python VecEnv benchmark, run in C++ alone: random legal actions, masks
  // (and observations if asked) written, until `games` games have finished. Returns (games, CPU s).
  m.def("_bench_vec_env_cpp",
        [](const std::string& name, int players, int num_envs, long long games, bool observations) {
          auto g = std::make_shared<PyGame>(name, players, std::map<std::string, std::string>{}, rl::kDefaultRadius);
          rl::VecEnv::Options o;
          o.num_envs = num_envs;
          o.observations = observations;
          rl::VecEnv v(g->enc, o);
          std::vector<std::int32_t> a(static_cast<std::size_t>(num_envs));
          long long finished = 0;
          std::clock_t t0 = 0, t1 = 0;
          {
            py::gil_scoped_release nogil;
            t0 = std::clock();
            v.reset();
            while (finished < games) {
              v.sample_actions(a.data());
              v.step(a.data());
              for (int i = 0; i < num_envs; ++i) finished += v.done()[i];
            }
            t1 = std::clock();
          }
          return py::make_tuple(finished, static_cast<double>(t1 - t0) / CLOCKS_PER_SEC);
        });

  m.def(
      "bot_action",
      [](const PyState& st, const std::string& spec, const py::object& seed_obj) {
        const u64 seed = seed_or_zero(seed_obj);
        if (st.terminal() || st.chance())
          throw InputError("bot_action: the state is not a decision (a chance node or the end)");
        auto bot = make_bot(spec);  // a level plays the state's game's own spec
        rl::Encoding::Legal l;
        st.legal(l);
        Rng rng(seed);
        Move chosen;
        {
          // among the moves that have an action (legal_actions): a move off the window has none.
          // A copy: another thread may change the state while this one runs without the GIL.
          const State root = st.s();
          py::gil_scoped_release nogil;
          chosen = bot->choose(root, l.moves, rng);
        }
        for (std::size_t i = 0; i < l.moves.size(); ++i)
          if (l.moves[i] == chosen) return l.actions[i];
        throw InputError("bot_action: the bot chose a move off the window");
      },
      py::arg("state"), py::arg("bot_spec") = "greedy", py::arg("seed") = 0,
      "The action an engine bot plays here (random, greedy, mcts:..., or a level: easy, normal, hard), seeded; the bot "
      "chooses among legal_actions() (a move off the window has no action).");

  m.def(
      "check_bot", [](const std::string& spec) { (void)make_bot(spec); }, py::arg("bot_spec"),
      "Raises ValueError naming what is wrong if bot_spec is not an engine bot (random, greedy, mcts:..., a level).");

  m.def(
      "mcts",
      [](const PyState& st, const std::string& spec, const py::object& seed_obj) {
        const u64 seed = seed_or_zero(seed_obj);
        if (st.terminal() || st.chance())
          throw InputError("mcts: the state is not a decision (a chance node or the end)");
        std::string sp = spec;
        if (const std::string lv = bot_level_spec(spec, st.s().rs->game); !lv.empty()) sp = lv;
        const MctsOptions o = parse_mcts_spec(sp);
        SearchVisits r;
        {
          const State root = st.s();  // a copy, as in bot_action
          py::gil_scoped_release nogil;
          r = mcts_search(root, o, seed);
        }
        rl::Encoding::Legal l;
        st.legal(l);
        py::array_t<std::int64_t> visits(st.game->enc->num_actions());
        std::fill(visits.mutable_data(), visits.mutable_data() + visits.size(), 0);
        int best = -1;
        for (const auto& [mv, n] : r.visits)
          for (std::size_t i = 0; i < l.moves.size(); ++i)
            if (l.moves[i] == mv) {
              visits.mutable_data()[l.actions[i]] += n;
              if (mv == r.best) best = l.actions[i];
            }
        return py::make_tuple(visits, best);
      },
      py::arg("state"), py::arg("bot_spec") = "mcts:playouts=1000,threads=1", py::arg("seed") = 0,
      "The engine's MCTS from a decision (docs/mcts.md): (root visits per action as numpy, the chosen action). "
      "bot_spec: an mcts spec or a level (easy, normal, hard).");

  py::class_<PyBatchedMcts, std::shared_ptr<PyBatchedMcts>>(
      m, "BatchedMCTS",
      "AlphaZero's search over many games at once, with a Python evaluator (docs/python.md). Threads may share one: "
      "its searches take turns.")
      .def(py::init([](std::shared_ptr<PyGame> g, const py::object& simulations_arg, double c_puct,
                       double dirichlet_alpha, double noise, const py::object& seed_obj) {
             const u64 seed = seed_or_zero(seed_obj);
             const int simulations = int32_arg(simulations_arg, "simulations");
             if (!g) throw py::type_error("BatchedMCTS: game is None, not a carcassonne.Game");
             if (simulations < 1 || simulations > 1000000)
               throw InputError(fmt::format("simulations: {} is not from 1 to 1000000", simulations));
             if (!std::isfinite(c_puct) || c_puct <= 0 || c_puct > 1e6)
               throw InputError(fmt::format("c_puct: {} must be a positive finite number", c_puct));
             if (!std::isfinite(dirichlet_alpha) || dirichlet_alpha <= 0 || dirichlet_alpha > 1e6)
               throw InputError(fmt::format("dirichlet_alpha: {} must be a positive finite number", dirichlet_alpha));
             if (!std::isfinite(noise) || noise < 0 || noise > 1)
               throw InputError(fmt::format("noise: {} must be from 0 to 1", noise));
             rl::AzOptions o;
             o.simulations = simulations;
             o.c_puct = c_puct;
             o.dirichlet_alpha = dirichlet_alpha;
             o.noise = noise;
             o.seed = seed;
             return std::make_shared<PyBatchedMcts>(g->enc, o);
           }),
           py::arg("game"), py::arg("simulations") = 64, py::arg("c_puct") = 1.5, py::arg("dirichlet_alpha") = 0.3,
           py::arg("noise") = 0.25, py::arg("seed") = 0)
      .def_property_readonly("leaves_evaluated",
                             [](PyBatchedMcts& b) {
                               const Locked lk(b.lock, "BatchedMCTS.leaves_evaluated");
                               return b.leaves_evaluated();
                             })
      .def(
          "root_q",
          [](PyBatchedMcts& b) {
            const Locked lk(b.lock, "BatchedMCTS.root_q");
            std::vector<float> q;
            b.root_q(q);
            const auto A = static_cast<py::ssize_t>(b.num_actions());
            py::array_t<float> out({static_cast<py::ssize_t>(q.size()) / A, A});
            std::copy(q.begin(), q.end(), out.mutable_data());
            return out;
          },
          "After search(): [len(states), num_distinct_actions] mean values of each root's actions for its player to "
          "move; NaN where an action was not visited (or is not legal).")
      .def(
          "search",
          [](PyBatchedMcts& b, const std::vector<const PyState*>& states, const py::function& evaluator) {
            if (states.empty()) throw InputError("search: no states");
            const Locked lk(b.lock, "BatchedMCTS.search");
            const auto& enc = b.encoding();
            // every state of the search's own game: the same game, seats, window and tile set (a
            // state of another would index the search's arrays with its own actions)
            for (std::size_t i = 0; i < states.size(); ++i) {
              if (states[i] == nullptr)
                throw py::type_error(fmt::format("search: states[{}] is None, not a carcassonne.State", i));
              const rl::Encoding& e = *states[i]->game->enc;
              if (&e != enc.get() && (e.ruleset().game != enc->ruleset().game || e.nplayers() != enc->nplayers() ||
                                      e.radius() != enc->radius() || e.num_actions() != enc->num_actions() ||
                                      e.observation_size() != enc->observation_size() ||
                                      e.ruleset().tiles.types.size() != enc->ruleset().tiles.types.size()))
                throw InputError(fmt::format(
                    "search: states[{}] is a state of {} ({} players, radius {}), not of this search's game {} "
                    "({} players, radius {})",
                    i, e.ruleset().game->id, e.nplayers(), e.radius(), enc->ruleset().game->id, enc->nplayers(),
                    enc->radius()));
            }
            // copies: the evaluator's Python code lets other threads run, and they may change the states
            std::vector<State> copies;
            copies.reserve(states.size());
            for (const PyState* st : states) copies.push_back(st->s());
            std::vector<const State*> roots;
            for (const State& s : copies) roots.push_back(&s);
            const int A = enc->num_actions(), O = enc->observation_size(), P = enc->nplayers();
            rl::Evaluator ev = [&](int n, const float* obs, float* policy, float* values) {
              py::array_t<float> o({n, O});
              std::copy(obs, obs + static_cast<std::size_t>(n) * static_cast<std::size_t>(O), o.mutable_data());
              py::object r = evaluator(o);
              py::tuple t = r.cast<py::tuple>();
              if (t.size() != 2) throw InputError("the evaluator must return (policy, values)");
              auto pol = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(t[0]);
              auto val = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(t[1]);
              if (!pol || pol.ndim() != 2 || pol.shape(0) != n || pol.shape(1) != A)
                throw InputError(fmt::format("the evaluator's policy must have shape ({}, {})", n, A));
              if (!val || !((val.ndim() == 1 && val.shape(0) == n) ||
                            (val.ndim() == 2 && val.shape(0) == n && val.shape(1) == P)))
                throw InputError(fmt::format("the evaluator's values must have shape ({},) or ({}, {})", n, n, P));
              for (std::size_t k = 0; k < static_cast<std::size_t>(n) * static_cast<std::size_t>(A); ++k)
                if (!std::isfinite(pol.data()[k]) || pol.data()[k] < 0.0f)
                  throw InputError(
                      fmt::format("the evaluator's policy[{}, {}] is {}: weights must be finite and not negative",
                                  k / static_cast<std::size_t>(A), k % static_cast<std::size_t>(A), pol.data()[k]));
              for (py::ssize_t k = 0; k < val.size(); ++k)
                if (!std::isfinite(val.data()[k]) || std::abs(val.data()[k]) > 1.0f + 1e-4f)
                  throw InputError(
                      fmt::format("the evaluator's values hold {} (entry {}): values must be finite, from -1 to 1",
                                  val.data()[k], k));
              std::copy(pol.data(), pol.data() + static_cast<std::size_t>(n) * static_cast<std::size_t>(A), policy);
              if (val.ndim() == 2) {
                std::copy(val.data(), val.data() + static_cast<std::size_t>(n) * static_cast<std::size_t>(P), values);
              } else {
                for (int i = 0; i < n; ++i)
                  for (int q = 0; q < P; ++q)
                    values[i * P + q] = q == 0 ? val.data()[i] : -val.data()[i] / static_cast<float>(P - 1);
              }
            };
            std::vector<float> visits;
            b.search(roots, ev, visits);
            py::array_t<float> out({static_cast<py::ssize_t>(states.size()), static_cast<py::ssize_t>(A)});
            std::copy(visits.begin(), visits.end(), out.mutable_data());
            return out;
          },
          py::arg("states"), py::arg("evaluator"),
          "Root visit counts [len(states), num_distinct_actions] after the simulations. evaluator(obs [k, size]) -> "
          "(policy [k, A], values [k] or [k, players]): values for the player to move (seat+q in column q).");

  m.def(
      "from_record", [](const py::object& record) { return from_record_text(py_to_json_text(record)); },
      py::arg("record"),
      "The state at the end of an engine record (a dict or JSON text), chance nodes explicit from there: its history "
      "and, with the record's seed, its generator where the recorded game left it.");
}
