#!/usr/bin/env bash
# mypy cannot follow the package-dir mapping of the editable install, so give it a
# tree of links shaped like the installed package (memvault/{core,mcp_bridge,desktop,resources}).
#
# With no arguments the package is checked three times: as Linux, Windows and macOS see it, so a
# POSIX-only call (fcntl, AF_UNIX, os.getuid, ...) outside a `sys.platform` check mypy understands
# fails here (docs/platforms.md). Each platform keeps its own cache: one shared cache would be
# invalidated by every switch. With arguments (e.g. `--platform win32`), one run with them.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=build/typecheck
rm -rf "$tree" && mkdir -p "$tree/memvault"
ln -s "$PWD/packaging/namespace/__init__.py" "$PWD/packaging/namespace/py.typed" "$tree/memvault/"
for top in core mcp_bridge desktop resources; do ln -s "$PWD/$top" "$tree/memvault/$top"; done
mypy=("${PYTHON:-.venv/bin/python}" -m mypy -p memvault)
if [ $# -gt 0 ]; then
    MYPYPATH="$tree" exec "${mypy[@]}" "$@"
fi
MYPYPATH="$tree" "${mypy[@]}"
for platform in win32 darwin; do
    echo "as $platform:"
    MYPYPATH="$tree" "${mypy[@]}" --platform "$platform" --cache-dir ".mypy_cache/platform-$platform"
done
