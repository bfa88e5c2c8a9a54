// open_store: a store by its URL (--db).
#include "server/store.hpp"

namespace carc::server {

std::unique_ptr<Store> open_store(const std::string& url) {
  if (url == "memory") return make_memory_store();
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) return make_pg_store(url);
  if (url.rfind("sqlite:", 0) == 0 && url.size() > 7) return make_sqlite_store(url.substr(7));
  throw StoreError("\"" + url + "\" is not sqlite:FILE or postgresql://...");
}

}  // namespace carc::server
