#!/usr/bin/env bash
# Put the unpacked memvault bundle in the application menu of this user (no root needed):
#   ./install-desktop-entry.sh            (run from inside the unpacked memvault folder)
# Writes ~/.local/share/applications/memvault.desktop and the icon; `--remove` takes them away.
set -euo pipefail
bundle=$(cd "$(dirname "$0")" && pwd)
apps=${XDG_DATA_HOME:-$HOME/.local/share}/applications
icons=${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps
if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/memvault.desktop" "$icons/memvault.svg"
    echo "removed the memvault menu entry"
    exit 0
fi
mkdir -p "$apps" "$icons"
cp "$bundle/share/icons/memvault.svg" "$icons/memvault.svg"
sed -e "s|@BUNDLE@/share/icons/memvault.svg|memvault|" -e "s|@BUNDLE@|$bundle|g" \
    "$bundle/share/applications/memvault.desktop.in" > "$apps/memvault.desktop"
chmod 644 "$apps/memvault.desktop"
echo "added $apps/memvault.desktop (runs $bundle/memvault app)"
