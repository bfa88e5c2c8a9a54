#!/usr/bin/env bash
# Quick start: install what is missing, build (Release) and start the terminal game.
# Extra arguments go to `carcassonne play` (e.g. ./run.sh --seats human,greedy,greedy).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build carcassonne
exec ./build/carcassonne play "$@"
