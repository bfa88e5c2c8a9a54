#!/usr/bin/env bash
# Quick start: install what is missing, build everything (Release engine and server, the browser
# client) and start the game server on this machine with its SQLite store in ./data-server.
#   ./run.sh                 the server: open the address it prints, one click plays a bot
#   ./run.sh play [ARGS]     the terminal game instead (e.g. ./run.sh play --seats human,greedy)
# Other arguments go to `carcassonne serve` (e.g. ./run.sh --listen 127.0.0.1:9000).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build carcassonne
if [ "${1:-}" = "play" ]; then
  shift
  exec ./build/carcassonne play "$@"
fi
bash scripts/web.sh
exec ./build/carcassonne serve --web web/dist "$@"
