"""`memvault mcp` as a client spawns it: the official MCP client over stdio, and raw stdout checks.

Both paths are exercised: embedded (no daemon: the bridge opens the store) and relay (a running
daemon answers; the bridge is a byte pipe and needs no passphrase at all).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from memvault.core.retrieval.embeddings import MODEL_ID
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.mcp_bridge import relay

from .bridgekit import INIT, MEMVAULT, bridge_params, raw_session, running_daemon

pytestmark = pytest.mark.anyio

CONTRACT_TOOLS = {
    "memory_search",
    "memory_get",
    "memory_list",
    "memory_status",
    "memory_add",
    "memory_correct",
    "memory_archive",
    "memory_restore",
    "memory_export_markdown",
}
STATEMENT = "The Aurora rewrite uses SQLite with WAL (fictional)"


def payload(result: Any) -> dict[str, Any]:
    block = result.content[0]
    assert isinstance(block, TextContent)
    data: dict[str, Any] = json.loads(block.text)
    return data


async def one_session(home: Path, errlog: Path, **extra: str | None) -> dict[str, Any]:
    """initialize, tools/list, an add and a status through the official client; what came back."""
    with errlog.open("w") as err:
        async with (
            stdio_client(bridge_params(home, **extra), errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            init = await session.initialize()
            tools = {tool.name for tool in (await session.list_tools()).tools}
            added = payload(await session.call_tool("memory_add", {"statement": STATEMENT, "domain": "work"}))
            status = payload(await session.call_tool("memory_status", {}))
    return {"server": init.server_info.name, "tools": tools, "added": added, "status": status}


async def test_embedded_bridge_serves_the_official_client(home: Path, tmp_path: Path) -> None:
    seen = await one_session(home, tmp_path / "stderr.txt")
    assert seen["server"] == "memvault"
    assert seen["tools"] >= CONTRACT_TOOLS
    # An assistant's write waits for the person in the default review mode.
    assert seen["added"]["outcome"] == "staged"
    assert seen["status"]["contract"] == 1 and seen["status"]["pending_proposals"] == 1


async def test_an_add_is_embedded_before_the_embedded_bridge_closes_the_store(home: Path, tmp_path: Path) -> None:
    with Vault.open(home) as vault:  # assistants' writes commit, in any domain
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
        vault.set_setting(OWNER, "auto_write_domains", ["*"])
    seen = await one_session(home, tmp_path / "stderr.txt", MEMVAULT_EMBEDDINGS="local")
    assert seen["added"]["outcome"] == "added"
    with Vault.open(home) as vault, vault.ctx.reading() as conn:  # the session ended right after the add
        assert vector_sql.count_missing(conn.raw, MODEL_ID) == 0


async def test_relay_bridge_is_answered_by_the_daemon_without_a_passphrase(home: Path, tmp_path: Path) -> None:
    with running_daemon(home):
        # Registered clients carry no passphrase: only the daemon (unlocked once) can open the store.
        seen = await one_session(home, tmp_path / "stderr.txt", MEMVAULT_PASSPHRASE=None)
    assert seen["tools"] >= CONTRACT_TOOLS
    assert seen["added"]["outcome"] == "staged"
    assert seen["status"]["pending_proposals"] == 1
    daemon_log = (home / "logs" / "daemon.log").read_text()
    assert "session 1 opened" in daemon_log and "session 1 closed" in daemon_log
    assert "relaying to the daemon" in (home / "logs" / "mcp.log").read_text()


# A store the bridge cannot open (none yet, locked, too new) still gets a session that answers
# `not_ready` with the command that fixes it: tests/first_contact/test_not_ready.py.


RAW_MESSAGES: list[dict[str, Any]] = [
    INIT,
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_status", "arguments": {}}},
    {
        "jsonrpc": "2.0",
        "id": 4,
        "method": "tools/call",
        "params": {"name": "memory_search", "arguments": {"query": "Aurora database"}},
    },
    {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}},
    {"jsonrpc": "2.0", "id": 6, "method": "no/such/method"},
]


def check_only_json_rpc(lines: list[bytes]) -> dict[Any, dict[str, Any]]:
    """Every stdout line is one JSON-RPC 2.0 message; returns the responses by id."""
    assert lines, "the bridge wrote nothing"
    responses = {}
    for line in lines:
        assert line.endswith(b"\n")
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        assert ("result" in message) != ("error" in message) or "method" in message
        if "id" in message:
            responses[message["id"]] = message
    return responses


@pytest.mark.parametrize("mode", ["embedded", "relay"])
def test_stdout_carries_nothing_but_json_rpc_and_eof_ends_the_bridge(home: Path, mode: str) -> None:
    if mode == "relay":
        with running_daemon(home):
            result = raw_session(home, RAW_MESSAGES, "--verbose")
    else:
        result = raw_session(home, RAW_MESSAGES, "--verbose")
    assert result.returncode == 0, result.stderr
    responses = check_only_json_rpc(result.lines)
    assert set(responses) == {1, 2, 3, 4, 5, 6}
    assert responses[1]["result"]["serverInfo"]["name"] == "memvault"
    assert "error" in responses[6]
    # --verbose logs went to stderr (and the log file), never to stdout.
    assert "memvault.bridge" in result.stderr
    log_text = (home / "logs" / "mcp.log").read_text()
    assert "Aurora" not in log_text and "Aurora" not in result.stderr  # no query text in logs


def test_the_relay_path_imports_nothing_heavy(home: Path) -> None:
    """What `memvault mcp` loads before it knows whether a daemon answers: no SDK, pydantic, Qt, store."""
    probe = (
        "import sys\n"
        "from memvault.desktop.commands.bridge import fast_args\n"
        "from memvault.mcp_bridge import relay, stdio\n"
        "assert fast_args(['mcp']) is not None\n"
        "heavy = ('mcp', 'mcp_types', 'pydantic', 'PySide6', 'onnxruntime', 'numpy', 'sqlcipher3', 'anyio')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# What Codex passes to an MCP server it spawns (codex-rs DEFAULT_ENV_VARS, unix): nothing else.
CODEX_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ")


async def test_a_bridge_spawned_with_codex_stripped_environment_still_finds_the_daemon(
    home: Path, tmp_path: Path
) -> None:
    """No XDG_RUNTIME_DIR, no MEMVAULT_HOME, no passphrase: the registered `--home` and the lock file suffice."""
    env = {name: os.environ[name] for name in CODEX_ENV if name in os.environ}
    params = StdioServerParameters(command=MEMVAULT[0], args=[*MEMVAULT[1:], "--home", str(home), "mcp"], env=env)
    with running_daemon(home), (tmp_path / "stderr.txt").open("w") as err:
        async with stdio_client(params, errlog=err) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            status = payload(await session.call_tool("memory_status", {}))
    assert status["contract"] == 1
    assert "relaying to the daemon" in (home / "logs" / "mcp.log").read_text()


def test_the_relay_is_a_byte_pipe_that_waits_for_a_busy_daemon() -> None:
    """Bytes pass unchanged both ways, and a daemon busy for seconds does not cut the client's sends."""
    relay_end, daemon_end = socket.socketpair()
    client_in_r, client_in_w = os.pipe()
    client_out_r, client_out_w = os.pipe()
    payload = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"tools/list"}\n' % i for i in range(60_000))  # ~2.7 MB
    received: dict[str, bytes] = {}

    def busy_daemon() -> None:
        time.sleep(1.5)  # longer than any relay poll interval, with the socket buffers full
        chunks = []
        while data := daemon_end.recv(65536):
            chunks.append(data)
        daemon_end.sendall(b"".join(chunks))
        daemon_end.close()

    def client_reads() -> None:
        with os.fdopen(client_out_r, "rb") as out:
            received["bytes"] = out.read()

    def client_writes() -> None:
        with os.fdopen(client_in_w, "wb") as stdin:
            stdin.write(payload)

    threads = [threading.Thread(target=f) for f in (busy_daemon, client_reads, client_writes)]
    for thread in threads:
        thread.start()
    sent = relay.pipe(relay_end, client_in_r, client_out_w)
    os.close(client_out_w)
    os.close(client_in_r)
    for thread in threads:
        thread.join(30)
    assert sent == len(payload)
    assert received["bytes"] == payload


def test_a_server_loads_the_secret_detectors_before_the_first_write(home: Path) -> None:
    """Creating a server starts loading the writer gate's detectors on a thread of its own (~0.4 s
    that the session's first memory_add paid before); nothing is scanned or stored meanwhile."""
    probe = (
        "import sys, threading\n"
        "from memvault.core.vocabulary.model import LOCAL_ASSISTANT\n"
        "from memvault.core.vault import Vault\n"
        "from memvault.mcp_bridge.server import build_server\n"
        f"vault = Vault.open({str(home)!r})\n"
        "before = 'detect_secrets' in sys.modules\n"
        "build_server(vault, LOCAL_ASSISTANT)\n"
        "for thread in threading.enumerate():\n"
        "    if thread.name == 'memvault-writer-warm':\n"
        "        thread.join(60)\n"
        "from memvault.core.writer.secret_text import _confusable_table\n"
        "built = _confusable_table.cache_info().currsize\n"
        "print(before, 'detect_secrets' in sys.modules, built, vault.status(LOCAL_ASSISTANT)['counts']['total'])\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "1", "0"]
