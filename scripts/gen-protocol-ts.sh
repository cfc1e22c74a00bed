#!/bin/sh
# Regenerates web/src/protocol.gen.ts from the message tables of src/protocol: run it
# after changing a server message, and commit the result (protocol_tests fails until then).
set -eu
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default --target gen-protocol-ts
