"""What the store's repositories mean, asked through the `Store` protocol alone: no SQL, no engine's
own helpers. Every engine runs this suite (`store` in conftest.py)."""

from __future__ import annotations

import pytest

from memvault.core.store.rows import StoreStamps
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, MemoryId, Surface
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer.writes import commit_draft

REMOTE = Caller(principal="tunnel-assistant", surface=Surface.REMOTE)
NOW, LATER = "2026-12-07T10:00:00Z", "2026-12-07T11:00:00Z"


def _draft(statement: str, *, scope: str = "local_only", domain: str = "home") -> Draft:
    return Draft.of(statement=statement, domain=domain, access_scope=scope)


def _add(store: Store, statement: str, *, scope: str = "local_only", domain: str = "home") -> MemoryId:
    with store.write_transaction() as writing:
        return commit_draft(writing, OWNER, _draft(statement, scope=scope, domain=domain), None, NOW)


def _everything() -> SearchRequest:
    return SearchRequest.of(query="anything", limit=50)


def test_a_record_reads_back_as_written_and_only_where_its_scope_allows(store: Store) -> None:
    private = _add(store, "The spare key is with Ilse Brandvold next door")
    shared = _add(store, "The Harrowgate book club meets on Thursdays", scope="remote_allowed", domain="clubs")
    with store.read_snapshot() as reading:
        mine = reading.memories.fetch(OWNER, private)
        assert mine is not None and mine.statement == "The spare key is with Ilse Brandvold next door"
        assert mine.domain == "home" and mine.status.value == "current"
        assert reading.memories.fetch(REMOTE, private) is None  # exactly like a record that does not exist
        assert set(reading.memories.fetch_many(REMOTE, [private, shared])) == {shared}
        assert set(reading.memories.fetch_many(OWNER, [private, shared, "m000000000000"])) == {private, shared}


def test_an_update_moves_the_revision_and_the_status(store: Store) -> None:
    memory_id = _add(store, "The boiler service is due in October")
    with store.read_snapshot() as reading:
        status, revision = reading.memories.status_of(memory_id) or ("", 0)
    with store.write_transaction() as writing:
        writing.memories.update(memory_id, LATER, status="archived", archived_reason="done")
    with store.read_snapshot() as reading:
        assert reading.memories.status_of(memory_id) == ("archived", revision + 1)
        assert status == "current"


def test_a_failed_write_leaves_nothing_and_a_savepoint_undoes_its_part_only(store: Store) -> None:
    with pytest.raises(RuntimeError), store.write_transaction() as writing:
        gone = commit_draft(writing, OWNER, _draft("Never stored"), None, NOW)
        raise RuntimeError("undo the whole transaction")
    with store.write_transaction() as writing:
        kept = commit_draft(writing, OWNER, _draft("Kept: the gutter was cleared"), None, NOW)
        with writing.savepoint() as undo:
            undone = commit_draft(writing, OWNER, _draft("Undone alone"), None, NOW)
            undo()
    with store.read_snapshot() as reading:
        assert reading.memories.fetch(OWNER, gone) is None and reading.memories.fetch(OWNER, undone) is None
        assert reading.memories.fetch(OWNER, kept) is not None
    assert not store.in_transaction


def test_words_find_records_by_word_and_prefix_within_what_the_caller_sees(store: Store) -> None:
    plumber = _add(store, "The plumber fixed the kitchen sink", scope="remote_allowed")
    _add(store, "The plumbing quote came from Vesterby Pipes")
    request = _everything()
    with store.read_snapshot() as reading:
        exact = reading.search.lexical_candidates(OWNER, [("plumber", False)], request, 10)
        prefix = reading.search.lexical_candidates(OWNER, [("plumb", True)], request, 10)
        remote = reading.search.lexical_candidates(REMOTE, [("plumb", True)], request, 10)
        counts = reading.search.document_frequencies([("plumb", True), ("kitchen", False), ("zanzibar", False)])
    assert [m.id for m, _ in exact] == [plumber]
    assert len(prefix) == 2
    assert [m.id for m, _ in remote] == [plumber]
    assert (counts["plumb"].docs, counts["kitchen"].docs, counts["zanzibar"].docs) == (2, 1, 0)


def test_fragments_find_what_words_cannot(store: Store) -> None:
    inside = _add(store, "We booked the Thornquist-Abernathy cottage")
    cjk = _add(store, "我们周末去北京看长城")
    request = _everything()
    with store.read_snapshot() as reading:
        by_trigram = reading.search.trigram_candidates(OWNER, ["abernathy"], request, 10)
        by_substring = reading.search.substring_candidates(OWNER, ["北京"], request, 10)
        quoted = reading.search.lexical_candidates(OWNER, [('"; DROP', False)], request, 10)
    assert [m.id for m, _ in by_trigram] == [inside]
    assert [m.id for m in by_substring] == [cjk]
    assert quoted == []  # a term is a term: no caller's string is read as query syntax


def test_events_feed_the_change_cursor_in_order(store: Store) -> None:
    with store.read_snapshot() as reading:
        start = reading.changes.cursor()
    memory_id = _add(store, "The Lindqvist project kicks off in May")
    with store.write_transaction() as writing:
        writing.events.record(OWNER, "archived", LATER, memory_id, reason="test")
    with store.read_snapshot() as reading:
        rows = reading.changes.after(start, 10)
        assert [row["action"] for row in rows] == ["added", "archived"]
        assert reading.changes.cursor() == rows[-1]["id"] > start
        assert [event["action"] for event in reading.events.for_memory(memory_id)] == ["added", "archived"]
        assert reading.changes.visible_ids(REMOTE, [memory_id]) == set()


@pytest.mark.parametrize("action", ["purged", "restored_from_backup"])
def test_a_purge_or_a_restore_tells_other_processes_their_text_is_stale(store: Store, action: str) -> None:
    memory_id = _add(store, "The Lindqvist archive moves to the attic")
    with store.read_snapshot() as reading:
        before = reading.changes.cursor()
    with store.write_transaction() as writing:
        writing.events.record(OWNER, "archived", LATER, memory_id, reason="test")
    with store.read_snapshot() as reading:
        assert not reading.search.text_gone_since(before)  # an archive leaves every text where it was
        archived = reading.changes.cursor()
    with store.write_transaction() as writing:
        writing.events.record(OWNER, action, LATER, memory_id if action == "purged" else None)
    with store.read_snapshot() as reading:
        assert reading.search.text_gone_since(archived)
        assert not reading.search.text_gone_since(reading.changes.cursor())


def test_a_proposal_waits_until_decided(store: Store) -> None:
    with store.write_transaction() as writing:
        proposal = writing.proposals.stage(
            REMOTE, "add", {"draft": {"statement": "x"}}, NOW, norm_key="x", reason="why"
        )
    with store.read_snapshot() as reading:
        assert reading.proposals.count_pending() == 1 and reading.proposals.count_pending(REMOTE.principal) == 1
        assert reading.proposals.pending_same(REMOTE, "add", "x", None) == proposal
        found = reading.proposals.fetch(proposal)
        assert found is not None and found["status"] == "pending"
    with store.write_transaction() as writing:
        writing.proposals.decide(proposal, "rejected", LATER)
    with store.read_snapshot() as reading:
        assert reading.proposals.count_pending() == 0
        assert [row["id"] for row in reading.proposals.list_by_status("rejected", 10)] == [proposal]


def test_settings_keep_any_json_value(store: Store) -> None:
    with store.write_transaction() as writing:
        writing.settings.write("auto_write_domains", ["home", "garden"])
        writing.settings.write("write_mode", "retrieval-only")
    with store.read_snapshot() as reading:
        assert reading.settings.read("auto_write_domains") == ["home", "garden"]
        assert reading.settings.read("never_set") is None
        assert reading.settings.read_all() == {"auto_write_domains": ["home", "garden"], "write_mode": "retrieval-only"}


def test_vectors_round_trip_and_name_what_still_needs_one(store: Store) -> None:
    first = _add(store, "The allotment is plot 14")
    second = _add(store, "The allotment society meets monthly")
    blob = bytes(range(16))
    with store.read_snapshot() as reading:
        assert {row[1] for row in reading.vectors.missing("model-a")} == {first, second}
    with store.write_transaction() as writing:
        writing.vectors.put("model-a", [(first, blob)])
    with store.read_snapshot() as reading:
        assert reading.vectors.vectors_of("model-a", [first, second]) == {first: blob}
        assert reading.vectors.count_missing("model-a") == 1
        assert [row[1] for row in reading.vectors.since("model-a", 0)] == [first]


def test_the_stamps_move_with_every_write(store: Store) -> None:

    def stamps() -> StoreStamps:
        with store.read_snapshot() as reading:
            return reading.stamps.read()

    before = stamps()
    memory_id = _add(store, "The car's MOT is due in June")
    garage = _add(store, "The garage on Fenwick Road does the MOT")
    after = stamps()
    assert after.identity == before.identity
    assert after.writes > before.writes and after.cursor > before.cursor
    with store.write_transaction() as writing:
        writing.memories.add_link(memory_id, garage, "relates_to", LATER)
    assert "links" in stamps().filled and "links" not in after.filled


def test_a_link_is_kept_once_and_an_unknown_kind_is_refused(store: Store) -> None:
    house, roof = _add(store, "The house is on Alder Lane"), _add(store, "The roof was redone in 2024")
    with store.write_transaction() as writing:
        writing.memories.add_link(roof, house, "relates_to", NOW)
        writing.memories.add_link(roof, house, "relates_to", LATER)
    with pytest.raises(store.engine.errors), store.write_transaction() as writing:
        writing.memories.add_link(roof, house, "admires", NOW)
    with store.read_snapshot() as reading:
        links = reading.memories.links_from(OWNER, roof)
    assert [(link["target_id"], link["type"], link["direction"]) for link in links] == [(house, "relates_to", "out")]


def test_a_purge_leaves_a_tombstone_and_no_text(store: Store) -> None:
    gone = _add(store, "The Kestrelmoor diagnosis letter is in the blue folder")
    kept = _add(store, "The blue folder is in the study")
    with store.write_transaction() as writing:
        said_again = writing.proposals.stage(REMOTE, "add", {"draft": {"statement": "Kestrelmoor letter"}}, NOW)
        unrelated = writing.proposals.stage(REMOTE, "add", {"draft": {"statement": "The study lamp"}}, NOW)
    with store.write_transaction() as writing:
        removed = writing.maintenance.purge_records([gone], LATER, "personal")
        assert writing.maintenance.purge_texts(["Kestrelmoor"]) == 1
    assert removed.get("memories") == 1
    with store.read_snapshot() as reading:
        assert reading.memories.fetch(OWNER, gone) is None and reading.memories.fetch(OWNER, kept) is not None
        assert reading.tombstones.record_count() == 1
        assert [row[0] for row in reading.maintenance.tombstone_ids()] == [gone]
        assert reading.search.document_frequencies([("kestrelmoor", False)])["kestrelmoor"].docs == 0  # index too
        assert reading.search.trigram_candidates(OWNER, ["kestrelmoor"], _everything(), 10) == []
        assert reading.maintenance.statements_of([gone, kept]) == {kept: "The blue folder is in the study"}
        assert reading.proposals.fetch(said_again) is None and reading.proposals.fetch(unrelated) is not None


def test_revocations_read_from_a_store_are_applied_again_and_never_undone(store: Store) -> None:
    """What a restore keeps from the store it replaces: a revoked principal and its tokens stay revoked."""
    with store.write_transaction() as writing:
        writing.principals.upsert("phone", "remote", None, NOW)
        writing.principals.add_token("a" * 64, "phone", NOW)
        writing.principals.upsert("tablet", "remote", None, NOW)
        writing.principals.add_token("b" * 64, "tablet", NOW)
        writing.principals.revoke("phone", LATER)
    with store.read_snapshot() as reading:
        revoked = reading.maintenance.revocations()
    assert revoked["principals"] == [("phone", LATER)] and revoked["tokens"] == [("a" * 64, LATER)]
    with store.write_transaction() as writing:
        writing.principals.upsert("phone", "remote", None, NOW)  # as a backup from before the revocation has it
        writing.maintenance.revoke_again({**revoked, "principals": [*revoked["principals"], ("gone", LATER)]})
    with store.read_snapshot() as reading:
        assert reading.principals.fetch("phone")["revoked_at"] == LATER  # type: ignore[index]
        assert reading.principals.by_token_hash("a" * 64) is None
        assert reading.principals.fetch("tablet")["revoked_at"] is None  # type: ignore[index]
        assert reading.principals.by_token_hash("b" * 64) is not None
