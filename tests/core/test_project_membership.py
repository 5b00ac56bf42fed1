"""Project membership through part_of_project links and entities, not only `project:NAME` tags (issue 11)."""

from __future__ import annotations

from corekit import REMOTE, Adder

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import DecisionsRequest, UnresolvedRequest


def _ids(items: list[dict[str, object]]) -> set[object]:
    return {item["id"] for item in items}


def test_links_and_entities_make_a_record_part_of_a_project(vault: Vault, add: Adder) -> None:
    project = add("Kestrel: a budgeting app for households.", type="PROJECT", entities=["Kestrel"])
    linked = add(
        "We decided to write the Android client in Kotlin.",
        type="DECISION",
        links=[{"type": "part_of_project", "target_id": project}],
    )
    by_entity = add(
        "Find out whether the bank API allows read-only tokens.", type="OPEN_QUESTION", entities=["Kestrel"]
    )
    state = add(
        "The beta has 40 testers.", type="PROJECT_STATE", links=[{"type": "part_of_project", "target_id": project}]
    )
    tagged = add("Ship the iOS client after the Android one.", type="DECISION", tags=["project:Kestrel"])
    other = add("We decided to paint the shed green.", type="DECISION")
    for key in ("Kestrel", "kestrel", project):
        history = vault.project_history(OWNER, key)
        assert _ids(history["decisions"]) == {linked, tagged}, key
        assert _ids(history["unresolved"]) == {by_entity}, key
        assert {project, state} <= _ids(history["states"]), key
    assert _ids(vault.decisions(OWNER, DecisionsRequest.of(project=project))["items"]) == {linked, tagged}
    assert other not in _ids(vault.decisions(OWNER, DecisionsRequest.of(project="Kestrel"))["items"])
    assert _ids(vault.unresolved(OWNER, UnresolvedRequest.of(project="Kestrel"))["items"]) == {by_entity}


def test_a_project_the_caller_cannot_see_is_not_found(vault: Vault, add: Adder) -> None:
    project = add("Heron: the garden shed build.", type="PROJECT", entities=["Heron"])
    add("Order larch boards.", type="NEXT_ACTION", links=[{"type": "part_of_project", "target_id": project}])
    assert vault.unresolved(REMOTE, UnresolvedRequest.of(project="Heron"))["items"] == []
    assert vault.unresolved(REMOTE, UnresolvedRequest.of(project=project))["items"] == []
