"""An MCP server over a given set of tools and one `Vault`, each call acting as one caller, and
its sessions.

- `build_server(vault, caller, tools)`: every call is `caller` (stdio, a relayed socket session).
- `create_server(vault, caller_of, tools, limiter)`: the caller comes from each request (the
  HTTP transport reads it from the bearer token).
- `server_for(gate, tools)`: the tools answered by any gate (`not_ready.PendingGate` for a store
  the bridge cannot open yet).
- `run_session(...)` runs one session over given anyio streams, its tool calls on the lane.

Which tools: `server.py` serves the contract's; the benchmark serves only the search it measures.
"""

from __future__ import annotations

import functools
import gc
import logging
from collections.abc import Sequence
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer

from memvault import __version__
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge import sdk_private
from memvault.mcp_bridge.ratelimit import RateLimiter
from memvault.mcp_bridge.tool_gate import CallerSource, Gate, ToolGate, ToolSpec, make_tool
from memvault.mcp_bridge.tool_lane import ToolLane

log = logging.getLogger("memvault.mcp")

INSTRUCTIONS = (
    "memvault is the person's private, local long-term memory. Before answering anything that depends on "
    "who they are, what they decided, prefer or are working on, call memory_search and cite records by [id]. "
    "Store durable facts, decisions and corrections with memory_add / memory_correct, or several at once with "
    "memory_propose, which checks them against what is already known (never secrets or chatter); "
    "writes may wait for the person's approval. You only ever see what this connection is allowed to see."
)


def create_server(
    vault: Vault, caller_of: CallerSource, tools: Sequence[ToolSpec], limiter: RateLimiter | None = None
) -> MCPServer:
    vault.serving.start()  # a server lives long: `Serving` does what that allows for speed
    return server_for(Gate(vault, caller_of, limiter), tools)


def server_for(gate: ToolGate, tools: Sequence[ToolSpec]) -> MCPServer:
    """`tools`, every call answered by `gate` (a store's, or the not-ready bridge's)."""
    return MCPServer(
        "memvault",
        title="memvault",
        instructions=INSTRUCTIONS,
        version=__version__,
        tools=[make_tool(spec, gate) for spec in tools],
        log_level="WARNING",
    )


def build_server(vault: Vault, caller: Caller, tools: Sequence[ToolSpec]) -> MCPServer:
    """A server of `tools` whose every call acts as `caller`."""

    def fixed(_context: Context | None) -> Caller:
        return caller

    if caller.is_local:  # while the client starts the session, what a first search needs loads
        vault.serving.warm_in_background(caller)
    return create_server(vault, fixed, tools)


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
    lowlevel = sdk_private.lowlevel_server(server)
    async with anyio.create_task_group() as calls:
        lane = ToolLane(server, write_stream, calls, after_answer=settle_heap)
        await lowlevel.run(lane.requests(read_stream), lane.answers(), lowlevel.create_initialization_options())
