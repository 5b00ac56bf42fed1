"""A tool call's answer line, written from the JSON the gate already made.

The SDK turns a tool's result into its line in four passes over the answer (the result model dumped,
checked against the negotiated version's result model, dumped again, the JSON-RPC response
serialised): ~1 ms of the event loop for a ten-hit search, in series with every call. memvault's own
results (`errors.JsonResult`) already hold the answer's JSON: their text, of which their structured
content, when set, is the same answer. So the lane writes that JSON into the line as it is. What the
negotiated version keeps of a result is asked of the SDK's own sieve, once per version, on one of our
results; a version whose sieve keeps anything else of it (2026-07-28's `resultType`) gets the SDK's
passes.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import mcp_types
from mcp_types.methods import serialize_server_result
from pydantic import PrivateAttr

from memvault.mcp_bridge.errors import JsonResult, ok_result

CALL = "tools/call"


class AnswerLine(mcp_types.JSONRPCResponse):
    """A response whose wire line is written already; `result` stays empty (read the line)."""

    _line: str = PrivateAttr(default="")

    @classmethod
    def of(cls, request_id: Any, line: str) -> AnswerLine:
        answer = cls.model_construct(jsonrpc="2.0", id=request_id, result={})
        answer._line = line
        return answer


def message_json(message: Any) -> str:
    """The line of a message the server sends (without its newline)."""
    if isinstance(message, AnswerLine):
        return message._line
    line: str = message.model_dump_json(by_alias=True, exclude_unset=True)
    return line


@functools.cache
def keeps_structured(version: str) -> bool | None:
    """Whether the version keeps a result's `structuredContent`; None when its sieve keeps anything
    else of a result like ours than the line writes (then the SDK's passes write it)."""
    probe = ok_result({}, structured=True).model_dump(by_alias=True, mode="json", exclude_none=True)
    try:
        kept = serialize_server_result(CALL, version, probe)
    except (ValueError, KeyError):  # pydantic's ValidationError is a ValueError
        return None
    written = {"content": [{"type": "text", "text": "{}"}], "isError": False}
    if kept == {**written, "structuredContent": {}}:
        return True
    return False if kept == written else None


def answer_line(request_id: Any, result: JsonResult, structured: bool) -> AnswerLine:
    """The response to call `request_id`, as the SDK writes it for a version that keeps structured
    content or not (`structured`)."""
    (block,) = result.content
    text = getattr(block, "text", None)
    assert isinstance(text, str), "a JsonResult holds one text block"
    parts = ['{"jsonrpc":"2.0","id":', json.dumps(request_id), ',"result":{"content":[{"type":"text","text":']
    parts.append(json.dumps(text, ensure_ascii=False))
    parts.append("}]")
    if structured and result.structured_content is not None:
        parts += [',"structuredContent":', text]
    parts.append(',"isError":true}}' if result.is_error else ',"isError":false}}')
    return AnswerLine.of(request_id, "".join(parts))
