#!/usr/bin/env bash
# Open-loop load (docs/performance.md, "Load"): N games, each with one spectator, the side to move
# answering PACE ms after each event, so the server is asked for N * 1000 / PACE actions a second.
#
#   scripts/bench/load.sh [GAMES:PACE_MS ...]     # default: 1000:1000 5000:5000 5000:2500
#   SECONDS_PER_ROW=30 (default), BIN=build/rainet (default)
#
# Prints one markdown row per load; about a minute each (ramp-up included). The server runs with
# its defaults on a fresh SQLite file; its connection caps are lifted because every client comes
# from 127.0.0.1 (5000 games are 15 000 connections: `ulimit -n` must allow them).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/lib.sh
rows=("$@"); [[ ${#rows[@]} -gt 0 ]] || rows=(1000:1000 5000:5000 5000:2500)
bin=${BIN:-build/rainet}; secs=${SECONDS_PER_ROW:-30}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
tmp=$(mktemp -d /tmp/rainet-load.XXXXXX); trap 'rm -rf "$tmp"' EXIT
echo "| games (+1 spectator each) | pace | actions/s | act→ack p50 / p99 / max | act→opponent p50 / p99 | act→spectator p50 / p99 | server CPU (of one core) | server RSS | load at start |"
echo "|---|---|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  games=${row%%:*}; pace=${row##*:}
  out=$(serve_and_load "$bin" "$tmp/db.db" --games "$games" --spectators 1 --pace "$pace" \
    --seconds "$secs" --ramp 500)
  echo "| $games | $pace ms | $(field "$out" rate) | $(field "$out" p50) / $(field "$out" p99) / $(field "$out" max) ms | $(field "$out" op50) / $(field "$out" op99) ms | $(field "$out" sp50) / $(field "$out" sp99) ms | $(field "$out" cpu) % | $(field "$out" rss) MiB | $(field "$out" load) |"
done
