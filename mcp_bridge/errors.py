"""Failures as the contract's error results: `isError: true` and `{"error": {"code", "message"}}`.

A `MemvaultError` carries its contract code and a message written for the caller
(never memory text, secrets or file contents). Environmental problems and
anything unexpected are `internal` with a generic message; the details go to
the log (exception type and frames only, never the exception's text, which could
quote data).
"""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Mapping

from mcp.types import CallToolResult, TextContent

from memvault.core.vocabulary.errors import EnvironmentProblem, MemvaultError

log = logging.getLogger("memvault.mcp")

CODES = (
    "invalid_argument",
    "not_found",
    "forbidden",
    "conflict",
    "kill_switch",
    "rate_limited",
    "budget_exceeded",
    "read_only_mode",
    "confirmation_required",
    "not_ready",
    "internal",
)
INTERNAL_MESSAGE = "memvault hit an unexpected problem; the details are in its local log"
UNAVAILABLE_MESSAGE = "the memory store is not available right now; try again shortly"


class JsonResult(CallToolResult):
    """A result whose one text block is the answer's JSON and whose structured content, when set, is
    that same answer (what `ok_result` and `error_result` make): its wire line can be written from the
    text (`answer_line`)."""


def error_result(code: str, message: str) -> JsonResult:
    assert code in CODES, code
    body = {"error": {"code": code, "message": message}}
    return JsonResult(content=[TextContent(type="text", text=json.dumps(body, ensure_ascii=False))], is_error=True)


def code_for(exc: BaseException) -> str:
    """The contract code a failure answers with."""
    if isinstance(exc, MemvaultError) and not isinstance(exc, EnvironmentProblem) and exc.code in CODES:
        return exc.code
    return "internal"


def result_for(exc: BaseException, tool: str) -> JsonResult:
    """The error result for a failure raised while serving `tool`."""
    if isinstance(exc, EnvironmentProblem):
        log.warning("tool %s: store unavailable (%s)", tool, type(exc).__name__)
        return error_result("internal", UNAVAILABLE_MESSAGE)
    code = code_for(exc)
    if code != "internal":
        assert isinstance(exc, MemvaultError)
        return error_result(code, exc.message)
    log_unexpected(exc, tool)
    return error_result("internal", INTERNAL_MESSAGE)


def log_unexpected(exc: BaseException, tool: str) -> None:
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("tool %s raised %s (message withheld: it may quote data)\n%s", tool, type(exc).__name__, frames)


def ok_result(data: Mapping[str, object], *, structured: bool) -> JsonResult:
    text = json.dumps(data, ensure_ascii=False)
    return JsonResult(
        content=[TextContent(type="text", text=text)], structured_content=dict(data) if structured else None
    )
