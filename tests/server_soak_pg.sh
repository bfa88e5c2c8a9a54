#!/usr/bin/env bash
# The soak test on PostgreSQL with two `serve` processes behind nginx, each game routed to one of
# them by its id, bots played by a `carcassonne worker` through nginx, servers SIGKILLed in turn
# (docs/deploy.md). The cluster is a temporary one from scripts/pg.sh.
#   tests/server_soak_pg.sh BUILD/carc_soak BUILD/carcassonne
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/scripts/pg.sh" with bash -c 'set -o pipefail; "$0" --bin "$1" --db "$CARC_PG_URL" --servers 2 --games 100 --minutes 2 --kills 4 --kill-every 1 2>&1 | grep -v "^NOTICE"' "$1" "$2"
