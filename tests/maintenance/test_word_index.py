"""Word index upkeep: the segments single writes leave are merged into one, a bounded step at a
time, and every search matches the same records with the same bm25 afterwards."""

from __future__ import annotations

import random

import pytest

from memvault.core.maintenance import word_index
from memvault.core.retrieval import query as q
from memvault.core.store.sqlcipher import search as sql
from memvault.core.store.sqlcipher import store_stamps, word_index_rows
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden
from memvault.core.vocabulary.model import HOUSEKEEPER, OWNER, Caller, Surface
from memvault.core.vocabulary.search_request import SearchRequest

TOPICS = ("kitchen tiles", "garden shed", "violin lessons", "tax return", "bike repair", "sourdough starter")
QUERIES = ("kitchen tiles", "when is the violin lesson", "garden or bike", "Ada sourdough", "tax repairs")


WORDS = """amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lantern meadow nutmeg
orchid pebble quartz rowan saffron thistle umber velvet willow yarrow zephyr anchor bramble cobalt dune
falcon glacier hazel ivory jasper kelp lichen marble nectar opal prairie quill russet sable tundra""".split()
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _write_one_by_one(vault: Vault, count: int, words: int = 8) -> None:
    """Records unlike each other (the writer keeps near-duplicates out), each in its own add."""
    rng = random.Random(count * 1000 + words)
    for n in range(count):
        filler = " ".join(rng.sample(WORDS, 8) + ["".join(rng.choices(LETTERS, k=7)) for _ in range(words - 8)])
        statement = f"Fictional: Ada talked about the {TOPICS[n % len(TOPICS)]}, {filler}"
        answer = vault.add(OWNER, Draft.of(statement=statement, domain="home"))
        assert answer["outcome"] == "added", answer["outcome"]


def _word_matches(vault: Vault) -> list[list[tuple[str, float]]]:
    """Each query's word-index matches (id, bm25 at full precision), best first."""
    with vault.ctx.reading() as conn:
        return [
            [(m.id, s) for m, s in sql.lexical_candidates(conn.raw, OWNER, terms, SearchRequest.of(query=text), 50)]
            for text in QUERIES
            if (terms := q.word_terms(text))
        ]


def _segments(vault: Vault) -> int:
    with vault.ctx.reading() as conn:
        return word_index_rows.segment_count(conn.raw)


def test_single_writes_leave_segments_and_a_pass_merges_them_with_the_same_matches(vault: Vault) -> None:
    _write_one_by_one(vault, 24)
    before, matches = _segments(vault), _word_matches(vault)
    assert before > 1 and all(matches)
    with vault.ctx.reading() as conn:
        stamps = store_stamps.read(conn.raw)
    done = vault.tidy_word_index(HOUSEKEEPER)
    assert done["segments_before"] == before and done["segments"] == 1 and done["steps"] >= 1
    assert _word_matches(vault) == matches  # same records, same bm25 to the last bit
    with vault.ctx.reading() as conn:
        assert store_stamps.read(conn.raw) == stamps  # no event, no version: caches and change feeds stay
    assert vault.tidy_word_index(OWNER) == {"segments_before": 1, "segments": 1, "steps": 0}  # nothing to do
    _write_one_by_one(vault, 1)
    assert _segments(vault) == 2  # a new write adds a segment; the next pass merges it again
    assert [h["id"] for h in vault.search(OWNER, SearchRequest.of(query="day 0 kitchen tiles"))["results"]]


def test_a_pass_stops_after_its_steps_and_the_next_one_finishes(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_one_by_one(vault, 40, words=60)  # ~2,000 words of its own: many one-page steps
    before, matches = _segments(vault), _word_matches(vault)
    monkeypatch.setattr(word_index, "STEP_PAGES", 1)
    monkeypatch.setattr(word_index, "MAX_STEPS", 2)
    first = vault.tidy_word_index(OWNER)
    assert first["steps"] == 2 and first["segments"] > 1  # stopped half way
    assert _word_matches(vault) == matches  # a merge half done answers the same too
    monkeypatch.setattr(word_index, "MAX_STEPS", 1000)
    second = vault.tidy_word_index(OWNER)
    assert second["segments"] == 1 and second["steps"] > 2 and before > 1
    assert _word_matches(vault) == matches


def test_only_the_person_tidies_the_index(vault: Vault) -> None:
    _write_one_by_one(vault, 6)
    with pytest.raises(Forbidden):
        vault.tidy_word_index(Caller("remote-bot", Surface.REMOTE))
    assert _segments(vault) > 1
