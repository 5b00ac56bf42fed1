"""memory_add, memory_get, memory_list and memory_status on a real store."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime, timedelta

import pytest
from corekit import OWNER, Adder, count, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock, format_time, parse_time
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument, NotFound
from memvault.core.vocabulary.model import Explicitness, Memory, MemoryType, Scope, Sensitivity, Status
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ListRequest
from memvault.core.vocabulary.search_request import SearchRequest

NOW = "2026-03-01T09:30:00.000Z"
ENUMS = (MemoryType, Status, Explicitness, Sensitivity, Scope)


def test_add_stores_every_field_and_get_returns_the_contract_record(clocked_vault: Vault) -> None:
    answer = clocked_vault.add(
        OWNER,
        Draft.of(
            statement="Ines runs the Friday pottery class at the community hall",
            type="WORKFLOW",
            domain="Community",
            tags=["pottery", "project:hall-renovation"],
            importance=0.7,
            confidence=0.95,
            source="conversation",
            source_reference="chat 2026-02-28",
            evidence="Ines mentioned it while we were booking the hall",
            event_time="2026-02-20",
            entities=["Ines", "community hall"],
        ),
    )
    assert answer == {"outcome": "added", "id": answer["id"], "proposal_id": None, "duplicate_of": None, "reason": None}
    got = clocked_vault.get(OWNER, answer["id"])
    record = got["memory"]
    assert set(record) == set(Memory.CONTRACT_FIELDS)
    assert record["statement"] == "Ines runs the Friday pottery class at the community hall"
    assert (record["type"], record["domain"], record["status"]) == ("WORKFLOW", "community", "current")
    assert (record["importance"], record["confidence"]) == (0.7, 0.95)
    assert record["access_scope"] == "local_only"  # a local write is local_only unless asked otherwise
    assert (record["explicitness"], record["sensitivity"]) == ("explicit", "normal")
    assert record["tags"] == ["pottery", "project:hall-renovation"]
    assert record["event_time"] == record["valid_from"] == "2026-02-20T00:00:00.000Z"
    assert record["learned_at"] == record["created_at"] == record["last_confirmed_at"] == NOW
    assert record["valid_until"] is None and record["supersedes_id"] is None
    assert (record["revision"], record["retrieval_count"]) == (1, 0)
    assert got["history"] == [] and got["links"] == []
    assert got["entities"] == ["Ines", "community hall"]
    assert count(clocked_vault, "projects") == 1
    # every enum field (the ones `to_dict` converts) answers a plain string, as JSON shows it
    assert all(type(record[name]) is str for name in Memory.ENUM_FIELDS)  # type: ignore[literal-required]
    enum_fields = {f.name for f in fields(Memory) if f.type in {t.__name__ for t in ENUMS}}
    assert set(Memory.ENUM_FIELDS) == enum_fields


def test_defaults_of_a_plain_add(clocked_vault: Vault) -> None:
    record = clocked_vault.get(
        OWNER, clocked_vault.add(OWNER, Draft.of(statement="The spare bike pump is in the shed"))["id"]
    )
    memory = record["memory"]
    assert (memory["type"], memory["domain"]) == ("FACT", "general")
    assert (memory["importance"], memory["confidence"]) == (0.5, 0.8)
    assert memory["valid_from"] == NOW


def test_a_record_that_ended_before_it_was_learned_keeps_a_valid_interval(clocked_vault: Vault) -> None:
    ended = clocked_vault.add(
        OWNER, Draft.of(statement="The lease on the Orchard Lane flat ran out", domain="home", valid_until="2025-06-30")
    )["id"]
    record = clocked_vault.get(OWNER, ended)["memory"]
    # no start was given: learning it later (now) must not make it start after it ended
    assert record["valid_from"] is None or record["valid_from"] < record["valid_until"]
    found = clocked_vault.search(OWNER, SearchRequest.of(query="lease Orchard Lane flat", as_of="2025-03-01"))
    assert [hit["id"] for hit in found["results"]] == [ended]


def test_links_point_at_visible_records_and_show_in_get(vault: Vault, add: Adder) -> None:
    target = add("The hall renovation depends on the roof survey", domain="community")
    linked = add(
        "The roof survey is booked for April", domain="community", links=[{"type": "depends_on", "target_id": target}]
    )
    assert vault.get(OWNER, linked)["links"] == [{"type": "depends_on", "target_id": target}]


def test_a_link_to_a_missing_record_is_not_found_and_stores_nothing(vault: Vault) -> None:
    before = count(vault, "memories")
    with pytest.raises(NotFound):
        vault.add(
            OWNER,
            Draft.of(
                statement="Something linked to nothing at all", links=[{"type": "relates_to", "target_id": "mffffff"}]
            ),
        )
    assert count(vault, "memories") == before


def test_get_of_an_unknown_id_is_not_found(vault: Vault) -> None:
    with pytest.raises(NotFound, match="no such memory"):
        vault.get(OWNER, "m000000000000")


def _fill(vault: Vault, clock: FixedClock, n: int, **fields: object) -> list[str]:
    ids = []
    for i in range(n):
        ids.append(
            vault.add(
                OWNER, Draft.of(statement=f"Garden bed number {i} holds {['kale', 'leeks', 'beans'][i % 3]}", **fields)
            )["id"]
        )
        clock.advance(minutes=1)
    return ids


def test_list_pages_newest_first_with_a_cursor(clocked_vault: Vault, clock: FixedClock) -> None:
    ids = _fill(clocked_vault, clock, 7, domain="garden")
    seen, cursor, pages = [], None, 0
    while True:
        args = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = clocked_vault.list_memories(OWNER, ListRequest.of(**args))
        seen += [item["id"] for item in page["items"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3
    assert seen == list(reversed(ids))


def test_list_cursor_is_stable_when_records_share_a_timestamp(clocked_vault: Vault) -> None:
    ids = [
        clocked_vault.add(OWNER, Draft.of(statement=f"Jar {i} of plum jam is on the top shelf", domain="pantry"))["id"]
        for i in range(5)
    ]
    first = clocked_vault.list_memories(OWNER, ListRequest.of(limit=2))
    rest = clocked_vault.list_memories(OWNER, ListRequest.of(limit=10, cursor=first["next_cursor"]))
    got = [i["id"] for i in first["items"] + rest["items"]]
    assert sorted(got) == sorted(ids) and len(set(got)) == 5


def test_list_filters_by_domain_type_and_status_default_current(vault: Vault, add: Adder) -> None:
    kale = add("The kale bed needs netting", domain="garden", type="NEXT_ACTION")
    leeks = add("Leeks go in after the beans", domain="garden")
    bus = add("The number 12 bus stops at the library", domain="travel")
    vault.archive(OWNER, ArchiveRequest.of(id=leeks))
    new_bus = vault.correct(OWNER, CorrectRequest.of(id=bus, statement="The number 14 bus stops at the library"))["id"]
    assert {i["id"] for i in vault.list_memories(OWNER)["items"]} == {kale, new_bus}
    assert {i["id"] for i in vault.list_memories(OWNER, ListRequest.of(domain="garden"))["items"]} == {kale}
    assert {i["id"] for i in vault.list_memories(OWNER, ListRequest.of(type="NEXT_ACTION"))["items"]} == {kale}
    assert {i["id"] for i in vault.list_memories(OWNER, ListRequest.of(status="archived"))["items"]} == {leeks}
    assert {i["id"] for i in vault.list_memories(OWNER, ListRequest.of(status="superseded"))["items"]} == {bus}
    assert vault.list_memories(OWNER, ListRequest.of(domain="travel", type="NEXT_ACTION"))["items"] == []


def test_list_rejects_a_forged_cursor(vault: Vault) -> None:
    with pytest.raises(InvalidArgument, match="cursor"):
        vault.list_memories(OWNER, ListRequest.of(cursor="not-a-cursor"))


def test_status_counts_follow_the_records(vault: Vault, add: Adder) -> None:
    before = vault.status(OWNER)
    assert before["contract"] == 1 and before["store"]["encrypted"] is True
    assert before["counts"]["total"] == 0 and before["pending_proposals"] == 0
    a = add("The kale bed needs netting", domain="garden")
    add("Leeks go in after the beans", domain="garden")
    c = add("The number 12 bus stops at the library", domain="travel")
    vault.archive(OWNER, ArchiveRequest.of(id=a))
    vault.correct(OWNER, CorrectRequest.of(id=c, statement="The number 14 bus stops at the library"))
    counts = vault.status(OWNER)["counts"]
    assert (counts["current"], counts["archived"], counts["superseded"], counts["total"]) == (2, 1, 1, 4)
    assert counts["by_domain"] == {"garden": 1, "travel": 1}


def test_reads_change_nothing(vault: Vault, add: Adder) -> None:
    memory_id = add("The spare bike pump is in the shed", domain="home")
    before = dump(vault)
    vault.get(OWNER, memory_id)
    vault.list_memories(OWNER)
    vault.status(OWNER)
    vault.events_for(OWNER, memory_id)
    vault.proposals(OWNER)
    vault.settings()
    assert dump(vault) == before


def test_stored_times_sort_as_text_in_time_order() -> None:
    start = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    moments = [start + timedelta(milliseconds=ms) for ms in (0, 1, 500, 999, 1000)]
    texts = [format_time(moment) for moment in moments]
    assert sorted(texts) == texts and len({len(text) for text in texts}) == 1
    assert [parse_time(text, "t") for text in texts] == moments
