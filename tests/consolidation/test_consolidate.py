"""Consolidation on a real store: merge, promote, dispute, fade; evidence kept; a run undone whole."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "importers"))

from importkit import content

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden
from memvault.core.vocabulary.model import HOUSEKEEPER, LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.search_request import SearchRequest

PEANUTS = [
    ("I can't eat peanuts.", "chat:a#1"),
    ("I cannot eat peanuts", "chat:b#4"),
    ("I can't eat any peanuts.", "chat:c#2"),
]


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def _add(vault: Vault, statement: str, **fields: object) -> str:
    answer = vault.add(OWNER, Draft.of(statement=statement, domain="life", **fields))
    assert answer["outcome"] == "added", answer
    return str(answer["id"])


@pytest.fixture
def filled(clocked_vault: Vault, clock: FixedClock) -> dict[str, list[str]]:
    stale = _add(clocked_vault, "The old bike lock code card is in the red box.", importance=0.5)
    clock.advance(days=500)
    peanuts = [_add(clocked_vault, s, evidence=f"pointer {ref} sha256:{i}" * 1, source_reference=ref)
               for i, (s, ref) in enumerate(PEANUTS)]  # fmt: skip
    budget = [_add(clocked_vault, "The garden budget is 4000 kronor.")]
    clock.advance(days=1)
    budget.append(_add(clocked_vault, "The garden budget is 5500 kronor."))
    inferred = [
        _add(clocked_vault, "Maren probably likes jazz on Sunday mornings.", explicitness="inferred"),
        _add(clocked_vault, "Maren probably enjoys jazz on Sunday mornings.", explicitness="inferred"),
    ]
    return {"stale": [stale], "peanuts": peanuts, "budget": budget, "inferred": inferred}


def test_a_dry_run_reports_and_changes_nothing(clocked_vault: Vault, filled: dict[str, list[str]]) -> None:
    before = content(clocked_vault)
    report = clocked_vault.consolidation.run(OWNER, dry_run=True)
    assert report["run_id"] is None and report["lowered"] == 1
    groups = sorted(sorted(g["members"]) for g in report["merged"])
    assert groups == sorted([sorted(filled["peanuts"]), sorted(filled["inferred"])])
    assert report["disputed"] == [{"ids": filled["budget"]}]
    assert content(clocked_vault) == before


def test_consolidation_merges_promotes_disputes_and_fades_keeping_every_evidence_pointer(
    clocked_vault: Vault, filled: dict[str, list[str]]
) -> None:
    vault = clocked_vault
    before = content(vault)
    evidence_before = {i: vault.get(OWNER, i)["memory"]["evidence"] for i in filled["peanuts"]}
    report = vault.consolidation.run(OWNER)
    (merged,) = [g["id"] for g in report["merged"] if g["id"]]
    record = vault.get(OWNER, merged)
    assert record["memory"]["type"] == "CONSTRAINT" and record["memory"]["explicitness"] == "consolidated"
    assert record["memory"]["importance"] >= 0.8
    for member in filled["peanuts"]:  # every member kept, superseded by the merge, its evidence untouched
        old = vault.get(OWNER, member)["memory"]
        assert old["status"] == "superseded" and old["superseded_by_id"] == merged
        assert old["evidence"] == evidence_before[member]
        assert member in record["memory"]["evidence"]
        assert {"type": "supersedes", "target_id": member} in [
            {"type": link["type"], "target_id": link["target_id"]} for link in record["links"]
        ]
    for ref in ("chat:a#1", "chat:b#4", "chat:c#2"):
        assert ref in record["memory"]["evidence"]
    assert [vault.get(OWNER, i)["memory"]["status"] for i in filled["budget"]] == ["disputed", "disputed"]
    assert vault.get(OWNER, filled["stale"][0])["memory"]["importance"] == 0.4
    assert report["proposed"] == 1  # two inferred records are not evidence enough: the person decides
    assert vault.get(OWNER, filled["inferred"][0])["memory"]["status"] == "current"
    actions = {e["action"] for i in [merged, *filled["budget"]] for e in vault.events_for(OWNER, i)}
    assert {"consolidated", "disputed"} <= actions
    results = vault.search(OWNER, SearchRequest.of(query="peanuts"))["results"]
    assert [r["id"] for r in results] == [merged]
    undone = vault.consolidation.undo(OWNER, str(report["run_id"]))
    assert undone["removed"] == 1
    after = content(vault)
    pending = after.pop("proposals"), before.pop("proposals")
    assert after == before and len(pending[0]) == len(pending[1]) + 1


def test_only_the_person_consolidates(vault: Vault) -> None:
    with pytest.raises(Forbidden):
        vault.consolidation.run(LOCAL_ASSISTANT)


def test_a_store_with_nothing_to_do_records_no_run(vault: Vault) -> None:
    _add(vault, "I prefer green tea in the morning.")
    report = vault.consolidation.run(OWNER)
    assert report["run_id"] is None and report["merged"] == [] and report["disputed"] == []


def test_the_daemons_schedule_runs_once_a_day(clocked_vault: Vault, clock: FixedClock) -> None:
    _add(clocked_vault, "I prefer green tea in the morning.")
    assert clocked_vault.consolidation.scheduled(HOUSEKEEPER) is not None
    clock.advance(hours=3)
    assert clocked_vault.consolidation.scheduled(HOUSEKEEPER) is None
    clock.advance(days=1)
    assert clocked_vault.consolidation.scheduled(HOUSEKEEPER) is not None


def test_the_scheduled_run_judges_only_what_changed_since_the_last_run(clocked_vault: Vault, clock: FixedClock) -> None:
    for statement in (
        "I prefer green tea in the morning.",
        "The garden budget is 4000 kronor.",
        "Maren walks at seven.",
    ):
        _add(clocked_vault, statement)
    clock.advance(minutes=1)
    first = clocked_vault.consolidation.scheduled(HOUSEKEEPER)
    assert first is not None and first["records_judged"] == 3
    clock.advance(days=1, hours=1)
    later = [_add(clocked_vault, statement, source_reference=ref) for statement, ref in PEANUTS[:2]]
    second = clocked_vault.consolidation.scheduled(HOUSEKEEPER)
    assert second is not None
    assert (second["records_seen"], second["records_judged"]) == (5, 2)
    assert [sorted(group["members"]) for group in second["merged"]] == [sorted(later)]
    assert clocked_vault.consolidation.run(OWNER, dry_run=True)["records_judged"] == 4  # by hand: everything
