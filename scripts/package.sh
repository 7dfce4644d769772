#!/usr/bin/env bash
# `npm run package`: a production build (minified, no source maps) and a VSIX made by @vscode/vsce.
# It builds in a staging folder (.cache/vsix-stage), so the development build in dist/ that the CLI
# and other tests use is never touched. .vscodeignore keeps the VSIX lean (target < 2 MB).
# vsce makes no network call here: package.json has a repository field and LICENSE exists.
# Prints `vsix=<path> bytes=<size>` on its last line. RAWP_VSIX=<path> chooses the output.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="${RAWP_VSIX:-$root/rawp-vscode.vsix}"
stage="$root/.cache/vsix-stage.$$"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/media"
cp package.json package.nls.json package.nls.ko.json LICENSE .vscodeignore "$stage/"
# The VSIX's README (the Marketplace page and VS Code's extension view) is the user's guide; the
# repository's README.md stays the developers' (decision 393).
cp README.marketplace.md "$stage/README.md"
cp -r l10n "$stage/"
cp media/icon.png media/activity.svg "$stage/media/"
# The build reads sources relative to its working directory: link them in for the build only.
for d in src webview-ui node_modules tsconfig.json esbuild.config.mjs; do ln -s "$root/$d" "$stage/$d"; done
(cd "$stage" && node esbuild.config.mjs --production >build.log 2>&1) || { cat "$stage/build.log"; exit 1; }
for d in src webview-ui node_modules tsconfig.json esbuild.config.mjs; do rm "$stage/$d"; done
rm -f "$stage/build.log" "$stage"/dist/*.map
# README links are relative; vsce rewrites them against the repository (it only guesses GitHub/GitLab).
repo=$(node -p "require('./package.json').repository.url.replace(/\\.git$/, '')")
mkdir -p "$(dirname "$out")"
(cd "$stage" && "$root/node_modules/.bin/vsce" package --no-dependencies --baseContentUrl "$repo/blob/main" --baseImagesUrl "$repo/raw/main" -o "$out" >/dev/null)
echo "vsix=$out bytes=$(stat -c %s "$out")"
