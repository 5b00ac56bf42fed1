"""The answer line (`answer_line`): written from the gate's JSON, it must be what the SDK writes.

For every protocol version the SDK knows, and for answers with structured content, without it,
and errors (text with quotes, newlines, non-ASCII, floats, nulls), the line parses to exactly what
the SDK's own passes (result dump, the version's sieve, the JSON-RPC response) write; a version
whose result holds more than the line writes is left to those passes.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types
import pytest
from mcp_types.methods import KNOWN_PROTOCOL_VERSIONS, serialize_server_result

from memvault.mcp_bridge.answer_line import CALL, AnswerLine, answer_line, keeps_structured, message_json
from memvault.mcp_bridge.errors import JsonResult, error_result, ok_result

ANSWER = {
    "query": 'the "kitchen" budget\nline two',
    "results": [{"id": "m1", "score": 0.30000000000000004, "statement": "Åsa's café: 4 000 kr", "valid_until": None}],
    "skipped": False,
    "budget": {"records": 1, "tokens": 12, "latency_ms": 3.5, "truncated": False},
}
RESULTS = {
    "structured": ok_result(ANSWER, structured=True),
    "text only": ok_result(ANSWER, structured=False),
    "error": error_result("not_found", 'no record "m9" here'),
}


def sdk_line(request_id: Any, result: JsonResult, version: str) -> dict[str, Any]:
    wire = serialize_server_result(CALL, version, result.model_dump(by_alias=True, mode="json", exclude_none=True))
    response = mcp_types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=wire)
    written: dict[str, Any] = json.loads(response.model_dump_json(by_alias=True, exclude_unset=True))
    return written


@pytest.mark.parametrize("version", KNOWN_PROTOCOL_VERSIONS)
@pytest.mark.parametrize("kind", RESULTS)
@pytest.mark.parametrize("request_id", [7, "call-7"])
def test_the_line_is_what_the_sdk_writes(version: str, kind: str, request_id: Any) -> None:
    structured = keeps_structured(version)
    if structured is None:  # this version's result holds more than the line writes: left to the SDK
        assert set(sdk_line(request_id, RESULTS[kind], version)["result"]) - {"content", "structuredContent", "isError"}
        return
    line = answer_line(request_id, RESULTS[kind], structured)
    assert json.loads(message_json(line)) == sdk_line(request_id, RESULTS[kind], version)


def test_a_structured_answer_carries_the_same_answer_twice() -> None:
    written = json.loads(message_json(answer_line(1, RESULTS["structured"], True)))["result"]
    assert written["structuredContent"] == ANSWER == json.loads(written["content"][0]["text"])
    assert written["isError"] is False


def test_other_messages_are_serialised_by_the_sdk() -> None:
    ping = mcp_types.JSONRPCResponse(jsonrpc="2.0", id=3, result={})
    assert json.loads(message_json(ping)) == {"jsonrpc": "2.0", "id": 3, "result": {}}
    assert isinstance(answer_line(3, RESULTS["error"], True), AnswerLine)
