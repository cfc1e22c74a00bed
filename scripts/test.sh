#!/usr/bin/env bash
# Sets up, builds, checks the C++ files' format (scripts/format-check.sh), and runs every test:
# the C++ suites (release, with a throwaway PostgreSQL cluster for the store and server tests on
# PostgreSQL; then the server suite again, all of it on PostgreSQL; the Debian package built,
# installed, served behind nginx and purged (scripts/package_test.sh); then the parser, harness
# and server suites again under ASan+UBSan (clang); the server suite under ThreadSanitizer, both
# with the PostgreSQL cluster still up; each fuzz
# target for ~20 s), then the browser client's unit and end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/format-check.sh  # cheap: before the long suites

# One cluster directory per checkout and user: a run replaces what an interrupted one left.
pgdir="/tmp/rainet-pg-$(id -u)-$(pwd | md5sum | cut -c1-8)"
trap 'bash scripts/postgres.sh stop "$pgdir"' EXIT
RAINET_TEST_PG=$(bash scripts/postgres.sh start "$pgdir")
export RAINET_TEST_PG
ctest --preset default -j "$(nproc)" --timeout 900
echo "== server tests on PostgreSQL"
RAINET_TEST_SERVER_BACKEND=postgres ctest --preset default -j "$(nproc)" --timeout 900 -L server
# The cluster stays up for the sanitizer suites below: their PostgreSQL and cluster cases run too
# (nothing in the server suite is skipped under ASan or TSan).

echo "== Debian package: cpack, apt install, the service, two nodes behind nginx, purge"
bash scripts/package_test.sh

echo "== ASan+UBSan build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" --target core_tests reference_tests server_tests rainet
export RAINET_RANDOM_GAMES=500 RAINET_SOURCE_DIR="$PWD"
build-asan/src/core_tests --gtest_brief=1
build-asan/tests/reference/reference_tests --gtest_brief=1
echo "== server tests under ASan+UBSan"
# The `rainet serve` children are the ASan build's too: a report makes the server exit non-zero,
# which its test sees.
# Memory ceilings (Limits.*Memory) are asserted on the release build only: ASan's allocator keeps
# freed memory in quarantine and pads every block, so RSS says nothing about the server there.
# Limits.AcceptBacksOffWhenOutOfDescriptors starves the server of descriptors, and UBSan's vptr
# check needs two of them (it proves a vtable readable by writing it into a new pipe): out of
# descriptors it reports a valid object as a bad vptr and aborts the server (docs/fuzzing.md). It
# runs on the release and TSan builds, where nothing in the process needs a descriptor to check.
ctest --preset asan -j "$(nproc)" --timeout 900 -L server -E 'Memory$|AcceptBacksOffWhenOutOfDescriptors'

echo "== server tests under ThreadSanitizer (the memory ceilings excluded, as under ASan)"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$(nproc)" --target server_tests
# A report stops the process (the `rainet serve` child included): the test that caused it fails.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --preset tsan -j "$(nproc)" --timeout 900 -L server -E 'Memory$'

bash scripts/postgres.sh stop "$pgdir"
trap - EXIT
unset RAINET_TEST_PG

echo "== fuzz targets, briefly (scripts/fuzz.sh long for the long runs)"
bash scripts/fuzz.sh short

if [[ -f web/package.json ]]; then
  echo "== web tests"
  (cd web && npm test)
fi
