#!/usr/bin/env bash
# Sets up, builds, and runs the server on http://127.0.0.1:8080 with an embedded SQLite database.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec ./build/rainet serve --listen 127.0.0.1:8080 --db rainet.db --web web/dist "$@"
