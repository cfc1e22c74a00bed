#!/usr/bin/env bash
# Store write throughput (docs/performance.md, "Store"): `bench/store_bench` appends actions, one
# committed transaction each (`Store::saveAction`), from 1 and 4 threads sharing one store, on
# SQLite and on a throwaway PostgreSQL cluster (scripts/postgres.sh; skipped without PostgreSQL).
# Needs `cmake --build --preset default --target store_bench`.
#   scripts/bench/store.sh [MIN_TIME_S]   (default 2; about a minute in all)
# Prints Google Benchmark's table: `items_per_second` is actions/s.
set -euo pipefail
cd "$(dirname "$0")/../.."
pg=$(mktemp -d /tmp/rainet-store-bench.XXXXXX)
trap 'bash scripts/postgres.sh stop "$pg" >/dev/null 2>&1; rm -rf "$pg"' EXIT
if url=$(bash scripts/postgres.sh start "$pg" 2>/dev/null); then export RAINET_TEST_PG=$url; fi
echo "load $(cut -d' ' -f1 /proc/loadavg)"
nice -n 10 build/bench/store_bench --benchmark_min_time="${1:-2}"
