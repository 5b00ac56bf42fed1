#!/usr/bin/env bash
# Re-pin the desktop bundle's packages (memvault's dependencies + PyInstaller) with their hashes for
# this platform: writes packaging/bundle/requirements-<os>-<machine>.txt. Run after changing a pin.
set -euo pipefail
cd "$(dirname "$0")/../.."
wheel=$(ls dist/memvault-*.whl 2>/dev/null | head -1 || true)  # none yet: built below
[ -n "$wheel" ] || { python3 -m pip wheel -q --no-deps -w dist . && wheel=$(ls dist/memvault-*.whl | head -1); }
os=$(python3 -c 'import sys; print(sys.platform)'); machine=$(uname -m)
report=$(mktemp)
python3 -m pip install -q --dry-run --ignore-installed --report "$report" -r packaging/bundle/requirements.in "$wheel"
python3 packaging/bundle/lock.py "$report" > "packaging/bundle/requirements-$os-$machine.txt"
rm -f "$report"
echo "packaging/bundle/requirements-$os-$machine.txt"
