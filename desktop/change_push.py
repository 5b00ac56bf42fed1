"""The daemon's side of the change feed: subscriptions on its socket, pushed changes.

A connection whose first line is a subscription request (below) is not an MCP session: the
daemon answers the cursor it starts from (the current one when none is asked), then pushes
every batch of changes after it, one JSON line each, until the peer closes. One watcher on the
change signal (`core/runtime/change_watch.py`) wakes every subscription, whichever process committed.

    -> {"jsonrpc": "2.0", "id": 1, "method": "memvault/subscribe_changes", "params": {"cursor": 12}}
    <- {"jsonrpc": "2.0", "id": 1, "result": {"cursor": 12}}
    <- {"jsonrpc": "2.0", "method": "memvault/changes", "params": <ChangeBatch.to_dict()>}

The cursor may be null (from now on). Changes are those the daemon's caller (the local
assistant: every change, ids only) may see; the socket admits only this user's processes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
from typing import TYPE_CHECKING, Any

from memvault.core.runtime.paths import VaultPaths
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import Caller

if TYPE_CHECKING:
    import anyio
    from anyio.abc import ByteStream
    from anyio.streams.buffered import BufferedByteReceiveStream

    from memvault.core.operations.changes import ChangeBatch
    from memvault.core.vault import Vault

log = logging.getLogger("memvault.daemon")

SUBSCRIBE = "memvault/subscribe_changes"
PUSHED = "memvault/changes"


def subscription(line: bytes) -> dict[str, Any] | None:
    """The subscription request this first line is, or None (then it is the start of an MCP session)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) and message.get("method") == SUBSCRIBE else None


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class ChangeHub:
    """Wakes every subscription when the change signal moves. Runs in the daemon's event loop."""

    def __init__(self, paths: VaultPaths) -> None:
        self.paths = paths
        self._changed: anyio.Event | None = None

    def changed(self) -> anyio.Event:
        """An event set at the next commit anywhere; take it before reading, wait on it after."""
        assert self._changed is not None, "the hub is not running"
        return self._changed

    async def run(self, *, task_status: Any) -> None:
        import anyio  # noqa: PLC0415 - the daemon's imports stay out of the CLI's start-up

        from memvault.core.runtime.change_watch import SignalWatcher  # noqa: PLC0415
        from memvault.core.vault import hearing_other_machines  # noqa: PLC0415

        self._changed = anyio.Event()
        # Watchdog's thread writes a byte into a socket pair: it never waits for the loop (which could
        # be joining that very thread while stopping). A socket pair, not a pipe: on Windows the loop
        # can wait on sockets only.
        read_end, write_end = socket.socketpair()
        read_end.setblocking(False)
        write_end.setblocking(False)
        watcher = SignalWatcher(self.paths, lambda: _poke(write_end))
        others = hearing_other_machines(self.paths, lambda: _poke(write_end))  # a shared store's other machines
        try:
            await anyio.to_thread.run_sync(watcher.start)
            await anyio.to_thread.run_sync(others.__enter__)
            task_status.started()
            while True:
                await anyio.wait_readable(read_end)
                with contextlib.suppress(BlockingIOError):
                    read_end.recv(4096)
                woken, self._changed = self._changed, anyio.Event()
                woken.set()
        finally:
            others.__exit__(None, None, None)
            watcher.stop()
            read_end.close()
            write_end.close()


def _poke(end: socket.socket) -> None:
    with contextlib.suppress(OSError):  # a full pair already holds a wake-up; a closed one: stopping
        end.send(b"!")


async def serve_subscription(
    vault: Vault,
    caller: Caller,
    stream: ByteStream,
    lines: BufferedByteReceiveStream,
    request: dict[str, Any],
    hub: ChangeHub,
) -> None:
    """Answer the subscription, then push changes until the peer goes away."""
    import anyio  # noqa: PLC0415

    params = request["params"] if isinstance(request.get("params"), dict) else {}
    requested = params.get("cursor")
    try:
        first = await _fetch(vault, caller, requested)  # checks the cursor; None: learn the current one
    except MemvaultError as exc:
        error = {"code": -32602, "message": exc.message, "data": {"code": exc.code}}
        await stream.send(encode({"jsonrpc": "2.0", "id": request.get("id"), "error": error}))
        return
    position: int = first.cursor if requested is None else requested
    await stream.send(encode({"jsonrpc": "2.0", "id": request.get("id"), "result": {"cursor": position}}))

    async def until_closed(scope: anyio.CancelScope) -> None:
        with contextlib.suppress(anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
            while await lines.receive():  # a subscriber has nothing more to say
                pass
        scope.cancel()

    with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
        async with anyio.create_task_group() as group:
            group.start_soon(until_closed, group.cancel_scope)
            while True:
                changed = hub.changed()
                position = await _push_since(vault, caller, stream, position)
                await changed.wait()


async def _fetch(vault: Vault, caller: Caller, cursor: Any) -> ChangeBatch:
    import anyio  # noqa: PLC0415

    return await anyio.to_thread.run_sync(lambda: vault.changes_since(caller, cursor))


async def _push_since(vault: Vault, caller: Caller, stream: ByteStream, cursor: int) -> int:
    """Send every change after `cursor` (in batches); answers the new cursor."""
    while True:
        try:
            batch = await _fetch(vault, caller, cursor)
        except MemvaultError as exc:  # busy store, kill switch: try again at the next change
            log.warning("daemon: changes not pushed (%s)", exc.code)
            return cursor
        if batch.changes or batch.reset:
            await stream.send(encode({"jsonrpc": "2.0", "method": PUSHED, "params": batch.to_dict()}))
        cursor = batch.cursor
        if not batch.more:
            return cursor
