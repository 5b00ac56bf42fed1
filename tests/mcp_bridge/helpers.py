"""Talking to the memvault server through the official MCP client, in process.

`StreamsTransport` runs `serve_streams` (the same entry part B's stdio bridge and
socket relay use) over memory streams, so every call crosses real JSON-RPC
framing and the SDK's validation on both sides.
"""

from __future__ import annotations

import json
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
from mcp import Client
from mcp.shared.memory import create_client_server_memory_streams
from mcp.types import CallToolResult, TextContent

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge.server import serve_streams, tool_specs


class StreamsTransport:
    def __init__(self, vault: Vault, caller: Caller) -> None:
        self.vault = vault
        self.caller = caller
        self._stack: AsyncExitStack | None = None

    async def __aenter__(self) -> Any:
        stack = AsyncExitStack()
        client_streams, server_streams = await stack.enter_async_context(create_client_server_memory_streams())
        group = await stack.enter_async_context(anyio.create_task_group())
        done = anyio.Event()

        async def serve() -> None:
            try:
                await serve_streams(self.vault, self.caller, *server_streams)
            finally:
                done.set()

        group.start_soon(serve)

        async def stop() -> None:
            # End of input ends the session; cancelling is only the backstop.
            await client_streams[1].aclose()
            with anyio.move_on_after(2):
                await done.wait()
            group.cancel_scope.cancel()

        stack.push_async_callback(stop)
        self._stack = stack
        return client_streams

    async def __aexit__(self, *exc: Any) -> None:
        assert self._stack is not None
        await self._stack.aclose()


@asynccontextmanager
async def connect(vault: Vault, caller: Caller) -> Any:
    async with Client(StreamsTransport(vault, caller)) as client:
        yield client


@dataclass
class Answer:
    is_error: bool
    data: dict[str, Any]
    structured: dict[str, Any] | None

    @property
    def code(self) -> str | None:
        return self.data["error"]["code"] if self.is_error else None


def answer_of(result: CallToolResult) -> Answer:
    """The one JSON object of a tool result, checked against the contract's general rules."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    data = json.loads(block.text)
    assert isinstance(data, dict)
    if result.is_error:
        assert result.structured_content is None
        assert set(data) == {"error"} and set(data["error"]) == {"code", "message"}
    return Answer(bool(result.is_error), data, result.structured_content)


DECLARES_OUTPUT = {spec.name: spec.output_schema is not None for spec in tool_specs()}


async def call(client: Client, name: str, arguments: dict[str, Any] | None = None) -> Answer:
    """Call a tool; structuredContent must be the answer exactly where a schema is declared (never on errors)."""
    answer = answer_of(await client.call_tool(name, arguments or {}))
    if not answer.is_error:
        assert answer.structured == (answer.data if DECLARES_OUTPUT[name] else None), name
    return answer
