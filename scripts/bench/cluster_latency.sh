#!/usr/bin/env bash
# The cross-node figures of docs/scaling.md ("Figures") and docs/performance.md ("Cluster"): two
# `rainet serve --redis` nodes on one PostgreSQL database and one redis-server, and `rainet
# loadtest` run against them alternately with both players on node a ("same node") and with side 2
# and the spectators on node b ("cross node": every action and event goes through Redis), so that
# both see the same machine load.
#
#   scripts/bench/cluster_latency.sh [GAMES] [PACE_MS] [SECONDS] [ROUNDS] [SPECTATORS] [RAMP]
#
# GAMES x 1000 / PACE_MS is the action rate (default 500 games at 500 ms: 1000 actions/s). RAMP
# games are started per second (default 50): on PostgreSQL every new guest, game, join and setup
# is a synchronous commit (one WAL flush each), so a faster ramp is still running when the
# measurement starts and the figures are the ramp's, not the steady state's.
# Needs the release build (build/rainet), redis-server, and a PostgreSQL: RAINET_TEST_PG if set,
# else a throwaway cluster from scripts/postgres.sh. Prints each run's loadtest report, then the
# p50/p99 of act -> opponent's event per configuration, and each node's CPU seconds. KEEP=1
# keeps the nodes' logs (the folder is printed).
set -euo pipefail
cd "$(dirname "$0")/../.."

games=${1:-500}
pace=${2:-500}
seconds=${3:-20}
rounds=${4:-2}
spectators=${5:-0}
ramp=${6:-50}
bin=${RAINET_BIN:-build/rainet}  # another build to compare side by side
[[ -x $bin ]] || { echo "cluster_latency.sh: build first (cmake --build --preset default)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/rainet-latency-XXXXXX)
pids=()
own_pg=""
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [[ -n $own_pg ]] && bash scripts/postgres.sh stop "$own_pg" >/dev/null 2>&1 || true
    if [[ -n ${KEEP:-} ]]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

if [[ -n ${RAINET_TEST_PG:-} ]]; then
    pg=$RAINET_TEST_PG
else
    own_pg=$(mktemp -u /tmp/rainet-latency-pg.XXXXXX)  # its own folder: the postgres user owns it
    pg=$(bash scripts/postgres.sh start "$own_pg")
fi
# A database of its own in that cluster, so that earlier runs' games do not count.
db=rainet_latency_$$
psql -q "$pg" -c "CREATE DATABASE $db" >/dev/null
uri=${pg/\/postgres\?//$db?}

/usr/bin/redis-server --port 0 --unixsocket "$tmp/redis.sock" --unixsocketperm 700 --save '' \
    --appendonly no --logfile "$tmp/redis.log" --daemonize no &
pids+=($!)
for _ in $(seq 100); do [[ -S $tmp/redis.sock ]] && break; sleep 0.05; done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pa=$(free_port)
pb=$(free_port)
# /metrics of a node on PORT: --metrics-listen on PORT + 1 (docs/deployment.md).
start_node() {  # ID PORT
    "$bin" serve --db "$uri" --redis "unix:$tmp/redis.sock" --node-id "$1" \
        --listen "127.0.0.1:$2" --metrics-listen "127.0.0.1:$(($2 + 1))" --web web/dist --max-per-address 100000 \
        --identities-per-minute 0 --rate 1000 >"$tmp/$1.log" 2>&1 &
    pids+=($!)
    eval "pid_$1=$!"
    for _ in $(seq 200); do
        curl -fsS "http://127.0.0.1:$2/healthz" >/dev/null 2>&1 && return
        sleep 0.05
    done
    echo "node $1 did not start:" >&2
    cat "$tmp/$1.log" >&2
    exit 1
}
start_node a "$pa"
start_node b "$pb"

cpu() { awk '{print ($14 + $15) / 100}' "/proc/$1/stat"; }
# Redis: commands processed, bytes in and out; PostgreSQL: commits and rows written in the db.
redis_stats() {
    redis-cli -s "$tmp/redis.sock" info stats | tr -d '\r' |
        awk -F: '/^total_commands_processed|^total_net_input_bytes|^total_net_output_bytes/ {printf "%s ", $2}'
}
actions_of() { curl -fsS "http://127.0.0.1:$(($1 + 1))/metrics" | awk '/^rainet_actions_total / {print $2}'; }
pg_stats() {
    psql -qtA -F' ' "$pg" -c "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted FROM pg_stat_database WHERE datname = '$db'"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $games games, pace $pace ms, ramp $ramp/s, $seconds s, $rounds rounds"
for round in $(seq "$rounds"); do
    for mode in same cross; do
        join=$pa
        [[ $mode == cross ]] && join=$pb
        a0=$(cpu "$pid_a")
        b0=$(cpu "$pid_b")
        read -r rc0 ri0 ro0 <<<"$(redis_stats)"
        read -r px0 pr0 <<<"$(pg_stats)"
        n0=$(actions_of "$pa")
        echo "== round $round: $mode node (side 2 on port $join)"
        "$bin" loadtest --port "$pa" --join-port "$join" --games "$games" --pace "$pace" \
            --seconds "$seconds" --spectators "$spectators" --ramp "$ramp" 2>/dev/null | tee "$tmp/$mode.$round.txt"
        a1=$(cpu "$pid_a")
        b1=$(cpu "$pid_b")
        echo "node CPU s: a $(echo "$a1 - $a0" | bc), b $(echo "$b1 - $b0" | bc)"
        read -r rc1 ri1 ro1 <<<"$(redis_stats)"
        sleep 0.6  # pg_stat_database is flushed by the backends at most every 500 ms
        read -r px1 pr1 <<<"$(pg_stats)"
        n=$(($(actions_of "$pa") - n0))
        echo "over the whole run (ramp included): $n actions applied by a;" \
            "redis $((rc1 - rc0)) commands, $((ri1 - ri0)) bytes in, $((ro1 - ro0)) bytes out;" \
            "postgresql $((px1 - px0)) commits, $((pr1 - pr0)) rows written"
        echo "per action: redis $(echo "scale=2; ($rc1 - $rc0) / $n" | bc) commands," \
            "$(echo "($ri1 - $ri0 + $ro1 - $ro0) / $n" | bc) bytes;" \
            "postgresql $(echo "scale=2; ($px1 - $px0) / $n" | bc) commits," \
            "$(echo "scale=2; ($pr1 - $pr0) / $n" | bc) rows"
        echo "metrics b: $(curl -fsS "http://127.0.0.1:$((pb + 1))/metrics" | grep -E '^rainet_(forwarded_out|delivered_in)_total')" | tr '\n' ' '
        echo
    done
done
echo "== publish latency on a (owner):"
curl -fsS "http://127.0.0.1:$((pa + 1))/metrics" | grep -E '^rainet_publish_seconds'
