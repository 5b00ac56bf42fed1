#!/usr/bin/env bash
# Build the desktop bundle (PyInstaller, one folder) from the hashed pins, then check it as a person
# would use it: --version, init, add, search, an MCP session through the official client.
#   bash packaging/bundle/build.sh   ->  dist/memvault-VERSION-OS-MACHINE.tar.gz
# Linux here; the same script runs on macOS (see docs/packaging.md for macOS and Windows).
# Takes several minutes (PyInstaller analyses Qt, onnxruntime, numpy): not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
os=$(python3 -c 'import sys; print(sys.platform)'); machine=$(uname -m)
lock=packaging/bundle/requirements-$os-$machine.txt
[ -f "$lock" ] || { echo "bundle: no pins for $os-$machine: run packaging/bundle/lock.sh first" >&2; exit 2; }
venv=build/bundle-venv
rm -rf "$venv" build/pyinstaller build/bundle-wheel dist/bundle
t0=$SECONDS

python3 -m venv "$venv"
"$venv/bin/pip" install -q --require-hashes --only-binary :all: -r "$lock"
"$venv/bin/pip" wheel -q --no-deps -w build/bundle-wheel .
"$venv/bin/pip" install -q --no-deps build/bundle-wheel/memvault-*.whl
version=$("$venv/bin/python" -c 'import memvault; print(memvault.__version__)')
echo "bundle: environment ready in $((SECONDS - t0)) s"

(cd packaging/bundle && "$root/$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$root/dist/bundle" --workpath "$root/build/pyinstaller" memvault.spec)
bundle=dist/bundle/memvault
mkdir -p "$bundle/share/icons" "$bundle/share/applications"
icon=resources/icons/memvault.svg
[ -f "$icon" ] || icon=packaging/linux/memvault-bundle.svg
cp "$icon" "$bundle/share/icons/memvault.svg"
cp packaging/linux/memvault-bundle.desktop.in "$bundle/share/applications/memvault.desktop.in"
cp packaging/linux/install-desktop-entry.sh "$bundle/install-desktop-entry.sh"
# Every resource the wheel ships is in the bundle (the writer's heads, the model, the demo, ...).
missing=$("$venv/bin/python" - build/bundle-wheel/memvault-*.whl "$bundle/_internal" <<'PY'
import os, sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
shipped = [n for n in names if n.startswith("memvault/resources/") and not n.endswith((".py", "/"))]
print(" ".join(n for n in shipped if not os.path.isfile(os.path.join(sys.argv[2], n))))
PY
)
[ -z "$missing" ] || { echo "bundle: resources missing from the bundle: $missing" >&2; exit 1; }
archive=dist/memvault-$version-$os-$machine.tar.gz
tar czf "$archive" -C dist/bundle memvault
echo "bundle: built in $((SECONDS - t0)) s: $archive ($(du -sh "$bundle" | cut -f1) unpacked, $(du -h "$archive" | cut -f1) packed)"

# Check it from a temporary HOME, as a person on a machine without a keyring would run it.
check=$(mktemp -d /tmp/memvault-bundle-check.XXXXXX)
trap 'rm -rf "$check"' EXIT
tar xzf "$archive" -C "$check"
run() { env -i HOME="$check/home" PATH=/usr/bin:/bin LANG=C.UTF-8 MEMVAULT_PASSPHRASE="bundle check (fictional)" "$@"; }
mkdir -m 700 "$check/home"
exe="$check/memvault/memvault"
run "$exe" --version
run "$exe" init
# Not ASCII: the secret scan folds look-alike letters with tables read from package data.
run "$exe" add "The bundle check boat is moored at Pier 9 in Tromsø (fictional)" --domain hobbies > /dev/null
run "$exe" search "where is the boat moored" | grep -q "Pier 9"
run "$venv/bin/python" packaging/smoke_client.py session "where is the boat moored" "Pier 9" -- "$exe" mcp \
    2> "$check/mcp-stderr.txt"
if grep -q Traceback "$check/mcp-stderr.txt"; then
    cat "$check/mcp-stderr.txt" >&2; echo "bundle: the MCP server printed a traceback" >&2; exit 1
fi
# The model runs in integer compute: its rewrite was built into the user's cache (onnx is bundled).
ls "$check/home/.cache/memvault/models/"*.onnx > /dev/null
run "$exe" doctor > "$check/doctor.txt" || true
grep -q "schema" "$check/doctor.txt"
echo "bundle: checked (version, init, add, search, MCP session, integer model) in $((SECONDS - t0)) s total"
