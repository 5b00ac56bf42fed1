"""Tiers and decay: priority changes with idleness, existence never; confirmations raise activation only."""

from __future__ import annotations

from datetime import UTC, datetime

from memvault.core.retrieval.tiers import COLD, HOT, WARM, TierRules, activation, tier_of
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Explicitness, Memory, MemoryId, MemoryType, Scope, Sensitivity, Status
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest

NOW = datetime(2026, 3, 1, tzinfo=UTC)
RULES = TierRules()


def _memory(learned: str, *, importance: float = 0.5, type_: MemoryType = MemoryType.FACT, **fields: object) -> Memory:
    return Memory(
        id=MemoryId("m1"),
        domain="d",
        type=type_,
        statement="s",
        status=Status.CURRENT,
        confidence=0.8,
        importance=importance,
        explicitness=fields.pop("explicitness", Explicitness.EXPLICIT),  # type: ignore[arg-type]
        sensitivity=Sensitivity.NORMAL,
        access_scope=Scope.LOCAL_ONLY,
        learned_at=learned,
        **fields,  # type: ignore[arg-type]
    )


def test_activation_decays_with_idle_time_and_importance_slows_it() -> None:
    fresh = activation(_memory("2026-02-25T00:00:00.000Z"), NOW, RULES)
    old = activation(_memory("2024-06-01T00:00:00.000Z"), NOW, RULES)
    old_important = activation(_memory("2024-06-01T00:00:00.000Z", importance=0.9), NOW, RULES)
    assert tier_of(fresh, RULES) == HOT and tier_of(old, RULES) == COLD
    assert old < old_important
    assert tier_of(activation(_memory("2025-09-01T00:00:00.000Z"), NOW, RULES), RULES) == WARM


def test_use_and_confirmation_raise_activation() -> None:
    idle = _memory("2024-06-01T00:00:00.000Z")
    used = _memory("2024-06-01T00:00:00.000Z", last_retrieved_at="2026-02-20T00:00:00.000Z")
    confirmed = _memory("2024-06-01T00:00:00.000Z", last_confirmed_at="2026-02-20T00:00:00.000Z")
    assert activation(idle, NOW, RULES) < activation(used, NOW, RULES)
    assert activation(idle, NOW, RULES) < activation(confirmed, NOW, RULES)


def test_explicit_important_durable_preferences_resist_decay() -> None:
    durable = _memory("2020-01-01T00:00:00.000Z", importance=0.9, type_=MemoryType.PREFERENCE)
    inferred = _memory("2020-01-01T00:00:00.000Z", importance=0.9, type_=MemoryType.PREFERENCE,
                       explicitness=Explicitness.INFERRED)  # fmt: skip
    assert tier_of(activation(durable, NOW, RULES), RULES) == HOT
    assert tier_of(activation(inferred, NOW, RULES), RULES) == COLD


def test_a_current_fact_never_disappears_because_nobody_asked_for_it(clocked_vault: Vault, clock: FixedClock) -> None:
    clock.set(datetime(2023, 1, 10, tzinfo=UTC))
    old = clocked_vault.add(
        OWNER, Draft.of(statement="The bicycle lock code is kept in the blue notebook", importance=0.2)
    )
    clock.set(datetime(2026, 3, 1, tzinfo=UTC))
    first = clocked_vault.search(OWNER, SearchRequest.of(query="where is the bicycle lock code", depth="shallow"))[
        "results"
    ]
    assert [h["id"] for h in first] == [old["id"]] and first[0]["tier"] == WARM  # idle, never cold
    for depth in ("normal", "deep", "auto"):  # (being retrieved made it hot again)
        found = clocked_vault.search(OWNER, SearchRequest.of(query="where is the bicycle lock code", depth=depth))[
            "results"
        ]
        assert [h["id"] for h in found] == [old["id"]] and found[0]["tier"] == HOT
    assert clocked_vault.get(OWNER, old["id"])["memory"]["status"] == "current"


def test_superseded_material_is_cold_and_only_deep_searches_reach_it(clocked_vault: Vault, clock: FixedClock) -> None:
    clock.set(datetime(2026, 2, 1, tzinfo=UTC))
    old = clocked_vault.add(OWNER, Draft.of(statement="The bicycle lock code is kept in the blue notebook"))["id"]
    clock.set(datetime(2026, 2, 27, tzinfo=UTC))
    new = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="The bicycle lock code is kept in the red notebook")
    )["id"]
    clock.set(datetime(2026, 3, 1, tzinfo=UTC))
    query = "bicycle lock code notebook"
    normal = clocked_vault.search(OWNER, SearchRequest.of(query=query, include_history=True, depth="normal"))["results"]
    assert [h["id"] for h in normal] == [new]
    history = clocked_vault.search(OWNER, SearchRequest.of(query=query, include_history=True))["results"]  # auto: deep
    tiers = {h["id"]: h["tier"] for h in history}
    assert tiers[old] == COLD and tiers[new] == HOT  # superseded is cold however recently it was used


def test_a_confirmation_moves_activation_but_never_confidence(clocked_vault: Vault, clock: FixedClock) -> None:
    clock.set(datetime(2023, 1, 10, tzinfo=UTC))
    first = clocked_vault.add(
        OWNER, Draft.of(statement="The bicycle lock code is kept in the blue notebook", importance=0.2)
    )
    clock.set(datetime(2026, 3, 1, tzinfo=UTC))
    again = clocked_vault.add(
        OWNER, Draft.of(statement="The bicycle lock code is kept in the blue notebook", importance=0.2)
    )
    assert again["outcome"] == "duplicate"
    record = clocked_vault.get(OWNER, first["id"])["memory"]
    assert record["confidence"] == 0.8 and record["last_confirmed_at"] == "2026-03-01T00:00:00.000Z"
    normal = clocked_vault.search(OWNER, SearchRequest.of(query="where is the bicycle lock code", depth="normal"))
    assert [h["id"] for h in normal["results"]] == [first["id"]] and normal["results"][0]["tier"] == HOT


def test_questions_about_the_past_go_deep_unless_told_otherwise(clocked_vault: Vault, clock: FixedClock) -> None:
    clock.set(datetime(2025, 1, 10, tzinfo=UTC))
    old = clocked_vault.add(OWNER, Draft.of(statement="The bicycle lock code is kept in the blue notebook"))["id"]
    clock.set(datetime(2025, 6, 1, tzinfo=UTC))
    clocked_vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="The bicycle lock code is kept in the red notebook")
    )
    clock.set(datetime(2026, 3, 1, tzinfo=UTC))
    query = "where is the bicycle lock code"
    assert (
        clocked_vault.search(OWNER, SearchRequest.of(query=query, as_of="2025-03-01", depth="normal"))["results"] == []
    )
    assert [
        h["id"] for h in clocked_vault.search(OWNER, SearchRequest.of(query=query, as_of="2025-03-01"))["results"]
    ] == [old]
