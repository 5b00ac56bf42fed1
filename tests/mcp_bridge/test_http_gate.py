"""The HTTP gate in process (httpx's ASGI transport in front of a stub app): refusals it answers itself."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest

from memvault.core.vocabulary.model import Caller, Surface
from memvault.mcp_bridge.http import CALLER_KEY, BearerGate
from memvault.mcp_bridge.ratelimit import RateLimiter

pytestmark = pytest.mark.anyio
ALICE = Caller("alice", Surface.REMOTE)
BOB = Caller("bob", Surface.REMOTE)
TOKENS = {"mvt_alice": ALICE, "mvt_bob": BOB}
PING = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "ping",
}  # a sound body: the gate judges every POST's (test_http_json_rpc.py)


class Stub:
    """Answers 200 with the caller the gate put into the scope, and opens a session on the first request."""

    def __init__(self) -> None:
        self.seen: list[Caller] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.seen.append(scope[CALLER_KEY])
        headers = [(b"content-type", b"text/plain"), (b"mcp-session-id", b"s-" + scope[CALLER_KEY].principal.encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": str(len(body)).encode()})


@pytest.fixture
async def stub() -> Stub:
    return Stub()


async def client_for(gate: BearerGate) -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=gate), base_url="http://127.0.0.1:9") as http:
        yield http


def gate_over(stub: Stub, **options: Any) -> BearerGate:
    return BearerGate(stub, TOKENS.get, **options)


async def test_the_caller_comes_from_the_token(stub: Stub) -> None:
    async for http in client_for(gate_over(stub)):
        ok = await http.post("/mcp", json=PING, headers={"Authorization": "Bearer mvt_bob"})
        spoofed = await http.post(
            "/mcp", json={**PING, "params": {"caller": "alice"}}, headers={"Authorization": "bearer mvt_bob"}
        )
    assert ok.status_code == spoofed.status_code == 200
    assert stub.seen == [BOB, BOB]


async def test_streamed_bodies_over_the_limit_are_cut_off(stub: Stub) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(10):
            yield b"x" * 500

    padded = json.dumps({**PING, "params": {"pad": ""}}).encode()
    padded = padded.replace(b'""', b'"' + b"y" * (1999 - len(padded)) + b'"')
    async for http in client_for(gate_over(stub, max_body=2000)):
        small = await http.post("/mcp", content=padded, headers={"Authorization": "Bearer mvt_alice"})
        streamed = await http.post("/mcp", content=chunks(), headers={"Authorization": "Bearer mvt_alice"})
        declared = await http.post("/mcp", content=b"z" * 2001, headers={"Authorization": "Bearer mvt_alice"})
    assert small.status_code == 200 and small.text == "1999"
    assert streamed.status_code == 413 and declared.status_code == 413
    assert streamed.json()["error"]["code"] == "invalid_argument"


async def test_floods_get_429_per_principal(stub: Stub) -> None:
    gate = gate_over(stub, limiter=RateLimiter(per_minute=1, burst=3))
    async for http in client_for(gate):
        alice = [
            (await http.post("/mcp", json=PING, headers={"Authorization": "Bearer mvt_alice"})).status_code
            for _ in range(4)
        ]
        bob = await http.post("/mcp", json=PING, headers={"Authorization": "Bearer mvt_bob"})
        last = await http.post("/mcp", json=PING, headers={"Authorization": "Bearer mvt_alice"})
    assert alice == [200, 200, 200, 429] and bob.status_code == 200
    assert last.json() == {"error": {"code": "rate_limited", "message": last.json()["error"]["message"]}}


async def test_a_session_belongs_to_the_principal_that_opened_it(stub: Stub) -> None:
    async for http in client_for(gate_over(stub)):
        opened = await http.post("/mcp", json=PING, headers={"Authorization": "Bearer mvt_alice"})
        session = opened.headers["mcp-session-id"]
        own = await http.post(
            "/mcp", json=PING, headers={"Authorization": "Bearer mvt_alice", "mcp-session-id": session}
        )
        other = await http.post(
            "/mcp", json=PING, headers={"Authorization": "Bearer mvt_bob", "mcp-session-id": session}
        )
    assert own.status_code == 200 and other.status_code == 404
    assert stub.seen == [ALICE, ALICE]


async def test_paths_and_tokens(stub: Stub) -> None:
    async for http in client_for(gate_over(stub)):
        assert (await http.get("/")).status_code == 404
        assert (await http.post("/mcp/", json=PING, headers={"Authorization": "Bearer mvt_alice"})).status_code == 200
        for header in ("Bearer mvt_carol", "Token mvt_alice", "mvt_alice", "Bearer"):
            answer = await http.post("/mcp", headers={"Authorization": header})
            assert answer.status_code == 401, header
            assert "mvt_" not in answer.text
    assert stub.seen == [ALICE]
