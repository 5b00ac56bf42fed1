"""The daemon's socket transport, beside stdio's (`stdio_transport.py`): one MCP session over a byte
stream of newline-delimited JSON-RPC (`serve_socket_session`), its lines read by `next_line`, its
answers written by `SocketAnswers`.

Each answer is written whole by the task that sends it. Each line passes the same guard as on stdio
(`jsonrpc_guard`), so a session here answers every line as the embedded bridge does, whether the
relay has checked it already or a client talks to the socket directly; a line over
`jsonrpc_guard.MAX_LINE_BYTES` is refused on its own (its bytes dropped as they arrive) and the
session goes on. When the peer's input ends, the requests it sent are answered (within
`DRAIN_SECONDS`) before the server's input ends, as on stdio: ending it would cancel them.

A memory stream and a writer task between the server and the socket cost an event-loop hop per
answer, and a search's usage write, held until its answer is out (`later_writes.Hold`), was released
when the writer task took the answer: that write then competed with the answer's serialisation and
send for the interpreter (~0.5 ms a search at 10k). Written here, the answer is on the socket when
`send` returns, as on stdio (`stdio_transport.ServerAnswers`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types
from anyio.abc import ByteSendStream, ByteStream, ObjectSendStream
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp.shared.message import SessionMessage

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge import jsonrpc_guard
from memvault.mcp_bridge.answer_line import message_json
from memvault.mcp_bridge.relay import DRAIN_SECONDS
from memvault.mcp_bridge.stdio_transport import Unanswered

log = logging.getLogger("memvault.daemon")

MAX_LINE_BYTES = jsonrpc_guard.MAX_LINE_BYTES  # one JSON-RPC message per line; a longer one is refused alone

SessionServer = Callable[[Vault, Caller, Any, Any], Awaitable[None]]


class SocketAnswers(ObjectSendStream[SessionMessage]):
    def __init__(self, stream: ByteSendStream, unanswered: Unanswered | None = None) -> None:
        self._stream = stream
        self._unanswered = unanswered or Unanswered()
        self._writing = anyio.Lock(fast_acquire=True)  # one line at a time: answers come from several tasks
        self._closed = False

    async def send(self, item: SessionMessage) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        try:
            await self._write(message_json(item.message).encode("utf-8") + b"\n")
        finally:  # once written (or failed): counted sooner, the drain could end the session under a waiting write
            self._unanswered.sent(item.message)

    async def refuse(self, answer: bytes) -> None:
        """Write the guard's answer to a line the server never sees (nothing when it is empty, or the
        peer is gone: the reader learns that from its side)."""
        if answer and not self._closed:
            with contextlib.suppress(anyio.BrokenResourceError):
                await self._write(answer)

    async def _write(self, data: bytes) -> None:
        async with self._writing:
            try:
                await self._stream.send(data)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._closed = True  # the peer is gone: the server learns it as from a closed stream
                raise anyio.BrokenResourceError from None

    async def aclose(self) -> None:
        self._closed = True


async def next_line(lines: BufferedByteReceiveStream) -> bytes | None:
    """The next non-empty line (the last one may lack its newline), or None when the peer is gone.
    A line over `MAX_LINE_BYTES` comes as its `jsonrpc_guard.Refusal`: only its first and last bytes
    were kept."""
    while True:
        try:
            line = await lines.receive_until(b"\n", MAX_LINE_BYTES + 1)
        except anyio.DelimiterNotFound:
            log.warning("session: a message longer than %d bytes; refused", MAX_LINE_BYTES)
            return await _skip_long_line(lines)
        except anyio.IncompleteRead:  # the input ended inside a line: it is the last one
            line = await lines.receive_exactly(len(lines.buffer))
            return line if line.strip() else None
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
            return None
        if len(line) > MAX_LINE_BYTES:  # its newline came in the same read that passed the limit
            log.warning("session: a message longer than %d bytes; refused", MAX_LINE_BYTES)
            return jsonrpc_guard.refuse_long(line[: jsonrpc_guard.HEAD_BYTES], line[-jsonrpc_guard.TAIL_BYTES :])
        if line.strip():
            return line


async def _skip_long_line(lines: BufferedByteReceiveStream) -> bytes:
    """Drop the rest of a line over the limit as it arrives, keeping its first and last bytes."""
    held = await lines.receive_exactly(len(lines.buffer))
    head, tail = held[: jsonrpc_guard.HEAD_BYTES], held[-jsonrpc_guard.TAIL_BYTES :]
    del held
    while True:
        try:
            data = await lines.receive()
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
            break  # the line was the last one
        end = data.find(b"\n")
        if end >= 0:
            tail = (tail + data[:end])[-jsonrpc_guard.TAIL_BYTES :]
            lines.feed_data(data[end + 1 :])  # the next lines, read with this chunk
            break
        tail = (tail + data)[-jsonrpc_guard.TAIL_BYTES :]
    return jsonrpc_guard.refuse_long(head, tail)


async def serve_socket_session(
    vault: Vault,
    caller: Caller,
    stream: ByteStream,
    serve: SessionServer,
    lines: BufferedByteReceiveStream | None = None,
    first: bytes | None = None,
) -> None:
    """One MCP session over a byte stream carrying newline-delimited JSON-RPC.

    `lines` and `first`: the session's reader and the line already read from it (to tell a
    session from a change subscription).
    """
    to_server, server_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    reader = lines or BufferedByteReceiveStream(stream)
    unanswered = Unanswered()
    answers = SocketAnswers(stream, unanswered)

    async def read_lines() -> None:
        async with to_server:
            line = first or await next_line(reader)
            while line is not None:
                error = jsonrpc_guard.problem(line)  # as on stdio: a line the SDK would drop is answered here
                if error is not None:
                    await answers.refuse(error)
                else:
                    try:
                        message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except Exception:  # the SDK would only log it (none is known past the guard)
                        await answers.refuse(jsonrpc_guard.rejected(line))
                    else:
                        unanswered.passed(message)
                        await to_server.send(SessionMessage(message))
                line = await next_line(reader)
            # The peer sent all it will (`memvault mcp < requests.jsonl` through the relay): as on stdio,
            # what it asked is answered before the server's input ends (ending it would cancel them).
            with anyio.move_on_after(DRAIN_SECONDS):
                await unanswered.all_answered()

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        await serve(vault, caller, server_reads, answers)
        # The server closed its write side; stop reading whatever the peer still sends.
        group.cancel_scope.cancel()
