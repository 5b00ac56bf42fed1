"""The server's output on a daemon's socket: each answer written whole by the task that sends it.

A memory stream and a writer task between the server and the socket cost an event-loop hop per
answer, and a search's usage write, held until its answer is out (`later_writes.Hold`), was released
when the writer task took the answer: that write then competed with the answer's serialisation and
send for the interpreter (~0.5 ms a search at 10k). Written here, the answer is on the socket when
`send` returns, as on stdio (`stdio_transport.ServerAnswers`).
"""

from __future__ import annotations

import anyio
from anyio.abc import ByteSendStream, ObjectSendStream
from mcp.shared.message import SessionMessage

from memvault.mcp_bridge.answer_line import message_json


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
