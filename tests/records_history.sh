#!/usr/bin/env bash
# Every record the project's history committed (tests/records-history/, docs/record.md "Versions")
# replays with this version: earlier formats, and tile ids that have changed since, still load.
#   tests/records_history.sh BUILD/carcassonne
set -uo pipefail
bin=$1
dir=$(cd "$(dirname "$0")" && pwd)/records-history
n=0 failed=0
for f in "$dir"/*.json; do
  n=$((n + 1))
  if ! out=$("$bin" replay "$f" 2>&1 >/dev/null); then
    echo "FAIL: $(basename "$f"): $out"
    failed=$((failed + 1))
  fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no records in $dir"; exit 1; }
# a format this version does not know is refused by name
tmp=$(mktemp)
echo '{"format": "carcassonne-record/9", "players": ["A", "B"], "moves": []}' > "$tmp"
if "$bin" replay "$tmp" >/dev/null 2>"$tmp.err" || ! grep -q 'carcassonne-record/9" is not a record format this program reads' "$tmp.err"; then
  echo "FAIL: a record of an unknown format: $(cat "$tmp.err")"
  failed=$((failed + 1))
fi
rm -f "$tmp" "$tmp.err"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
