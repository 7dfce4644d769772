#!/usr/bin/env bash
# Runs the product.
#   ./scripts/run.sh                 builds, packages the VSIX, installs it into a local code-server
#                                    (a real VS Code, set up by scripts/setup-vscode.sh), starts it on
#                                    127.0.0.1 with a sample workspace and prints the URL. The chat
#                                    uses the best agent available (the built-in offline agent when no
#                                    other is installed). Ctrl+C stops it. PORT=… picks the port.
#   ./scripts/run.sh <verb> [args]   runs the `rawp` CLI instead (e.g. `./scripts/run.sh validate f.jsonl`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
if [ $# -gt 0 ]; then
  npm run --silent build >/dev/null
  exec node dist/cli.js "$@"
fi

echo "Checking Chromium, Node 24 and code-server (the first run installs them: a few minutes)…"
tools=$(bash scripts/setup-vscode.sh)
node24=$(sed -n 's/^node24=//p' <<<"$tools")
entry=$(sed -n 's/^code-server=//p' <<<"$tools")

echo "Building and packaging the extension…"
vsix="$PWD/.cache/rawp-vscode.vsix"
RAWP_VSIX="$vsix" bash scripts/package.sh

state="$PWD/.cache/code-server"
workspace="$PWD/.cache/sample-workspace"
mkdir -p "$state"/{home,config,data,user-data/User,extensions}
[ -d "$workspace" ] || cp -r media/sample-workspace "$workspace"
settings="$state/user-data/User/settings.json"
[ -f "$settings" ] || cat >"$settings" <<'JSON'
{
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.startupEditor": "readme",
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false
}
JSON
export HOME="$state/home" XDG_CONFIG_HOME="$state/config" XDG_DATA_HOME="$state/data"
cs=("$node24" "$entry" --user-data-dir "$state/user-data" --extensions-dir "$state/extensions")
"${cs[@]}" --install-extension "$vsix" --force >/dev/null

port="${PORT:-8080}"
setsid "${cs[@]}" --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --ignore-last-opened "$workspace" \
  >"$state/code-server.log" 2>&1 &
pid=$!
trap 'kill -- -"$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 150); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "code-server did not start:"; tail -20 "$state/code-server.log"; exit 1; fi
  sleep 0.2
done
echo
echo "RAWP Agent Client is running in VS Code (code-server) at:"
echo "  http://127.0.0.1:$port/?folder=$workspace"
echo "Open it in a browser, then click the RAWP Agent icon in the activity bar. Ctrl+C stops it."
wait "$pid"
