#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian/Ubuntu machine, then run every gate:
# format, lint, type-check and the whole test suite (real encrypted stores, real MCP, real Qt offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."

# Qt's offscreen platform needs a few system libraries a minimal machine may lack.
qt_libs=(libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0)
missing=()
for pkg in "${qt_libs[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The tray test (tests/gui/test_tray_xvfb.py) runs the app in a real X server with trayer as the system
# tray and xdotool driving its menu; without them it skips, so a failed install does not stop the run.
x_tools=(xvfb xauth trayer xdotool libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
    libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1)
missing=()
for pkg in "${x_tools[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
        echo "test.sh: could not install ${missing[*]}: the real-X tray test will skip"
fi
# The OAuth consent page test (tests/mcp_bridge/test_oauth_browser.py) drives headless Chromium with selenium
# (a dev extra); without chromium and its driver it skips. Debian's packages (~133 MB, ~25 s where the Qt and X
# libraries are already there); elsewhere (e.g. Ubuntu, where chromium is a snap) the install fails and the test skips.
browser=(chromium chromium-driver)
missing=()
for pkg in "${browser[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    browser_started=$SECONDS
    { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
        echo "test.sh: could not install ${missing[*]}: the consent page's browser test will skip"
    echo "test.sh: the browser install took $((SECONDS - browser_started)) s"
fi

# The real TLS server test (tests/store/test_tls.py) starts Debian's PostgreSQL, which is built with OpenSSL
# (pgserver's is not); without it those tests skip.
missing=()
dpkg -s postgresql >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
        echo "test.sh: could not install ${missing[*]}: the real TLS server tests will skip"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q -e '.[dev]'

.venv/bin/ruff format --check .
.venv/bin/ruff check .
bash packaging/typecheck.sh
QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest "$@"
