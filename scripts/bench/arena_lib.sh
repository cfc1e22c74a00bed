# Shared by ladder.sh and ai_strength.sh (sourced, not run): plays arena matches and prints one
# markdown row per line of a plan, pooling the seeds of the line.
#
# A plan line: LABEL|PLAYER_A|PLAYER_B|PRESET|SEEDS|GAMES_PER_SEED  (SEEDS space-separated)
# Each match: `nice -n 10 build/rainet arena A B --games G --seed S --concurrency 1 [--rules official]`
# (RAINET=PATH plays another build).
# Node-limited players give the same games whatever the load; a match only gets slower.
# The score counts draws half, with a 95% interval by the normal approximation
# p +- 1.96 sqrt(p (1 - p) / n); "established" means the whole interval is above THRESHOLD %.
# QUICK=N plays N games of the first seed of each line instead (a check that the plan runs).

play_plan() {
  local threshold=${THRESHOLD:-}
  echo "| what | A vs B | preset | seeds | games | W / D / L | score (95%) |${threshold:+ >= $threshold% |}"
  echo "|---|---|---|---|---|---|---|${threshold:+---|}"
  local label a b preset seeds games
  while IFS='|' read -r label a b preset seeds games; do
    [[ -z "$label" || "$label" == \#* ]] && continue
    local w=0 d=0 l=0 s
    [[ -n "${QUICK:-}" ]] && seeds=${seeds%% *} && games=$QUICK
    for s in $seeds; do
      local rules=(); [[ "$preset" == official ]] && rules=(--rules official)
      local line
      line=$(nice -n 10 "${RAINET:-build/rainet}" arena "$a" "$b" --games "$games" --seed "$s" --concurrency 1 \
        "${rules[@]}" 2>/dev/null | grep -m1 ': games ')
      # "A vs B: games N  W w  D d  L l  score s/N (p%)"
      read -r mw md ml < <(awk '{for (i = 1; i <= NF; i++) { if ($i == "W") w = $(i+1); if ($i == "D") d = $(i+1); if ($i == "L") l = $(i+1) } print w, d, l}' <<< "$line")
      w=$((w + mw)); d=$((d + md)); l=$((l + ml))
    done
    awk -v label="$label" -v a="$a" -v b="$b" -v preset="$preset" -v seeds="$seeds" \
        -v w="$w" -v d="$d" -v l="$l" -v th="$threshold" 'BEGIN {
      n = w + d + l; p = n ? (w + d / 2) / n : 0; e = n ? 1.96 * sqrt(p * (1 - p) / n) : 0
      lo = p - e; hi = p + e; if (hi > 1) hi = 1
      row = sprintf("| %s | `%s %s` | %s | %s | %d | %d / %d / %d | %.1f%% (%.1f-%.1f) |", label, a, b,
                    preset, seeds, n, w, d, l, 100 * p, 100 * lo, 100 * hi)
      if (th != "") row = row sprintf(" %s |", 100 * lo > th ? "**established**" : "not established")
      print row }'
  done
}
