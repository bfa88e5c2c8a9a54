#!/usr/bin/env bash
# Installs the Debian packages the project needs (only those missing). Safe to run repeatedly.
#   scripts/setup.sh [--fuzz] [--format]   --fuzz: also what the fuzz build needs (clang);
#                                          --format: also clang-format-14 (scripts/format-check.sh)
set -euo pipefail
PKGS=(g++ cmake ninja-build pkg-config python3 python3-jsonschema libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev libfmt-dev
      libboost1.81-dev libsqlite3-dev libssl-dev libpq-dev libsodium-dev postgresql python3-websockets nginx-light
      chromium fonts-dejavu-core pybind11-dev python3-numpy python3-pytest python3-distributed python3-torch)
# --fuzz: also clang and its libFuzzer/sanitizer runtimes (scripts/fuzz.sh, docs/fuzzing.md)
for a in "$@"; do
  case "$a" in
    --fuzz) PKGS+=(clang-14 libclang-rt-14-dev) ;;
    --format) PKGS+=(clang-format-14) ;;
  esac
done
missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node.js and npm for the browser client (web/): Debian's, unless a node with npm is already there
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
