"""memory_correct: a new record supersedes the old one, which keeps its evidence; history newest first."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, Adder, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest

EVIDENCE = "Tomas said so on the 2026-02-27 call (notes, page 3)"


def test_correct_supersedes_and_links(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    old = cadd("Tomas works from the Leeds office", domain="work", evidence=EVIDENCE, source_reference="call-0227")
    clock.advance(days=10)
    answer = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="Tomas works from the York office", reason="he moved")
    )
    assert answer["outcome"] == "superseded" and answer["supersedes_id"] == old and answer["proposal_id"] is None
    new = answer["id"]
    was = clocked_vault.get(OWNER, old)["memory"]
    now = clocked_vault.get(OWNER, new)
    assert was["status"] == "superseded"
    assert was["superseded_by_id"] == new
    assert was["valid_until"] == now["memory"]["valid_from"] == "2026-03-11T09:30:00.000Z"
    assert was["evidence"] == EVIDENCE and was["source_reference"] == "call-0227"
    assert was["revision"] == 2
    assert now["memory"]["status"] == "current" and now["memory"]["supersedes_id"] == old
    assert now["memory"]["domain"] == "work" and now["memory"]["revision"] == 1
    assert {"type": "supersedes", "target_id": old} in now["links"]
    assert [h["id"] for h in now["history"]] == [old]


def test_a_back_dated_correction_sets_valid_until_to_its_valid_from(clocked_vault: Vault, cadd: Adder) -> None:
    old = cadd("The lease on the flat runs to June", domain="home", valid_from="2025-07-01")
    new = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="The lease on the flat runs to August", valid_from="2026-01-15")
    )
    assert clocked_vault.get(OWNER, old)["memory"]["valid_until"] == "2026-01-15T00:00:00.000Z"
    assert clocked_vault.get(OWNER, new["id"])["memory"]["valid_from"] == "2026-01-15T00:00:00.000Z"


def test_correcting_a_record_that_had_ended_keeps_its_end(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    old = cadd(
        "Rowan coached the Thistle Lane juniors", domain="people", valid_from="2024-09-01", valid_until="2025-06-30"
    )
    clock.advance(days=30)
    new = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="Rowan coached the Thistle Lane under-twelves")
    )["id"]
    # the old version was true until its own end, not until the correction was made
    assert clocked_vault.get(OWNER, old)["memory"]["valid_until"] == "2025-06-30T00:00:00.000Z"
    found = clocked_vault.search(OWNER, SearchRequest.of(query="Rowan coached Thistle Lane", as_of="2025-10-01"))
    assert [hit["id"] for hit in found["results"]] == []
    found = clocked_vault.search(OWNER, SearchRequest.of(query="Rowan coached Thistle Lane", as_of="2025-01-01"))
    assert [hit["id"] for hit in found["results"]] == [old]
    # as known before the correction, it had ended too
    found = clocked_vault.search(
        OWNER, SearchRequest.of(query="Rowan coached Thistle Lane", as_of="2025-10-01", known_at="2026-03-15")
    )
    assert [hit["id"] for hit in found["results"]] == []
    assert new


def test_correcting_a_record_that_starts_later_needs_no_valid_from(clocked_vault: Vault, cadd: Adder) -> None:
    old = cadd("From April the Brookside pool opens at seven", domain="home", valid_from="2026-04-01")
    new = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="From April the Brookside pool opens at half past six")
    )
    # by default the correction holds from when the old statement would have started
    assert clocked_vault.get(OWNER, new["id"])["memory"]["valid_from"] == "2026-04-01T00:00:00.000Z"
    assert clocked_vault.get(OWNER, old)["memory"]["valid_until"] == "2026-04-01T00:00:00.000Z"


def test_an_approved_correction_holds_from_when_it_was_proposed(
    clocked_vault: Vault, cadd: Adder, clock: FixedClock
) -> None:
    old = cadd("The Brookside pool opens at seven", domain="home")
    clock.advance(days=1)
    staged = clocked_vault.correct(
        ASSISTANT, CorrectRequest.of(id=old, statement="The Brookside pool opens at half past six")
    )
    clock.advance(days=5)
    new = clocked_vault.approve(OWNER, staged["proposal_id"])["id"]
    assert clocked_vault.get(OWNER, new)["memory"]["valid_from"] == "2026-03-02T09:30:00.000Z"
    assert clocked_vault.get(OWNER, old)["memory"]["valid_until"] == "2026-03-02T09:30:00.000Z"


def test_history_is_newest_first(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    v1 = cadd("The team standup is at 9:00", domain="work")
    clock.advance(days=1)
    v2 = clocked_vault.correct(OWNER, CorrectRequest.of(id=v1, statement="The team standup is at 9:15"))["id"]
    clock.advance(days=1)
    v3 = clocked_vault.correct(OWNER, CorrectRequest.of(id=v2, statement="The team standup is at 9:30"))["id"]
    got = clocked_vault.get(OWNER, v3)
    assert [h["id"] for h in got["history"]] == [v2, v1]
    assert [h["statement"] for h in got["history"]] == ["The team standup is at 9:15", "The team standup is at 9:00"]
    assert clocked_vault.get(OWNER, v2)["history"][0]["id"] == v1


def test_stale_expected_revision_is_a_conflict_and_changes_nothing(vault: Vault, add: Adder) -> None:
    old = add("The boiler service is due in October", domain="home")
    vault.archive(OWNER, ArchiveRequest.of(id=old))
    vault.restore(OWNER, old)
    revision = vault.get(OWNER, old)["memory"]["revision"]
    assert revision == 3
    before = dump(vault)
    with pytest.raises(Conflict, match="revision"):
        vault.correct(
            OWNER, CorrectRequest.of(id=old, statement="The boiler service is due in November", expected_revision=1)
        )
    with pytest.raises(Conflict):
        vault.archive(OWNER, ArchiveRequest.of(id=old, expected_revision=2))
    assert dump(vault) == before
    done = vault.correct(
        OWNER, CorrectRequest.of(id=old, statement="The boiler service is due in November", expected_revision=3)
    )
    assert done["outcome"] == "superseded"


def test_a_superseded_record_cannot_be_corrected_again(vault: Vault, add: Adder) -> None:
    old = add("The car is due for its MOT in May", domain="car")
    vault.correct(OWNER, CorrectRequest.of(id=old, statement="The car is due for its MOT in June"))
    before = dump(vault)
    with pytest.raises(Conflict, match="superseded"):
        vault.correct(OWNER, CorrectRequest.of(id=old, statement="The car is due for its MOT in July"))
    assert dump(vault) == before


def test_a_correction_that_says_the_same_is_refused(vault: Vault, add: Adder) -> None:
    old = add("The car is due for its MOT in May", domain="car")
    before = dump(vault)
    with pytest.raises(InvalidArgument, match="same"):
        vault.correct(OWNER, CorrectRequest.of(id=old, statement="  the car is due for its MOT in may. "))
    assert dump(vault) == before


def test_a_correction_cannot_start_before_the_record_it_corrects(vault: Vault, add: Adder) -> None:
    old = add("The allotment rent is 40 a year", domain="garden", valid_from="2026-01-01")
    before = dump(vault)
    with pytest.raises(InvalidArgument, match="valid_from"):
        vault.correct(
            OWNER, CorrectRequest.of(id=old, statement="The allotment rent is 45 a year", valid_from="2025-06-01")
        )
    assert dump(vault) == before


def test_correcting_an_unknown_id_is_not_found(vault: Vault) -> None:
    with pytest.raises(NotFound):
        vault.correct(OWNER, CorrectRequest.of(id="m0123456789ab", statement="The boiler was serviced in May"))
