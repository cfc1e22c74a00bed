#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (docs/fuzzing.md).
#   scripts/fuzz.sh short [TARGET...]  ~20 s per target, built by the `asan` preset: the ASan+UBSan
#                                      build scripts/test.sh has already made (this links them)
#   scripts/fuzz.sh long [TARGET...]   10^7 executions per target (or $RAINET_FUZZ_RUNS), one core,
#                                      nice -n 15 (or $RAINET_FUZZ_NICE), built by the `fuzz`
#                                      preset (the same at -O2: faster per execution);
#                                      RAINET_FUZZ_JOBS=N runs N processes per target on one
#                                      corpus, each with 1/N of the executions (N cores)
# The corpus grows in BUILD/corpus/TARGET (seeded from fuzz/corpus/TARGET, which is committed); a
# crash leaves its input in BUILD/artifacts/ and fails the run. Each target prints the executions
# it reached.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
shift || true
all=(position action record engine messages static_path)
targets=("${@:-${all[@]}}")
case "$mode" in
  short) budget=(-max_total_time="${RAINET_FUZZ_SECONDS:-20}") niceness="" preset=asan ;;
  long) niceness="nice -n ${RAINET_FUZZ_NICE:-15}" preset=fuzz ;;
  *) echo "usage: scripts/fuzz.sh short|long [TARGET...]" >&2; exit 2 ;;
esac
jobs=1
if [[ $mode == long ]]; then
  runs=${RAINET_FUZZ_RUNS:-10000000} jobs=${RAINET_FUZZ_JOBS:-1}
  [[ $runs =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]?$ ]] ||
    { echo "RAINET_FUZZ_RUNS must be a positive count and RAINET_FUZZ_JOBS 1..99" >&2; exit 2; }
  # The processes share the corpus directory (libFuzzer reloads it, so each sees what the others
  # found) and split the budget: together they make $runs executions.
  budget=(-runs=$(((runs + jobs - 1) / jobs)))
fi

build=build-$preset
cmake --preset $preset >/dev/null
cmake --build --preset $preset -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
mkdir -p $build/artifacts
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  dict=()
  [[ -f fuzz/$t.dict ]] && dict=(-dict="fuzz/$t.dict")
  log=$build/$t-$mode.log
  echo "== fuzz $t ($mode)"
  # Sessions and records are longer than the strings of the other targets.
  case "$t" in engine | record | messages) maxlen=4096 ;; *) maxlen=512 ;; esac
  # fuzz_messages keeps its server across inputs, so most inputs end with more allocated than
  # freed and libFuzzer's per-input leak check (a scan of the whole heap) took 2/3 of a long run;
  # the long run leaves leaks to LeakSanitizer's check at exit, the short runs check every input.
  # Its server also frees and reallocates large blocks all the time: ASan's periodic return of
  # free memory to the OS (madvise, a TLB-shootdown IPI to the other core each) cost ~20 % of
  # the CPU; the memory is reused instead (RSS stays ~0.7 GB). Recording every allocation's stack
  # (unwinding and storing it) took another 6.5 % of its samples: the long run records none, so a
  # report shows where the bad access is but not where the block was allocated or freed;
  # replaying the saved input (fuzz_messages ARTIFACT, default options) shows them.
  leaks=() asan=${ASAN_OPTIONS:-}
  if [[ $t == messages && $mode == long ]]; then
    leaks=(-detect_leaks=0)
    asan=${asan:+$asan:}allocator_release_to_os_interval_ms=-1:malloc_context_size=0
  fi
  # Job 1 logs to TARGET-MODE.log, job J > 1 to TARGET-MODE-J.log.
  logs=("$log") pids=()
  for ((j = 2; j <= jobs; j++)); do logs+=("${log%.log}-$j.log"); done
  for l in "${logs[@]}"; do
    ASAN_OPTIONS=$asan $niceness "$build/fuzz/fuzz_$t" "${budget[@]}" -max_len=$maxlen "${dict[@]}" "${leaks[@]}" \
      -print_final_stats=1 -artifact_prefix=$build/artifacts/"$t"- \
      "$corpus" "fuzz/corpus/$t" >"$l" 2>&1 &
    pids+=($!)
  done
  failed=()
  for j in "${!pids[@]}"; do
    wait "${pids[$j]}" || failed+=("${logs[$j]}")
  done
  if ((${#failed[@]})); then
    for l in "${failed[@]}"; do tail -n 40 "$l"; done
    echo "fuzz $t: FAILED (log ${failed[*]}, input in $build/artifacts/)" >&2
    exit 1
  fi
  total=0 speeds=()
  for l in "${logs[@]}"; do
    total=$((total + $(sed -n 's/^stat::number_of_executed_units: *//p' "$l")))
    speeds+=("$(sed -n 's/^stat::average_exec_per_sec: *//p' "$l")/s")
  done
  echo "fuzz $t: $total executions (${speeds[*]}), corpus $(ls "$corpus" | wc -l) inputs, nothing found"
done
