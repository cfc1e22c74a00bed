#!/usr/bin/env bash
# System calls per action of `rainet serve` in the closed loop (docs/performance.md, "Closed
# loop"): perf's syscall tracepoints on the server over 4 s of a 300-game closed loop, divided by
# the actions of those 4 s. Needs perf with access to tracepoints (root, or
# kernel.perf_event_paranoid <= -1). Usage: scripts/bench/syscalls.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/lib.sh
bin=${1:-build/rainet}
tmp=$(mktemp -d /tmp/rainet-syscalls.XXXXXX)
port=$(free_port)
nice -n 10 "$bin" serve --listen "127.0.0.1:$port" --db "$tmp/db.db" --web /nonexistent --rate 100000 \
  --max-connections 0 --max-per-address 0 --identities-per-minute 0 > /dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1
nice -n 10 "$bin" loadtest --port "$port" --games 300 --spectators 0 --pace 0 --seconds 12 --ramp 500 \
  --server-pid "$pid" > "$tmp/load.txt" 2>/dev/null &
load=$!
sleep 7   # the ramp (about 1 s) and a few seconds of the loop
perf stat -x, -e 'syscalls:sys_enter_sendmsg,syscalls:sys_enter_recvmsg,syscalls:sys_enter_futex,syscalls:sys_enter_fcntl,syscalls:sys_enter_pwrite64,syscalls:sys_enter_pread64' \
  -p "$pid" -o "$tmp/perf.txt" -- sleep 4
wait "$load"
rate=$(field "$(cat "$tmp/load.txt")" rate)
echo "closed loop: $rate actions/s (the whole window)"
echo "| system call | per action |"
echo "|---|---|"
awk -F, -v rate="$rate" '/syscalls:/ { sub(/syscalls:sys_enter_/, "", $3); printf "| %s | %.2f |\n", $3, $1 / (4 * rate) }' "$tmp/perf.txt"
