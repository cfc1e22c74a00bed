#!/usr/bin/env bash
# Soak test of `rainet serve` (docs/performance.md, "Soak"): a server with short expiry delays and
# `rainet loadtest` playing games that start, end and are abandoned (open, in setup, in play) for a
# long time, sampling the server's RSS, open descriptors and database size every minute.
#   scripts/bench/soak.sh [SECONDS] [GAMES] [PACE_MS] [ABANDON_PERCENT]   (defaults: 3600 1000 1000 20)
# Output: the samples and the loadtest summary on stdout; the server's log in $OUT/server.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_TOTAL=${1:-3600}
GAMES=${2:-1000}
PACE=${3:-1000}
ABANDON=${4:-20}
OUT=${OUT:-/tmp/rainet-soak-$$}
PORT=${PORT:-18790}
mkdir -p "$OUT"
rm -f "$OUT"/soak.db*
# Every load client comes from 127.0.0.1: lift the per-address connection and identity caps.
MPORT=$((PORT + 1))  # /metrics: --metrics-listen (docs/deployment.md)
./build/rainet serve --listen 127.0.0.1:$PORT --metrics-listen 127.0.0.1:$MPORT --db "$OUT/soak.db" --web /nonexistent \
  --expire-open 60 --expire-setup 120 --expire-abandoned 120 --expire-computer 60 \
  --max-connections 0 --max-per-address 0 --identities-per-minute 0 \
  > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
sleep 1
echo "soak: commit $(git rev-parse --short HEAD), $(uptime)"
# Games in memory by state, and how many expired, every minute.
( start=$(date +%s)
  while sleep 60; do
    m=$(curl -s http://127.0.0.1:$MPORT/metrics || true)
    echo "metrics t $(( $(date +%s) - start )) s  $(echo "$m" | grep -E '^rainet_(games\{|games_expired_total|bots |connections )' | sed 's/rainet_//; s/games{state="\([a-z]*\)"}/\1/' | tr '\n' ' ')  load $(cut -d' ' -f1 /proc/loadavg)"
  done ) &
SAMPLER=$!
trap 'kill $SERVER $SAMPLER 2>/dev/null || true' EXIT
./build/rainet loadtest --port $PORT --games "$GAMES" --pace "$PACE" --abandon "$ABANDON" \
  --seconds "$SECONDS_TOTAL" --ramp 200 --sample 60 --server-pid $SERVER --db-file "$OUT/soak.db"
echo "soak: games in memory at the end: $(curl -s http://127.0.0.1:$MPORT/metrics | grep '^rainet_games{' | tr '\n' ' ')"
echo "soak: expired: $(curl -s http://127.0.0.1:$MPORT/metrics | grep '^rainet_games_expired_total')"
echo "soak: $(uptime)"
