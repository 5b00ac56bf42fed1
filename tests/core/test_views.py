"""The contract's advanced views on a real store: related, timeline, projects, decisions, unresolved, feedback."""

from __future__ import annotations

from typing import Any

import pytest
from corekit import REMOTE, WORKSPACE_A, Adder, count, dump

from memvault.core.operations import views
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.errors import InvalidArgument, NotFound
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import (
    ArchiveRequest,
    CorrectRequest,
    DecisionsRequest,
    FeedbackRequest,
    RelatedRequest,
    TimelineRequest,
    UnresolvedRequest,
)

SHARED = {"access_scope": "remote_allowed"}


def ids(items: list[dict[str, Any]]) -> list[str]:
    return [item["id"] for item in items]


# -- related ---------------------------------------------------------------------------------
@pytest.fixture
def graph(vault: Vault, add: Adder) -> dict[str, str]:
    """a -> b -> c (depends_on), a -> s (relates_to, local only), d alone; all but s shared."""
    c = add("The staging server runs the nightly build", **SHARED)
    b = add("The nightly build publishes the test report", links=[{"type": "depends_on", "target_id": c}], **SHARED)
    s = add("The report server password rotates monthly (local note)")
    a = add(
        "The release checklist waits for the test report",
        links=[{"type": "depends_on", "target_id": b}, {"type": "relates_to", "target_id": s}],
        **SHARED,
    )
    d = add("The office plants need water on Fridays", **SHARED)
    return {"a": a, "b": b, "c": c, "s": s, "d": d}


def test_related_follows_links_to_the_asked_depth(vault: Vault, graph: dict[str, str]) -> None:
    one = vault.related(OWNER, RelatedRequest.of(id=graph["a"]))
    assert set(ids(one["nodes"])) == {graph["a"], graph["b"], graph["s"]}
    assert ids(one["nodes"])[0] == graph["a"]
    assert {(e["from"], e["to"], e["type"]) for e in one["edges"]} == {
        (graph["a"], graph["b"], "depends_on"),
        (graph["a"], graph["s"], "relates_to"),
    }
    two = vault.related(OWNER, RelatedRequest.of(id=graph["a"], depth=2))
    assert set(ids(two["nodes"])) == {graph["a"], graph["b"], graph["c"], graph["s"]}
    assert graph["d"] not in ids(two["nodes"])
    assert all(e["weight"] == 1.0 for e in two["edges"])


def test_related_filters_by_link_type_and_limit(vault: Vault, graph: dict[str, str]) -> None:
    only = vault.related(OWNER, RelatedRequest.of(id=graph["a"], types=["relates_to"], depth=3))
    assert set(ids(only["nodes"])) == {graph["a"], graph["s"]}
    capped = vault.related(OWNER, RelatedRequest.of(id=graph["a"], depth=3, limit=2))
    assert len(capped["nodes"]) == 2
    assert all(e["from"] in ids(capped["nodes"]) and e["to"] in ids(capped["nodes"]) for e in capped["edges"])


def test_related_shows_a_remote_caller_no_local_node_or_edge(vault: Vault, graph: dict[str, str]) -> None:
    seen = vault.related(REMOTE, RelatedRequest.of(id=graph["a"], depth=3))
    assert set(ids(seen["nodes"])) == {graph["a"], graph["b"], graph["c"]}
    assert all(graph["s"] not in (e["from"], e["to"]) for e in seen["edges"])
    with pytest.raises(NotFound) as hidden:
        vault.related(REMOTE, RelatedRequest.of(id=graph["s"]))
    with pytest.raises(NotFound) as missing:
        vault.related(REMOTE, RelatedRequest.of(id="m000000000000"))
    assert hidden.value.message == missing.value.message


def test_related_never_reaches_archived_records(vault: Vault, graph: dict[str, str]) -> None:
    vault.archive(OWNER, ArchiveRequest.of(id=graph["b"], reason="obsolete"))
    seen = vault.related(OWNER, RelatedRequest.of(id=graph["a"], depth=3))
    assert graph["b"] not in ids(seen["nodes"]) and graph["c"] not in ids(seen["nodes"])
    with pytest.raises(NotFound):
        vault.related(OWNER, RelatedRequest.of(id=graph["b"]))


@pytest.mark.parametrize(
    "bad",
    [
        {"depth": 0},
        {"depth": 4},
        {"depth": "2"},
        {"types": ["friend_of"]},
        {"types": "depends_on"},
        {"limit": 0},
        {"x": 1},
    ],
)
def test_related_refuses_bad_arguments(vault: Vault, graph: dict[str, str], bad: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        vault.related(OWNER, RelatedRequest.of(id=graph["a"], **bad))


# -- timeline --------------------------------------------------------------------------------
def test_timeline_is_in_time_order_and_includes_superseded_versions(
    clocked_vault: Vault, clock: FixedClock, cadd: Adder
) -> None:
    first = cadd("The team standup is at nine", domain="work", valid_from="2026-01-05")
    clock.advance(days=3)
    cadd("The gym opens at six", domain="health")
    clock.advance(days=3)
    corrected = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=first, statement="The team standup is at half past nine")
    )["id"]
    answer = clocked_vault.timeline(OWNER, TimelineRequest.of(domain="work"))
    events = answer["events"]
    times = [e["time"] for e in events]
    assert times == sorted(times)
    kinds = [(e["kind"], e["record"]["id"]) for e in events]
    assert ("valid_from", first) in kinds and ("learned", first) in kinds
    assert ("superseded", first) in kinds and ("learned", corrected) in kinds
    assert ("valid_until", first) in kinds
    assert {e["record"]["domain"] for e in events} == {"work"}
    assert next(e["record"]["status"] for e in events if e["record"]["id"] == first) == "superseded"


def test_timeline_filters_by_subject_entity_and_window(clocked_vault: Vault, clock: FixedClock, cadd: Adder) -> None:
    cadd("Lunch with Ada about the garden plans", entities=["Ada Quill"])
    clock.advance(days=10)
    late = cadd("The invoice for the roof repair arrived")
    clock.advance(days=1)
    bike = cadd("The bike repair shop closes early on Saturdays")
    by_subject = clocked_vault.timeline(OWNER, TimelineRequest.of(subject="roof repairs"))  # every word, any form
    assert {e["record"]["id"] for e in by_subject["events"]} == {late}
    by_entity = clocked_vault.timeline(OWNER, TimelineRequest.of(entity="  ada   QUILL "))
    assert {e["record"]["statement"] for e in by_entity["events"]} == {"Lunch with Ada about the garden plans"}
    window = clocked_vault.timeline(OWNER, TimelineRequest.of(start="2026-03-05", end="2026-03-31"))
    assert {e["record"]["id"] for e in window["events"]} == {late, bike}
    assert clocked_vault.timeline(OWNER, TimelineRequest.of(limit=1))["events"][0]["record"]["id"] == bike


def test_timeline_hides_local_records_from_remote_and_archived_from_everyone(vault: Vault, add: Adder) -> None:
    shared = add("The bike service is booked for May", **SHARED)
    add("The diary entry about the bike fall stays private")
    gone = add("The old bike lock code changed", **SHARED)
    vault.archive(OWNER, ArchiveRequest.of(id=gone))
    remote = vault.timeline(REMOTE, TimelineRequest.of(subject="bike"))
    assert {e["record"]["id"] for e in remote["events"]} == {shared}
    local = vault.timeline(OWNER, TimelineRequest.of(subject="bike"))
    assert gone not in {e["record"]["id"] for e in local["events"]}
    assert len({e["record"]["id"] for e in local["events"]}) == 2


@pytest.mark.parametrize(
    "bad", [{"start": "yesterday"}, {"start": "2026-03-02", "end": "2026-03-01"}, {"limit": 501}, {"domain": "a b/c"}]
)
def test_timeline_refuses_bad_arguments(vault: Vault, bad: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        vault.timeline(OWNER, TimelineRequest.of(**bad))


# -- projects, decisions, unresolved ---------------------------------------------------------
@pytest.fixture
def project(clocked_vault: Vault, clock: FixedClock, cadd: Adder) -> dict[str, str]:
    tag = ["project:Lighthouse"]
    state = cadd("Lighthouse is in design", type="PROJECT_STATE", tags=tag, **SHARED)
    clock.advance(days=2)
    decision = cadd("Lighthouse will use SQLite for storage", type="DECISION", tags=tag, **SHARED)
    clock.advance(days=2)
    private_decision = cadd("Lighthouse budget is capped by the family savings", type="DECISION", tags=tag)
    later = cadd("Pick a name for the Lighthouse app", type="NEXT_ACTION", tags=tag, due_at="2026-04-20", **SHARED)
    soon = cadd("Ask the designer about Lighthouse icons", type="NEXT_ACTION", tags=tag, due_at="2026-03-10", **SHARED)
    undated = cadd("Does Lighthouse need offline sync?", type="OPEN_QUESTION", tags=tag, **SHARED)
    other = cadd("Renew the passport", type="NEXT_ACTION", due_at="2026-03-08", domain="admin")
    clock.advance(days=2)
    state2 = clocked_vault.correct(OWNER, CorrectRequest.of(id=state, statement="Lighthouse is in development"))["id"]
    return {
        "state": state,
        "state2": state2,
        "decision": decision,
        "private_decision": private_decision,
        "later": later,
        "soon": soon,
        "undated": undated,
        "other": other,
    }


def test_project_history_collects_states_decisions_and_open_items(
    clocked_vault: Vault, project: dict[str, str]
) -> None:
    history = clocked_vault.project_history(OWNER, "lighthouse")
    assert history["project"] == "Lighthouse"
    assert ids(history["states"]) == [project["state"], project["state2"]]
    assert set(ids(history["decisions"])) == {project["decision"], project["private_decision"]}
    assert ids(history["unresolved"]) == [project["soon"], project["later"], project["undated"]]


def test_project_history_for_remote_shows_only_shared_records(clocked_vault: Vault, project: dict[str, str]) -> None:
    history = clocked_vault.project_history(REMOTE, "Lighthouse")
    assert ids(history["decisions"]) == [project["decision"]]
    with pytest.raises(NotFound):
        clocked_vault.project_history(REMOTE, "Nowhere")


def test_a_project_with_nothing_visible_is_missing(vault: Vault, add: Adder) -> None:
    add("Secret Garden plot plan", tags=["project:Hidden Plot"])
    assert vault.project_history(OWNER, "hidden plot")["project"] == "Hidden Plot"
    with pytest.raises(NotFound) as hidden:
        vault.project_history(WORKSPACE_A, "hidden plot")
    with pytest.raises(NotFound) as missing:
        vault.project_history(WORKSPACE_A, "no such plot")
    assert hidden.value.message == missing.value.message
    assert vault.decisions(WORKSPACE_A, DecisionsRequest.of(project="hidden plot")) == {"items": []}


def test_decisions_newest_first_with_history_on_request(clocked_vault: Vault, project: dict[str, str]) -> None:
    current = clocked_vault.decisions(OWNER, DecisionsRequest.of(project="Lighthouse"))
    assert ids(current["items"]) == [project["private_decision"], project["decision"]]
    replaced = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=project["decision"], statement="Lighthouse will use PostgreSQL")
    )["id"]
    now = ids(clocked_vault.decisions(OWNER)["items"])
    assert replaced in now and project["decision"] not in now
    with_history = ids(clocked_vault.decisions(OWNER, DecisionsRequest.of(include_history=True))["items"])
    assert replaced in with_history and project["decision"] in with_history
    assert clocked_vault.decisions(OWNER, DecisionsRequest.of(domain="admin")) == {"items": []}


def test_unresolved_orders_by_due_date_undated_last(clocked_vault: Vault, project: dict[str, str]) -> None:
    items = ids(clocked_vault.unresolved(OWNER)["items"])
    assert items == [project["other"], project["soon"], project["later"], project["undated"]]
    assert ids(clocked_vault.unresolved(OWNER, UnresolvedRequest.of(due_before="2026-03-15"))["items"]) == [
        project["other"],
        project["soon"],
    ]
    assert ids(clocked_vault.unresolved(REMOTE)["items"]) == [project["soon"], project["later"], project["undated"]]
    clocked_vault.archive(OWNER, ArchiveRequest.of(id=project["soon"]))
    assert project["soon"] not in ids(clocked_vault.unresolved(OWNER)["items"])
    with pytest.raises(InvalidArgument):
        clocked_vault.unresolved(OWNER, UnresolvedRequest.of(due_before="soon"))


def test_unresolved_orders_only_by_a_due_date_the_record_shows(clocked_vault: Vault, cadd: Adder) -> None:
    # a FAILED_APPROACH has no due date (the record drops one given): none may order or filter it
    failed = cadd("Glueing the Lighthouse hinge did not hold", type="FAILED_APPROACH", due_at="2026-03-02")
    assert clocked_vault.get(OWNER, failed)["memory"]["due_at"] is None
    dated = cadd("Order a new Lighthouse hinge", type="NEXT_ACTION", due_at="2026-03-20")
    assert ids(clocked_vault.unresolved(OWNER)["items"]) == [dated, failed]
    assert ids(clocked_vault.unresolved(OWNER, UnresolvedRequest.of(due_before="2026-03-10"))["items"]) == []


# -- feedback --------------------------------------------------------------------------------
def test_feedback_is_stored_without_the_query(vault: Vault, add: Adder) -> None:
    memory_id = add("The car is serviced at the garage on Mill Lane")
    query = "where is the car serviced (fictional query text)"
    assert vault.record_feedback(OWNER, FeedbackRequest.of(id=memory_id, useful=True, query=query, note="spot on")) == {
        "ok": True
    }
    rows = vault.ctx.store.raw.execute("SELECT memory_id, useful, principal, note FROM feedback").fetchall()
    assert [tuple(r) for r in rows] == [(memory_id, 1, "owner", "spot on")]
    everything = repr(dump(vault))
    assert "fictional query text" not in everything
    assert vault.events_for(OWNER, memory_id)[-1]["action"] == "feedback"


@pytest.mark.parametrize(
    "bad",
    [
        {"useful": "yes"},
        {"useful": None},
        {"useful": True, "note": "x" * 1001},
        {"useful": True, "query": 5},
        {"useful": True, "note": "my password is hunter2xyz"},
        {"useful": True, "extra": 1},
    ],
)
def test_feedback_refuses_bad_arguments_and_changes_nothing(vault: Vault, add: Adder, bad: dict[str, Any]) -> None:
    memory_id = add("The car is serviced at the garage on Mill Lane")
    before = dump(vault)
    with pytest.raises(InvalidArgument):
        vault.record_feedback(OWNER, FeedbackRequest.of(id=memory_id, **bad))
    assert dump(vault) == before


def test_feedback_on_an_invisible_or_archived_record_is_not_found(vault: Vault, add: Adder) -> None:
    private = add("A private note about the dentist")
    with pytest.raises(NotFound):
        vault.record_feedback(REMOTE, FeedbackRequest.of(id=private, useful=False))
    vault.archive(OWNER, ArchiveRequest.of(id=private))
    with pytest.raises(NotFound):
        vault.record_feedback(OWNER, FeedbackRequest.of(id=private, useful=True))
    assert count(vault, "feedback") == 0


def test_a_timeline_window_reaches_old_records_beyond_the_read_cap(
    clocked_vault: Vault, clock: FixedClock, cadd: Adder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "MAX_TIMELINE_RECORDS", 2)
    oldest = cadd("The first fictional diary line")
    for n in range(4):
        clock.advance(days=30)
        cadd(f"A later fictional diary line number {n}")
    window = clocked_vault.timeline(OWNER, TimelineRequest.of(start="2026-03-01", end="2026-03-02"))
    assert [e["record"]["id"] for e in window["events"]] == [oldest]
    latest = clocked_vault.timeline(OWNER)
    assert len({e["record"]["id"] for e in latest["events"]}) == 2  # the two newest records
