"""What the import, conversation and word-index repositories mean, asked through the `Store` protocol
alone, on every engine (`store` in conftest.py): an import batch's life and what its rollback reads,
imported conversations found by their words, and the word index the in-memory postings load."""

from __future__ import annotations

import re
from collections import Counter

from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, MemoryId
from memvault.core.writer.writes import commit_draft

NOW, LATER, LAST = "2026-12-07T10:00:00Z", "2026-12-07T11:00:00Z", "2026-12-07T12:00:00Z"
RECORD = ("statement", "tags", "entities")


def _add(store: Store, statement: str, *, batch: str | None = None, **fields: object) -> MemoryId:
    draft = Draft.of(statement=statement, domain="home", access_scope="local_only", **fields)
    with store.write_transaction() as writing:
        return commit_draft(writing, OWNER, draft, None, NOW, import_batch_id=batch)


def _batch(store: Store, batch_id: str, source_hash: str, now: str = NOW, chunks: int = 2) -> None:
    with store.write_transaction() as writing:
        writing.imports.create_batch(
            batch_id,
            path=f"/exports/{batch_id}.json",
            fmt="chatgpt",
            source_hash=source_hash,
            options={"mode": "all", "limit": 5},
            chunks_total=chunks,
            now=now,
        )


def test_an_import_batch_is_recorded_chunk_by_chunk_resumed_and_rolled_back(store: Store) -> None:
    _batch(store, "b1", "hash-1")
    added = _add(store, "The allotment shed is painted green", batch="b1")
    with store.write_transaction() as writing:
        writing.imports.add_done_item("b1", "added", memory_id=added)
        writing.imports.add_item("b1", "domain_created", target_id="garden")  # recorded before: sealed later
        writing.imports.chunk_done("b1", 1, {"added": 1}, None)
    with store.read_snapshot() as reading:
        manifest = reading.imports.manifest("b1")
        assert manifest is not None
        assert {key: manifest[key] for key in ("path", "format", "source_hash", "chunks_total", "chunks_done")} == {
            "path": "/exports/b1.json",
            "format": "chatgpt",
            "source_hash": "hash-1",
            "chunks_total": 2,
            "chunks_done": 1,
        }
        assert manifest["options"] == {"limit": 5, "mode": "all"} and manifest["counts"] == {"added": 1}
        assert (manifest["status"], manifest["started_at"], manifest["finished_at"]) == ("committed", NOW, None)
        assert reading.imports.manifest("b0") is None
        assert reading.imports.unfinished_for("hash-1") == "b1"  # interrupted: resumed from its manifest
        assert reading.imports.unfinished_for("hash-2") is None
        items = reading.imports.items("b1")
        state = reading.imports.prior_of(added)
        assert reading.imports.states([added, added, "m000000000000"]) == {added: state}
    assert [(item["seq"], item["action"], item["target_id"]) for item in items] == [
        (2, "domain_created", "garden"),
        (1, "added", None),
    ]
    assert items[0]["prior"] == {"sealed": True}
    assert items[1]["memory_id"] == added and items[1]["prior"] == {"sealed": True, "exact": True, "after_new": state}
    assert state["status"] == "current" and state["importance"] == 0.5 and state["resolved_at"] is None

    _batch(store, "b2", "hash-2", now=LATER, chunks=1)
    with store.write_transaction() as writing:
        writing.imports.chunk_done("b1", 2, {"added": 2}, LAST)
        writing.imports.mark_rolled_back("b2", LAST)
        staged = writing.proposals.stage(OWNER, "import", {"path": "/inbox/c.json"}, NOW, norm_key="hash-3")
    with store.read_snapshot() as reading:
        assert reading.imports.unfinished_for("hash-1") is None  # finished
        assert reading.imports.unfinished_for("hash-2") is None  # rolled back
        listed = reading.imports.list_manifests()
        assert [(row["batch_id"], row["status"], row["finished_at"], row["rolled_back_at"]) for row in listed] == [
            ("b2", "rolled_back", None, LAST),
            ("b1", "committed", LAST, None),
        ]
        assert listed[1]["counts"] == {"added": 2} and listed[1]["chunks_done"] == 2
        assert [row["batch_id"] for row in reading.imports.list_manifests(limit=1)] == ["b2"]
        assert reading.imports.staged_import("hash-3") == staged  # a file dropped twice is staged once
        assert reading.imports.staged_import("hash-1") is None
    with store.write_transaction() as writing:
        writing.proposals.decide(staged, "rejected", LATER)
    with store.read_snapshot() as reading:
        assert reading.imports.staged_import("hash-3") is None


def test_a_rollback_finds_what_changed_since_and_puts_records_back(store: Store) -> None:
    kept = _add(store, "The shed key hangs by the back door")
    _batch(store, "b1", "hash-1")
    with store.write_transaction() as writing:
        before = writing.imports.prior_of(kept)
        writing.memories.update(kept, NOW, importance=0.9)  # the import confirms it
        writing.imports.add_done_item("b1", "confirmed", target_id=kept, prior=before)
        roof = Draft.of(statement="The shed roof leaks", domain="home", access_scope="local_only")
        new = commit_draft(writing, OWNER, roof, None, NOW)
        writing.imports.tag_batch(new, "b1")
        writing.memories.add_link(new, kept, "relates_to", NOW)
        writing.imports.add_item("b1", "linked", memory_id=new, target_id=kept, prior={"type": "relates_to"})
        writing.events.record(OWNER, "import_chunk", NOW, None, batch_id="b1", chunk=1)
        writing.imports.chunk_done("b1", 1, {"added": 1}, NOW)
        writing.memories.ensure_domain("attic", NOW)
    with store.read_snapshot() as reading:
        mark = reading.imports.batch_mark("b1")
        assert mark > 0 and reading.imports.batch_mark("b9") == 0
        assert reading.imports.touched_after([kept, new], mark) == set()
        assert reading.imports.linked_from_outside([new], {new, kept}) == {}
        assert reading.imports.last_consolidation() is None
        provenance = reading.memories.provenance_row(new)
        confirmed, linked = reading.imports.items("b1")[::-1]
    assert provenance is not None and provenance["import_batch_id"] == "b1"
    assert confirmed["prior"]["importance"] == 0.5 and confirmed["prior"]["after"]["importance"] == 0.9
    assert linked["prior"]["after"]["importance"] == 0.9 and linked["prior"]["after_new"]["status"] == "current"

    outsider = _add(store, "The shed roof was patched with felt")
    with store.write_transaction() as writing:
        writing.memories.add_link(outsider, new, "relates_to", LATER)
        writing.events.record(OWNER, "confirmed", LATER, kept)
        writing.events.record(OWNER, "consolidation_run", LATER, None, run_id="r1")
    with store.read_snapshot() as reading:
        assert reading.imports.touched_after([kept, new], mark) == {kept}
        assert reading.imports.linked_from_outside([new, kept], {new, kept}) == {new: outsider}
        assert reading.imports.last_consolidation() == LATER
        revision = (reading.memories.status_of(kept) or ("", 0))[1]

    with store.write_transaction() as writing:
        writing.imports.put_back(kept, before, LAST)
        writing.imports.drop_link(new, kept, "relates_to")
        writing.imports.drop_unused_domain("attic")
        writing.imports.drop_unused_domain("home")  # in use: kept
    with store.read_snapshot() as reading:
        assert reading.imports.prior_of(kept) == before
        assert reading.memories.status_of(kept) == ("current", revision + 1)
        assert [link["target_id"] for link in reading.memories.links_from(OWNER, new)] == [outsider]
        assert not reading.memories.domain_exists("attic") and reading.memories.domain_exists("home")
        assert reading.imports.prior_of("m000000000000") == {}


def _conversation(store: Store, key: str, title: str, body: str, started_at: str, fmt: str) -> str:
    row = {
        "id": f"c-{key}",
        "source_id": f"s-{key}",
        "title": title,
        "started_at": started_at,
        "snippet": body.partition("\n")[0][:40],
        "batch_id": "b1",
        "format": fmt,
        "reference": f"{fmt}:{key}",
        "content_hash": f"hash-{key}",
        "turns": body.count("\n") + 1,
    }
    with store.write_transaction() as writing:
        writing.conversations.insert(row, body, NOW)
    return row["id"]


def test_conversations_are_found_by_their_words_and_leave_with_their_batch(store: Store) -> None:
    _batch(store, "b1", "hash-1")
    keeper = _conversation(
        store,
        "1",
        "Lighthouse restoration",
        "We talked about the lighthouse lamp\nThe lighthouse needs paint",
        "2025-03-01T10:00:00Z",
        "chatgpt",
    )
    postcard = _conversation(
        store, "2", "Fridge", "The lighthouse postcard is on the fridge", "2025-06-01T10:00:00Z", "claude"
    )
    bakery = _conversation(store, "3", "Café Ümlaut", "Notes on the bakery", "2025-07-01T10:00:00Z", "chatgpt")

    def found(words: list[str], limit: int = 10, **filters: str) -> list[str]:
        with store.read_snapshot() as reading:
            rows = reading.conversations.search(
                words, limit=limit, start=filters.get("start"), end=filters.get("end"), fmt=filters.get("fmt")
            )
        return [row["conversation_id"] for row in rows]

    assert found(["lighthouse"]) == [keeper, postcard]  # best first: the one that says it most
    assert found(["lighthouse"], limit=1) == [keeper]
    assert found(["lighthouse"], fmt="claude") == [postcard]
    assert found(["lighthouse"], start="2025-04-01T00:00:00Z") == [postcard]
    assert found(["lighthouse"], end="2025-04-01T00:00:00Z") == [keeper]
    assert found(["lighthouse"], start="2025-01-01T00:00:00Z", end="2025-12-31T00:00:00Z", fmt="chatgpt") == [keeper]
    assert found(["cafe"]) == [bakery]  # words are folded: no case, no diacritics
    assert found(["zeppelin", "umlaut"]) == [bakery]  # any of the words
    assert found(["zeppelin"]) == []
    assert found(["it's", "'"]) == []  # a word is a word, never query syntax
    with store.read_snapshot() as reading:
        (row,) = reading.conversations.search(["postcard"], limit=5, start=None, end=None, fmt=None)
        assert reading.conversations.count_batch("b1") == 3 and reading.conversations.count_batch("b2") == 0
        assert len(reading.maintenance.table_rows("sources")) == 3
    assert row == {
        "conversation_id": postcard,
        "title": "Fridge",
        "time": "2025-06-01T10:00:00Z",
        "snippet": "The lighthouse postcard is on the fridge",
        "source": "claude",
    }

    with store.write_transaction() as writing:
        assert writing.conversations.delete_batch("b1") == 3
        assert writing.conversations.delete_batch("b1") == 0
    with store.read_snapshot() as reading:
        assert reading.conversations.count_batch("b1") == 0
        assert reading.maintenance.table_rows("sources") == []  # no record cites them
    assert found(["lighthouse", "bakery"]) == []


def _expected(texts: list[tuple[int, str, str, str]]) -> tuple[list[tuple[str, int]], bytes]:
    """Postings of plain ASCII texts, worked out by hand: lower-case words, each occurrence 5 bytes."""
    occurrences = sorted(
        (word, rowid, column)
        for rowid, *columns in texts
        for column, text in enumerate(columns)
        for word in re.findall(r"[a-z0-9]+", text.lower())
    )
    terms = Counter(word for word, _, _ in occurrences)
    return sorted(terms.items()), b"".join(rowid.to_bytes(4, "big") + bytes([col]) for _, rowid, col in occurrences)


def test_the_word_index_hands_the_postings_their_terms_sizes_and_totals(store: Store) -> None:
    records = [
        ("Lighthouse keeper Brint", ["coast"], ["Aldo Brint"]),
        ("The lighthouse lamp is red", ["lamp", "lighthouse"], []),
        ("Brint paints the boat", [], ["Mara Quell", "Aldo Brint"]),
    ]
    for statement, tags, entities in records:
        _add(store, statement, tags=tags, entities=entities)
    with store.read_snapshot() as reading:
        sizes = reading.word_index.indexed_sizes(0)
        rowids = [rowid for rowid, _ in sizes]
        texts = [
            (rowid, statement, " ".join(tags), " ".join(sorted(entities)))
            for rowid, (statement, tags, entities) in zip(rowids, records, strict=True)
        ]
        assert reading.memories.indexed_columns(rowids) == texts
        terms, occurrences = reading.word_index.postings()
        assert reading.word_index.tokenized(texts) == (terms, occurrences)  # tokenized as the index holds them
        assert reading.word_index.tokenized([]) == ([], b"")
        assert reading.word_index.indexed_sizes(rowids[0]) == sizes[1:]
        assert reading.word_index.indexed_sizes(rowids[-1]) == []
        assert reading.word_index.last_indexed() == rowids[-1]
        totals = reading.word_index.averages()
    assert (terms, occurrences) == _expected(texts)
    assert dict(terms)["lighthouse"] == 3 and dict(terms)["brint"] == 4
    found = Counter(int.from_bytes(occurrences[i : i + 4], "big") for i in range(0, len(occurrences), 5))
    assert [(rowid, found[rowid]) for rowid in rowids] == sizes == [(rowids[0], 6), (rowids[1], 7), (rowids[2], 8)]
    assert totals == (3, 21)

    with store.write_transaction() as writing:  # merging changes how the index is stored, not what it holds
        first = True
        while writing.word_index.merge_step(64, first=first):
            first = False
    with store.read_snapshot() as reading:
        assert reading.word_index.segment_count() <= 1
        assert reading.word_index.postings() == (terms, occurrences)
        assert reading.word_index.averages() == totals
