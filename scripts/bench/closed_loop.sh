#!/usr/bin/env bash
# The closed loop (docs/performance.md, "Closed loop"): 300 games, no spectators, each side
# answering at once (`--pace 0`), so the figure is the machine's ceiling for server + load client.
# Each binary is run with its own `rainet loadtest`, interleaved round by round, each server on a
# fresh SQLite file (or, with DB=pg, a fresh database of a throwaway PostgreSQL cluster).
#
#   scripts/bench/closed_loop.sh [ROUNDS] [BINARY...]     # default: 3 rounds of build/rainet
#   DB=pg scripts/bench/closed_loop.sh 3                   # the same on PostgreSQL
#   SECONDS_PER_ROUND=10 (default), GAMES=300 (default)
#
# Prints one markdown row per round and binary, then the mean of each binary. About 20 s a round
# and binary. The figures move with what else runs: compare binaries side by side, in one run.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/lib.sh
rounds=${1:-3}; shift || true
bins=("$@"); [[ ${#bins[@]} -gt 0 ]] || bins=(build/rainet)
secs=${SECONDS_PER_ROUND:-10}; games=${GAMES:-300}
tmp=$(mktemp -d /tmp/rainet-closed-loop.XXXXXX)
pgdir=""
cleanup() { [[ -n "$pgdir" ]] && bash scripts/postgres.sh stop "$pgdir" >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
if [[ "${DB:-sqlite}" == pg ]]; then
  pgdir=$(mktemp -u /tmp/rainet-closed-loop-pg.XXXXXX)  # its own folder: the postgres user owns it
  base=$(bash scripts/postgres.sh start "$pgdir")
fi
dbfor() {  # a fresh database for round $1, binary $2
  if [[ -n "$pgdir" ]]; then
    local name="cl_$1_$2"
    psql "$base" -qc "CREATE DATABASE $name" >/dev/null
    sed "s|///postgres?|///$name?|" <<< "$base"
  else echo "$tmp/db.db"; fi
}
echo "| round | binary | actions/s | server CPU per action | client CPU per action | act→ack p50 / p99 | load at start |"
echo "|---|---|---|---|---|---|---|"
declare -A sum n
for r in $(seq "$rounds"); do
  for i in "${!bins[@]}"; do
    b=${bins[$i]}
    out=$(serve_and_load "$b" "$(dbfor "$r" "$i")" --games "$games" --spectators 0 --pace 0 \
      --seconds "$secs" --ramp 500)
    rate=$(field "$out" rate)
    echo "| $r | $b | $rate | $(field "$out" scpu) µs | $(field "$out" ccpu) µs | $(field "$out" p50) / $(field "$out" p99) ms | $(field "$out" load) |"
    [[ "$rate" =~ ^[0-9]+$ ]] && sum[$i]=$(( ${sum[$i]:-0} + rate )) && n[$i]=$(( ${n[$i]:-0} + 1 ))
  done
done
for i in "${!bins[@]}"; do
  [[ -n "${n[$i]:-}" ]] && echo "| mean | ${bins[$i]} | $(( sum[$i] / n[$i] )) | | | | |"
done
