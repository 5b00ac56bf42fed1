"""The access rule as a property: for any mix of scopes, workspaces and principal bindings, every
caller sees exactly what the contract's rule says, through get, list, status counts and search.

Workspace and principal bindings are set with a direct UPDATE (no API sets them for a local write).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pytest
from corekit import ASSISTANT, OTHER_REMOTE, OWNER, REMOTE, WORKSPACE_A, WORKSPACE_B
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import NotFound
from memvault.core.vocabulary.model import Caller, Surface
from memvault.core.vocabulary.requests import ListRequest
from memvault.core.vocabulary.search_request import SearchRequest

CALLERS = [OWNER, ASSISTANT, REMOTE, OTHER_REMOTE, WORKSPACE_A, WORKSPACE_B]
_counter = itertools.count()


@dataclass(frozen=True)
class Shape:
    scope: str
    workspace: str | None
    principal: str | None


def visible(caller: Caller, shape: Shape) -> bool:
    """The contract's rule, written independently of core/store/visibility.py."""
    if caller.surface is Surface.LOCAL:
        return True
    if shape.principal is not None and shape.principal != caller.principal:
        return False
    if shape.scope == "remote_allowed":
        return True
    return (
        caller.surface is Surface.WORKSPACE
        and shape.scope == "workspace_allowed"
        and (shape.workspace == caller.workspace_id)
    )


shapes = st.builds(
    Shape,
    scope=st.sampled_from(["local_only", "remote_allowed", "workspace_allowed"]),
    workspace=st.sampled_from([None, "ws-alpha", "ws-beta"]),
    principal=st.sampled_from([None, REMOTE.principal, OTHER_REMOTE.principal, WORKSPACE_A.principal]),
)


@pytest.fixture(scope="module")
def registry() -> dict[str, Shape]:
    return {}


def _all_ids(vault: Vault, caller: Caller) -> set[str]:
    seen: set[str] = set()
    cursor = None
    while True:
        page: dict[str, Any] = vault.list_memories(
            caller, ListRequest.of(limit=200, **({"cursor": cursor} if cursor else {}))
        )
        seen |= {item["id"] for item in page["items"]}
        cursor = page["next_cursor"]
        if cursor is None:
            return seen


@settings(max_examples=15, deadline=None)
@given(batch=st.lists(shapes, min_size=1, max_size=5))
def test_every_caller_sees_exactly_what_the_rule_allows(
    module_vault: Vault, registry: dict[str, Shape], batch: list[Shape]
) -> None:
    added = {}
    for shape in batch:
        n = next(_counter)
        token = "zq" + "".join(chr(ord("a") + int(d)) for d in f"{n:04d}") + "marker"  # no digits: not a code
        memory_id = module_vault.add(
            OWNER,
            Draft.of(
                statement=f"Parcel locker {token} sits by the station", domain="errands", access_scope=shape.scope
            ),
        )["id"]
        module_vault.ctx.store.raw.execute(
            "UPDATE memories SET authorized_workspace_id = ?, authorized_principal_id = ? WHERE id = ?",
            (shape.workspace, shape.principal, memory_id),
        )
        added[memory_id] = (shape, token)
        registry[memory_id] = shape
    for caller in CALLERS:
        expected = {memory_id for memory_id, shape in registry.items() if visible(caller, shape)}
        assert _all_ids(module_vault, caller) == expected
        assert module_vault.status(caller)["counts"]["total"] == len(expected)
        query = " ".join(token for _, token in added.values())
        hits = {hit["id"] for hit in module_vault.search(caller, SearchRequest.of(query=query, limit=50))["results"]}
        for memory_id, (shape, _) in added.items():
            if visible(caller, shape):
                assert module_vault.get(caller, memory_id)["memory"]["id"] == memory_id
                assert memory_id in hits
            else:
                with pytest.raises(NotFound, match=r"^no such memory$"):
                    module_vault.get(caller, memory_id)
                assert memory_id not in hits
        assert hits <= expected
