"""`memvault mcp` on a store it cannot open: the session still starts, and every call says what to run.

A client that spawns the bridge before `memvault init` (or while the store is locked, or
written by a newer memvault) would otherwise see only "connection closed". Here the
handshake completes with the usual tools; each call answers the contract's `not_ready`
error naming the one command that fixes it, and `memory_status` answers normally with
`ready: false` and the same facts in `not_ready`. Each call first tries the store again,
so once the person has run that command (say `memvault init`) the same session serves
for real, without restarting the client.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from memvault import __version__
from memvault.core.model import Caller
from memvault.core.paths import VaultPaths
from memvault.core.vault import Vault
from memvault.mcp_bridge.errors import error_result, log_unexpected, ok_result
from memvault.mcp_bridge.readiness import NotReady, diagnose
from memvault.mcp_bridge.server import server_for
from memvault.mcp_bridge.tools.base import ContractTool, Gate

log = logging.getLogger("memvault.bridge")


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


def serve_not_ready(home: Path, caller: Caller, problem: NotReady) -> int:
    """Serve one stdio session whose calls answer `not_ready` until the store can be opened."""
    gate = PendingGate(home, caller, problem)
    try:
        anyio.run(server_for(gate).run_stdio_async)
    finally:
        gate.close()
    log.info("bridge: session ended")
    return 0
