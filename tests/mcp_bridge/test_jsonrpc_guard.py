"""The line guard: its cheap bounds (bracket count, surrogate escape) answer exactly as its full
checks; what it answers, with which id; and the line splitter that never holds a line over the limit.

Every line of every session passes the guard, so it first looks for what could be wrong at
all; these lines sit at the edges of those shortcuts. Through the real bridge, in both modes:
test_every_request_answered.py and the message fuzz in test_fuzz.py.
"""

from __future__ import annotations

import json

import pytest

from memvault.mcp_bridge.jsonrpc_guard import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_DEPTH,
    NO_ANSWER,
    PARSE_ERROR,
    LineSplitter,
    Refusal,
    problem,
    salvaged_id,
)


def message(arguments: str) -> bytes:
    """A tools/call line whose `arguments` value is the given JSON text (depth 3 around it)."""
    head = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_search","arguments":'
    return (head + arguments + "}}").encode()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def code_of(line: bytes) -> int | None:
    answer = problem(line)
    return None if answer is None else int(json.loads(answer)["error"]["code"])


def answer_of(line: bytes) -> tuple[object, int] | None:
    """(id, code) of the guard's answer; None when the line passes on."""
    answer = problem(line)
    if answer is None:
        return None
    if answer == NO_ANSWER:
        return ("no answer", 0)
    parsed = json.loads(answer)
    return parsed["id"], int(parsed["error"]["code"])


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
    assert code_of(message(text)) == (INVALID_PARAMS if refused else None)


ENVELOPE = '"jsonrpc":"2.0","id":7,"method":"tools/call"'


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # sound: passed on
        ('{"jsonrpc":"2.0","id":7,"method":"ping"}', None),
        ('{"jsonrpc":"2.0","id":"a","method":"ping","params":null}', None),
        ('{"jsonrpc":"2.0","method":"notifications/initialized"}', None),
        ('{"jsonrpc":"2.0","id":7,"result":{}}', None),  # the client's response to the server
        # params that are not an object: the request's id back
        ("{" + ENVELOPE + ',"params":"memory_status"}', (7, INVALID_PARAMS)),
        ("{" + ENVELOPE + ',"params":[1]}', (7, INVALID_PARAMS)),
        ("{" + ENVELOPE + ',"params":false}', (7, INVALID_PARAMS)),
        ("{" + ENVELOPE + ',"params":0}', (7, INVALID_PARAMS)),
        # unpaired surrogates: the id back whenever it is readable
        ("{" + ENVELOPE + r',"params":{"arguments":{"q":"\ud800"}}}', (7, INVALID_PARAMS)),
        (r'{"jsonrpc":"2.0","id":7,"method":"p\udfff"}', (7, INVALID_REQUEST)),
        (r'{"jsonrpc":"2.0","id":"x\udc00","method":"ping"}', ("x\udc00", INVALID_REQUEST)),
        # ids MCP does not allow: echoed when an answer can carry them, else null
        ('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', (1.5, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","id":null,"method":"ping"}', (None, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","id":true,"method":"ping"}', (None, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","id":[7],"method":"ping"}', (None, INVALID_REQUEST)),
        # not a request
        ('{"jsonrpc":"1.0","id":7,"method":"ping"}', (7, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","id":7}', (7, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","id":7,"method":5}', (7, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","id":7,"method":"ping","error":{"code":1,"message":"x"}}', (7, INVALID_REQUEST)),
        ('{"jsonrpc":"2.0","method":5}', (None, INVALID_REQUEST)),
        ("[1]", (None, INVALID_REQUEST)),
        # notifications and responses that are not sound: dropped, never answered with an id
        ('{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}', ("no answer", 0)),
        (r'{"jsonrpc":"2.0","method":"notifications/initialized","params":{"\ud800":1}}', ("no answer", 0)),
        ('{"jsonrpc":"2.0","id":7,"result":5}', ("no answer", 0)),
        ('{"jsonrpc":"2.0","id":7,"error":"bad"}', ("no answer", 0)),
        # not JSON: a parse error, with the id when a look at the line finds it whole
        ('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":NaN}}', (7, PARSE_ERROR)),
        ('{"jsonrpc":"2.0","id":7,"method":"ping"', (7, PARSE_ERROR)),
        ('{"jsonrpc":"2.0","id":71', (None, PARSE_ERROR)),  # cut inside the id: not the id that was sent
        ('{"method":"ping","params":{"id":3},"jsonrpc":"2.0","id":"last"} tail', ("last", PARSE_ERROR)),
        ('{"jsonrpc":"2.0","id":7,"result":{}} tail', (None, PARSE_ERROR)),  # a response: never its id
        ("{nope", (None, PARSE_ERROR)),
    ],
)
def test_what_each_line_is_answered(line: str, expected: tuple[object, int] | None) -> None:
    assert answer_of(line.encode()) == expected


def test_a_line_that_is_not_utf8_keeps_its_id_only_when_the_id_is_intact() -> None:
    assert answer_of(b'\xff{"jsonrpc":"2.0","id":7,"method":"ping"}') == (7, PARSE_ERROR)
    assert answer_of(b'{"jsonrpc":"2.0","id":"a\xffb","method":"ping"}') == (None, PARSE_ERROR)
    assert answer_of(b'{"jsonrpc":"2.0","id":12\xff3,"method":"ping"}') == (None, PARSE_ERROR)


def test_the_id_of_a_long_line_is_read_at_either_end() -> None:
    middle = b'"x":"' + b"y" * 100_000 + b'"'
    assert salvaged_id(b'{"jsonrpc":"2.0","id":"first","params":{' + middle[:1000]) == "first"
    assert salvaged_id(b'{"method":"a","params":{"id":5,' + middle[:1000], b'y"},"jsonrpc":"2.0","id":9}') == 9
    assert salvaged_id(b'{"params":{"id":5,' + middle[:1000], b"y" * 100) is None  # no top-level id seen


def test_the_splitter_never_holds_a_line_over_its_limit() -> None:
    splitter = LineSplitter(limit=100)
    assert splitter.feed(b'{"jsonrpc":"2.0","id":5,"method":"x","params":{"a":"' + b"x" * 60) == []
    for _ in range(1000):  # 60 kB more of the same line: kept are its first and last bytes only
        assert splitter.feed(b"x" * 60) == []
    assert splitter._pieces == [] and len(splitter._tail) <= 1024
    refused, sound, *rest = splitter.feed(b'"}}\n{"jsonrpc":"2.0","id":6,"method":"ping"}\n{"jsonrpc"')
    assert isinstance(refused, Refusal) and rest == []
    assert answer_of(refused) == (5, INVALID_REQUEST)
    assert sound == b'{"jsonrpc":"2.0","id":6,"method":"ping"}'
    assert splitter.end() == [b'{"jsonrpc"']  # the last line, without its newline
    assert splitter.end() == []
