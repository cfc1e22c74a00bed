#!/usr/bin/env bash
# Strong against the yardsticks (docs/ai.md, "Strong against the yardsticks"): `strong` at its
# default budget against random, greedy and bait, and at equal time against ismcts-v1, in both
# presets, on the seeds and game counts of the committed table, pooled per line; then `rainet bench`.
#   scripts/bench/ai_strength.sh              # the whole table: several hours of one core
#   QUICK=20 scripts/bench/ai_strength.sh     # 20 games of each line's first seed (minutes)
#   scripts/bench/ai_strength.sh greedy       # only the lines that match (grep -E)
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/arena_lib.sh
play_plan < <(grep -E -- "${1:-.}" <<'PLAN'
random|strong|random|standard|3552 3561 3562 2821 2822|400
random|strong|random|official|2831 2832|400
greedy|strong|greedy|standard|3651 3652 2811 2812|400
greedy|strong|greedy|official|2841 2842|400
bait|strong|bait|standard|3133 3136|200
bait|strong|bait|official|2851 2852 2853 2854|200
ismcts-v1, equal time|strong:nodes=550|ismcts-v1:nodes=300|standard|3134 3135|200
ismcts-v1, equal time|strong:nodes=550|ismcts-v1:nodes=300|official|2861 2862|200
PLAN
)
nice -n 10 "${RAINET:-build/rainet}" bench | tail -4
