# Shared by the scripts of scripts/bench (sourced, not run): a server on a fresh database, one
# `rainet loadtest` against it, and its output parsed into one markdown table row.
# Every process here runs under `nice -n 10` (the machine is shared) and listens on 127.0.0.1.

# A free TCP port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The 1-minute load average.
load1() { cut -d' ' -f1 /proc/loadavg; }

# serve_and_load BIN DB LOADTEST_ARGS...: starts `BIN serve` on DB (a file path, removed first, or a
# postgresql:// URI of an empty database) with the caps that every load client from 127.0.0.1
# would hit lifted (docs/deployment.md), runs `BIN loadtest` against it and prints its output
# (followed by "load LOAD_AT_START"). OLD_SERVER=1 leaves out the cap flags, for builds older than them.
serve_and_load() {
  local bin=$1 db=$2; shift 2
  local port; port=$(free_port)
  local caps="--max-connections 0 --max-per-address 0 --identities-per-minute 0"
  [[ -n "${OLD_SERVER:-}" ]] && caps=""
  [[ "$db" == postgres* ]] || rm -f "$db" "$db-wal" "$db-shm"
  local load; load=$(load1)
  # shellcheck disable=SC2086
  nice -n 10 "$bin" serve --listen "127.0.0.1:$port" --db "$db" --web /nonexistent --rate 100000 $caps \
    > /dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  nice -n 10 "$bin" loadtest --port "$port" "$@" --server-pid "$pid" 2>/dev/null || true
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  echo "load $load"
}

# field OUTPUT NAME: one figure of a loadtest output.
#   rate: actions/s; p50, p99, max: act->ack; op50, op99: act->opponent; sp50, sp99:
#   act->spectator; scpu: server CPU per action (us); ccpu: the loadtest's; cpu: server CPU (%);
#   ccpu_pct: the loadtest's CPU (%); rss: server RSS (MiB); load: the load average at the start.
field() {
  awk -v want="$2" '
    /^actions /               { gsub(/[()]/, ""); v["rate"] = $3 }
    /^act->ack latency ms/    { v["p50"] = $5; v["p99"] = $7; v["max"] = $9 }
    /^act->opponent ms/       { v["op50"] = $4; v["op99"] = $6 }
    /^act->spectator ms/      { v["sp50"] = $4; v["sp99"] = $6 }
    /^server CPU per action/  { v["scpu"] = $5 }
    /^server CPU  /           { v["cpu"] = $3 }
    /^loadtest CPU per action/ { v["ccpu"] = $5 }
    /^loadtest CPU  /         { v["ccpu_pct"] = $3 }
    /^server RSS/             { v["rss"] = $3 }
    /^load /                  { v["load"] = $2 }
    END {
      x = v[want]
      if (x == "") x = "-"
      else if (want == "rate") x = sprintf("%.0f", x)
      else if (want == "scpu" || want == "ccpu" || want == "cpu") x = sprintf("%.1f", x)
      print x
    }
  ' <<< "$1"
}
