"""The HTTP transport answers a malformed JSON-RPC body itself, as stdio answers a malformed line.

In process: `build_app`'s gate in front of the SDK's streamable HTTP app over a real store, reached
through httpx's ASGI transport with a bearer token. The SDK would answer these bodies `id: null`,
with its validator's text; the gate judges each POST body with `jsonrpc_guard` first.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.mcp_bridge.http import build_app

pytestmark = pytest.mark.anyio
HOST, PORT = "127.0.0.1", 9
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
VALIDATOR_WORDS = ("validation", "pydantic", "input should", "eof while", "errors.pydantic")


@pytest.fixture
async def http(vault: Vault) -> AsyncIterator[httpx2.AsyncClient]:
    token = vault.create_token(OWNER, "prober", "remote")["token"]
    app, server = build_app(vault, HOST, PORT)
    async with (
        server.session_manager.run(),
        httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app),
            base_url=f"http://{HOST}:{PORT}",
            headers={"Authorization": f"Bearer {token}", **ACCEPT},
            timeout=30,
        ) as client,
    ):
        yield client


def _error(answer: httpx2.Response) -> dict[str, Any]:
    """The JSON-RPC error of a refused body, checked for the parts every refusal shares."""
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert not any(word in answer.text.lower() for word in VALIDATOR_WORDS), answer.text
    body: dict[str, Any] = answer.json()
    assert body["jsonrpc"] == "2.0" and set(body) == {"jsonrpc", "id", "error"}
    return body


def _events(answer: httpx2.Response) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in answer.text.splitlines() if line.startswith("data:") and line[5:].strip()]


@pytest.mark.parametrize("params", ["a string", 42, ["a", "list"], True])
@pytest.mark.parametrize("request_id", [7, "req-8"])
async def test_params_that_are_not_an_object_get_invalid_params_with_the_id(
    http: httpx2.AsyncClient, params: object, request_id: object
) -> None:
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    refused = _error(await http.post("/mcp", json=body))
    assert refused["id"] == request_id
    assert refused["error"]["code"] == -32602


@pytest.mark.parametrize(
    ("body", "request_id"),
    [
        (b'{"jsonrpc": "2.0", "id": 12, "method": "tools/list", "params": {', 12),  # cut short: its id is read
        (b'{"jsonrpc": "2.0", "method": "tools/list", "params": {"cursor": }, "id": "late-13"}', "late-13"),
        (b"not json at all", None),
        (b"", None),
        (b'{"jsonrpc": "2.0", "id": 14, "method": "ping", "params": {"n": NaN}}', 14),
        ("\xff\xfe{}".encode("latin-1"), None),
    ],
)
async def test_a_body_that_is_not_json_gets_a_parse_error(
    http: httpx2.AsyncClient, body: bytes, request_id: object
) -> None:
    refused = _error(await http.post("/mcp", content=body))
    assert refused["error"]["code"] == -32700
    assert refused["error"]["message"] in ("Parse error", "Parse error: not UTF-8", "Parse error: empty body")
    assert refused["id"] == request_id


async def test_a_lone_surrogate_is_answered_with_its_own_id(http: httpx2.AsyncClient) -> None:
    in_params = (
        b'{"jsonrpc": "2.0", "id": 21, "method": "tools/call",'
        b' "params": {"name": "memory_search", "arguments": {"query": "harbour \\ud83c"}}}'
    )
    in_method = b'{"jsonrpc": "2.0", "id": "s-22", "method": "tools/\\udc00list"}'
    first = _error(await http.post("/mcp", content=in_params))
    second = _error(await http.post("/mcp", content=in_method))
    assert (first["id"], first["error"]["code"]) == (21, -32602)
    assert (second["id"], second["error"]["code"]) == ("s-22", -32600)


async def test_batches_and_broken_envelopes_are_invalid_requests(http: httpx2.AsyncClient) -> None:
    batch = _error(await http.post("/mcp", json=[{"jsonrpc": "2.0", "id": 31, "method": "ping"}]))
    old = _error(await http.post("/mcp", json={"jsonrpc": "1.0", "id": 32, "method": "ping"}))
    fraction = _error(await http.post("/mcp", json={"jsonrpc": "2.0", "id": 3.5, "method": "ping"}))
    notification = _error(await http.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/x", "params": 1}))
    assert [answer["error"]["code"] for answer in (batch, old, fraction, notification)] == [-32600] * 4
    assert (batch["id"], old["id"], fraction["id"], notification["id"]) == (None, 32, 3.5, None)


async def test_a_refused_body_leaves_the_session_and_sound_calls_as_they_were(http: httpx2.AsyncClient) -> None:
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}
    opened = await http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
    assert opened.status_code == 200, opened.text
    assert _events(opened)[0]["result"]["serverInfo"]["name"] == "memvault"
    session = {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
    started = await http.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    assert started.status_code == 202

    refused = await http.post(
        "/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "memory_status"}, headers=session
    )
    assert _error(refused)["id"] == 2

    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_status", "arguments": {}}}
    pretty = json.dumps(call, indent=2).encode()  # a sound body goes on byte for byte, newlines and all
    answered = await http.post("/mcp", content=pretty, headers=session)
    assert answered.status_code == 200, answered.text
    (event,) = _events(answered)
    assert event["id"] == 3 and event["result"]["isError"] is False
