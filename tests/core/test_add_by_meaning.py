"""An assistant's add is compared by meaning with the closest stored records, and its vector is stored
with it: no embedding is left pending behind the commit, and the duplicate check costs one exact
search of the vector index instead of a ranked word search (which grew with the store)."""

from __future__ import annotations

import numpy as np
import pytest
from corekit import ASSISTANT, OWNER, REMOTE, Adder

from memvault.core.retrieval.embeddings import MODEL_ID, shared_embedder
from memvault.core.retrieval.vectors import Made, Nearby, VectorIndex, to_blob
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import Scope
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest

TARGET = "The team stand-up is at 9:15 on weekdays."
PARAPHRASE = "Team stand-up happens at 9:15 every weekday."


@pytest.fixture
def automatic(vault: Vault) -> Vault:
    vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
    vault.set_setting(OWNER, "auto_write_domains", ["*"])
    return vault


def test_the_vector_is_stored_in_the_adds_own_transaction(automatic: Vault) -> None:
    automatic.retriever.embed_in_background()
    # Holding the store's lock keeps the background embedding out: only the add itself can store it.
    with automatic.ctx.lock:
        answer = automatic.add(ASSISTANT, Draft.of(statement="Mira waters the orchids every Sunday.", domain="home"))
        assert answer["outcome"] == "added"
        stored = vector_sql.vectors_of(automatic.ctx.store.raw, MODEL_ID, [answer["id"]])
    vector = np.frombuffer(stored[answer["id"]], dtype="<f4")
    assert float(vector @ shared_embedder().embed_one("Mira waters the orchids every Sunday.")) >= 0.99999
    found = automatic.search(ASSISTANT, SearchRequest.of(query="which flowers get water on weekends", limit=5))
    assert answer["id"] in [r["id"] for r in found["results"]]


def test_a_duplicate_or_a_staged_add_stores_no_vector(vault: Vault, add: Adder) -> None:
    target = add(TARGET, domain="work")
    before = vector_sql.count_missing(vault.ctx.store.raw, MODEL_ID), _vectors(vault)
    duplicate = vault.add(ASSISTANT, Draft.of(statement=PARAPHRASE, domain="work"))
    staged = vault.add(ASSISTANT, Draft.of(statement="Ola cycles to the office on Fridays.", domain="work"))
    assert duplicate["outcome"] == "duplicate" and duplicate["duplicate_of"] == target
    assert staged["outcome"] == "staged"
    assert (vector_sql.count_missing(vault.ctx.store.raw, MODEL_ID), _vectors(vault)) == before


def test_a_near_duplicate_the_caller_cannot_see_is_not_reported(vault: Vault, add: Adder) -> None:
    add(TARGET, domain="work", access_scope="local_only")
    answer = vault.add(REMOTE, Draft.of(statement=PARAPHRASE, domain="work"))
    assert answer["outcome"] == "staged" and answer["duplicate_of"] is None


@pytest.mark.parametrize("retired", ["superseded", "archived"])
def test_a_record_no_longer_current_is_not_a_near_duplicate(vault: Vault, add: Adder, retired: str) -> None:
    target = add(TARGET, domain="work")
    if retired == "archived":
        vault.archive(OWNER, ArchiveRequest.of(id=target))
    else:
        vault.correct(OWNER, CorrectRequest.of(id=target, statement="The team stand-up is at 10:30 on weekdays."))
    answer = vault.add(ASSISTANT, Draft.of(statement=PARAPHRASE, domain="work"))
    assert answer["outcome"] == "staged" and answer["duplicate_of"] is None


def test_nearest_finds_every_record_above_the_floor_however_many(vault: Vault, add: Adder) -> None:
    rng = np.random.default_rng(3)
    query = rng.normal(size=384).astype(np.float32)
    query /= np.linalg.norm(query)
    close = [_toward(query, rng, 0.9) for _ in range(70)]  # more than the first look (Nearby.POOL)
    far = [_toward(query, rng, 0.3) for _ in range(20)]
    ids = [add(f"Fictional note {n}", access_scope=Scope.LOCAL_ONLY.value) for n in range(90)]
    with vault.ctx.transaction() as conn:
        vector_sql.put(conn.raw, "test-model", [(i, to_blob(v)) for i, v in zip(ids, close + far, strict=True)])
    nearby = Nearby(shared_embedder(), VectorIndex("test-model", 384))
    with vault.ctx.reading() as conn:
        found = nearby.nearest(conn, Made.now(query), 0.8)
    assert set(found) == set(ids[:70])
    assert all(abs(found[i] - float(v @ query)) < 1e-5 for i, v in zip(ids, close, strict=False))


def test_closest_answers_live_visible_records_closest_first(vault: Vault, add: Adder) -> None:
    rng = np.random.default_rng(5)
    query = rng.normal(size=384).astype(np.float32)
    query /= np.linalg.norm(query)
    cosines = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7]
    ids = [add(f"Fictional card {n}", domain=f"d{n}", access_scope="local_only") for n in range(6)]
    shared = add("Fictional shared card", domain="shared", access_scope="remote_allowed")
    with vault.ctx.transaction() as conn:
        vectors = [(i, to_blob(_toward(query, rng, c))) for i, c in zip(ids, cosines, strict=True)]
        vector_sql.put(conn.raw, "test-model", [*vectors, (shared, to_blob(_toward(query, rng, 0.5)))])
    vault.archive(OWNER, ArchiveRequest.of(id=ids[1]))
    nearby = Nearby(shared_embedder(), VectorIndex("test-model", 384))
    with vault.ctx.reading() as conn:
        local = nearby.closest(conn, query, ASSISTANT, 3)
        remote = nearby.closest(conn, query, REMOTE, 3)
    assert [domain for domain, _ in local] == ["d0", "d2", "d3"]
    assert local[0][1].startswith("Fictional card 0")
    assert remote == [("shared", "Fictional shared card ")]


def _toward(query: np.ndarray, rng: np.random.Generator, cosine: float) -> np.ndarray:
    """A unit vector at exactly `cosine` from the (unit) query."""
    other = rng.normal(size=384).astype(np.float32)
    other -= (other @ query) * query
    other /= np.linalg.norm(other)
    return (cosine * query + np.sqrt(1 - cosine**2) * other).astype(np.float32)


def _vectors(vault: Vault) -> int:
    return int(vault.ctx.store.raw.execute("SELECT count(*) FROM memory_vectors").fetchone()[0])


def test_an_assistants_add_without_a_domain_is_placed_by_live_neighbours_in_meaning(
    automatic: Vault, add: Adder
) -> None:
    for n in range(12):  # closer in meaning than any live record, but archived: they do not vote
        old = add(f"The tomato seedlings in the greenhouse need watering, plan {n}", domain="attic")
        automatic.archive(OWNER, ArchiveRequest.of(id=old))
    for statement in GARDEN_NOTES:
        add(statement, domain="garden")
    answer = automatic.add(ASSISTANT, Draft.of(statement="The tomato seedlings in the greenhouse need watering"))
    assert answer["outcome"] == "added"
    assert automatic.get(OWNER, answer["id"])["memory"]["domain"] == "garden"


GARDEN_NOTES = [
    "The greenhouse tomato seedlings need a bigger pot",
    "Water the tomato seedlings every morning in the greenhouse",
    "The greenhouse roof leaks onto the seedlings",
    "Tomato plants in the greenhouse need support canes",
    "The basil seedlings sit beside the tomatoes in the greenhouse",
]
