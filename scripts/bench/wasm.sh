#!/usr/bin/env bash
# The engine in the browser (docs/performance.md, "In the browser (WebAssembly)"): nodes/s of the
# WebAssembly engine in headless Chromium (Debian's /usr/bin/chromium, playwright-core) and in Node
# beside the native build, then each level's think time with Chromium's CPU throttling ×4 (a
# mid-range phone). Prints the commit and the load average with the figures.
#   scripts/bench/wasm.sh [ITERATIONS [RUNS [POSITIONS]]]     # default 2000 5 8: about 2 minutes
# Needs: cmake --preset wasm && cmake --build --preset wasm;
#        cmake --build --preset default --target rainet_api; (cd web && npm ci && npm run build)
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/lib.sh
echo "commit $(git rev-parse --short HEAD), load average $(load1) at the start, $(nproc) cores"
cd web
nice -n 10 node scripts/bench-browser.mjs "${1:-2000}" "${2:-5}" "${3:-8}"
echo "load average $(load1) at the end"
