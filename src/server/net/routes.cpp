// The HTTP API's routes (docs/server-protocol.md): one table, matched in one place.
#include "server/net/server.hpp"

namespace carc::server::net_side {

// The HTTP API (docs/server-protocol.md), matched in order, first match wins. A request that no
// route takes is refused with 405 when a route takes its path with another method (the web files'
// GET * takes every path, so: any method but GET), else 404.
const Server::Route Server::kRoutes[] = {
    {http::verb::post, "/api/games", &Server::http_create_game},
    {http::verb::get, "/api/games", &Server::http_list_games},
    // bot workers outside the server; a job's result goes to /api/games/ID/job, so that a proxy
    // routes it to the game's process
    {http::verb::post, "/api/jobs/take", &Server::http_take_job},
    {http::verb::post, "/api/games/+/job", &Server::http_job_result},
    {http::verb::post, "/api/games/+/rematch", &Server::http_rematch},
    {http::verb::post, "/api/games/+/analysis", &Server::http_analysis},
    // players and sessions (api_accounts.cpp)
    {http::verb::post, "/api/session", &Server::http_session},
    {http::verb::get, "/api/me", &Server::http_me},
    {http::verb::post, "/api/login", &Server::http_login},
    {http::verb::post, "/api/logout", &Server::http_logout},
    {http::verb::post, "/api/account/claim", &Server::http_claim},
    {http::verb::get, "/api/account/sessions", &Server::http_sessions},
    {http::verb::delete_, "/api/account/sessions/+", &Server::http_end_session},
    {http::verb::post, "/api/account/password", &Server::http_password},
    {http::verb::post, "/api/account/recover", &Server::http_recover},
    {http::verb::post, "/api/account/reset", &Server::http_reset},
    {http::verb::post, "/api/account/delete", &Server::http_delete_account},
    {http::verb::get, "/api/me/games", &Server::http_my_games},
    // quick pairing, blocks, players (api_pairing.cpp)
    {http::verb::post, "/api/pairing", &Server::http_pairing_join},
    {http::verb::get, "/api/pairing", &Server::http_pairing_status},
    {http::verb::delete_, "/api/pairing", &Server::http_pairing_leave},
    {http::verb::post, "/api/blocks", &Server::http_block},
    {http::verb::get, "/api/blocks", &Server::http_blocks},
    {http::verb::delete_, "/api/blocks/+", &Server::http_unblock},
    // your turn, players' pages, leaderboards (api_players.cpp)
    {http::verb::get, "/api/me/turns", &Server::http_turns},
    {http::verb::get, "/api/players/+", &Server::http_player},
    {http::verb::get, "/api/leaderboard", &Server::http_leaderboard},
    // chat and reports (chat.cpp)
    {http::verb::get, "/api/games/+/chat", &Server::http_chat},
    {http::verb::post, "/api/reports", &Server::http_report},
    // open tables (api_tables.cpp)
    {http::verb::post, "/api/tables", &Server::http_table_open},
    {http::verb::get, "/api/tables", &Server::http_tables},
    {http::verb::get, "/api/tables/+", &Server::http_table},
    {http::verb::post, "/api/tables/+/join", &Server::http_table_join},
    {http::verb::post, "/api/tables/+/leave", &Server::http_table_leave},
    {http::verb::get, "/healthz", &Server::http_health},
    {http::verb::get, "/metrics", &Server::http_metrics},
    {http::verb::get, "/api/catalog", &Server::http_catalog},
    {http::verb::get, "/api/tiles/*", &Server::http_tiles},
    {http::verb::get, "/api/rules/*", &Server::http_rules},
    {http::verb::post, "/api/replay", &Server::http_replay},
    {http::verb::get, "/api/stats", &Server::http_stats},
    {http::verb::get, "/api/games/*", &Server::http_game},  // a game: its summary, /record, /events
    {http::verb::get, "*", &Server::http_web_file},         // the browser client's files
};

std::span<const Server::Route> Server::routes() { return kRoutes; }

}  // namespace carc::server::net_side
