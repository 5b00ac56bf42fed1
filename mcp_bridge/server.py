"""The memvault MCP server: every tool of the contract over one `Vault` (`tool_server.py` builds it).

- `build_server(vault, caller)`, `create_server(vault, caller_of, limiter)`, `server_for(gate)`:
  `tool_server`'s builders with the contract's tools;
- `serve_streams(...)` runs one session over given anyio streams; `run_stdio(...)` serves
  stdin/stdout.

Tools live in `tools/<group>.py`, each module listing its `TOOLS`.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

import anyio
from anyio.abc import ObjectReceiveStream, ObjectSendStream
from mcp.server.mcpserver import MCPServer

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge import tool_server
from memvault.mcp_bridge.ratelimit import RateLimiter
from memvault.mcp_bridge.stdio_transport import serve_stdio
from memvault.mcp_bridge.tool_gate import CallerSource, ToolGate, ToolSpec
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


def tool_specs() -> list[ToolSpec]:
    return [spec for module in TOOL_MODULES for spec in module.TOOLS]


def create_server(vault: Vault, caller_of: CallerSource, limiter: RateLimiter | None = None) -> MCPServer:
    return tool_server.create_server(vault, caller_of, tool_specs(), limiter)


def server_for(gate: ToolGate) -> MCPServer:
    return tool_server.server_for(gate, tool_specs())


def build_server(vault: Vault, caller: Caller) -> MCPServer:
    return tool_server.build_server(vault, caller, tool_specs())


async def serve_streams(
    vault: Vault,
    caller: Caller,
    read_stream: ObjectReceiveStream[Any],
    write_stream: ObjectSendStream[Any],
) -> None:
    """Run one MCP session as `caller` over the given streams (stdio's, or a socket adapter's)."""
    await tool_server.run_session(build_server(vault, caller), read_stream, write_stream)


def run_stdio(vault: Vault, caller: Caller) -> None:
    """Serve one session on stdin/stdout until the client closes it. Nothing else may write to stdout."""
    anyio.run(serve_stdio, functools.partial(tool_server.run_session, build_server(vault, caller)))
