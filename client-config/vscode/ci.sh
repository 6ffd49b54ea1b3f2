#!/usr/bin/env bash
# CI for the VS Code extension, from a clean checkout: install the locked dependencies from the
# registry, run the unit tests, package the .vsix, then check the package against the server
# (tests/clients). Needs node 20 + npm; PYTHON is the interpreter with hiera[test] installed
# (default: the repository's .venv). Leaves hiera-<version>.vsix here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
python="${PYTHON:-$repo/.venv/bin/python}"
cd "$here"

npm ci --no-audit --no-fund
node --test test/
vsix="$here/$(node -p "const p = require('./package.json'); p.name + '-' + p.version").vsix"
rm -f "$vsix"
npx --no-install vsce package --allow-missing-repository --out "$vsix"
HIERA_VSIX="$vsix" "$python" -m pytest -q "$repo/tests/clients"
