"""`memvault mcp` on a store it cannot open: the session still starts, and every call says what to run.

A client that spawns the bridge before `memvault init` (or while the store is locked, or
written by a newer memvault) would otherwise see only "connection closed". Here the
handshake completes with the usual tools; each call answers the contract's `not_ready`
error naming the one command that fixes it, and `memory_status` answers normally with
`ready: false` and the same facts in `not_ready`. Each call first looks again: a daemon
that started meanwhile (`memvault daemon`, the fix for a locked store) answers the call
through its socket, else the store is opened here if it now can be (after `memvault
init`). Either way the same session serves for real, without restarting the client.
"""

from __future__ import annotations

import functools
import logging
import threading
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import mcp_types
from anyio.abc import UNIXSocketStream
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp import ClientSession
from mcp.server.mcpserver import Context
from mcp.shared.message import SessionMessage
from mcp.types import CallToolResult

from memvault import __version__
from memvault.core.runtime.paths import VaultPaths
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge import relay
from memvault.mcp_bridge.errors import error_result, log_unexpected, ok_result
from memvault.mcp_bridge.readiness import NotReady, diagnose
from memvault.mcp_bridge.server import server_for
from memvault.mcp_bridge.stdio_transport import serve_stdio
from memvault.mcp_bridge.tool_gate import ContractTool, Gate
from memvault.mcp_bridge.tool_server import run_session

log = logging.getLogger("memvault.bridge")
MAX_LINE_BYTES = 64 * 1024 * 1024


def open_or_explain(home: Path) -> Vault | NotReady:
    """The opened store, or why it cannot be opened and what fixes that."""
    paths = VaultPaths.from_env(home)
    try:
        return Vault.open(paths.home)
    except Exception as exc:  # any failure to open is answered, never a silent exit
        problem = diagnose(exc, paths)
        if problem.reason == "unavailable":
            log_unexpected(exc, "(opening the store)")
        return problem


class PendingGate:
    """Answers `not_ready` until the store opens; from then on every call goes through a normal `Gate`."""

    def __init__(self, home: Path, caller: Caller, problem: NotReady) -> None:
        self.home = home
        self.caller = caller
        self.problem = problem
        self.vault: Vault | None = None
        self._gate: Gate | None = None
        self._lock = threading.Lock()

    async def call(self, tool: ContractTool, arguments: Any, context: Context | None) -> CallToolResult:
        if self._gate is None:
            daemon = relay.connect(relay.DaemonAddress.for_home(VaultPaths.from_env(self.home).home))
            if daemon is not None:
                log.info("tool %s: a daemon answers now; calling through it", tool.spec.name)
                try:
                    return await call_through_daemon(daemon, tool.spec.name, arguments or {})
                except Exception as exc:  # the daemon stopped or failed mid-call: answer as before
                    log_unexpected(exc, tool.spec.name)
        gate = self._gate or await anyio.to_thread.run_sync(self._try_open)
        if gate is not None:
            return await gate.call(tool, arguments, context)
        log.info("tool %s: not ready (%s)", tool.spec.name, self.problem.reason)
        if tool.spec.name == "memory_status":
            return ok_result(self.status(), structured=True)
        return error_result("not_ready", self.problem.message)

    def status(self) -> dict[str, Any]:
        """memory_status while the store cannot be opened: what is wrong and the command that fixes it."""
        return {"version": __version__, "contract": 1, "ready": False, "not_ready": self.problem.as_fields()}

    def _try_open(self) -> Gate | None:
        with self._lock:  # two calls at once must not open the store twice
            if self._gate is None:
                opened = open_or_explain(self.home)
                if isinstance(opened, NotReady):
                    self.problem = opened
                    return None
                self.vault = opened
                self._gate = Gate(opened, self._caller)
                log.info("bridge: the store opened during the session; serving it")
            return self._gate

    def _caller(self, _context: Context | None) -> Caller:
        return self.caller

    def close(self) -> None:
        if self.vault is not None:
            self.vault.close()


async def call_through_daemon(daemon: Any, name: str, arguments: dict[str, Any]) -> CallToolResult:
    """One tool call in a short MCP session with the daemon on `daemon` (a connected Unix socket)."""
    daemon.setblocking(False)
    stream = await UNIXSocketStream.from_socket(daemon)
    lines = BufferedByteReceiveStream(stream)
    incoming, client_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    client_writes, outgoing = anyio.create_memory_object_stream[SessionMessage](0)

    async def read_lines() -> None:
        async with incoming:
            while True:
                try:
                    line = await lines.receive_until(b"\n", MAX_LINE_BYTES)
                except (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError):
                    return  # the daemon went away: the client session sees its stream end
                if line.strip():
                    message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    await incoming.send(SessionMessage(message))

    async def write_lines() -> None:
        async with outgoing:
            async for item in outgoing:
                await stream.send(item.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n")

    async with stream, anyio.create_task_group() as group:
        group.start_soon(read_lines)
        group.start_soon(write_lines)
        async with ClientSession(client_reads, client_writes) as session:
            await session.initialize()
            result = await session.call_tool(name, arguments)
        group.cancel_scope.cancel()
    return result


def serve_not_ready(home: Path, caller: Caller, problem: NotReady) -> int:
    """Serve one stdio session whose calls answer `not_ready` until the store can be opened."""
    gate = PendingGate(home, caller, problem)
    try:
        anyio.run(serve_stdio, functools.partial(run_session, server_for(gate)))
    finally:
        gate.close()
    log.info("bridge: session ended")
    return 0
