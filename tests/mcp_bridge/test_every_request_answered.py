"""Nothing lost, nothing stalled: every request a client writes to `memvault mcp` gets one answer
carrying its own id, embedded or relayed to the daemon, and a bad line costs only itself.

Raw lines through the real bridge (a subprocess), in both modes: params that are not an object, an
unpaired surrogate escape, and a line over the size limit, each followed by a request that must
still be answered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memvault.mcp_bridge.socket_transport import MAX_LINE_BYTES

from .rawkit import MODES, answer_to, by_id, error_code, exchange, handshake, line, serving

INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR = -32602, -32600, -32700


def ping(request_id: Any) -> bytes:
    return line({"jsonrpc": "2.0", "id": request_id, "method": "ping"})


def request(request_id: Any, method: str, params: Any) -> bytes:
    return line({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})


@pytest.mark.parametrize("mode", MODES)
def test_a_request_whose_params_are_not_an_object_gets_invalid_params_with_its_id(home: Path, mode: str) -> None:
    odd = {2: "memory_status", 3: 5, 4: True, 5: ["memory_status"], 6: 2.5}
    data = handshake()
    for request_id, params in odd.items():
        data += request(request_id, "tools/call", params)
    data += request("list-as-string", "tools/list", "cursor")
    data += line({"jsonrpc": "2.0", "method": "notifications/initialized", "params": "x"})  # a notification: no answer
    data += ping(99)
    with serving(home, mode):
        answers = exchange(home, data)
    answered = by_id(answers)
    for request_id in [*odd, "list-as-string"]:
        assert error_code(answer_to(answered, request_id)) == INVALID_PARAMS, (mode, request_id)
    assert answer_to(answered, 99)["result"] == {}
    assert len(answers) == 1 + len(odd) + 1 + 1  # the handshake, the odd ones, the string one, the ping


@pytest.mark.parametrize("mode", MODES)
def test_an_unpaired_surrogate_is_answered_with_the_request_id(home: Path, mode: str) -> None:
    search = {"name": "memory_search", "arguments": {"query": "tomatoes \ud83c"}}
    data = handshake()
    data += request(2, "tools/call", search)  # in the arguments
    data += request("s-3", "tools/call", {"name": "memory_status", "arguments": {"\udc00": 1}})  # in a key
    data += line({"jsonrpc": "2.0", "id": 4, "method": "ping\ud800"})  # in the method
    data += ping("id-\udfff")  # in the id itself: echoed as sent
    data += ping(5)
    with serving(home, mode):
        answers = exchange(home, data)
    answered = by_id(answers)
    assert all(answer.get("id") is not None for answer in answers), answers
    assert error_code(answer_to(answered, 2)) == INVALID_PARAMS
    assert error_code(answer_to(answered, "s-3")) == INVALID_PARAMS
    assert error_code(answer_to(answered, 4)) == INVALID_REQUEST
    assert error_code(answer_to(answered, "id-\udfff")) == INVALID_REQUEST
    assert answer_to(answered, 5)["result"] == {}


@pytest.mark.parametrize("mode", MODES)
def test_a_line_over_the_limit_is_refused_alone_and_the_session_goes_on(home: Path, mode: str) -> None:
    big = "x" * (MAX_LINE_BYTES + 256 * 1024)  # past the limit by more than one read
    add = {"name": "memory_add", "arguments": {"statement": big}}
    data = handshake()
    data += request(2, "tools/call", add)  # the id first, as the Python SDK writes it
    data += line({"method": "tools/call", "params": add, "jsonrpc": "2.0", "id": "last"})  # last, as TypeScript's
    data += b'{"jsonrpc":"2.0","method":"tools/call","params":{"x":"' + big.encode() + b'"}\n'  # no id to be seen
    data += ping(3)
    with serving(home, mode):
        answers = exchange(home, data)
    answered = by_id(answers)
    assert error_code(answer_to(answered, 2)) == INVALID_REQUEST
    assert error_code(answer_to(answered, "last")) == INVALID_REQUEST
    assert [error_code(answer) for answer in answers if answer.get("id") is None] == [PARSE_ERROR]
    assert answer_to(answered, 3)["result"] == {}
    assert len(answers) == 5


@pytest.mark.parametrize("mode", MODES)
def test_what_was_read_is_answered_when_the_input_ends_the_last_line_too(home: Path, mode: str) -> None:
    """`memvault mcp < requests.jsonl`: the input ends at once, and its last line may lack its newline;
    the daemon's session, like the embedded one, answers all of it before it ends."""
    data = handshake()
    for number in range(2, 40):
        data += request(number, "tools/list", {}) if number % 2 else request(number, "no/such/method", {})
    data += ping(40).rstrip(b"\n")
    with serving(home, mode):
        answers = exchange(home, data)
    answered = by_id(answers)
    assert sorted(key[1] for key in answered) == list(range(1, 41))
    assert answer_to(answered, 40)["result"] == {}


@pytest.mark.parametrize("mode", MODES)
def test_requests_whose_ids_coincide_are_each_answered(home: Path, mode: str) -> None:
    """ "5" and 5 are one id where the SDK correlates (cancellation), and a client may reuse an id
    while its first request runs: every one of them still gets its answer, and the session lives on."""
    status = {"name": "memory_status", "arguments": {}}
    data = handshake()
    for request_id in (5, "5", 6, " 6", 7, 7):
        data += request(request_id, "tools/call", status)
    for request_id in (8, "8", 9, 9):
        data += request(request_id, "tools/list", {})
    data += ping(10)
    with serving(home, mode):
        answers = exchange(home, data)
    ids = sorted(repr(answer["id"]) for answer in answers)
    assert ids == sorted(map(repr, [1, 5, "5", 6, " 6", 7, 7, 8, "8", 9, 9, 10]))
    assert all("result" in answer for answer in answers)
