"""`memvault install codex|claude`: no registration without a store, then a check that starts it as the client will.

The check reads the registration back from the client's config file and spawns it with the
environment that client passes (Codex: a short list; no MEMVAULT_PASSPHRASE), through the
official MCP client, and asks for memory_status.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import time
import tomllib
from pathlib import Path

from bridgekit import MEMVAULT, env_for, run_cli, running_daemon


def test_without_a_store_install_says_how_and_writes_nothing(person: Path, tmp_path: Path) -> None:
    done = run_cli(tmp_path / "memvault", "install", "codex")
    assert done.returncode == 2
    assert f"run `memvault --home {tmp_path / 'memvault'} init` first".encode() in done.stderr
    assert done.stdout == b""
    assert list(person.iterdir()) == []  # no config, no skill, no install record


def test_on_a_locked_store_the_check_names_the_daemon(person: Path, tmp_path: Path) -> None:
    store = tmp_path / "memvault"
    assert run_cli(store, "init").returncode == 0
    done = run_cli(store, "--json", "install", "codex")
    assert done.returncode == 2, done.stderr
    report = json.loads(done.stdout)
    assert report["changes"], "the registration is written: the check only reports what the first start will meet"
    assert report["check"]["ready"] is False
    assert report["check"]["command"] == f"memvault --home {store} daemon"


def test_with_the_daemon_running_codex_s_start_is_ready(person: Path, tmp_path: Path) -> None:
    store = tmp_path / "memvault"
    assert run_cli(store, "init").returncode == 0
    assert run_cli(store, "add", "The Lakeside pier opens at seven (fictional)").returncode == 0
    with running_daemon(store):
        done = run_cli(store, "install", "codex")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "checked: started as codex will, memory_status answered in" in out and "(1 records)" in out
    entry = tomllib.loads((person / ".codex" / "config.toml").read_text())["mcp_servers"]["memvault"]
    assert entry["args"] == ["--home", str(store), "mcp"] and "env" not in entry


def _on_a_terminal(args: list[str], env: dict[str, str], answer: bytes, timeout: float = 120) -> tuple[int, str]:
    """Run `args` with a pseudo-terminal as stdin/stdout, typing `answer` at the first [Y/n] prompt."""
    main, child = pty.openpty()
    proc = subprocess.Popen(args, stdin=child, stdout=child, stderr=child, env=env)
    os.close(child)
    output, answered, deadline = b"", False, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.2)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal closed with the process
            break
        output += chunk
        if not answered and b"[Y/n]" in output:
            os.write(main, answer + b"\n")
            answered = True
    os.close(main)
    return proc.wait(timeout=30), output.decode(errors="replace")


def test_on_a_terminal_install_offers_to_create_the_store(person: Path, tmp_path: Path) -> None:
    store = tmp_path / "memvault"
    code, output = _on_a_terminal([*MEMVAULT, "install", "claude"], env_for(store), b"y")
    assert code == 0, output
    assert "No memvault store yet. Create it now" in output
    assert f"created the memvault store in {store}" in output
    assert "checked: started as claude will, memory_status answered in" in output
    assert "Your recovery key (shown only now" in output
    assert re.search(r"^    [A-Z0-9]{4}(-[A-Z0-9]{4}){3}\r?$", output, re.MULTILINE), output
    assert (store / "memvault.db").exists()
    assert json.loads((person / ".claude.json").read_text())["mcpServers"]["memvault"]["args"][-1] == "mcp"


def test_on_a_terminal_saying_no_registers_nothing(person: Path, tmp_path: Path) -> None:
    store = tmp_path / "memvault"
    code, output = _on_a_terminal([*MEMVAULT, "install", "codex"], env_for(store), b"n")
    assert code == 2 and "nothing was registered" in output
    assert not store.exists() and list(person.iterdir()) == []
