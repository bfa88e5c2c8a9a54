#!/usr/bin/env bash
# A temporary PostgreSQL cluster on loopback for tests (Debian's postgresql package).
#   scripts/pg.sh start DIR PORT   initdb in DIR and start it on 127.0.0.1:PORT; prints the URL
#   scripts/pg.sh stop DIR         stop it and remove DIR
#   scripts/pg.sh halt DIR         stop it and keep DIR (a restart of the database, for tests)
#   scripts/pg.sh resume DIR PORT  start the halted cluster again on 127.0.0.1:PORT
#   scripts/pg.sh with CMD ARGS... a cluster on a free port for the time of CMD, its URL in
#                                  CARC_PG_URL; CMD's exit status
# PostgreSQL refuses to run as root: as root (CI) the cluster runs as the `postgres` user.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] || { echo "pg.sh: PostgreSQL is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
run_pg() {  # DIR PORT: the cluster in DIR on 127.0.0.1:PORT
  as_pg "$PGBIN/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $2 -k $1 -c fsync=on -c max_connections=200" start >/dev/null ||
    { cat "$1/server.log" >&2; exit 1; }
}
case "${1:-}" in
  start)
    dir=$2 port=$3
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    as_pg "$PGBIN/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    run_pg "$dir" "$port"
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=$2
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  halt)
    as_pg "$PGBIN/pg_ctl" -D "$2/data" -m fast -w stop >/dev/null
    ;;
  resume)
    run_pg "$2" "$3"
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
    echo "usage: scripts/pg.sh start DIR PORT | stop DIR | halt DIR | resume DIR PORT | with CMD..." >&2
    exit 2
    ;;
esac
