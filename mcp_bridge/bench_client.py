"""A blocking client of one MCP server through the official SDK client, for synchronous code.

The benchmark asks its questions one by one from plain functions; the SDK is async. The client
runs in a blocking portal (its own event loop in a worker thread), so every call still crosses
real JSON-RPC framing: in process (an `MCPServer`) or over stdio (`StdioServerParameters`:
`memvault mcp` as assistants spawn it).
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer
from mcp.types import TextContent


class ToolClient:
    def __init__(self, server: MCPServer | StdioServerParameters) -> None:
        self.server = server
        self._stack = ExitStack()
        self._portal: BlockingPortal | None = None
        self._client: Client | None = None

    def __enter__(self) -> ToolClient:
        self._portal = self._stack.enter_context(start_blocking_portal())
        self._client = self._stack.enter_context(self._portal.wrap_async_context_manager(Client(self.server)))
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool's one JSON object (an error answer is `{"error": {...}}`, as the contract shapes it)."""
        assert self._portal is not None and self._client is not None, "use ToolClient as a context manager"
        result = self._portal.call(self._client.call_tool, name, arguments)
        block = result.content[0]
        if not isinstance(block, TextContent):
            raise TypeError(f"{name}: expected one text block")
        data: dict[str, Any] = json.loads(block.text)
        return data

    def search(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.call("memory_search", arguments)
