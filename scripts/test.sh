#!/usr/bin/env bash
# Sets up, builds, and runs every test: the C++ suites (release, then the parser and harness suites
# again under ASan+UBSan), then the browser client's unit and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --preset default -j "$(nproc)" --timeout 900

echo "== ASan+UBSan build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" --target core_tests reference_tests
export RAINET_RANDOM_GAMES=500 RAINET_SOURCE_DIR="$PWD"
build-asan/src/core_tests --gtest_brief=1
build-asan/tests/reference/reference_tests --gtest_brief=1

if [[ -f web/package.json ]]; then
  echo "== web tests"
  (cd web && npm test)
fi
