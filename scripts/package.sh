#!/usr/bin/env bash
# `npm run package`: a production build (minified, no source maps) and a VSIX made by @vscode/vsce.
# .vscodeignore keeps it lean (target < 2 MB). Prints the VSIX path and size on its last line.
# vsce makes no network call here: package.json has a repository field and LICENSE exists.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${RAWP_VSIX:-$PWD/rawp-vscode.vsix}"
rm -f dist/*.map
node esbuild.config.mjs --production >/dev/null 2>&1 || node esbuild.config.mjs --production
# README links are relative; vsce rewrites them against the repository (it only guesses GitHub/GitLab).
repo=$(node -p "require('./package.json').repository.url.replace(/\\.git$/, '')")
npx --no-install vsce package --no-dependencies --baseContentUrl "$repo/blob/main" --baseImagesUrl "$repo/raw/main" -o "$out" >/dev/null
size=$(stat -c %s "$out")
echo "vsix=$out bytes=$size"
