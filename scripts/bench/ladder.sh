#!/usr/bin/env bash
# The level ladder (docs/ai.md, "The level ladder"): each level against the one below, by the
# real level names, in both presets, on the seeds and game counts of the committed table, pooled
# per step.
#   scripts/bench/ladder.sh                 # the whole table: many hours of one core
#   QUICK=20 scripts/bench/ladder.sh        # 20 games of each step's first seed (minutes)
#   scripts/bench/ladder.sh '5 vs 4'        # only the lines that match (grep -E)
# Prints the table of docs/ai.md ("established": the whole 95% interval above 70%).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/arena_lib.sh
THRESHOLD=70 play_plan < <(grep -E -- "${1:-.}" <<'PLAN'
2 vs 1|level2|level1|standard|2722|1000
3 vs 2|level3|level2|standard|2724|400
4 vs 3|level4|level3|standard|2541|200
5 vs 4|level5|level4|standard|2891 2892|200
2 vs 1|level2|level1|official|2721|3000
3 vs 2|level3|level2|official|2723|400
4 vs 3|level4|level3|official|2542 2871 2872 2873|200
5 vs 4|level5|level4|official|2881 2882 2883 2941 2942 2943 2944 2945 2946 2947 2948|200
PLAN
)
