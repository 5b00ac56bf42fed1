"""Malformed arguments thrown at every tool through the MCP client (hypothesis), and malformed or
odd JSON-RPC lines thrown at the real bridge.

Arguments: whatever arrives, the answer is one JSON object, never `internal`, the session
survives, and a refused call changes nothing in the store (no row written through
the store's connection: `total_changes` does not move).

Lines: 2,000 of them (seeded), through `memvault mcp` served from the store and relayed to the
daemon: every request whose id can be read is answered exactly once with that id, no answer
carries an id nobody asked with, and both modes answer every line alike.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, Caller
from memvault.mcp_bridge.server import tool_specs
from memvault.mcp_bridge.socket_transport import MAX_LINE_BYTES
from memvault.mcp_bridge.tool_gate import make_tool
from tests.mcp_bridge.bridgekit import INIT
from tests.mcp_bridge.conftest import REMOTE, Seeded
from tests.mcp_bridge.helpers import Answer, call, connect
from tests.mcp_bridge.rawkit import MODES, exchange, serving

TOOLS = {spec.name: spec for spec in tool_specs()}
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
    | st.sampled_from(["", " ", "\x00", "m0123456789ab", "2026-13-45", "FACT", "current", "deep", "../../etc"])
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=3), max_leaves=8
)


def input_schema(name: str) -> dict[str, Any]:
    return make_tool(TOOLS[name], gate=None).parameters  # type: ignore[arg-type]


def plausible(schema: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of roughly the declared shape (so core's own validation is reached), with wrong ones mixed in."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    options = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    schema = options[0] if options else schema
    if "enum" in schema:
        return st.sampled_from([*schema["enum"], "bogus", ""])
    kind = schema.get("type")
    if kind == "object":
        fields = {key: plausible(sub, defs) for key, sub in schema.get("properties", {}).items()}
        return st.fixed_dictionaries(fields) | st.dictionaries(text, values, max_size=3)
    if kind == "array":
        return st.lists(plausible(schema["items"], defs), max_size=3) if "items" in schema else st.lists(values)
    simple: dict[str, st.SearchStrategy[Any]] = {
        "string": text | st.sampled_from(["m0123456789ab", "2026-03-01", "2026-03-01T09:30:00Z", "garden", "a b"]),
        "integer": st.integers(min_value=-3, max_value=300),
        "number": st.floats(min_value=-0.5, max_value=1.5),
        "boolean": st.booleans(),
    }
    return simple.get(kind, values) if isinstance(kind, str) else values


def arguments_for(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Half wild (any keys, any values), half near-valid (the declared keys, the required ones present)."""
    schema = input_schema(name)
    properties, defs = schema.get("properties", {}), schema.get("$defs", {})
    keys = st.sampled_from([*properties, "bogus", "caller", "principal", "surface"])
    wild = st.dictionaries(keys, values, max_size=6)
    required = {key: plausible(properties[key], defs) | values for key in schema.get("required", [])}
    optional = {key: plausible(sub, defs) | values for key, sub in properties.items() if key not in required}
    near = st.fixed_dictionaries(required, optional=optional)
    return wild | near


@pytest.fixture
def portal() -> Iterator[BlockingPortal]:
    with start_blocking_portal("asyncio") as running:
        yield running


def fuzz(portal: BlockingPortal, vault: Vault, caller: Caller, name: str) -> None:
    with portal.wrap_async_context_manager(connect(vault, caller)) as client:

        @settings(
            max_examples=50,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(arguments=arguments_for(name))
        def one_call(arguments: dict[str, Any]) -> None:
            vault.ctx.write_queued()  # the last valid search's usage, written after its answer, lands first
            before = vault.ctx.store.raw.total_changes
            answer: Answer = portal.call(call, client, name, arguments)
            assert answer.code != "internal", (name, answer.data)
            if answer.is_error:
                assert vault.ctx.store.raw.total_changes == before, (name, arguments, answer.data)

        one_call()
        assert not portal.call(call, client, "memory_status", {}).is_error


@pytest.mark.parametrize("name", sorted(TOOLS))
@pytest.mark.parametrize("caller", [LOCAL_ASSISTANT, REMOTE], ids=lambda c: c.surface.value)
def test_malformed_arguments_never_crash_or_write(
    portal: BlockingPortal, vault: Vault, seeded: Seeded, caller: Caller, name: str
) -> None:
    fuzz(portal, vault, caller, name)


# --- Malformed and odd JSON-RPC messages through the real bridge, embedded and relayed -------------

MESSAGES = 2000
SEED = 20260301


class OddMessages:
    """Lines a careless or hostile client might write, and what their answers must be.

    `must`: ids answered exactly once (every request whose id a server can read); `may`: ids of lines
    that are not JSON at all, answered at most once (with the id when a look at the line finds it);
    `never`: ids no answer may carry (the client's responses: their id is its own request's);
    `nulls`: how many lines may be answered with `id: null` at most.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines: list[bytes] = []
        self.must: list[Any] = []
        self.may: list[Any] = []
        self.never: list[Any] = []
        self.nulls = 0
        self._number = 0

    # ids ------------------------------------------------------------------------------------------

    def fresh_id(self) -> Any:
        """A new, sound id: an integer or a string of one kind or another."""
        self._number += 1
        n = self._number
        return self.rng.choice([n, -n, 2**62 + n, f"q{n}", f"ид-{n}", f"{n}   ", f"~{n}~"])

    # what a line becomes -------------------------------------------------------------------------

    def add(self, line: bytes, *, must: Any = None, may: Any = None, null: bool = False, never: Any = None) -> None:
        self.lines.append(line)
        if must is not None:
            self.must.append(must)
        if may is not None:
            self.may.append(may)
        if never is not None:
            self.never.append(never)
        self.nulls += int(null)

    def request(self, method: str, params: Any = None, *, with_params: bool = True, **extra: Any) -> None:
        request_id = self.fresh_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method, **extra}
        if with_params:
            message["params"] = params
        self.add(json.dumps(message).encode() + b"\n", must=request_id)

    # the kinds of line ---------------------------------------------------------------------------

    def plain(self) -> None:
        """A sound request, though not always a sensible one."""
        method, params = self.rng.choice(
            [
                ("ping", None),
                ("tools/list", {}),
                ("tools/list", {"cursor": "nope"}),
                ("tools/call", {"name": "memory_status", "arguments": {}}),
                ("tools/call", {"name": "memory_get", "arguments": {"id": "m0123456789ab"}}),
                ("tools/call", {"name": "memory_list", "arguments": {"limit": "5"}}),
                ("tools/call", {"name": "memory_search", "arguments": {"query": "x" * 5000}}),
                ("tools/call", {"name": "no_such_tool", "arguments": {}}),
                ("tools/call", {"name": 5, "arguments": []}),
                ("tools/call", {"arguments": {}}),
                ("tools/call", {"name": "memory_status", "arguments": {}, "_meta": {"progressToken": 1}}),
                ("resources/list", {}),
                ("prompts/list", {}),
                ("logging/setLevel", {"level": "nonsense"}),
                ("completion/complete", {}),
                ("initialize", {"protocolVersion": 5}),
                ("no/such/method", {"a": [1, {"b": None}]}),
                ("notifications/initialized", {}),  # a notification's method, with an id: a request
            ]
        )
        self.request(method, params, with_params=params is not None or self.rng.random() < 0.5)

    def params_not_an_object(self) -> None:
        method = self.rng.choice(["ping", "tools/list", "tools/call", "no/such/method"])
        self.request(method, self.rng.choice(["memory_status", 0, -1.5, True, False, [], ["memory_status", {}]]))

    def odd_ids(self) -> None:
        """An id MCP does not allow: a fraction (echoed as sent), or one no answer can carry (null back)."""
        self._number += 1
        method = self.rng.choice(["ping", "tools/list"])
        request_id = self.rng.choice([self._number + 10**6 + 0.5, None, True, False, [1], {"n": 1}])
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if isinstance(request_id, float):
            self.add(json.dumps(message).encode() + b"\n", must=request_id)
        else:
            self.add(json.dumps(message).encode() + b"\n", null=True)

    def lone_surrogate(self) -> None:
        where = self.rng.choice(["arguments", "key", "method", "extra", "id"])
        if where == "arguments":
            self.request("tools/call", {"name": "memory_search", "arguments": {"query": "tomato \udc00 bed"}})
        elif where == "key":
            self.request("tools/call", {"name": "memory_status", "arguments": {"\ud83c": 1}})
        elif where == "method":
            self.request("tools/\ud800list", {})
        elif where == "extra":
            self.request("ping", None, with_params=False, note="\udfff")
        else:
            self._number += 1
            request_id = f"\udbff{self._number}"
            self.add(
                json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode() + b"\n", must=request_id
            )

    def odd_envelope(self) -> None:
        request_id = self.fresh_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": "ping"}
        change = self.rng.choice(["jsonrpc 1.0", "no jsonrpc", "jsonrpc number", "no method", "method 5", "result"])
        if change == "jsonrpc 1.0":
            message["jsonrpc"] = "1.0"
        elif change == "no jsonrpc":
            del message["jsonrpc"]
        elif change == "jsonrpc number":
            message["jsonrpc"] = 2.0
        elif change == "no method":
            del message["method"]
        elif change == "method 5":
            message["method"] = 5
        else:
            message[self.rng.choice(["result", "error"])] = {"code": 1, "message": "x"}
        self.add(json.dumps(message).encode() + b"\n", must=request_id)

    def notification(self) -> None:
        """No id: never answered when sound; an unsound envelope may get `id: null`."""
        message: dict[str, Any] = self.rng.choice(
            [
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "nobody"}},
                {"jsonrpc": "2.0", "method": "notifications/progress", "params": "x"},
                {"jsonrpc": "2.0", "method": "notifications/roots/list_changed", "params": [1]},
                {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"\udc00": 1}},
                {"jsonrpc": "2.0", "method": 7},
                {"jsonrpc": "1.0", "method": "notifications/initialized"},
                {},
            ]
        )
        self.add(json.dumps(message).encode() + b"\n", null=True)

    def response(self) -> None:
        """The client answering: its id is its own request's, never to be answered."""
        self._number += 1
        response_id = f"response-{self._number}"
        body = self.rng.choice(
            [
                {"result": {}},
                {"result": 5},
                {"error": {"code": -1, "message": "no"}},
                {"error": "bad"},
                {"result": {}, "error": {}},
            ]
        )
        self.add(json.dumps({"jsonrpc": "2.0", "id": response_id, **body}).encode() + b"\n", never=response_id)

    def not_json(self) -> None:
        self._number += 1
        request_id = 10**9 + self._number
        sound = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping", "params": {"a": "b" * 40}}).encode()
        kind = self.rng.choice(["cut", "garbage", "not utf-8", "nan", "bom", "deep", "batch", "scalar", "huge int"])
        if kind == "cut":
            line = sound[: self.rng.randrange(1, len(sound) - 1)]
        elif kind == "garbage":
            line = bytes(self.rng.randrange(32, 127) for _ in range(self.rng.randrange(1, 80)))
        elif kind == "not utf-8":
            cut = self.rng.randrange(len(sound))
            line = sound[:cut] + b"\xff\xfe" + sound[cut:]
        elif kind == "nan":
            line = sound.replace(b'"b', b'NaN, "c": "b', 1).replace(b'{"a"', b'{"z": ', 1)
        elif kind == "bom":
            line = "\ufeff".encode() + sound
        elif kind == "deep":
            line = sound[:-2] + b', "x": ' + b"[" * 250 + b"]" * 250 + b"}}"
        elif kind == "batch":
            line = b"[" + sound + b"]"
        elif kind == "scalar":
            line = self.rng.choice([b"5", b'"ping"', b"null", b"true"])
        else:  # valid JSON, but more digits than Python's json reads by default
            line = sound[:-2] + b', "n": ' + b"9" * 5000 + b"}}"
        self.add(line.replace(b"\n", b" ") + b"\n", may=request_id, null=True)

    def odd_framing(self) -> None:
        choice = self.rng.choice(["blank", "crlf", "duplicate id", "extra member", "long line"])
        if choice == "blank":
            self.add(self.rng.choice([b"\n", b"   \n", b"\t\r\n"]))
        elif choice == "crlf":
            request_id = self.fresh_id()
            self.add(
                json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode() + b"\r\n", must=request_id
            )
        elif choice == "duplicate id":
            first, last = self.fresh_id(), self.fresh_id()
            line = b'{"jsonrpc": "2.0", "id": %s, "method": "ping", "id": %s}\n' % (
                json.dumps(first).encode(),
                json.dumps(last).encode(),
            )
            self.add(line, must=last, never=first)
        elif choice == "extra member":
            self.request("ping", None, with_params=False, extra={"deep": [[[{"x": 1}]]]})
        else:
            self.request("tools/call", {"name": "memory_add", "arguments": {"statement": "y" * 200_000}})

    def oversized(self) -> None:
        self._number += 1
        request_id = f"big-{self._number}"
        statement = "z" * (MAX_LINE_BYTES + 100_000)
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call"}
        message["params"] = {"name": "memory_add", "arguments": {"statement": statement}}
        self.add(json.dumps(message).encode() + b"\n", must=request_id)


def odd_messages(count: int = MESSAGES, seed: int = SEED) -> OddMessages:
    """The handshake, a few lines before it, then `count` odd lines (one of them over the size limit)."""
    odd = OddMessages(seed)
    odd.request("tools/list", {})  # before the handshake
    odd.request("tools/call", {"name": "memory_status", "arguments": {}})
    odd.add(json.dumps(INIT).encode() + b"\n", must=INIT["id"])
    odd.add(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    kinds = [
        (odd.plain, 30),
        (odd.params_not_an_object, 12),
        (odd.odd_ids, 6),
        (odd.lone_surrogate, 10),
        (odd.odd_envelope, 10),
        (odd.notification, 8),
        (odd.response, 6),
        (odd.not_json, 12),
        (odd.odd_framing, 6),
    ]
    makers, weights = zip(*kinds, strict=True)
    big_at = count // 2
    for number in range(count):
        if number == big_at:
            odd.oversized()
        else:
            odd.rng.choices(makers, weights)[0]()
    return odd


def keyed(request_id: Any) -> tuple[str, Any]:
    return (type(request_id).__name__, request_id)


def check_answers(odd: OddMessages, answers: list[dict[str, Any]]) -> Counter[tuple[Any, Any]]:
    """Every `must` id answered once, every `may` id at most once, nothing else but `id: null`;
    returns the answers as (id, outcome) for comparing modes."""
    for answer in answers:
        assert answer.get("jsonrpc") == "2.0" and "id" in answer and ("result" in answer) != ("error" in answer)
        if "error" in answer:
            assert isinstance(answer["error"]["code"], int) and isinstance(answer["error"]["message"], str)
    seen = Counter(keyed(answer["id"]) for answer in answers if answer["id"] is not None)
    must, may = Counter(keyed(i) for i in odd.must), Counter(keyed(i) for i in odd.may)
    assert all(n == 1 for n in must.values()), "the generator repeated an id"
    unanswered = [key for key in must if seen[key] == 0]
    twice = [key for key, n in seen.items() if n > 1]
    strangers = [key for key in seen if key not in must and key not in may]
    assert not unanswered, f"{len(unanswered)} of {len(must)} requests unanswered: {unanswered[:10]}"
    assert not twice, f"answered more than once: {twice[:10]}"
    assert not strangers, f"answers to ids never asked: {strangers[:10]}"
    assert not {keyed(i) for i in odd.never} & set(seen)
    nulls = sum(answer["id"] is None for answer in answers)
    assert nulls <= odd.nulls, (nulls, odd.nulls)
    return Counter(
        (keyed(answer["id"]), answer["error"]["code"] if "error" in answer else "result") for answer in answers
    )


@pytest.mark.slow
def test_odd_messages_each_get_one_answer_with_their_id_embedded_and_relayed(home: Path) -> None:
    """2,000 malformed and odd lines, with one over the size limit, through `memvault mcp` served
    from the store and relayed to the daemon: every request answered once with its own id, and both
    modes answer every line alike."""
    odd = odd_messages()
    data = b"".join(odd.lines)
    outcomes = {}
    for mode in MODES:
        with serving(home, mode):
            answers = exchange(home, data, timeout=120)
        outcomes[mode] = check_answers(odd, answers)
    assert outcomes["embedded"] == outcomes["relay"]
