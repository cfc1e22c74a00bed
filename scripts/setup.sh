#!/usr/bin/env bash
# Installs what the build and the tests need (Debian 12, as root), builds the release tree.
# Idempotent: apt runs only when a package is missing, npm only when web/ changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build pkg-config libgtest-dev libgmock-dev libbenchmark-dev libboost-dev
          nlohmann-json3-dev libsqlite3-dev libpq-dev libsodium-dev libcli11-dev chromium
          libjemalloc-dev  # the rainet binary's malloc (src/cli/CMakeLists.txt)
          postgresql  # the server, for the tests on PostgreSQL (scripts/postgres.sh)
          redis-server libhiredis-dev  # the cluster's bus (src/bus); its tests start redis-server
          clang libclang-rt-14-dev  # the fuzz targets (fuzz/): clang's libFuzzer and sanitizers
          clang-format  # scripts/format-check.sh (.clang-format)
          fonts-ipafont-gothic  # Japanese glyphs in the browser tests' screenshots
          emscripten binaryen  # the engine for the browser (wasm/, the wasm preset)
          # The Debian package and its test (scripts/package_test.sh): dpkg-shlibdeps computes its
          # Depends; nginx, python3 (a WebSocket probe), curl and openssl test the deployment;
          # systemd (not as PID 1) for systemd-analyze verify.
          dpkg-dev nginx python3 curl openssl systemd)
# Node may come with the machine (with its own npm); only a machine without it takes Debian's.
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The engine for the browser (wasm/), before the web client: its build copies it into web/dist.
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j "$(nproc)"

if [[ -f web/package.json ]]; then
  if [[ ! -d web/node_modules || web/package.json -nt web/node_modules/.stamp ]]; then
    (cd web && npm install --no-audit --no-fund --loglevel=error && touch node_modules/.stamp)
  fi
  (cd web && npm run --silent build)
fi

cmake --preset "${RAINET_PRESET:-default}" >/dev/null
cmake --build --preset "${RAINET_PRESET:-default}" -j "$(nproc)"
