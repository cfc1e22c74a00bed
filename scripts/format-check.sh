#!/usr/bin/env bash
# Fails, listing them, when C++ files (*.h, *.cpp under src/ tests/ bench/ fuzz/ tools/ wasm/) are
# not as clang-format makes them with the repository's .clang-format. Only those files: never CMake
# or anything else. `scripts/format-check.sh FILE...` checks the files given instead.
# Fix one with `clang-format -i FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
if (($#)); then
  files=("$@")
else
  mapfile -t files < <(git ls-files -- 'src/*.h' 'src/*.cpp' 'tests/*.h' 'tests/*.cpp' \
                         'bench/*.h' 'bench/*.cpp' 'fuzz/*.h' 'fuzz/*.cpp' 'tools/*.h' 'tools/*.cpp' \
                         'wasm/*.h' 'wasm/*.cpp')
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "format-check: ${#bad[@]} of ${#files[@]} C++ files differ from clang-format (.clang-format):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format-check: ${#files[@]} C++ files as clang-format makes them"
