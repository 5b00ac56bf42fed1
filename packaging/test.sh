#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian/Ubuntu machine, then run every gate:
# format, lint, type-check and the whole test suite (real encrypted stores, real MCP, real Qt offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."

# Qt's offscreen platform needs a few system libraries a minimal machine may lack.
qt_libs=(libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0)
missing=()
for pkg in "${qt_libs[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q -e '.[dev]'

.venv/bin/ruff format --check .
.venv/bin/ruff check .
bash packaging/typecheck.sh
QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest "$@"
