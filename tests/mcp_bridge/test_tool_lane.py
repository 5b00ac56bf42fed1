"""The tool lane (`tool_lane`): tool calls answered beside the SDK's dispatcher, as the SDK answers them.

Raw JSON-RPC messages through `serve_streams` (the entry of stdio and the daemon's sockets) over
memory streams, a real store behind. The lane takes a plain call once the handshake is answered
and leaves everything else to the SDK; a call the SDK answers (a `_meta` sends it there) and the
same call through the lane get the same answer, errors included; a call the client cancels gets
no answer; a call still running when the input ends is answered before the session ends. After
its first answer the process collects and freezes its heap, once (`settle_heap`).
"""

from __future__ import annotations

import gc
import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types
import pytest
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp.shared.message import SessionMessage

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.mcp_bridge.answer_line import message_json
from memvault.mcp_bridge.server import build_server, serve_streams
from memvault.mcp_bridge.tool_lane import ToolLane
from memvault.mcp_bridge.tool_server import settle_heap

from .conftest import Seeded

pytestmark = pytest.mark.anyio

VERSION = "2025-11-25"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "lane-test", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def message(raw: Mapping[str, Any]) -> SessionMessage:
    return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_python(dict(raw), by_name=False))


def call(request_id: int, name: str, arguments: Any, **extra: Any) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments, **extra}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


class Peer:
    """The client's end of one session: raw messages out, answers (as wire dicts) back."""

    def __init__(self, out: ObjectSendStream[SessionMessage], back: ObjectReceiveStream[SessionMessage]) -> None:
        self.out = out
        self.back = back
        self.after_end: list[dict[str, Any]] = []  # what came after the input ended, until the session did

    async def send(self, *raw: Mapping[str, Any]) -> None:
        for item in raw:
            await self.out.send(message(item))

    async def answer(self) -> dict[str, Any]:
        with anyio.fail_after(30):
            item = await self.back.receive()
        answer: dict[str, Any] = json.loads(message_json(item.message))  # as written on the wire
        return answer

    async def ask(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        await self.send(raw)
        return await self.answer()


@asynccontextmanager
async def session(vault: Vault, *, handshake: bool = True) -> AsyncIterator[Peer]:
    to_server, server_reads = anyio.create_memory_object_stream[SessionMessage | Exception](100)
    server_writes, from_server = anyio.create_memory_object_stream[SessionMessage](100)
    async with anyio.create_task_group() as group:
        group.start_soon(serve_streams, vault, LOCAL_ASSISTANT, server_reads, server_writes)
        peer = Peer(to_server, from_server)
        if handshake:
            assert (await peer.ask(INIT))["result"]["protocolVersion"] == VERSION
            await peer.send(INITIALIZED)
        yield peer
        await to_server.aclose()
        with anyio.fail_after(30):
            async for item in from_server:  # the session ends with its input
                peer.after_end.append(item.message.model_dump(by_alias=True, mode="json", exclude_unset=True))


async def test_the_lane_takes_a_plain_call_once_the_handshake_is_answered(vault: Vault, seeded: Seeded) -> None:
    server = build_server(vault, LOCAL_ASSISTANT)
    answers, written = anyio.create_memory_object_stream[SessionMessage](10)
    async with anyio.create_task_group() as calls:
        lane = ToolLane(server, answers, calls)
        get = call(2, "memory_get", {"id": seeded.local_only})
        assert not lane.take(message(get))  # no handshake yet: the SDK refuses it its own way
        assert not lane.take(message(INIT))
        lane.sent(mcp_types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"protocolVersion": VERSION}))
        for other in (
            call(3, "memory_get", {"id": "x"}, _meta={"progressToken": 3}),  # progress: the SDK's
            call(4, "no_such_tool", {}),
            {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": 7}},
            call(6, "memory_get", ["not", "an", "object"]),
            {"jsonrpc": "2.0", "id": 7, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 8, "method": "ping"},
            INITIALIZED,
        ):
            assert not lane.take(message(other)), other
        assert lane.take(message(get))
        with anyio.fail_after(30):
            answer = (await written.receive()).message
    assert isinstance(answer, mcp_types.JSONRPCResponse) and answer.id == 2
    result = json.loads(message_json(answer))["result"]  # as written on the wire
    assert seeded.local_only in result["content"][0]["text"]
    assert result["structuredContent"]["memory"]["id"] == seeded.local_only


async def test_the_lane_and_the_sdk_give_the_same_answers(vault: Vault, seeded: Seeded) -> None:
    asked = [
        ("memory_get", {"id": seeded.remote}),
        ("memory_get", {"id": "no-such-record"}),
        ("memory_get", {}),
        ("memory_search", {"query": "garden", "limit": "5"}),
        ("memory_search", {"query": "garden", "colour": "blue"}),
        ("memory_list", {"limit": 3}),
        ("memory_status", {}),
    ]
    async with session(vault) as peer:
        for number, (name, arguments) in enumerate(asked):
            by_sdk = await peer.ask(call(100 + number, name, arguments, _meta={}))  # `_meta`: not the lane's
            by_lane = await peer.ask(call(100 + number, name, arguments))
            assert by_lane == by_sdk, name
            assert by_lane["result"]["content"]
    async with session(vault, handshake=False) as peer:
        refused = await peer.ask(call(2, "memory_get", {"id": seeded.remote}))  # before the handshake
    assert refused["error"]["code"] == mcp_types.INVALID_PARAMS


async def test_a_cancelled_call_gets_no_answer(vault: Vault, seeded: Seeded) -> None:
    async with session(vault) as peer:
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}
        await peer.send(call(7, "memory_search", {"query": "Lindqvist garden budget"}), cancel)
        pong = await peer.ask({"jsonrpc": "2.0", "id": 8, "method": "ping"})
        later = await peer.ask(call(9, "memory_get", {"id": seeded.remote}))
    assert pong["id"] == 8 and later["id"] == 9  # nothing came for 7 in between
    assert peer.after_end == []  # nor later: the session waited for the search, then ended without a word


async def test_a_call_running_when_the_input_ends_is_answered(vault: Vault) -> None:
    async with session(vault) as peer:
        await peer.send(call(7, "memory_search", {"query": "Lindqvist garden budget"}))
        await peer.out.aclose()  # the session waits for the call, then ends
        answer = await peer.answer()
    assert answer["id"] == 7
    assert "results" in answer["result"]["structuredContent"]


async def test_the_first_answer_settles_the_heap_once(vault: Vault, seeded: Seeded) -> None:
    gc.unfreeze()
    settle_heap.cache_clear()  # as in a fresh process
    try:
        async with session(vault) as peer:
            assert gc.get_freeze_count() == 0  # the handshake and the lists are not enough
            await peer.ask(call(2, "memory_get", {"id": seeded.remote}))
            frozen = gc.get_freeze_count()
            assert frozen > 1000  # the SDK, the store and the server are out of later collections
            await peer.ask(call(3, "memory_get", {"id": seeded.remote}))
            assert gc.get_freeze_count() <= frozen  # frozen objects still die; nothing more is frozen
            assert settle_heap.cache_info().misses == 1  # once per process
    finally:
        gc.unfreeze()  # the other tests' process keeps collecting as before


async def test_a_search_answered_by_the_lane_has_its_usage_written_after_it(
    vault: Vault, seeded: Seeded, home: Path
) -> None:
    """The lane holds the usage write back until the answer is out (`later_writes.Hold`), then
    releases it: the writer thread writes it with no further call to the store."""
    async with session(vault) as peer:
        answer = await peer.ask(call(2, "memory_search", {"query": "Lindqvist garden"}))
        hit = answer["result"]["structuredContent"]["results"][0]["id"]
        with Vault.open(home) as other:  # another connection: only what was committed
            with anyio.fail_after(30):
                while other.get(OWNER, hit)["memory"]["retrieval_count"] != 1:
                    await anyio.sleep(0.01)
        assert not vault.ctx.queued
