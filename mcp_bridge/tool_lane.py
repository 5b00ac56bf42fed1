"""Tool calls answered beside the SDK's dispatcher: the same gate and the same answer, less of the loop.

The SDK's dispatch of one request costs the event loop ~0.3-0.5 ms of CPU (a relay task, a task
and a context per request, a middleware chain, validation and dump passes), in series with every
tool call. `ToolLane` sits between a session's streams and the SDK and answers the calls it can
take itself: after a handshake the SDK accepted (the 2025 protocol era), a `tools/call` whose
params hold only `name` (one of our tools) and `arguments`, valid for the negotiated version by
the SDK's own surface check. Its answer is the one the SDK would write: the tool's own gate
(`Gate.call`: kill switch, local-only, rate limit, argument model, the vault), shaped by the SDK's
own sieve for the negotiated version (`serialize_server_result`), sent as the same JSON-RPC
response. Everything else goes to the SDK untouched: the handshake, lists, pings, notifications,
unknown tools, malformed params, any `_meta` (progress tokens, the 2026 envelope), request state.
As under the SDK, calls run concurrently, and a call the client cancels is interrupted and gets
no answer. When the input ends, the session waits for the lane's calls and sends their answers
(the SDK cancels its own, and loses an answer its worker thread finishes after that); when the
session itself is cancelled, a call not answered yet gets `Connection closed`, as from the SDK.
Not made: the SDK's OpenTelemetry spans (no exporter is installed; its spans here are the API's
no-op ones). The gate gets no request context: the lane serves sessions whose caller is fixed
(stdio, the daemon's sockets), never HTTP.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types
from anyio.abc import ObjectReceiveStream, ObjectSendStream, TaskGroup
from mcp.server.mcpserver import MCPServer
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage
from mcp.types import CallToolResult
from mcp_types.methods import serialize_server_result, validate_client_request
from pydantic import ValidationError

from memvault.core.store import later_writes
from memvault.mcp_bridge import sdk_private
from memvault.mcp_bridge.answer_line import CALL, answer_line, keeps_structured
from memvault.mcp_bridge.errors import JsonResult
from memvault.mcp_bridge.tool_gate import ContractTool

log = logging.getLogger("memvault.mcp")

SHUTDOWN_WRITE_SECONDS = 1.0  # as the SDK bounds its last answer to a call when a session ends
INVALID_RESULT = "Handler returned an invalid result"  # the SDK's words for a result its sieve rejects


class ToolLane:
    """One session's lane: which calls it takes, the ones in flight, and their answers."""

    def __init__(
        self,
        server: MCPServer,
        answers: ObjectSendStream[SessionMessage],
        calls: TaskGroup,
        after_answer: Callable[[], None] = lambda: None,
    ) -> None:
        self._server = server
        self._answers = answers
        self._calls = calls
        self._after_answer = after_answer  # run once an answer is on its way
        self._version: str | None = None  # the protocol version the SDK negotiated, once it did
        self._handshake: object = None  # the id of the `initialize` request the SDK is answering
        # The calls running, by the id the client may cancel them with: "7" and 7 are one id there (the
        # SDK's `coerce_request_id`), and a client may reuse an id while a call runs: several per id.
        self._in_flight: dict[object, list[anyio.CancelScope]] = {}
        self._idle = anyio.Event()
        self._idle.set()

    def requests(self, inner: ObjectReceiveStream[SessionMessage | Exception]) -> LaneRequests:
        return LaneRequests(inner, self)

    def answers(self) -> LaneAnswers:
        return LaneAnswers(self._answers, self)

    def take(self, item: SessionMessage | Exception) -> bool:
        """Start answering `item` here when it is a call the lane takes; False passes it to the SDK."""
        if not isinstance(item, SessionMessage) or item.metadata is not None:
            return False
        message = item.message
        if isinstance(message, mcp_types.JSONRPCNotification) and message.method == "notifications/cancelled":
            self._peer_cancelled(message.params)  # the SDK still sees it (it may be one of its own)
        elif isinstance(message, mcp_types.JSONRPCRequest):
            if message.method == "initialize":
                self._handshake = message.id
            elif message.method == CALL:
                tool = self._tool_for(message.params)
                if tool is not None:
                    self._start(message, tool)
                    return True
        return False

    def sent(self, message: object) -> None:
        """The SDK answered: its answer to the handshake opens the lane at the version it negotiated."""
        if self._handshake is None or not isinstance(message, mcp_types.JSONRPCResponse):
            return
        if message.id == self._handshake:
            version = message.result.get("protocolVersion")
            self._version = version if isinstance(version, str) else None
            self._handshake = None

    async def finish(self) -> None:
        """The input ended: wait for the calls still running (their answers are sent)."""
        await self._idle.wait()

    def _tool_for(self, params: dict[str, Any] | None) -> ContractTool | None:
        if self._version is None or not isinstance(params, dict) or not params.keys() <= {"name", "arguments"}:
            return None
        try:
            validate_client_request(CALL, self._version, params)
        except Exception:  # whatever it is, the SDK answers it its own way
            return None
        tool = sdk_private.registered_tool(self._server, params["name"])
        return tool if isinstance(tool, ContractTool) else None

    def _start(self, request: mcp_types.JSONRPCRequest, tool: ContractTool) -> None:
        key = coerce_request_id(request.id)
        scope = anyio.CancelScope()
        if not self._in_flight:
            self._idle = anyio.Event()
        self._in_flight.setdefault(key, []).append(scope)
        self._calls.start_soon(self._answer, request, tool, key, scope)

    def _peer_cancelled(self, params: dict[str, Any] | None) -> None:
        request_id = as_request_id((params or {}).get("requestId"))
        key = coerce_request_id(request_id) if request_id is not None else None
        for scope in self._in_flight.get(key, ()):
            scope.cancel()

    async def _answer(
        self, request: mcp_types.JSONRPCRequest, tool: ContractTool, key: object, scope: anyio.CancelScope
    ) -> None:
        hold = later_writes.Hold()  # a search's usage is written once its answer is on its way
        try:
            await self._answer_holding(request, tool, key, scope, hold)
        finally:
            hold.release()

    async def _answer_holding(
        self,
        request: mcp_types.JSONRPCRequest,
        tool: ContractTool,
        key: object,
        scope: anyio.CancelScope,
        hold: later_writes.Hold,
    ) -> None:
        try:
            with scope, later_writes.holding(hold):  # cancelled by the client's `notifications/cancelled`
                arguments = (request.params or {}).get("arguments")
                result = await tool.gate.call(tool, arguments or {}, None)
                answer = self._response(request.id, result)
        except anyio.get_cancelled_exc_class():  # the session is going away
            with anyio.move_on_after(SHUTDOWN_WRITE_SECONDS, shield=True):
                await self._send(_error(request.id, mcp_types.CONNECTION_CLOSED, "Connection closed"))
            raise
        finally:
            running = self._in_flight[key]
            running.remove(scope)
            if not running:
                del self._in_flight[key]
            if not self._in_flight:
                self._idle.set()
        if scope.cancel_called:  # the client gave up on it: no answer (as from the SDK)
            return
        await self._send(answer)
        self._after_answer()

    async def _send(self, answer: mcp_types.JSONRPCResponse | mcp_types.JSONRPCError) -> None:
        try:
            await self._answers.send(SessionMessage(answer))
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            log.debug("bridge: no answer for a call: the session's output is closed")

    def _response(self, request_id: Any, result: CallToolResult) -> mcp_types.JSONRPCResponse | mcp_types.JSONRPCError:
        assert self._version is not None
        structured = keeps_structured(self._version)
        if isinstance(result, JsonResult) and structured is not None:  # ours: written from its JSON (`answer_line`)
            return answer_line(request_id, result, structured)
        try:
            dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
            wire = serialize_server_result(CALL, self._version, dumped)
        except ValidationError:
            log.exception("tool call: the result does not fit protocol %s", self._version)
            return _error(request_id, mcp_types.INTERNAL_ERROR, INVALID_RESULT)
        return mcp_types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=wire)


def _error(request_id: Any, code: int, message: str) -> mcp_types.JSONRPCError:
    return mcp_types.JSONRPCError(jsonrpc="2.0", id=request_id, error=mcp_types.ErrorData(code=code, message=message))


class LaneRequests(ObjectReceiveStream[SessionMessage | Exception]):
    """The SDK's input: the session's messages less the calls the lane answers."""

    def __init__(self, inner: ObjectReceiveStream[SessionMessage | Exception], lane: ToolLane) -> None:
        self._inner = inner
        self._lane = lane

    async def receive(self) -> SessionMessage | Exception:
        while True:
            try:
                item = await self._inner.receive()
            except anyio.EndOfStream:
                await self._lane.finish()
                raise
            if not self._lane.take(item):
                return item

    async def aclose(self) -> None:
        await self._inner.aclose()


class LaneAnswers(ObjectSendStream[SessionMessage]):
    """The SDK's output, watched for its answer to the handshake."""

    def __init__(self, inner: ObjectSendStream[SessionMessage], lane: ToolLane) -> None:
        self._inner = inner
        self._lane = lane

    async def send(self, item: SessionMessage) -> None:
        await self._inner.send(item)
        self._lane.sent(item.message)

    async def aclose(self) -> None:
        await self._inner.aclose()
