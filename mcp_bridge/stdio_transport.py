"""The embedded bridge's stdio: newline-delimited JSON-RPC read and written by the event loop itself.

The SDK's stdio transport reads every line and writes every answer through worker threads (three
thread hops a call), and the line guard in front of it (`jsonrpc_guard`) took two more threads and a
pipe pair. Here the loop waits on the client's pipe, checks each line with the guard (a line the SDK
would drop is answered here; a line over `jsonrpc_guard.MAX_LINE_BYTES` is refused without being
held whole, and the session goes on), and writes each answer whole; per call the only thread hop
left is the vault's own (`Gate`). No task or memory stream stands between the pipe and the SDK
either: the server's read stream (`ClientRequests`) reads the pipe when the server asks for its next
message, and its write stream (`ServerAnswers`) writes each answer from the task that sends it (a
relay task and a stream hop each way cost ~0.2 ms of event-loop CPU a call). When the client's input ends, the
session still answers the requests it has read (the SDK would cancel them), within `DRAIN_SECONDS`:
`memvault mcp < requests.jsonl` answers every line. While a session runs, fd 0 reads the null device
and fd 1 writes to stderr, as under the SDK's transport: nothing a library prints reaches the wire.
Windows: the loop cannot wait on a pipe there (anyio's selector thread takes sockets only) and
Python 3.11 cannot make one non-blocking, so a worker thread reads the client's input and answers
are written blocking (the client reads them).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import sys
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio
import mcp_types
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage

from memvault.mcp_bridge import jsonrpc_guard
from memvault.mcp_bridge.answer_line import message_json
from memvault.mcp_bridge.relay import CHUNK, DRAIN_SECONDS

log = logging.getLogger("memvault.bridge")


class ClientPipe:
    """The client's two descriptors: lines in, whole lines out (a waiting write never splits a line)."""

    def __init__(self, in_fd: int, out_fd: int) -> None:
        self.in_fd = in_fd
        self.out_fd = out_fd
        self._writing = anyio.Lock(fast_acquire=True)  # no yield when no other answer is being written
        self.serving = anyio.CancelScope()  # cancelled when the client stops reading: nothing can reach it
        # The loop waits on pipes, sockets and terminals; a file or the null device is always ready.
        self._pollable = _is_pipe(in_fd) or os.isatty(in_fd)

    async def read(self) -> bytes:
        if sys.platform == "win32":  # abandoned when cancelled: the client's input ends with the client
            return await anyio.to_thread.run_sync(os.read, self.in_fd, CHUNK, abandon_on_cancel=True)
        if self._pollable:
            await anyio.wait_readable(self.in_fd)
        return os.read(self.in_fd, CHUNK)

    async def write(self, data: bytes) -> None:
        async with self._writing:
            view = memoryview(data)
            while view and not self.serving.cancel_called:
                try:
                    view = view[os.write(self.out_fd, view) :]
                except BlockingIOError:  # the client reads slowly: wait, never block the loop
                    await anyio.wait_writable(self.out_fd)
                except OSError as exc:
                    log.info("bridge: the client stopped reading (%s): the session ends", exc.strerror)
                    self.serving.cancel()


class Unanswered:
    """The client's requests passed to the server and not answered yet, counted by id as the SDK
    correlates them ("7" and 7 are one id): a client may reuse an id while its first request runs."""

    def __init__(self) -> None:
        self._waiting: Counter[object] = Counter()
        self._none = anyio.Event()
        self._none.set()

    def passed(self, message: Any) -> None:
        if isinstance(message, mcp_types.JSONRPCRequest):
            if self._none.is_set():
                self._none = anyio.Event()
            self._waiting[coerce_request_id(message.id)] += 1
        elif isinstance(message, mcp_types.JSONRPCNotification) and message.method == "notifications/cancelled":
            request_id = as_request_id((message.params or {}).get("requestId"))
            if request_id is not None:  # a cancelled request gets no answer
                self._settle(coerce_request_id(request_id), everything=True)

    def sent(self, message: Any) -> None:
        if isinstance(message, mcp_types.JSONRPCResponse | mcp_types.JSONRPCError) and message.id is not None:
            self._settle(coerce_request_id(message.id))

    def _settle(self, key: object, *, everything: bool = False) -> None:
        if key in self._waiting:
            self._waiting[key] -= 1
            if everything or self._waiting[key] <= 0:
                del self._waiting[key]
        if not self._waiting:
            self._none.set()

    async def all_answered(self) -> None:
        await self._none.wait()


def _is_pipe(fd: int) -> bool:
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@contextlib.contextmanager
def claimed_stdio() -> Iterator[ClientPipe]:
    """The client's stdin/stdout as private descriptors; fds 0 and 1 point elsewhere meanwhile."""
    sys.stdout.flush()
    in_fd, out_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    if sys.platform != "win32":
        blocking = os.get_blocking(out_fd)
        if _is_pipe(out_fd):
            os.set_blocking(out_fd, False)
    try:
        yield ClientPipe(in_fd, out_fd)
    finally:
        sys.stdout.flush()
        if sys.platform != "win32":
            os.set_blocking(out_fd, blocking)
        os.dup2(in_fd, 0)
        os.dup2(out_fd, 1)
        os.close(in_fd)
        os.close(out_fd)


Session = Callable[[ObjectReceiveStream[SessionMessage | Exception], ObjectSendStream[SessionMessage]], Awaitable[None]]


async def serve_stdio(session: Session) -> None:
    """Run one MCP session (`session(read_stream, write_stream)`, e.g. `server.run_session` bound to a
    server) with the client on this process's stdin/stdout, until its stdin ends."""
    with claimed_stdio() as pipe, pipe.serving:
        unanswered = Unanswered()
        await session(ClientRequests(pipe, unanswered), ServerAnswers(pipe, unanswered))


class ClientRequests(ObjectReceiveStream[SessionMessage | Exception]):
    """The server's input: each line is read from the pipe, checked and parsed when the server asks for
    its next message (no task or memory stream between the pipe and the SDK)."""

    def __init__(self, pipe: ClientPipe, unanswered: Unanswered) -> None:
        self._pipe = pipe
        self._unanswered = unanswered
        self._lines: deque[bytes] = deque()
        self._splitter = jsonrpc_guard.LineSplitter()  # a line over the limit comes out as its refusal
        self._ended = False

    async def receive(self) -> SessionMessage | Exception:
        while True:
            while self._lines:
                item = await self._message(self._lines.popleft())
                if item is not None:
                    return item
            if self._ended:
                with anyio.move_on_after(DRAIN_SECONDS):
                    await self._unanswered.all_answered()  # ending the server's input would cancel them
                raise anyio.EndOfStream
            await self._read()

    async def _read(self) -> None:
        data = await self._pipe.read()
        if not data:
            self._ended = True
            self._lines.extend(self._splitter.end())  # the last line, without its newline
            return
        self._lines.extend(self._splitter.feed(data))

    async def _message(self, line: bytes) -> SessionMessage | None:
        """The line as the server's next message, or None (blank, or answered here by the guard)."""
        error = jsonrpc_guard.problem(line)
        if error is not None:
            await self._pipe.write(error)  # empty for a line dropped without an answer
            return None
        if not line.strip():
            return None
        try:
            message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception:  # the SDK would only log it: answered here (none is known past the guard)
            await self._pipe.write(jsonrpc_guard.rejected(line))
            return None
        self._unanswered.passed(message)
        return SessionMessage(message)

    async def aclose(self) -> None:
        """Nothing to release: the pipe belongs to `claimed_stdio`."""


class ServerAnswers(ObjectSendStream[SessionMessage]):
    """The server's output: each message written whole to the pipe by the task that sends it."""

    def __init__(self, pipe: ClientPipe, unanswered: Unanswered) -> None:
        self._pipe = pipe
        self._unanswered = unanswered
        self._closed = False

    async def send(self, item: SessionMessage) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        try:
            await self._pipe.write(message_json(item.message).encode("utf-8") + b"\n")
        finally:  # once written (or failed): counted sooner, the drain could end the session under a waiting write
            self._unanswered.sent(item.message)

    async def aclose(self) -> None:
        self._closed = True
