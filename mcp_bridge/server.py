"""The memvault MCP server: the contract's tools over one `Vault`, each call acting as one caller.

- `build_server(vault, caller)`: a server whose every call is `caller` (stdio, a
  relayed socket session: the local surface).
- `create_server(vault, caller_of, limiter)`: the general form, where the caller
  comes from each request (the HTTP transport reads it from the bearer token).
- `server_for(gate)`: the same tools answered by any gate (`not_ready.PendingGate` for a
  store the bridge cannot open yet).
- `serve_streams(...)` runs one session over given anyio streams; `run_stdio(...)`
  serves stdin/stdout.

Tools live in `tools/<group>.py`, each module listing its `TOOLS`.
"""

from __future__ import annotations

import functools
import gc
import logging
import threading
from types import ModuleType
from typing import Any

import anyio
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp.server.mcpserver import Context, MCPServer

from memvault import __version__
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.writer import gate as writer_gate
from memvault.mcp_bridge.ratelimit import RateLimiter
from memvault.mcp_bridge.stdio_transport import serve_stdio
from memvault.mcp_bridge.tool_lane import ToolLane
from memvault.mcp_bridge.tools import (
    advanced,
    benchmark,
    export,
    feedback,
    importing,
    maintenance,
    propose,
    records,
    search,
    writes,
)
from memvault.mcp_bridge.tools.base import CallerSource, Gate, ToolGate, ToolSpec, make_tool

log = logging.getLogger("memvault.mcp")

TOOL_MODULES: tuple[ModuleType, ...] = (
    search,
    records,
    writes,
    export,
    advanced,
    feedback,
    maintenance,
    propose,
    benchmark,
    importing,
)

INSTRUCTIONS = (
    "memvault is the person's private, local long-term memory. Before answering anything that depends on "
    "who they are, what they decided, prefer or are working on, call memory_search and cite records by [id]. "
    "Store durable facts, decisions and corrections with memory_add / memory_correct, or several at once with "
    "memory_propose, which checks them against what is already known (never secrets or chatter); "
    "writes may wait for the person's approval. You only ever see what this connection is allowed to see."
)


def tool_specs() -> list[ToolSpec]:
    return [spec for module in TOOL_MODULES for spec in module.TOOLS]


def create_server(vault: Vault, caller_of: CallerSource, limiter: RateLimiter | None = None) -> MCPServer:
    # A server lives long: an add answers before its embedding is computed (a search waits for it).
    vault.retriever.embed_in_background()
    vault.retriever.usage_after_answer()  # and a search's usage is written after its answer
    _warm_the_writer()
    return server_for(Gate(vault, caller_of, limiter))


@functools.cache
def _warm_the_writer() -> None:
    """Once per process, on a thread of its own: the secret detectors load while the session
    starts (the client lists the tools, a first search loads the model)."""
    threading.Thread(target=writer_gate.warm, name="memvault-writer-warm", daemon=True).start()


def server_for(gate: ToolGate) -> MCPServer:
    """The contract's tools, every call answered by `gate` (a store's, or the not-ready bridge's)."""
    return MCPServer(
        "memvault",
        title="memvault",
        instructions=INSTRUCTIONS,
        version=__version__,
        tools=[make_tool(spec, gate) for spec in tool_specs()],
        log_level="WARNING",
    )


def build_server(vault: Vault, caller: Caller) -> MCPServer:
    """A server whose every tool call acts as `caller`."""

    def fixed(_context: Context | None) -> Caller:
        return caller

    if caller.is_local:  # while the client starts the session, what a first search needs loads
        threading.Thread(target=warm_search, args=(vault, caller), name="memvault-search-warm", daemon=True).start()
    return create_server(vault, fixed)


def warm_search(vault: Vault, caller: Caller) -> bool:
    """Set up what `caller`'s searches need (`Vault.warm_search`; quick once it is set up). A store
    closed meanwhile, the kill switch, or any other failure leaves the first search to load what
    it needs (and to report what fails): False."""
    try:
        vault.warm_search(caller)
    except Exception as exc:
        log.info("search warm-up stopped (%s)", type(exc).__name__)
        return False
    return True


@functools.cache
def settle_heap() -> None:
    """Once per process, after its first answered tool call (the model, the caches and the SDK are
    loaded by then): collect, then freeze what is left out of later collections, so that a full
    collection walks only what came after (10k, 200 searches: gen2 ~90-150 -> ~10 ms each)."""
    gc.collect()  # nothing already garbage is frozen
    gc.freeze()


async def run_session(server: MCPServer, read_stream: Any, write_stream: Any) -> None:
    """One MCP session of `server` over a pair of anyio streams of SessionMessage, its caller fixed
    (stdio, a daemon's socket): tool calls take the lane beside the SDK's dispatcher (`tool_lane`)."""
    lowlevel = server._lowlevel_server  # the SDK exposes the low-level server only privately (2.3)
    async with anyio.create_task_group() as calls:
        lane = ToolLane(server, write_stream, calls, after_answer=settle_heap)
        await lowlevel.run(lane.requests(read_stream), lane.answers(), lowlevel.create_initialization_options())


async def serve_streams(
    vault: Vault,
    caller: Caller,
    read_stream: ObjectReceiveStream[Any],
    write_stream: ObjectSendStream[Any],
) -> None:
    """Run one MCP session as `caller` over the given streams (stdio's, or a socket adapter's)."""
    await run_session(build_server(vault, caller), read_stream, write_stream)


def run_stdio(vault: Vault, caller: Caller) -> None:
    """Serve one session on stdin/stdout until the client closes it. Nothing else may write to stdout."""
    anyio.run(serve_stdio, functools.partial(run_session, build_server(vault, caller)))
