"""Issue 13, parser edge cases: every request gets an answer, types are strict, limits hold.

The stdio bridge is driven by a raw subprocess writing bytes (no MCP client smoothing
anything over); the HTTP limit by httpx against a real loopback server.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import ListRequest
from memvault.mcp_bridge import relay
from tests.mcp_bridge.helpers import call, connect

DEEP = b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":' + b"[" * 300 + b"]" * 300 + b"}}"
# Each hostile line, the error it is answered with, and the id that answer carries: the request's own
# whenever it can be read (a client waits on its id; `id: null` leaves it waiting).
HOSTILE_LINES = {
    "unpaired surrogate escape": (
        b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"memory_search",'
        b'"arguments":{"query":"\\ud83c"}}}',
        -32602,
        5,
    ),
    "nested 300 deep": (DEEP, -32700, 7),
    "not JSON": (b"{nope", -32700, None),
    "not UTF-8": (b'{"jsonrpc":"2.0","id":8,"method":"ping","x":"\xff"}', -32700, 8),
    "not a JSON-RPC message": (b'{"id":9,"hello":"there"}', -32600, 9),
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


class RawClient:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float = 60) -> dict[str, Any]:
        assert self.process.stdout is not None
        ready = select.select([self.process.stdout], [], [], timeout)[0]
        assert ready, "no answer"
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer


@pytest.fixture
def raw_bridge(home: Path) -> Iterator[RawClient]:
    process = subprocess.Popen(
        [sys.executable, "-m", "memvault.desktop.cli", "mcp"],
        env={**os.environ, "MEMVAULT_HOME": str(home)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    client = RawClient(process)
    client.send(json.dumps(INITIALIZE).encode())
    assert client.receive(120)["id"] == 1
    client.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    try:
        yield client
    finally:
        assert process.stdin is not None
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_every_stdio_request_gets_an_answer(raw_bridge: RawClient) -> None:
    for line, code, request_id in HOSTILE_LINES.values():
        raw_bridge.send(line)
        answer = raw_bridge.receive()
        assert (answer["error"]["code"], answer["id"]) == (code, request_id)
    raw_bridge.send(b'{"jsonrpc":"2.0","id":10,"method":"ping"}')
    assert raw_bridge.receive() == {"jsonrpc": "2.0", "id": 10, "result": {}}


def test_the_relay_answers_what_the_daemon_would_drop() -> None:
    """The daemon path: hostile lines are answered by the relay, good ones reach the daemon unchanged."""
    relay_end, daemon_end = socket.socketpair()
    client_in_r, client_in_w = os.pipe()
    client_out_r, client_out_w = os.pipe()
    good = b'{"jsonrpc":"2.0","id":11,"method":"ping"}\n'
    received: dict[str, bytes] = {}

    def daemon() -> None:
        chunks = []
        while data := daemon_end.recv(65536):
            chunks.append(data)
        received["daemon"] = b"".join(chunks)
        for part in (b'{"jsonrpc":"2.0","id":11,', b'"result":{}}\n'):  # an answer split across sends
            daemon_end.sendall(part)
            time.sleep(0.05)
        daemon_end.close()

    thread = threading.Thread(target=daemon)
    thread.start()
    os.write(client_in_w, b"".join(line + b"\n" for line, _, _ in HOSTILE_LINES.values()) + good)
    os.close(client_in_w)
    relay.pipe(relay_end, client_in_r, client_out_w)
    os.close(client_out_w)
    thread.join(10)
    with os.fdopen(client_out_r, "rb") as out:
        answers = [json.loads(line) for line in out.read().splitlines()]
    os.close(client_in_r)
    assert received["daemon"] == good
    assert [(a["error"]["code"], a["id"]) for a in answers[:-1]] == [(c, i) for _, c, i in HOSTILE_LINES.values()]
    assert answers[-1] == {"jsonrpc": "2.0", "id": 11, "result": {}}


@pytest.mark.anyio
@pytest.mark.parametrize("limit", [True, "5", 5.0, None])
async def test_tool_arguments_are_strictly_typed(vault: Vault, limit: Any) -> None:
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_list", {"limit": limit} if limit is not None else {"limit": 5})
    if limit is None:
        assert not answer.is_error
    else:
        assert answer.code == "invalid_argument"


def _nested_cursor(depth: int) -> str:
    return base64.urlsafe_b64encode(b"[" * depth + b"]" * depth).decode()


@pytest.mark.parametrize("cursor", [_nested_cursor(5000), _nested_cursor(3), "x" * 5000])
def test_a_forged_cursor_is_invalid_argument(vault: Vault, cursor: str) -> None:
    with pytest.raises(InvalidArgument):
        vault.list_memories(OWNER, ListRequest.of(cursor=cursor))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def http_server(template_home: Path, tmp_path: Path) -> Iterator[tuple[str, str]]:
    home = tmp_path / "memvault"
    shutil.copytree(template_home, home)
    env = {**os.environ, "MEMVAULT_HOME": str(home)}
    cli = [sys.executable, "-m", "memvault.desktop.cli"]
    made = subprocess.run(
        [*cli, "token", "create", "--principal", "big", "--surface", "remote"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [*cli, "serve", "--http", "127.0.0.1:0", "--max-body", "65536"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        deadline = time.monotonic() + 120
        while "serving MCP at " not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield log.read_text().split("serving MCP at ", 1)[1].split()[0], made.stdout.strip()
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.anyio
async def test_a_chunked_body_over_the_limit_answers_413(http_server: tuple[str, str]) -> None:
    url, token = http_server

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(20):
            yield b"x" * 8192

    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    async with httpx2.AsyncClient(timeout=60) as http:
        streamed = await http.post(url, content=chunks(), headers=headers)
        small = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=headers)
    assert streamed.status_code == 413
    assert small.status_code != 413
