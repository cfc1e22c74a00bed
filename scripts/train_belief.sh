#!/usr/bin/env bash
# Reproduces src/ai/belief_weights.inc, the learned belief (docs/ai.md, "Belief"): 600 self-play
# games of ismcts-v1 at 300 iterations per action, with their own setups, seed 100 (about 10 min of
# one core), then the fit (every 5th game held out; prints the held-out scores).
# Usage: scripts/train_belief.sh [DATADIR]   (default /tmp/rainet-belief)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-/tmp/rainet-belief}
mkdir -p "$data"
nice -n 10 ./build/rainet arena ismcts-v1:nodes=300 ismcts-v1:nodes=300 --own-setups --games 600 \
  --seed 100 --records "$data/selfplay"
./build/rainet belief train --out src/ai/belief_weights.inc "$data/selfplay"
