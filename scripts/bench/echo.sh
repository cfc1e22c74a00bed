#!/usr/bin/env bash
# The ceiling of the I/O stack under `rainet serve` (docs/performance.md, "Closed loop"): a bare
# Boost.Beast WebSocket echo server with 2 threads and a driver keeping one message in flight on
# each of 600 connections (bench/echo_server.cpp). Needs `cmake --build --preset default --target
# echo_server`. Usage: scripts/bench/echo.sh [SECONDS]  (default 15). Prints one line:
#   echo: 600 connections, N round trips/s
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/lib.sh
port=$(free_port)
nice -n 10 build/bench/echo_server serve "$port" 2 & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
sleep 0.5
echo "load $(load1)"
nice -n 10 build/bench/echo_server drive "$port" 600 "${1:-15}"
