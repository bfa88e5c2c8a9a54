// server/accounts/schema: the migrations of the account tables (server/accounts/sql's migrate).
// Version 1 is the game log's tables, made by the stores; each later version is one step here,
// never edited once released: a change is a new step.
#pragma once
#include <vector>

#include "server/accounts/sql.hpp"

namespace carc::server::accounts {

const std::vector<Migration>& migrations();

}  // namespace carc::server::accounts
