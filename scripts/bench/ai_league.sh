#!/usr/bin/env bash
# Strong against every member of the league of styles (docs/ai.md, "The league"): one arena match
# per member, then a table of games, W/D/L, strong's score with a 95% interval, no-progress draws
# and strong's losses by its own fourth virus. Slow at the default budget (about 30 s of one core
# a game): run it niced, in the background.
# Usage: scripts/bench/ai_league.sh [tuning|held-out|all|MEMBER...]
# Environment: GAMES (100), RULES (standard|official), NODES (strong's iterations per action;
# 120000: 300 ms at the 424 k iterations per second `rainet bench 20000` reached on a quiet
# machine, docs/ai.md), STRONG (the player, default
# strong:nodes=$NODES), CONCURRENCY (1), SEED (11), OUT (/tmp/rainet-ai-league), RAINET (the
# binary, ./build/rainet: a copy of another build plays the same rows side by side).
set -euo pipefail
cd "$(dirname "$0")/../.."
# The split is fixed before measuring: strong may be improved against the tuning set only; the
# held-out set says whether an improvement generalizes.
tuning=(baiter fortress rusher checker trader)
heldout=(indie-bait bluffer camper bait-rush fortress-trade)
case "${1:-all}" in
  tuning) members=("${tuning[@]}") ;;
  held-out) members=("${heldout[@]}") ;;
  all) members=("${tuning[@]}" "${heldout[@]}") ;;
  *) members=("$@") ;;
esac
games=${GAMES:-100} rules=${RULES:-standard} nodes=${NODES:-120000}
strong=${STRONG:-strong:nodes=$nodes}
out=${OUT:-/tmp/rainet-ai-league}
mkdir -p "$out"

printf '| member | games | W | D | L | score (95%%) | no-progress draws | losses by its fourth virus |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for m in "${members[@]}"; do
  file="$out/${rules}_${m}.txt"
  nice -n 10 "${RAINET:-./build/rainet}" arena "$strong" "$m" --games "$games" --rules "$rules" \
    --seed "${SEED:-11}" --concurrency "${CONCURRENCY:-1}" > "$file"
  # "... games N  W w  D d  L l ..." and "Endings: K no-progress draws (..), F losses ...".
  awk -v m="$m" '
    / vs .*: games / {
      for (i = 1; i <= NF; i++) {
        if ($i == "games") n = $(i + 1); if ($i == "W") w = $(i + 1)
        if ($i == "D") d = $(i + 1); if ($i == "L") l = $(i + 1)
      }
    }
    /^Endings:/ { np = $2; split($0, parts, ", "); split(parts[2], q, " "); fv = q[1] }
    END {
      if (!n) { printf "| %s | no result |\n", m; exit }
      mu = (w + 0.5 * d) / n
      var = (w * (1 - mu) ^ 2 + d * (0.5 - mu) ^ 2 + l * mu ^ 2) / n
      half = 1.96 * sqrt(var / n)
      lo = mu - half < 0 ? 0 : mu - half; hi = mu + half > 1 ? 1 : mu + half
      printf "| %s | %d | %d | %d | %d | %.1f%% (%.1f-%.1f) | %.1f%% | %.1f%% |\n", m, n, w, d, l,
        100 * mu, 100 * lo, 100 * hi, 100 * np / n, 100 * fv / n
    }' "$file"
done
