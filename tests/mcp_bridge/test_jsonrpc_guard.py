"""The line guard's cheap bounds (bracket count, surrogate escape) answer exactly as its full checks.

Every line of every session passes the guard, so it first looks for what could be wrong at
all; these lines sit at the edges of those shortcuts.
"""

from __future__ import annotations

import json

import pytest

from memvault.mcp_bridge.jsonrpc_guard import MAX_DEPTH, PARSE_ERROR, problem


def message(arguments: str) -> bytes:
    """A tools/call line whose `arguments` value is the given JSON text (depth 3 around it)."""
    head = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":'
    return (head + arguments + "}}").encode()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def code_of(line: bytes) -> int | None:
    answer = problem(line)
    return None if answer is None else int(json.loads(answer)["error"]["code"])


def test_nesting_up_to_the_limit_passes_and_one_more_level_is_refused() -> None:
    around = 3  # the message object, params, and the arguments value itself
    assert code_of(message(nested(MAX_DEPTH - around + 1))) is None
    assert code_of(message(nested(MAX_DEPTH - around + 2))) == PARSE_ERROR


def test_many_brackets_inside_strings_are_not_nesting() -> None:
    line = message(json.dumps({"query": "[" * (MAX_DEPTH * 2) + "{" * MAX_DEPTH}))
    assert code_of(line) is None


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        (r'{"query":"\ud83c"}', True),  # a lone high surrogate
        (r'{"query":"\uDFFF tail"}', True),  # a lone low one, upper case
        (r'{"\udc00":"in a key"}', True),
        (r'{"query":"\ud83c\udf89 party"}', False),  # a proper pair: one emoji
        (r'{"query":"\\ud83c is text"}', False),  # an escaped backslash, then letters
        (r'{"query":"caf\u00e9"}', False),
    ],
)
def test_surrogate_escapes(text: str, refused: bool) -> None:
    assert code_of(message(text)) == (PARSE_ERROR if refused else None)
