#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `postgres.sh start DIR` initializes one in DIR (a
# new or empty directory) on a free port, listening only on a unix socket in DIR, and prints the
# connection string for RAINET_TEST_PG; `postgres.sh stop DIR` stops it and removes DIR.
# `postgres.sh down DIR` stops the server keeping its data, `postgres.sh up DIR` starts it again on
# the same socket: a database restart as the tests of an outage need it (tests/support/
# postgres_test_cluster.h). `postgres.sh stall DIR` stops (SIGSTOP) the server and its backends
# without closing anything, `postgres.sh resume DIR` wakes them (SIGCONT): a stalled server.
# PostgreSQL refuses to run as root, so the server runs as the `postgres` system user (from the
# Debian package), through runuser when we are root and sudo otherwise. Trust auth: test use only.
set -euo pipefail

as_postgres() {
  if ((EUID == 0)); then
    runuser -u postgres -- "$@"
  elif [[ "$(id -un)" == postgres ]]; then
    "$@"
  else
    sudo -n -u postgres -- "$@"
  fi
}
as_root() {
  if ((EUID == 0)); then "$@"; else sudo -n -- "$@"; fi
}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -x "$bindir/initdb" ]] || { echo "postgres.sh: no PostgreSQL server (apt install postgresql)" >&2; exit 1; }

cmd=${1:-}
dir=${2:-}
[[ -n "$dir" ]] || { echo "usage: postgres.sh start|stop|down|up|stall|resume DIR" >&2; exit 2; }

case "$cmd" in
  start)
    as_root mkdir -p "$dir"
    as_root chown postgres: "$dir"
    as_root chmod 700 "$dir"
    # A stale cluster from an interrupted run is stopped and replaced.
    if [[ -f "$dir/data/postmaster.pid" ]]; then
      as_postgres "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    as_root rm -rf "$dir/data"
    as_postgres "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C >/dev/null
    # No TCP: the port only names the socket file (DIR/.s.PGSQL.5432), so it cannot clash.
    port=5432
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-k $dir -p $port -c listen_addresses='' -c max_connections=200" start >/dev/null
    # Tests connect to it as any user: the socket directory must be reachable by them.
    as_root chmod 755 "$dir"
    echo "postgresql:///postgres?host=$dir&port=$port&user=postgres"
    ;;
  stop)
    if [[ -f "$dir/data/postmaster.pid" ]]; then
      as_postgres "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    as_root rm -rf "$dir"
    ;;
  down)
    # Fast: open sessions are terminated (their clients see the connection closed), as a restart.
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  up)
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-k $dir -p 5432 -c listen_addresses='' -c max_connections=200" start >/dev/null
    ;;
  stall | resume)
    # SIGSTOP (stall) or SIGCONT (resume) this cluster's server and every process it forked: a
    # server that stops answering without closing its connections. Only the processes of this
    # DIR's postmaster (its pid file), never any other PostgreSQL.
    pid=$(as_postgres head -1 "$dir/data/postmaster.pid")
    [[ "$pid" =~ ^[0-9]+$ ]] || { echo "postgres.sh: no postmaster pid in $dir" >&2; exit 1; }
    children=$(pgrep -P "$pid" | tr '\n' ' ' || true)
    if [[ "$cmd" == stall ]]; then
      # The postmaster first, so that it forks nothing new while its children are stopped.
      as_postgres kill -STOP "$pid"
      [[ -z "$children" ]] || as_postgres kill -STOP $children
    else
      [[ -z "$children" ]] || as_postgres kill -CONT $children
      as_postgres kill -CONT "$pid"
    fi
    ;;
  *)
    echo "usage: postgres.sh start|stop|down|up|stall|resume DIR" >&2
    exit 2
    ;;
esac
