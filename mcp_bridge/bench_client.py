"""A blocking client of one MCP server through the official SDK client, for synchronous code.

The benchmark asks its questions one by one from plain functions; the SDK is async. The client
runs in a blocking portal (its own event loop in a worker thread), so every call still crosses
real JSON-RPC framing: in process (an `MCPServer`), over stdio (`StdioServerParameters`:
`memvault mcp` as assistants spawn it), or over the loopback HTTP transport with a bearer
token (`HttpTarget`: `memvault serve --http` as a remote assistant reaches it).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx2
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.server.mcpserver import MCPServer
from mcp.types import TextContent

TIMEOUT_S = 60


@dataclass(frozen=True)
class HttpTarget:
    url: str
    token: str


@asynccontextmanager
async def _connect(target: MCPServer | StdioServerParameters | HttpTarget) -> AsyncIterator[Client]:
    if isinstance(target, HttpTarget):
        headers = {"Authorization": f"Bearer {target.token}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=TIMEOUT_S) as http,
            Client(streamable_http_client(target.url, http_client=http)) as client,
        ):
            yield client
    else:
        async with Client(target) as client:
            yield client


class ToolClient:
    def __init__(self, target: MCPServer | StdioServerParameters | HttpTarget) -> None:
        self.target = target
        self._stack = ExitStack()
        self._portal: BlockingPortal | None = None
        self._client: Client | None = None

    def __enter__(self) -> ToolClient:
        self._portal = self._stack.enter_context(start_blocking_portal())
        self._client = self._stack.enter_context(self._portal.wrap_async_context_manager(_connect(self.target)))
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
