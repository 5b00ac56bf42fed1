"""How a memvault tool is declared and run.

A tool is a plain function `fn(vault, caller, **arguments) -> dict` plus its
contract facts (name, annotations, output schema, local-only). `ContractTool`
registers it with the SDK so that the SDK publishes the input schema derived
from the function's signature, while every call goes through `Gate.call`:

    caller from the connection -> kill switch -> local-only -> rate limit
    -> argument validation -> Vault (in a worker thread) -> one JSON object

Every failure becomes a contract error result; nothing raises into the SDK.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools.base import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata, func_metadata
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field, ValidationError

from memvault.core.operations.serving import Serving
from memvault.core.security.access import check_kill_switch, require_local
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge.errors import code_for, ok_result, result_for
from memvault.mcp_bridge.oauth.scopes import check_tool_scope
from memvault.mcp_bridge.ratelimit import RateLimiter

log = logging.getLogger("memvault.mcp")

ToolFn = Callable[..., Mapping[str, object]]  # answers are core/vocabulary/results.py types
CallerSource = Callable[[Context | None], Caller]
INJECTED = ("vault", "caller")


def read_only() -> ToolAnnotations:
    return ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def mutating(*, destructive: bool, idempotent: bool) -> ToolAnnotations:
    return ToolAnnotations(
        read_only_hint=False, destructive_hint=destructive, idempotent_hint=idempotent, open_world_hint=False
    )


@dataclass(frozen=True)
class ToolSpec:
    name: str
    fn: ToolFn
    description: str
    annotations: ToolAnnotations
    output_schema: dict[str, Any] | None = None
    local_only: bool = False
    title: str | None = None
    # What may start before the call's checks and its hop to a worker thread (for the person's own
    # callers only), e.g. a search's query vector; it must read nothing of the store.
    ahead: Callable[[Serving, Mapping[str, Any]], None] | None = None


class Gate:
    """Runs every call of one server: who is calling, what they may do, and the answer's shape."""

    def __init__(self, vault: Vault, caller_of: CallerSource, limiter: RateLimiter | None = None) -> None:
        self.vault = vault
        self.caller_of = caller_of
        self.limiter = limiter

    async def call(self, tool: ContractTool, arguments: Any, context: Context | None) -> CallToolResult:
        spec: ToolSpec = tool.spec
        started = time.perf_counter()
        principal, outcome = "?", "ok"
        try:
            caller = self.caller_of(context)
            principal = caller.principal
            # Not for remote callers: their kill switch and rate limit are checked first.
            if spec.ahead is not None and caller.is_local and isinstance(arguments, dict):
                spec.ahead(self.vault.serving, arguments)
            data = await anyio.to_thread.run_sync(self._run, tool, caller, arguments)
            result = ok_result(data, structured=spec.output_schema is not None)
        except Exception as exc:  # every failure is an answer, never a crash of the session
            result, outcome = result_for(exc, spec.name), code_for(exc)
        # Written at the loop's next turn: when the lane answers, after the answer is out (the
        # file's write and flush cost ~0.25 ms a call).
        ms = (time.perf_counter() - started) * 1000
        asyncio.get_running_loop().call_soon(
            log.info, "tool %s principal=%s %s ms=%.1f", spec.name, principal, outcome, ms
        )
        return result

    def _run(self, tool: ContractTool, caller: Caller, arguments: Any) -> Mapping[str, object]:
        spec: ToolSpec = tool.spec
        check_kill_switch(self.vault.kill_switch(), caller)
        if spec.local_only:
            require_local(caller, spec.name)
        check_tool_scope(caller, spec.name)  # an OAuth connection: only what the person granted
        if self.limiter is not None and not caller.is_local:
            self.limiter.check(caller.principal)
        return spec.fn(self.vault, caller, **validate_arguments(tool, arguments))


def validate_arguments(tool: Tool, arguments: Any) -> dict[str, Any]:
    """The SDK's argument model, strict about names and types, its errors turned into invalid_argument."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise InvalidArgument("arguments: expected an object")
    known = {field.alias or name for name, field in tool.fn_metadata.arg_model.model_fields.items()}
    unknown = sorted(str(key) for key in arguments if key not in known)
    if unknown:
        raise InvalidArgument(f"unknown argument(s): {', '.join(unknown)[:200]}")
    try:
        # Strict: the JSON types the schema declares, no coercion ("5" or true for an integer).
        return tool.fn_metadata.arg_model.model_validate(arguments, strict=True).model_dump_one_level()
    except ValidationError as exc:
        raise InvalidArgument(describe(exc)) from None


def describe(exc: ValidationError) -> str:
    """Field names and what was expected, never the rejected values (they are the caller's data)."""
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)[:500]


class ToolGate(Protocol):
    """What answers a tool's calls: `Gate`, or the bridge's gate for a store that cannot be opened yet."""

    async def call(self, tool: ContractTool, arguments: Any, context: Context | None) -> CallToolResult: ...


class ContractTool(Tool):
    """An SDK tool whose calls go through the gate."""

    spec: Any = Field(default=None, exclude=True)
    gate: Any = Field(default=None, exclude=True)

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        return await self.gate.call(self, arguments, context)


_METADATA: dict[str, tuple[FuncMetadata, str]] = {}


def _metadata(spec: ToolSpec) -> tuple[FuncMetadata, str]:
    """The argument model and input schema of a tool, built once per process (pydantic models are costly)."""
    if spec.name not in _METADATA:
        metadata = func_metadata(spec.fn, skip_names=INJECTED, structured_output=False)
        metadata.output_schema = spec.output_schema
        _METADATA[spec.name] = metadata, json.dumps(metadata.arg_model.model_json_schema(by_alias=True))
    return _METADATA[spec.name]


def make_tool(spec: ToolSpec, gate: ToolGate) -> ContractTool:
    metadata, input_schema = _metadata(spec)
    return ContractTool(
        fn=spec.fn,
        name=spec.name,
        title=spec.title,
        description=spec.description,
        parameters=json.loads(input_schema),
        fn_metadata=metadata,
        is_async=False,
        context_kwarg=None,
        annotations=spec.annotations,
        spec=spec,
        gate=gate,
    )
