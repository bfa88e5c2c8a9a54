#!/usr/bin/env bash
# Builds the browser client (web/, docs/web.md): `npm ci` from the committed lock file when
# node_modules does not match it, then the TypeScript check and the esbuild bundle into web/dist.
set -euo pipefail
cd "$(dirname "$0")/../web"
stamp=node_modules/.lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
npx tsc --noEmit -p .
node build.mjs
