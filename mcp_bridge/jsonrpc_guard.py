"""Lines the MCP SDK would drop without a word get a JSON-RPC error answer instead.

The SDK's stdio and socket readers pass a line they cannot validate to the session as an
exception, and nothing answers it: a client waits for its own time-out. That happens for
text that is not JSON, for JSON nested deeper than pydantic's limit, for an unpaired
surrogate escape ("\\ud83c") and for JSON that is not a JSON-RPC message. `problem` finds
these before the SDK sees the line and returns the answer to send back (a parse error,
-32700, or an invalid request, -32600). Standard library only: the relay imports it.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 200
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
# A parsed string holds a lone surrogate only if the line escaped one (\uD800 to \uDFFF): UTF-8 cannot carry it.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _answer(code: int, message: str, request_id: Any = None) -> bytes:
    body = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects, counted without recursion (strings skipped)."""
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _is_message(value: Any) -> bool:
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
        return False
    if "method" in value:
        return isinstance(value["method"], str)
    return "id" in value and ("result" in value or "error" in value)


def problem(line: bytes) -> bytes | None:
    """The error answer for a line the SDK would leave unanswered, or None for a line to pass on."""
    if not line.strip():
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return _answer(PARSE_ERROR, "Parse error: not UTF-8")
    # Cheap bounds first (every line of a session passes here): no more brackets than the limit, no
    # surrogate escape at all; only a line that fails them gets the exact, slower check.
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        return _answer(PARSE_ERROR, f"Parse error: nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text)
    except ValueError:
        return _answer(PARSE_ERROR, "Parse error")
    if SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        return _answer(PARSE_ERROR, "Parse error: unpaired surrogate escape")
    if not _is_message(value):
        request_id = value.get("id") if isinstance(value, dict) else None
        valid_id = isinstance(request_id, str | int) and not isinstance(request_id, bool)
        return _answer(INVALID_REQUEST, "Invalid Request", request_id if valid_id else None)
    return None
