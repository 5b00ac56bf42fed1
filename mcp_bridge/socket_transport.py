"""The daemon's socket transport, beside stdio's (`stdio_transport.py`): one MCP session over a byte
stream of newline-delimited JSON-RPC (`serve_socket_session`), its lines read by `next_line`, its
answers written by `SocketAnswers`.

Each answer is written whole by the task that sends it.

A memory stream and a writer task between the server and the socket cost an event-loop hop per
answer, and a search's usage write, held until its answer is out (`later_writes.Hold`), was released
when the writer task took the answer: that write then competed with the answer's serialisation and
send for the interpreter (~0.5 ms a search at 10k). Written here, the answer is on the socket when
`send` returns, as on stdio (`stdio_transport.ServerAnswers`).
"""

from __future__ import annotations

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
from memvault.mcp_bridge.answer_line import message_json

log = logging.getLogger("memvault.daemon")

# One JSON-RPC message per line; a line longer than this ends the session (it cannot be a sane request).
MAX_LINE_BYTES = 16 * 1024 * 1024

SessionServer = Callable[[Vault, Caller, Any, Any], Awaitable[None]]


class SocketAnswers(ObjectSendStream[SessionMessage]):
    def __init__(self, stream: ByteSendStream) -> None:
        self._stream = stream
        self._writing = anyio.Lock(fast_acquire=True)  # one line at a time: answers come from several tasks
        self._closed = False

    async def send(self, item: SessionMessage) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        data = message_json(item.message).encode("utf-8") + b"\n"
        async with self._writing:
            try:
                await self._stream.send(data)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._closed = True  # the peer is gone: the server learns it as from a closed stream
                raise anyio.BrokenResourceError from None

    async def aclose(self) -> None:
        self._closed = True


async def next_line(lines: BufferedByteReceiveStream) -> bytes | None:
    """The next non-empty line, or None when the peer is gone or sent a line too long to be sane."""
    while True:
        try:
            line = await lines.receive_until(b"\n", MAX_LINE_BYTES)
        except (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError):
            return None
        except anyio.DelimiterNotFound:
            log.warning("session: a message longer than %d bytes; closing the session", MAX_LINE_BYTES)
            return None
        if line.strip():
            return line


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

    async def read_lines() -> None:
        async with to_server:
            line = first or await next_line(reader)
            while line is not None:
                try:
                    message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except Exception as exc:  # the server answers a parse error, as on stdio
                    await to_server.send(exc)
                else:
                    await to_server.send(SessionMessage(message))
                line = await next_line(reader)

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        await serve(vault, caller, server_reads, SocketAnswers(stream))
        # The server closed its write side; stop reading whatever the peer still sends.
        group.cancel_scope.cancel()
