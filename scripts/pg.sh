#!/usr/bin/env bash
# A temporary PostgreSQL cluster on loopback for tests (Debian's postgresql package).
#   scripts/pg.sh start DIR PORT   initdb in DIR and start it on 127.0.0.1:PORT; prints the URL
#   scripts/pg.sh stop DIR         stop it and remove DIR
#   scripts/pg.sh with CMD ARGS... a cluster on a free port for the time of CMD, its URL in
#                                  CARC_PG_URL; CMD's exit status
# PostgreSQL refuses to run as root: as root (CI) the cluster runs as the `postgres` user.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] || { echo "pg.sh: PostgreSQL is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "${1:-}" in
  start)
    dir=$2 port=$3
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    as_pg "$PGBIN/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on -c max_connections=200" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=$2
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  with)
    shift
    dir=$(mktemp -d /tmp/carc-pg.XXXXXX)
    trap 'bash "$0" stop "$dir"' EXIT
    # A port the kernel has just handed out is free, but another test may take it before
    # PostgreSQL binds it: on a failed start, stop what is left and try another port (5 tries).
    CARC_PG_URL=
    for try in 1 2 3 4 5; do
      port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
      if CARC_PG_URL=$(bash "$0" start "$dir" "$port"); then break; fi
      echo "pg.sh: start on port $port failed (try $try of 5)" >&2
      bash "$0" stop "$dir"
      CARC_PG_URL=
    done
    [ -n "$CARC_PG_URL" ] || { echo "pg.sh: could not start PostgreSQL" >&2; exit 1; }
    export CARC_PG_URL
    "$@"
    ;;
  *)
    echo "usage: scripts/pg.sh start DIR PORT | stop DIR | with CMD..." >&2
    exit 2
    ;;
esac
