// server/room: one game on the server, as a state machine without I/O (docs/server-protocol.md).
//
// The room's state is the replay of its committed event log. A client command is checked against
// that state and, if good, becomes events that go to the store; the room is then busy until the
// commit is done (`committed`), and only then are the command acknowledged and the events
// broadcast. A command that cannot be applied gets an explicit reject with the current seq;
// nothing is dropped silently. Each seat's client ids (cid) are remembered: a repeated cid gets
// the original answer and is never applied twice.
//
// Time comes in as an argument (ms since the epoch), so tests drive it with a fake clock.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ai/bot_limits.hpp"
#include "core/i18n.hpp"
#include "engine/engine.hpp"
#include "server/store.hpp"

namespace carc::server {

// How a game is set up, from the create request (POST /api/games), stored in GameMeta::settings.
struct SeatConf {
  std::string name;
  std::string bot;         // "" a human; else the bot spec ("greedy", "mcts:playouts=300")
  std::string token_hash;  // humans: SHA-256 of the invite token
};
struct Settings {
  std::vector<std::pair<std::string, std::string>> options;  // the game's options
  std::vector<SeatConf> seats;
  // clock: "none"; "realtime" (bank_ms + increment_ms per move); "days" (move_ms per move)
  std::string clock = "none";
  std::int64_t bank_ms = 0, increment_ms = 0, move_ms = 0;
  // absence: a human to move who has no connection for grace_ms; then "wait" or "bot" (the bot
  // `stand_in` plays the seat until the player is back)
  std::int64_t grace_ms = 60000;
  std::string absence = "wait";
  std::string stand_in = "greedy";
  // the seed's commitment: seed_hash = SHA-256 of "SALT:SEED" (salt: 128 random bits as hex);
  // games created before salts have none and commit to SHA-256 of the seed alone
  std::string salt;
  std::string request_hash;  // a create request with a request_id: SHA-256 of the rest of the request
};

// The published commitment of a game's seed (the `created` event's and create answer's seed_hash).
std::string seed_hash(const GameMeta& meta);
// A create request's request_id, checked (16 to 64 characters, no control or invisible ones): the
// id of the game it makes is derived from it, so that a retry finds the same game.
std::string game_id_for_request(const std::string& request_id);
// The invite token of a person's seat in a game created with a request_id (128 bits as hex).
std::string request_token(const std::string& request_id, std::size_t seat);

// A new game from a create request: its meta (settings, seed), first events (created, the first
// draws) and each human seat's invite token (only its hash is stored). Throws InputError naming
// the field for a bad request.
struct Created {
  GameMeta meta;
  Append first;
  std::vector<std::string> tokens;  // by seat; "" for bots
};
// What bots a stranger may ask for (serve's --bot-max-ms, --bot-max-playouts; --trusted-bots: any).
// A level (easy, normal, hard: the server's own), random and greedy always; an mcts spec only
// within `limits` (ai/bot_limits.hpp, kServerBotLimits: one thread, and a time or playouts).
struct BotPolicy {
  bool any = false;
  BotLimits limits = kServerBotLimits;
};
// A requested bot as the server plays it: an mcts spec that names no `threads` searches on one
// thread ("mcts:ms=500" is "mcts:ms=500,threads=1", "mcts" is "mcts:threads=1"); any other spec as
// it is. Applied before check_bot, so a spec without threads is within the budget's one thread.
std::string server_bot_spec(const std::string& spec);
// Throws InputError naming `field` if `spec` is not a bot or is over the budget.
void check_bot(const std::string& spec, const BotPolicy& budget, std::string_view field);
// request_id (non-empty): the seats' tokens are derived from it (a retry of the request gives
// them again; only their hashes are stored) and the request's hash is kept in the settings.
Created create_game(const nlohmann::json& req, const std::string& id, std::int64_t now, const BotPolicy& budget = {},
                    const std::string& request_id = "");
// A rematch of a game: the same game, options, seats (names, bots, and the hashes of the same
// invite tokens: each person opens their seat of the rematch with the token of their old seat),
// clock and absence, with a new seed; its id is rematch_id(old.id), so that asking twice finds it.
std::string rematch_id(const std::string& game);
// names: the seats' names as they are at the end (a seat may have renamed itself); empty: those
// of the old game's creation.
Created rematch_game(const GameMeta& old, std::int64_t now, const std::vector<std::string>& names = {});
// A seat's name as given (the create request's seats[].name, a `name` command): at most 40
// characters, no control or invisible ones, not blank. Throws InputError naming `ctx`.
inline constexpr std::size_t kMaxNameChars = 40;
std::string checked_name(const nlohmann::json& v, std::string_view where, const std::string& ctx);

// Renames (the `name` command) per seat: at most kMaxRenames a game, kRenameGapMs apart
// (docs/server-protocol.md: reject too_many_renames, rename_too_soon).
inline constexpr int kMaxRenames = 10;
inline constexpr std::int64_t kRenameGapMs = 5000;

// A message for one connection, or (conn 0) for everyone in the room. kNobody: no one waits for it.
constexpr std::uint64_t kNobody = ~std::uint64_t{0};
struct Out {
  std::uint64_t conn = 0;
  std::string text;
};

// What the room wants done: messages to send now, and events to commit; once the commit is done
// `committed` must be called (`failed` if it failed), which gives the messages to send then.
struct Step {
  std::vector<Out> now;
  std::optional<Append> commit;
};

class Room {
 public:
  // Replays the log (the events in order from seq 1). Throws InputError if it does not replay.
  Room(GameMeta meta, const std::vector<Event>& log);
  ~Room();
  Room(const Room&) = delete;
  Room& operator=(const Room&) = delete;

  [[nodiscard]] const std::string& id() const { return meta_.id; }
  [[nodiscard]] std::int64_t seq() const;
  [[nodiscard]] bool busy() const { return pending_ != nullptr; }
  [[nodiscard]] bool over() const;
  [[nodiscard]] const Settings& settings() const { return settings_; }
  [[nodiscard]] const Game& game() const;
  [[nodiscard]] const std::vector<Event>& log() const { return log_; }
  // The seat a token opens (-1 none).
  [[nodiscard]] int seat_of_token(const std::string& token) const;
  // Connections that said hello without a seat.
  [[nodiscard]] int spectators() const { return spectators_; }
  [[nodiscard]] const GameDef& game_def() const { return *rs_->game; }

  // The id of the game's rematch, once asked for ("" none).
  [[nodiscard]] std::string rematch() const;
  // When the decision now due became due (ms since the epoch).
  [[nodiscard]] std::int64_t turn_started() const;
  // A seat asks for a rematch of a game that is over: a `rematch` event naming the new game (which
  // the caller has created); nothing if the game goes on, is busy or has its rematch already.
  Step ask_rematch(int seat, const std::string& game, std::int64_t now);
  // The game's analysis (a review of every decision, docs/server-protocol.md "Analysis"), once
  // stored: the `analysis` event's body as JSON text; nullptr none.
  [[nodiscard]] const std::string* analysis() const;
  // Stores an analysis made by a worker: an `analysis` event with `body` ({"playouts", "seed",
  // "review"}); nothing if the game goes on, is busy or has one already.
  Step add_analysis(const nlohmann::json& body, std::int64_t now);

  // A connection joins (seat -1: a spectator) and asks for every event after `since`. Welcome,
  // the events and presence; presence goes to everybody only when a seat's connection changes (a
  // spectator's join costs O(1) messages); a seat whose player is back from a stand-in bot is
  // given back (an event to commit).
  // lang: the language of the words in the views and options the connection is sent.
  Step hello(std::uint64_t conn, int seat, std::int64_t since, bool views, std::int64_t now,
             i18n::Lang lang = i18n::Lang::En);
  void leave(std::uint64_t conn, std::vector<Out>& out, std::int64_t now);
  // A command of a connection ("play", "resign", "abort", "name", "view"; see docs/server-protocol.md).
  Step command(std::uint64_t conn, const nlohmann::json& msg, std::int64_t now);
  // A bot's decisions for `seat` at `at` (a job's result): the same path as a person's play;
  // `conn` gets the answer.
  Step bot_play(std::uint64_t conn, int seat, const std::string& cid, std::int64_t at, const std::vector<std::string>& moves, std::int64_t now);
  // Clock expiry and absence: what is due at `now`.
  Step tick(std::int64_t now);
  // When tick has something to do next (0: nothing scheduled).
  [[nodiscard]] std::int64_t deadline() const;

  void committed(std::vector<Out>& out);
  // The commit failed (fenced or the store broke): the pending command is rejected and the room
  // keeps its committed state; `reload` is then the caller's business if fenced.
  void failed(const std::string& why, std::vector<Out>& out);

  // The game's record as `replay` takes it; the seed only once the game is over.
  [[nodiscard]] std::string record_json() const;
  // Remaining clock per seat at `now` (ms; -1 no clock).
  [[nodiscard]] std::vector<std::int64_t> clocks(std::int64_t now) const;
  [[nodiscard]] nlohmann::json summary(std::int64_t now) const;
  // The seats' names now (as created, or as a seat renamed itself).
  [[nodiscard]] std::vector<std::string> names() const;
  // The same as a reader sees them, in the calling thread's language: a name the server gave
  // ("Bot easy #2", "Player 3") in words ("Лёгкий бот №2"); names people gave stay as they are.
  [[nodiscard]] std::vector<std::string> shown_names() const;

  struct Live;  // the state a log replays to

 private:
  Step apply(std::uint64_t conn, int seat, const std::string& cid, const std::string& type, std::int64_t at,
             const std::vector<std::string>& moves, bool by_bot, std::int64_t now);
  // Starts the commit of `evs` leading to state `n`; `conn` and `cid` get the ack when it is done.
  void begin(Step& st, std::unique_ptr<Live> n, std::vector<Event> evs, const std::string& status, std::uint64_t conn,
             const std::string& cid, int seat);
  // The options after tentative moves of `seat` (the "legal" message): {"type": "options", ...}.
  std::string legal(int seat, const nlohmann::json& msg) const;
  // A seat resigned or out of time: it cannot win, a stand-in plays its tiles; with one seat
  // left the game ends (an end event). Returns the game's new status ("" unchanged).
  std::string seat_out(Live& n, int seat, const std::string& reason, std::vector<Event>& evs, std::int64_t now) const;
  std::string reject(const std::string& cid, const std::string& code, const std::string& msg) const;
  std::string presence(std::int64_t now) const;
  // {"type": "events"} with every committed event after `since`, the seq and who decides next; a
  // turn's event with its moves in words in `lang` (`words`).
  std::string events_message(std::int64_t since, i18n::Lang lang) const;
  // `state` (view and clocks as of `now`) for every connection that asked for views
  std::vector<Out> views(std::int64_t now) const;
  void replay_event(Live& l, const Event& e) const;

  GameMeta meta_;
  Settings settings_;
  std::shared_ptr<const Ruleset> rs_;
  std::vector<Event> log_;
  std::unique_ptr<Live> live_;
  std::unique_ptr<Live> pending_;  // the state after the commit in flight
  std::vector<Event> pending_events_;
  std::vector<Out> pending_after_;
  std::uint64_t pending_conn_ = 0;
  std::string pending_cid_;
  int pending_seat_ = -1;
  struct Conn {
    int seat = -1;
    bool views = false;
    i18n::Lang lang = i18n::Lang::En;
  };
  // A `state` message: the view (in the calling thread's language) and the clocks.
  std::string state_message(std::int64_t now) const;
  std::map<std::uint64_t, Conn> conns_;
  int spectators_ = 0;
  std::vector<int> seat_conns_;  // per seat: its connections
  std::vector<std::int64_t> away_since_;  // per seat: when its last connection left (0: connected or never)
};

// The JSON form of an event as clients get it: {"seq", "type", "seat", "time", "data"} and the
// command's "cid"; event_text is the same as text, written without building JSON objects.
nlohmann::json event_json(const Event& e);
std::string event_text(const Event& e);

}  // namespace carc::server
