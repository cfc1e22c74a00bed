#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (docs/fuzzing.md), built by the `fuzz` preset.
#   scripts/fuzz.sh short [TARGET...]  ~20 s per target (scripts/test.sh runs this)
#   scripts/fuzz.sh long [TARGET...]   10^7 executions per target, one core, nice -n 15
# The corpus grows in build-fuzz/corpus/TARGET (seeded from fuzz/corpus/TARGET, which is
# committed); a crash leaves its input in build-fuzz/artifacts/ and fails the run. Each target
# prints the executions it reached.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
shift || true
all=(position action record engine messages static_path)
targets=("${@:-${all[@]}}")
case "$mode" in
  short) budget=(-max_total_time="${RAINET_FUZZ_SECONDS:-20}") niceness="" ;;
  long) budget=(-runs="${RAINET_FUZZ_RUNS:-10000000}") niceness="nice -n 15" ;;
  *) echo "usage: scripts/fuzz.sh short|long [TARGET...]" >&2; exit 2 ;;
esac

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  dict=()
  [[ -f fuzz/$t.dict ]] && dict=(-dict="fuzz/$t.dict")
  log=build-fuzz/$t-$mode.log
  echo "== fuzz $t ($mode)"
  # Sessions and records are longer than the strings of the other targets.
  case "$t" in engine | record | messages) maxlen=4096 ;; *) maxlen=512 ;; esac
  if ! $niceness "build-fuzz/fuzz/fuzz_$t" "${budget[@]}" -max_len=$maxlen "${dict[@]}" \
      -print_final_stats=1 -artifact_prefix=build-fuzz/artifacts/"$t"- \
      "$corpus" "fuzz/corpus/$t" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz $t: FAILED (log $log, input in build-fuzz/artifacts/)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  echo "fuzz $t: $runs executions ($speed/s), corpus $(ls "$corpus" | wc -l) inputs, nothing found"
done
