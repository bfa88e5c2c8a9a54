#!/usr/bin/env bash
# The store conformance suite on a real PostgreSQL: a temporary cluster started by scripts/pg.sh
# (as the postgres user under root), the PostgreSQL cases of carc_tests (the game store's and the
# account store's contracts) run against it, stopped.
#   tests/pg_store.sh BUILD/carc_tests
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(bash "$here/scripts/pg.sh" with bash -c 'CARC_TEST_PG=$CARC_PG_URL "$0" --gtest_filter="Stores/StoreContract.*/postgresql:AccountStores/AccountStoreContract.*/postgresql"' "$1" 2>&1) ||
  { echo "$out"; exit 1; }
echo "$out" | tail -4
# every case ran (none skipped for want of the cluster)
echo "$out" | grep -q "SKIPPED" && { echo "pg_store: cases were skipped"; exit 1; }
echo "$out" | grep -Eq "PASSED  \] 17 tests" || { echo "pg_store: the PostgreSQL cases did not run"; exit 1; }
