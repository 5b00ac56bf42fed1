"""Archive is reversible and takes a record out of every search; restore brings it back as it was."""

from __future__ import annotations

import pytest
from corekit import OWNER, Adder, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Conflict, NotFound
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ListRequest
from memvault.core.vocabulary.search_request import SearchRequest

STATEMENT = "The Harrowgate choir rehearses on Wednesday evenings"


def _found(vault: Vault, memory_id: str, **args: object) -> bool:
    return memory_id in [
        hit["id"]
        for hit in vault.search(OWNER, SearchRequest.of(query="Harrowgate choir rehearses", **args))["results"]
    ]


def test_archive_removes_from_search_but_get_and_list_reach_it(vault: Vault, add: Adder) -> None:
    memory_id = add(STATEMENT, domain="music")
    assert _found(vault, memory_id)
    answer = vault.archive(OWNER, ArchiveRequest.of(id=memory_id, reason="left the choir"))
    assert answer == {"outcome": "archived", "id": memory_id}
    assert not _found(vault, memory_id)
    assert not _found(vault, memory_id, include_history=True)
    assert not _found(vault, memory_id, depth="deep")
    assert not _found(vault, memory_id, as_of="2026-01-01T00:00:00Z")
    record = vault.get(OWNER, memory_id)["memory"]
    assert (record["status"], record["archived_reason"]) == ("archived", "left the choir")
    assert [i["id"] for i in vault.list_memories(OWNER, ListRequest.of(status="archived"))["items"]] == [memory_id]
    assert vault.list_memories(OWNER)["items"] == []
    assert vault.status(OWNER)["counts"]["archived"] == 1


def test_restore_brings_back_the_previous_status(vault: Vault, add: Adder) -> None:
    memory_id = add(STATEMENT, domain="music")
    vault.archive(OWNER, ArchiveRequest.of(id=memory_id, reason="left the choir"))
    assert vault.restore(OWNER, memory_id) == {"outcome": "restored", "id": memory_id, "proposal_id": None}
    record = vault.get(OWNER, memory_id)["memory"]
    assert (record["status"], record["archived_reason"], record["revision"]) == ("current", None, 3)
    assert _found(vault, memory_id)


def test_restoring_a_superseded_records_archive_returns_it_to_superseded(vault: Vault, add: Adder) -> None:
    old = add(STATEMENT, domain="music")
    vault.correct(OWNER, CorrectRequest.of(id=old, statement="The Harrowgate choir rehearses on Thursday evenings"))
    vault.archive(OWNER, ArchiveRequest.of(id=old))
    vault.restore(OWNER, old)
    assert vault.get(OWNER, old)["memory"]["status"] == "superseded"


def test_archive_twice_and_restore_of_a_live_record_are_conflicts(vault: Vault, add: Adder) -> None:
    memory_id = add(STATEMENT, domain="music")
    with pytest.raises(Conflict):
        vault.restore(OWNER, memory_id)
    vault.archive(OWNER, ArchiveRequest.of(id=memory_id))
    before = dump(vault)
    with pytest.raises(Conflict):
        vault.archive(OWNER, ArchiveRequest.of(id=memory_id))
    assert dump(vault) == before


def test_an_archived_record_cannot_be_corrected(vault: Vault, add: Adder) -> None:
    memory_id = add(STATEMENT, domain="music")
    vault.archive(OWNER, ArchiveRequest.of(id=memory_id))
    with pytest.raises(Conflict, match="archived"):
        vault.correct(
            OWNER, CorrectRequest.of(id=memory_id, statement="The Harrowgate choir rehearses on Friday evenings")
        )


def test_archive_and_restore_of_unknown_ids_are_not_found(vault: Vault) -> None:
    with pytest.raises(NotFound):
        vault.archive(OWNER, ArchiveRequest.of(id="m0000000000aa"))
    with pytest.raises(NotFound):
        vault.restore(OWNER, "m0000000000aa")
