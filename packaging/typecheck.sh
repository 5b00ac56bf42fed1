#!/usr/bin/env bash
# mypy cannot follow the package-dir mapping of the editable install, so give it a
# tree of links shaped like the installed package (memvault/{core,mcp_bridge,desktop,resources}).
set -euo pipefail
cd "$(dirname "$0")/.."
tree=build/typecheck
rm -rf "$tree" && mkdir -p "$tree/memvault"
ln -s "$PWD/packaging/namespace/__init__.py" "$PWD/packaging/namespace/py.typed" "$tree/memvault/"
for top in core mcp_bridge desktop resources; do ln -s "$PWD/$top" "$tree/memvault/$top"; done
MYPYPATH="$tree" exec "${PYTHON:-.venv/bin/python}" -m mypy -p memvault "$@"
