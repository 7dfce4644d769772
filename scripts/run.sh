#!/usr/bin/env bash
# Runs the product: installs and builds on first use, then runs the `rawp` CLI with the given
# arguments (default: its help).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run --silent build >/dev/null
exec node dist/cli.js "${@:---help}"
