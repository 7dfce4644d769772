#!/usr/bin/env bash
# The one command that runs every test on a fresh clone: installs what the tests need, builds, tests.
# The last line it prints is `tests: N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run --silent build >/dev/null
npm run --silent typecheck
# Chromium, Node 24 and code-server for the real-VS-Code and browser tests (idempotent, cached in .cache/).
bash scripts/setup-vscode.sh >/dev/null
npx mocha
