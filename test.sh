#!/usr/bin/env bash
# Install what is missing, build and run every test.
#   ./test.sh             Release build in build/, all tests (ctest)
#   ./test.sh --sanitize  address + undefined sanitizer build in build-asan/, all tests
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
bash scripts/web.sh
dir=build
flags=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCARC_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
ninja -C "$dir"
cd "$dir"
ctest --output-on-failure -j2
