#!/usr/bin/env bash
# The C++ formatting check (.clang-format, clang-format-14): every line of C++ changed since a base
# commit must be as clang-format writes it (--dry-run --Werror). CI runs it first (.ci/run).
#
#   scripts/format-check.sh          check the lines changed since the base (committed or not)
#   scripts/format-check.sh --fix    format those lines in place instead
#   scripts/format-check.sh REV      the same against another base (e.g. HEAD~1, a branch point)
#
# The base: the commit named in .ci/format-base, the tip of main when the check was introduced.
# CI runs on a fresh clone of main with no remote, so there is no "origin/main" to compare with,
# and HEAD~1 would check only the newest commit of a push of several. A base kept in the
# repository sees every change since it, however it arrived. Only changed lines are checked (whole
# files when they are new): the code before the check was never formatted, and reformatting files
# someone only touched would bury changes in noise and collide with work on the same files. Code
# becomes formatted as it is written; when the whole tree has been formatted, move the base to
# that commit. (README.md, "Development")
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
base=""
for a in "$@"; do
  case "$a" in
    --fix) fix=1 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) base="$a" ;;
  esac
done
[ -n "$base" ] || base="$(tr -d '[:space:]' < .ci/format-base)"

cf="$(command -v clang-format-14 || command -v clang-format || true)"
if [ -z "$cf" ]; then
  echo "format-check: clang-format-14 is not installed (apt-get install clang-format-14)" >&2
  exit 1
fi
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "format-check: the base $base is not in this clone's history (a shallow clone? fetch it, or pass a base)" >&2
  exit 1
fi

# Changed line ranges per C++ file, from one diff of the working tree against the base (renames
# followed, so a moved file is checked only where it changed): "file first:last" lines.
ranges="$(git diff -U0 -M --no-color --diff-filter=ACMR "$base" -- '*.cpp' '*.hpp' '*.h' '*.cc' |
  awk '
    /^\+\+\+ / { file = substr($0, 7); next }
    /^@@ / {
      split($3, r, ",")  # +START[,COUNT]
      start = substr(r[1], 2) + 0
      count = (2 in r) ? r[2] + 0 : 1
      if (count > 0 && file != "") print file, start ":" (start + count - 1)
    }')"

if [ -z "$ranges" ]; then
  echo "format-check: no C++ lines changed since $(git rev-parse --short "$base")"
  exit 0
fi

status=0
files=0
while read -r file; do
  [ -f "$file" ] || continue
  args=()
  while read -r f r; do [ "$f" = "$file" ] && args+=("--lines=$r"); done <<< "$ranges"
  files=$((files + 1))
  if [ "$fix" = 1 ]; then
    "$cf" -i "${args[@]}" "$file"
  elif ! "$cf" --dry-run --Werror "${args[@]}" "$file"; then
    status=1
  fi
done < <(cut -d' ' -f1 <<< "$ranges" | sort -u)

if [ "$fix" = 1 ]; then
  echo "format-check: formatted the changed lines of $files files since $(git rev-parse --short "$base")"
elif [ "$status" != 0 ]; then
  echo "format-check: lines changed since $(git rev-parse --short "$base") are not clang-formatted; scripts/format-check.sh --fix formats them" >&2
else
  echo "format-check: the changed lines of $files C++ files are formatted (since $(git rev-parse --short "$base"))"
fi
exit "$status"
