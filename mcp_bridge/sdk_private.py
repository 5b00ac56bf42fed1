"""What the bridge takes from the MCP SDK beyond its public API, in one place (mcp 2.3).

`MCPServer` keeps two things private that the bridge needs: the low-level server, to run a
session over streams of our own (stdio's, a daemon socket's), and its tool registry, so that the
tool lane answers a call with the very tool the SDK would. Each is reached here and nowhere else;
`check()` names any that an SDK no longer has, and a test runs it, so an upgrade fails loudly
here instead of deep inside a session.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

# Attribute paths on an MCPServer, with what each must offer.
PRIVATE = {
    "_lowlevel_server": ("run", "create_initialization_options"),
    "_tool_manager": ("get_tool",),
}


class SdkChanged(RuntimeError):
    """The installed MCP SDK no longer has a private attribute the bridge relies on."""


def _reach(server: MCPServer, name: str) -> Any:
    inner = getattr(server, name, None)
    missing = [member for member in PRIVATE[name] if not callable(getattr(inner, member, None))]
    if inner is None or missing:
        what = f"MCPServer.{name}" + (f".{missing[0]}" if inner is not None else "")
        raise SdkChanged(f"the MCP SDK changed: {what} is gone (see mcp_bridge/sdk_private.py)")
    return inner


def lowlevel_server(server: MCPServer) -> Any:
    """The SDK's low-level server inside `server` (runs a session over given streams)."""
    return _reach(server, "_lowlevel_server")


def registered_tool(server: MCPServer, name: str) -> Any:
    """The tool `server` serves under `name`, or None."""
    return _reach(server, "_tool_manager").get_tool(name)


def check(server: MCPServer) -> None:
    """Raise `SdkChanged` naming the first private attribute `server` lacks."""
    for name in PRIVATE:
        _reach(server, name)
