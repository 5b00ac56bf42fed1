"""Malformed arguments thrown at every tool through the MCP client (hypothesis).

Whatever arrives: the answer is one JSON object, never `internal`, the session
survives, and a refused call changes nothing in the store (no row written through
the store's connection: `total_changes` does not move).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, Caller
from memvault.mcp_bridge.server import tool_specs
from memvault.mcp_bridge.tool_gate import make_tool
from tests.mcp_bridge.conftest import REMOTE, Seeded
from tests.mcp_bridge.helpers import Answer, call, connect

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
            before = vault.ctx.conn.total_changes
            answer: Answer = portal.call(call, client, name, arguments)
            assert answer.code != "internal", (name, answer.data)
            if answer.is_error:
                assert vault.ctx.conn.total_changes == before, (name, arguments, answer.data)

        one_call()
        assert not portal.call(call, client, "memory_status", {}).is_error


@pytest.mark.parametrize("name", sorted(TOOLS))
@pytest.mark.parametrize("caller", [LOCAL_ASSISTANT, REMOTE], ids=lambda c: c.surface.value)
def test_malformed_arguments_never_crash_or_write(
    portal: BlockingPortal, vault: Vault, seeded: Seeded, caller: Caller, name: str
) -> None:
    fuzz(portal, vault, caller, name)
