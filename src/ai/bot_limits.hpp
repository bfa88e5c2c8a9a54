// ai/bot_limits: how strong and how slow a bot may be, in one place. The strength levels every
// front end offers, the bounds of an mcts spec's options, the caps a game server and the engine
// protocol put on the bots a request asks for, the cap a worker puts on its searches, and the bots
// that answer at once (the server's cheap lane). Everything else reads them from here.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace carc {

class Bot;
struct MctsOptions;

// The strength levels: mcts bots of a fixed number of playouts on one thread (the same strength
// on every machine and under any load), the same in every command and on the server. These are
// the base game's; a game may set its own (GameDef::levels), chosen so that each level wins about
// 75% of its games against the one below (docs/mcts.md "Levels"). bot_level_spec (ai/bots.hpp)
// looks a level up; make_bot("easy") plays each game's own.
struct BotLevel {
  std::string_view name;
  std::string_view spec;
};
inline constexpr std::array<BotLevel, 3> kBotLevels{{
    {"easy", "mcts:playouts=10,threads=1,value=0"},
    {"normal", "mcts:playouts=100,threads=1"},
    {"hard", "mcts:playouts=3000,threads=1"},
}};
// The levels' names in order: easy, normal, hard.
std::vector<std::string> bot_level_names();

// The bots whose decisions take milliseconds: random, greedy and the easy level. The server plays
// them in a lane of their own (server/store.hpp, JobLane), so that they never wait behind searches.
inline constexpr std::array<std::string_view, 3> kCheapBots{"random", "greedy", "easy"};
bool cheap_bot(std::string_view spec);

// The bounds of an mcts spec's own options (parse_mcts_spec): playouts, ms and threads.
inline constexpr int kMctsMaxPlayouts = 10000000;
inline constexpr int kMctsMaxMs = 3600000;
inline constexpr int kMctsMaxThreads = 64;

// Caps on a searching bot (an mcts spec, or a level); 0 is no cap.
struct BotLimits {
  int max_ms = 0;        // time per decision, of a spec searching by time (no playouts given)
  int max_playouts = 0;  // playouts per decision, of a spec with a number of playouts
  int max_threads = 0;   // threads per search
};

// What a stranger may ask a game server for: mcts with one thread and a time or a number of
// playouts within these (serve's --bot-max-ms and --bot-max-playouts default to them; a level,
// random and greedy always). server/room.hpp check_bot.
inline constexpr BotLimits kServerBotLimits{4000, 20000, 1};
// The range `carcassonne serve` accepts for --bot-max-ms and --bot-max-playouts, and the range
// `carcassonne worker` accepts for its --max-ms (its --threads: 1..kMctsMaxThreads).
inline constexpr int kServeBotMinMs = 10, kServeBotMaxMs = 600000, kServeBotMaxPlayouts = 100000000;
inline constexpr int kWorkerMaxMs = 600000;
// What an engine-protocol session lets a "bot" request ask for (protocol/protocol.hpp).
inline constexpr BotLimits kProtocolBotLimits{60000, 1000000, 0};

// What of an mcts bot's options is over `limits`: nothing, its time (a spec searching by time),
// its playouts (a spec with playouts) or its threads.
enum class OverLimit { none, ms, playouts, threads };
OverLimit over_limits(const MctsOptions& o, const BotLimits& limits);

// A bot for `spec` whose searches stay within `cap` (a worker's CPU budget): a level or an mcts
// spec gets at most cap.max_ms per decision when it searches by time, and at most
// cap.max_threads threads. A bot with a fixed number of playouts keeps it (its strength does not
// depend on the machine): cap.max_playouts is not used here. Any other spec is make_bot's.
// Throws InputError for a spec that is not a bot.
std::unique_ptr<Bot> make_bot_within(std::string_view spec, const BotLimits& cap);
// The bot of a level (easy, normal, hard): it plays each game's own spec for the level
// (bot_level_spec), within cap. Throws InputError for a word that is not a level.
std::unique_ptr<Bot> make_level_bot(std::string_view level, const BotLimits& cap);

}  // namespace carc
