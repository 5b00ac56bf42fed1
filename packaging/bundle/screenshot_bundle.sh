#!/usr/bin/env bash
# Start the Linux bundle's app under Xvfb on a fresh fictional demo home and capture its window, as a person
# who unpacked the tarball would first see it:
#   bash packaging/bundle/screenshot_bundle.sh             ->  docs/screenshots/bundle-app.png
#   bash packaging/bundle/screenshot_bundle.sh --rebuild   (build the bundle first even when dist/ holds one)
#   bash packaging/bundle/screenshot_bundle.sh --out FILE
# Builds the bundle (packaging/bundle/build.sh, a few minutes) when dist/ holds none. The app runs from the
# unpacked tarball in a clean environment (its own HOME and XDG folders, no keyring, a fictional passphrase),
# `memvault demo` fills the home first; the window is captured by packaging/bundle/grab_window.py (Qt's screen
# grab, from this checkout's .venv) once it has settled; then the app gets SIGTERM and must exit 0.
# Needs xvfb-run (Debian: xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0) and xdotool (else the whole
# screen is captured). Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/docs/screenshots/bundle-app.png
rebuild=0
while [ $# -gt 0 ]; do
    case $1 in
        --rebuild) rebuild=1 ;;
        --out) out=$(realpath -m "$2"); shift ;;
        *) echo "usage: $0 [--rebuild] [--out FILE]" >&2; exit 64 ;;
    esac
    shift
done
command -v xvfb-run > /dev/null || { echo "bundle shot: xvfb-run is missing (Debian: apt-get install xvfb xauth)" >&2; exit 2; }
python=$root/.venv/bin/python
"$python" -c 'import PySide6' 2> /dev/null || { echo "bundle shot: $python has no PySide6 (make the dev venv)" >&2; exit 2; }

archive=$(ls -t dist/memvault-*-linux-*.tar.gz 2> /dev/null | head -n 1 || true)
if [ "$rebuild" = 1 ] || [ -z "$archive" ]; then
    bash packaging/bundle/build.sh
    archive=$(ls -t dist/memvault-*-linux-*.tar.gz | head -n 1)
fi
echo "bundle shot: $archive"

work=$(mktemp -d /tmp/memvault-bundle-shot.XXXXXX)
trap 'rm -rf "$work"' EXIT
tar xzf "$archive" -C "$work"
for folder in home config data cache run; do mkdir -m 700 "$work/$folder"; done
exe=$work/memvault/memvault
demo=$work/demo
# A person's clean session: nothing of this machine's environment but the display (and its key) xvfb-run adds.
clean=(env -i HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
    XDG_CACHE_HOME="$work/cache" XDG_RUNTIME_DIR="$work/run" PATH=/usr/bin:/bin LANG=C.UTF-8
    PYTHON_KEYRING_BACKEND=keyring.backends.fail.Keyring MEMVAULT_PASSPHRASE="bundle screenshot (fictional)")
"${clean[@]}" "$exe" demo --home "$demo" > /dev/null
echo "bundle shot: fictional demo home in $demo"

mkdir -p "$(dirname "$out")"
# On the Xvfb display: the app in the clean environment, the grab once its window has settled, then SIGTERM.
on_display=$(cat << 'INNER'
set -euo pipefail
"${clean[@]}" DISPLAY="$DISPLAY" XAUTHORITY="${XAUTHORITY:-}" QT_QPA_PLATFORM=xcb \
    "$exe" --home "$demo" app 2> "$work/app-stderr.txt" &
app=$!
grabbed=0
"$python" "$root/packaging/bundle/grab_window.py" --title "memvault — " --pid "$app" --out "$out" || grabbed=$?
kill -TERM "$app" 2> /dev/null || true
code=0
wait "$app" || code=$?
if [ -s "$work/app-stderr.txt" ]; then
    echo "bundle shot: the app wrote to stderr:" >&2
    cat "$work/app-stderr.txt" >&2
fi
[ "$grabbed" = 0 ] || exit "$grabbed"
[ "$code" = 0 ] || { echo "bundle shot: the app exited $code after SIGTERM" >&2; exit 1; }
echo "bundle shot: the app quit cleanly on SIGTERM"
INNER
)
xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" \
    bash -c "$(declare -p clean exe demo out python root work)"$'\n'"$on_display"
echo "bundle shot: $out"
