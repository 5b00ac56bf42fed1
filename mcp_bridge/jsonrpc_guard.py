"""Every request gets one answer: lines the MCP SDK would drop without a word are answered here.

The SDK's readers pass a line they cannot validate to the session as an exception, and nothing
answers it: the client waits for its own time-out. That happens for text that is not JSON (or not
UTF-8), for JSON nested deeper than pydantic's limit, for an unpaired surrogate escape ("\\ud83c"),
for a request whose `params` is not an object, and for JSON that is not a JSON-RPC message; a
request whose id is neither a string nor an integer is even read as a notification. `problem`
finds these before the SDK sees the line and returns the answer to send back:

- not JSON, not UTF-8, too deep: `-32700 Parse error`;
- not a JSON-RPC request (no `jsonrpc: "2.0"`, a method that is not a string, an id that is not a
  string or an integer, a request that also carries `result` or `error`): `-32600 Invalid Request`;
- `params` neither an object nor null, or an unpaired surrogate in them: `-32602 Invalid params`;
  an unpaired surrogate anywhere else (the method, the id): `-32600`.

Each answer carries the request's id whenever one can be read: from the parsed message, and for a
line that cannot be parsed from a cheap look at its ends (`salvaged_id`); else `id: null`. A number
or string id is echoed as sent (ASCII-escaped). A notification (no `id` member) whose envelope is
sound but whose params are not (wrong type, unpaired surrogate) gets no answer, as JSON-RPC wants
of notifications; it is dropped (an empty answer: nothing is written, nothing passed on). So is a
malformed response (a message with `result` or `error` and no `method`): answering it with its id
would answer the client's own request of that id.

A line longer than `MAX_LINE_BYTES` is never held whole: `LineSplitter` (stdio, the relay) and the
daemon's socket reader keep its first and last bytes only and hand on a `Refusal` (`-32600` with the
id those bytes show, else `-32700`), which `problem` answers like any other line; the session goes
on. The HTTP transport judges each POST body the same way (`body_problem`). Nothing here logs
what a line holds. Standard library only: the relay imports it.
"""

from __future__ import annotations

import json
import logging
import math
import re
from typing import Any

log = logging.getLogger("memvault.bridge")

MAX_DEPTH = 200
MAX_LINE_BYTES = 16 * 1024 * 1024  # one JSON-RPC message per line; a longer one is refused on its own
HEAD_BYTES = 16 * 1024  # of a line refused unparsed, the bytes searched for a top-level id...
TAIL_BYTES = 1024  # ...and the last bytes (clients that write the id last)
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
MEMBER_NAME_CHARS = 24  # a member name, as written, longer than this is none the guard looks for
NO_ANSWER = b""  # `problem`'s answer to a line dropped without a reply
# A parsed string holds a lone surrogate only if the line escaped one (\uD800 to \uDFFF): UTF-8 cannot carry it.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# A string (possibly cut at the end of the text) or a structural character: the tokens that matter
# to find a member at the top level; nothing in it can make the scan quadratic.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[{}\[\]:,]')
_TAIL_ID = re.compile(r',\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$')
_DECODER = json.JSONDecoder()


class Refusal(bytes):
    """The error answer standing for a line that was too long to read: its bytes are dropped unread."""


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


def _echoable(request_id: Any) -> bool:
    """A string or a finite number (not a boolean): what an answer can carry back as the request's id."""
    if isinstance(request_id, bool):
        return False
    return isinstance(request_id, str | int) or (isinstance(request_id, float) and math.isfinite(request_id))


def _is_request_id(request_id: Any) -> bool:
    """MCP's RequestId: a string or an integer (never null, a fraction or a boolean)."""
    return isinstance(request_id, str | int) and not isinstance(request_id, bool)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python's json reads them, JSON has none


def problem(line: bytes) -> bytes | None:
    """The answer for a line the SDK would leave unanswered (`NO_ANSWER`, empty, for one dropped
    without a reply), or None for a line to pass on."""
    if isinstance(line, Refusal):
        return bytes(line)
    if not line.strip():
        return None
    if len(line) > MAX_LINE_BYTES:
        return refuse_long(line[:HEAD_BYTES], line[-TAIL_BYTES:])
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return _answer(PARSE_ERROR, "Parse error: not UTF-8", salvaged_id(line[:HEAD_BYTES], line[-TAIL_BYTES:]))
    # Cheap bounds first (every line of a session passes here): no more brackets than the limit, no
    # surrogate escape at all; only a line that fails them gets the exact, slower check.
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        request_id = salvaged_id(line[:HEAD_BYTES], line[-TAIL_BYTES:])
        return _answer(PARSE_ERROR, f"Parse error: nested deeper than {MAX_DEPTH} levels", request_id)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return _answer(PARSE_ERROR, "Parse error", salvaged_id(line[:HEAD_BYTES], line[-TAIL_BYTES:]))
    return _message_problem(value, bool(SURROGATE_ESCAPE.search(text)))


def _message_problem(value: Any, maybe_surrogate: bool) -> bytes | None:
    if not isinstance(value, dict):  # a batch (MCP has none), a scalar
        return _answer(INVALID_REQUEST, "Invalid Request")
    lone_surrogate = maybe_surrogate and _has_lone_surrogate(value)
    if "method" not in value and ("result" in value or "error" in value):
        return _response_problem(value, lone_surrogate)
    has_id = "id" in value
    request_id = value.get("id")
    echo = request_id if _echoable(request_id) else None
    if (
        value.get("jsonrpc") != "2.0"
        or not isinstance(value.get("method"), str)
        or "result" in value
        or "error" in value
        or (has_id and not _is_request_id(request_id))
    ):
        return _answer(INVALID_REQUEST, "Invalid Request", echo)
    params = value.get("params")
    params_wrong = not isinstance(params, dict | None)
    if not has_id:  # a notification: never answered
        return NO_ANSWER if params_wrong or lone_surrogate else None
    if params_wrong:
        return _answer(INVALID_PARAMS, "Invalid params: params must be an object", echo)
    if lone_surrogate:
        if _has_lone_surrogate(params):
            return _answer(INVALID_PARAMS, "Invalid params: unpaired surrogate escape", echo)
        return _answer(INVALID_REQUEST, "Invalid Request: unpaired surrogate escape", echo)
    return None


def _response_problem(value: dict[str, Any], lone_surrogate: bool) -> bytes | None:
    """A response from the client: passed on when well formed; else dropped, or answered `id: null`
    when it has no usable id (never with its id: that would answer the client's own request)."""
    if not _is_request_id(value.get("id")):
        return _answer(INVALID_REQUEST, "Invalid Request")
    result, error = value.get("result"), value.get("error")
    well_formed = (
        value.get("jsonrpc") == "2.0"
        and ("result" in value) != ("error" in value)
        and (
            isinstance(result, dict)
            if "result" in value
            else isinstance(error, dict)
            and isinstance(error.get("code"), int)
            and not isinstance(error.get("code"), bool)
            and isinstance(error.get("message"), str)
        )
    )
    return None if well_formed and not lone_surrogate else NO_ANSWER


def body_problem(body: bytes) -> bytes | None:
    """The HTTP transport's judgement of a POST body (one JSON-RPC message, as a line is on stdio):
    None to pass it on, else the JSON-RPC error to answer it with (without a newline). HTTP answers
    every POST, so what stdio drops unanswered (a notification whose params are wrong, a malformed
    response) gets `-32600` with `id: null` (a response's id is the client's own request's); an empty
    body is a parse error."""
    if not body.strip():
        return _answer(PARSE_ERROR, "Parse error: empty body").rstrip(b"\n")
    answer = problem(body)
    if answer == NO_ANSWER:
        answer = _answer(INVALID_REQUEST, "Invalid Request: a notification or response that is not well formed")
    return None if answer is None else answer.rstrip(b"\n")


def rejected(line: bytes) -> bytes:
    """The answer for a line the guard passed and the SDK's own check refused (none is known; a
    backstop): `-32600` with the request's id, nothing for a notification or a response."""
    log.warning("bridge: a line the guard passed failed the SDK's check; answered as an invalid request")
    try:
        value = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return _answer(PARSE_ERROR, "Parse error")
    if not isinstance(value, dict) or "id" not in value:
        return NO_ANSWER
    if "method" not in value and ("result" in value or "error" in value):
        return NO_ANSWER
    request_id = value["id"]
    return _answer(INVALID_REQUEST, "Invalid Request", request_id if _echoable(request_id) else None)


def refuse_long(head: bytes, tail: bytes) -> Refusal:
    """The answer for a line over `MAX_LINE_BYTES`, from its first and last bytes: `-32600` with the
    request's id when they show one, else a parse error."""
    request_id = salvaged_id(head, tail)
    if request_id is None:
        return Refusal(_answer(PARSE_ERROR, f"Parse error: a line longer than {MAX_LINE_BYTES} bytes"))
    return Refusal(_answer(INVALID_REQUEST, f"Invalid Request: longer than {MAX_LINE_BYTES} bytes", request_id))


def salvaged_id(head: bytes, tail: bytes = b"") -> str | int | float | None:
    """The top-level id of a request that cannot be parsed, read from the line's first bytes (or, for
    a client that writes the id last, its final member); None when neither shows one, or when the
    line shows it is a response (its id is the id of the client's own request)."""
    found, request_id, response = _id_in_head(head.decode("utf-8", errors="replace"))
    if response:
        return None
    if not found:
        match = _TAIL_ID.search(tail.decode("utf-8", errors="replace"))
        if match is None:
            return None
        try:
            request_id = json.loads(match.group(1))
        except ValueError:
            return None
    if isinstance(request_id, str) and "\ufffd" in request_id:  # cut or not UTF-8: not the id that was sent
        return None
    return request_id if _echoable(request_id) else None


def _id_in_head(text: str) -> tuple[bool, Any, bool]:
    """(an id member found at the top level, its value, the line is a response) from the start of a line."""
    depth = 0
    key: str | None = None  # the last string token at the top level, while it may be a member's name
    found, request_id = False, None
    has_method = has_result = False
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char == '"':
            key = token.group() if depth == 1 else None
            continue
        if char == ":" and key is not None and len(key) <= MEMBER_NAME_CHARS:  # a longer one is none of ours
            try:
                name = json.loads(key)
            except ValueError:
                name = None
            if name == "id" and not found:
                found, request_id = _id_value(text, token.end())
            has_method = has_method or name == "method"
            has_result = has_result or name in ("result", "error")
            if found and has_method:  # a request's id: nothing further can change the answer
                break
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        key = None
    return found, request_id, has_result and not has_method


def _id_value(text: str, start: int) -> tuple[bool, Any]:
    while start < len(text) and text[start] in " \t\r\n":
        start += 1
    try:
        value, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return False, None
    # The member must end where the text shows it does: a number cut by the line's end (or by bytes
    # that are not UTF-8) is not the id that was sent.
    following = text[end:].lstrip(" \t\r\n")[:1]
    return (True, value) if following in (",", "}") else (False, None)


class LineSplitter:
    """Bytes in, lines out (without their newline). A line over `limit` is never held: once it
    passes the limit only its first and last bytes are kept, and it comes out as its `Refusal`."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self._limit = limit
        self._pieces: list[bytes] = []  # the line read so far (under the limit)
        self._size = 0
        self._head: bytes | None = None  # the first bytes of a line over the limit, while it lasts
        self._tail = b""

    def feed(self, data: bytes) -> list[bytes]:
        """The lines `data` ends."""
        *ended, rest = data.split(b"\n")
        if ended:
            if len(data) > self._limit:  # only then can a line wholly inside `data` be over the limit
                ended = [_bounded(part, self._limit) for part in ended]
            if self._pieces or self._head is not None:  # the first one ends the line held so far
                ended[0] = self._close(ended[0])
        if rest:
            self._hold(rest)
        return ended

    def end(self) -> list[bytes]:
        """The last line, when the input ends without its newline."""
        if self._pieces or self._head is not None:
            return [self._close(b"")]
        return []

    def _hold(self, part: bytes) -> None:
        if self._head is not None:
            self._tail = (self._tail + part)[-TAIL_BYTES:]
            return
        self._pieces.append(part)
        self._size += len(part)
        if self._size > self._limit:
            held = b"".join(self._pieces)
            self._head, self._tail = held[:HEAD_BYTES], held[-TAIL_BYTES:]
            self._pieces, self._size = [], 0

    def _close(self, part: bytes) -> bytes:
        if self._head is not None:
            refusal = refuse_long(self._head, (self._tail + part)[-TAIL_BYTES:])
            self._head, self._tail = None, b""
            return refusal
        line = b"".join([*self._pieces, part])
        self._pieces, self._size = [], 0
        return _bounded(line, self._limit)


def _bounded(line: bytes, limit: int) -> bytes:
    return (
        line if len(line) <= limit or isinstance(line, Refusal) else refuse_long(line[:HEAD_BYTES], line[-TAIL_BYTES:])
    )
