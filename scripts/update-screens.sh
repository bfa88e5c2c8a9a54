#!/usr/bin/env bash
# Takes the pictures the screenshot comparisons (web/test/looks.test.mjs) compare against, after an
# intended change of the board's look: builds the engine and the browser client, runs the
# comparisons in update mode and rewrites web/test/screens/*.png. Look at every picture before
# committing them (git diff --stat web/test/screens shows which changed).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build carcassonne
bash scripts/web.sh
cd web
UPDATE_SCREENS=1 CARC_BIN="$PWD/../build/carcassonne" CARCASSONNE_TEST_GAMES=1 \
  node --test --test-concurrency=1 --test-force-exit test/looks.test.mjs
