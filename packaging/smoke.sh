#!/usr/bin/env bash
# A clean install used as a person would: the built wheel in a fresh virtual environment
# without dev tools, an empty temporary HOME, MEMVAULT_PASSPHRASE for the key (no keyring here).
#   bash packaging/smoke.sh dist/memvault-X-py3-none-any.whl
# Each step prints its time; any failure stops the script (non-zero exit).
# With CODEX=/path/to/codex (the Codex CLI), the registration is also exercised by a real Codex:
# `codex app-server` spawns memvault from config.toml and calls memory_search through it.
set -euo pipefail
wheel=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/memvault-smoke.XXXXXX)
daemon_pid=""
cleanup() {
    if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then kill "$daemon_pid"; wait "$daemon_pid" || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

step() {  # step NAME COMMAND...: run it, print how long it took
    local name=$1 start end
    shift
    start=$EPOCHREALTIME
    "$@"
    end=$EPOCHREALTIME
    awk -v n="$name" -v s="$start" -v e="$end" 'BEGIN { printf "smoke: %-34s %6.2f s\n", n, e - s }'
}

step "fresh venv + pip install wheel" bash -c "python3 -m venv '$work/venv' && '$work/venv/bin/pip' install -q '$wheel'"
if "$work/venv/bin/python" -c "import pytest" 2>/dev/null; then echo "smoke: dev tools leaked into the install" >&2; exit 1; fi

# A person's shell: their own HOME, nothing of the developer's, no desktop session.
export HOME="$work/home" PATH="$work/venv/bin:/usr/bin:/bin" MEMVAULT_PASSPHRASE="smoke test passphrase (fictional)"
unset MEMVAULT_HOME MEMVAULT_WRITE_MODE CODEX_HOME DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY PYTHON_KEYRING_BACKEND
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_STATE_HOME XDG_CACHE_HOME XDG_RUNTIME_DIR VIRTUAL_ENV
mkdir -m 700 "$HOME"
cd "$HOME"
client="$work/venv/bin/python $here/smoke_client.py"

step "memvault --version" memvault --version
step "memvault (short help)" bash -c 'memvault | grep -q "memvault init"'
step "memvault init" memvault init
step "memvault status --json" bash -c 'memvault status --json | grep -q "\"contract\": 1"'
step "memvault demo" bash -c 'memvault demo > "$0/demo.txt"' "$work"
step "memvault add" memvault add "The smoke-test rowing club meets at Pier 7 on Saturdays (fictional)" --domain hobbies
step "memvault search" bash -c 'memvault search "where does the rowing club meet" | grep -q "Pier 7"'

step "MCP session, embedded" $client session "where does the rowing club meet" "Pier 7" -- memvault mcp --embedded

memvault daemon --headless 2> "$work/daemon.err" &
daemon_pid=$!
# --status tells a daemon holds the lock; it serves once its socket listens.
socket=$(memvault daemon --status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["socket"])')
for _ in $(seq 1 1200); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "smoke: the daemon did not listen" >&2; cat "$work/daemon.err" >&2; exit 1; }
step "MCP session, through the daemon" $client session "where does the rowing club meet" "Pier 7" -- memvault mcp
grep -q "relaying to the daemon" "$(memvault --json doctor | python3 -c 'import json,sys; print(json.load(sys.stdin)["home"])')/logs/mcp.log"

step "memvault doctor" bash -c 'memvault doctor > "$0/doctor.txt" || true; grep -q "integrity\|schema" "$0/doctor.txt"' "$work"
step "memvault install codex (+ check)" bash -c 'memvault install codex | tee "$0/install.txt" | tail -1; grep -q "memory_status answered" "$0/install.txt"' "$work"
step "Codex-style start, daemon running" $client codex "$HOME/.codex/config.toml" ready
if [ -n "${CODEX:-}" ]; then
    step "real Codex: memory_search" python3 "$here/codex_call.py" "$CODEX" memory_search \
        '{"query": "where does the rowing club meet"}' ok
fi

memvault daemon --stop
wait "$daemon_pid" || true
daemon_pid=""
# Codex passes no MEMVAULT_PASSPHRASE: without the daemon the store is locked, and the answer says what to run.
step "Codex-style start, no daemon" $client codex "$HOME/.codex/config.toml" not_ready
if [ -n "${CODEX:-}" ]; then
    step "real Codex, no daemon: not_ready" python3 "$here/codex_call.py" "$CODEX" memory_search '{"query": "x"}' not_ready
fi

step "memvault uninstall" memvault uninstall
if grep -q "mcp_servers.memvault" "$HOME/.codex/config.toml" 2>/dev/null; then echo "smoke: uninstall left the registration" >&2; exit 1; fi
memvault status > /dev/null  # the data stays
echo "smoke: passed"
