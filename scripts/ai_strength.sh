#!/usr/bin/env bash
# Reproduces the AI figures of docs/performance.md (section "AI"). Slow (about 30 min of one
# core): run it niced, in the background. Usage: scripts/ai_strength.sh [OUTDIR]
# (default /tmp/rainet-ai-strength). With SKIP_400=1 the two 400-game matches are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/rainet-ai-strength}
mkdir -p "$out"
arena() { nice -n 19 ./build/rainet arena "$@" --concurrency 2 --seed 11; }

./build/rainet bench > "$out/bench.txt"
if [[ -z "${SKIP_400:-}" ]]; then
  arena strong random --games 400 > "$out/strong_random.txt"
  arena strong greedy --games 400 > "$out/strong_greedy.txt"
fi
# The level ladder as calibrated in docs/ai.md ("Calibration by arena"): levels 2-5 are
# strong:nodes=30/200/2000/20000 (named so, the matches do not depend on the levels' 1 s cap).
for pair in "strong:nodes=30 level1" "strong:nodes=200 strong:nodes=30" \
  "strong:nodes=2000 strong:nodes=200" "strong:nodes=20000 strong:nodes=2000"; do
  set -- $pair
  arena "$1" "$2" --games 300 --sprt 147 300 > "$out/ladder_${1//:/_}_${2//:/_}.txt"
done
for n in 100 300 1000; do
  arena "strong:nodes=$n" greedy --games 100 > "$out/budget_$n.txt"
done
for t in 50 200; do
  arena "strong:movetime=$t" greedy --games 10 > "$out/movetime_$t.txt"
done
