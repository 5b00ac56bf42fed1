"""The daemon's socket transport (mcp_bridge/socket_transport.py): answers written whole by the task
that sends them, and lines read whole, a line over the limit as its refusal."""

from __future__ import annotations

import json
import socket

import anyio
import mcp_types
import pytest
from anyio.abc import UNIXSocketStream
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp.shared.message import SessionMessage

from memvault.mcp_bridge.jsonrpc_guard import Refusal
from memvault.mcp_bridge.socket_transport import MAX_LINE_BYTES, SocketAnswers, next_line

pytestmark = pytest.mark.anyio


def _answer(number: int, size: int) -> SessionMessage:
    return SessionMessage(mcp_types.JSONRPCResponse(jsonrpc="2.0", id=number, result={"text": "x" * size}))


async def test_answers_sent_at_once_arrive_whole_and_on_the_socket_when_send_returns() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    stream, peer = await UNIXSocketStream.from_socket(ours), await UNIXSocketStream.from_socket(theirs)
    async with stream, peer:
        answers = SocketAnswers(stream)
        async with anyio.create_task_group() as group:  # big enough to wait for the peer to read
            for number in range(1, 4):
                group.start_soon(answers.send, _answer(number, 300_000))
            received = b""
            while received.count(b"\n") < 3:
                received += await peer.receive(1 << 20)
        lines = [json.loads(line) for line in received.splitlines()]
        assert sorted(line["id"] for line in lines) == [1, 2, 3]
        assert all(len(line["result"]["text"]) == 300_000 for line in lines)
        await answers.send(_answer(4, 10))  # written by the time send returns
        with anyio.fail_after(5):
            assert json.loads(await peer.receive())["id"] == 4
        await peer.aclose()
        with pytest.raises(anyio.BrokenResourceError):  # the peer is gone: as from a closed stream
            for _ in range(100):
                await answers.send(_answer(5, 300_000))


async def test_a_line_over_the_limit_is_read_as_its_refusal_and_the_next_lines_follow() -> None:
    """`next_line` keeps only the ends of a line over the limit (its refusal carries the id it shows),
    then reads on: the lines after it, and a last line the peer ends without its newline."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    stream, peer = await UNIXSocketStream.from_socket(ours), await UNIXSocketStream.from_socket(theirs)
    big = b'{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"x":"' + b"x" * (MAX_LINE_BYTES + 300_000)
    after = b'"}}\n\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}'
    async with stream, peer, anyio.create_task_group() as group:

        async def send() -> None:
            await peer.send(big)
            await peer.send(after)
            await peer.send_eof()

        group.start_soon(send)
        lines = BufferedByteReceiveStream(stream)
        with anyio.fail_after(30):
            refused = await next_line(lines)
            assert isinstance(refused, Refusal)
            answer = json.loads(refused)
            assert (answer["id"], answer["error"]["code"]) == ("big", -32600)
            assert json.loads(await next_line(lines) or b"")["id"] == 2
            assert json.loads(await next_line(lines) or b"")["id"] == 3  # no newline: the input ended
            assert await next_line(lines) is None
