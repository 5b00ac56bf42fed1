"""The local embedding model, the vector index, write-time embedding, the off switch and reindex."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memvault.core.retrieval import embeddings
from memvault.core.retrieval.embeddings import MODEL_ID, Embedder, EmbeddingUnavailable, shared_embedder
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.retrieval.vectors import BackgroundJob, Nearest, VectorIndex, to_blob
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer import writes


def test_vectors_are_normalised_and_meaningful() -> None:
    embedder = shared_embedder()
    tea, breakfast, tyres = embedder.embed(
        ["I prefer green tea in the morning", "what do I drink at breakfast", "the car needs new tyres"]
    )
    assert tea.shape == (384,) and tea.dtype == np.float32
    assert abs(float(np.linalg.norm(tea)) - 1.0) < 1e-5
    assert float(tea @ breakfast) > float(tea @ tyres) + 0.2


def test_padding_does_not_change_a_vector() -> None:
    embedder = shared_embedder()
    alone = embedder.embed_one("green tea")
    batched = embedder.embed(["green tea", "a much longer sentence that forces padding onto the short one " * 3])[0]
    assert np.allclose(alone, batched, atol=1e-5)


def _reference() -> tuple[list[str], list[Any]]:
    reference = json.loads((Path(__file__).parent / "reference_vectors.json").read_text())
    assert reference["model"] == MODEL_ID
    texts = [r["text"] for r in reference["references"]]
    stored = [np.frombuffer(base64.b64decode(r["vector_f32le_base64"]), dtype="<f4") for r in reference["references"]]
    return texts, stored


def test_vectors_stay_close_to_those_already_stored() -> None:
    """Stores hold vectors made by the fp32 graph (the reference vectors, made on 2026-12-01) and by
    earlier integer forms. The 7-bit integer form moves a vector to cosine ~0.991 from the fp32 one
    (median over LoCoMo turns and questions; docs/decisions/0001-embedding-model-form.md). A change
    that moves them further fails here: it must be measured the same way, or every store would need
    its vectors made again. A text alone and in a batch get the same vector (the integer graph runs
    each text alone: its activation scale spans the input)."""
    texts, stored = _reference()
    embedder = shared_embedder()
    assert embedder.compute == "int8"
    embedder.forget_recent()
    alone, batched = [embedder.embed_one(t) for t in texts], embedder.embed(texts)
    assert min(float(a @ b) for a, b in zip(alone, stored, strict=True)) >= 0.99
    assert min(float(a @ b) for a, b in zip(alone, batched, strict=True)) >= 0.99999


def test_an_altered_model_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    altered = tmp_path / "model.onnx"
    shutil.copyfile(embeddings.model_file(), altered)
    with altered.open("r+b") as handle:
        handle.seek(1000)
        handle.write(b"\x00\x01\x02")
    monkeypatch.setattr(embeddings, "model_file", lambda: altered)
    with pytest.raises(EmbeddingUnavailable, match="sha256"):
        Embedder()


def test_an_altered_tokenizer_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    altered = tmp_path / "tokenizer.json"
    altered.write_bytes(embeddings.tokenizer_file().read_bytes().replace(b'"[PAD]"', b'"[PAX]"', 1))
    monkeypatch.setattr(embeddings, "tokenizer_file", lambda: altered)
    with pytest.raises(EmbeddingUnavailable, match="sha256"):
        Embedder()


def test_the_bridge_and_other_commands_do_not_import_onnxruntime() -> None:
    code = (
        "import sys; import memvault.core.vault, memvault.desktop.cli; "
        "print(any(m in sys.modules for m in ('onnxruntime', 'tokenizers')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def _unit_vectors(seed: int, count: int) -> Any:
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(count, 384)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _store_vectors(vault: Vault, ids: list[str], vectors: Any) -> None:
    with vault.ctx.transaction() as conn:
        vector_sql.put(conn.raw, "test-model", [(i, to_blob(v)) for i, v in zip(ids, vectors, strict=True)])


def _refresh(vault: Vault, index: VectorIndex) -> None:
    with vault.ctx.reading() as conn:
        index.refresh(conn, vector_sql.store_version(conn.raw))


def _indexed(vault: Vault, vectors: Any, stored: int, thing: str) -> tuple[list[str], VectorIndex]:
    """One record per vector, the first `stored` of them with their vector, and an index read from the store."""
    ids = [vault.add(OWNER, Draft.of(statement=f"Fictional {thing} number {n}"))["id"] for n in range(len(vectors))]
    _store_vectors(vault, ids[:stored], vectors[:stored])
    index = VectorIndex("test-model", 384)
    _refresh(vault, index)
    return ids, index


def test_the_index_is_exact_and_refreshes_incrementally(vault: Vault) -> None:
    vectors = _unit_vectors(7, 50)
    ids, index = _indexed(vault, vectors, 30, "note")
    assert len(index) == 30
    _store_vectors(vault, ids[30:], vectors[30:])
    _refresh(vault, index)
    assert len(index) == 50
    query = vectors[17] + 0.1 * vectors[3]
    expected = np.argsort(-(vectors @ query))[:5]
    assert [memory_id for memory_id, _ in index.search(query, 5)] == [ids[i] for i in expected]
    with vault.ctx.transaction() as conn:  # a purge shrinks the table: the index reloads
        conn.raw.execute("DELETE FROM memory_vectors WHERE memory_id = ?", (ids[17],))
    _refresh(vault, index)
    assert len(index) == 49 and ids[17] not in [m for m, _ in index.search(query, 49)]


def test_a_search_made_ahead_answers_a_smaller_one_until_the_index_changes(vault: Vault) -> None:
    """The pipeline searches the index on the query-vector thread; the semantic stage asks again."""
    vectors = _unit_vectors(11, 40)
    ids, index = _indexed(vault, vectors, 39, "card")
    query = vectors[39] + 0.01 * vectors[5]
    ahead = index.search(query, 20)
    exact = [ids[i] for i in np.argsort(-(vectors[:39] @ query))[:8]]
    assert [m for m, _ in index.search(query, 8)] == [m for m, _ in ahead[:8]] == exact
    assert [m for m, _ in index.search(query.copy(), 8)] == exact  # another query object: computed
    _store_vectors(vault, ids[39:], vectors[39:])  # the record the query is closest to gets its vector
    _refresh(vault, index)
    assert index.search(query, 8)[0][0] == ids[39]


def test_the_coded_first_pass_answers_the_exact_nearest_and_their_exact_cosines(vault: Vault) -> None:
    """Above RESCORE x k + RESCORE_EXTRA rows, candidates come from the int8 codes, then exact cosines."""
    vectors = _unit_vectors(5, 100)
    ids, index = _indexed(vault, vectors, 100, "sketch")
    for n in range(12):
        query = vectors[n] + 0.6 * vectors[n + 50]
        sims = vectors @ query
        for k in (1, 5, 10):
            expected = np.argsort(-sims, kind="stable")[:k]
            found = index.search(query.copy(), k)
            assert [m for m, _ in found] == [ids[i] for i in expected]
            assert np.allclose([c for _, c in found], sims[expected], atol=1e-5)
    _store_vectors(vault, [ids[1]], vectors[[0]])  # ids[1] embedded again, now as ids[0]
    _refresh(vault, index)
    assert ids[1] not in [m for m, _ in index.search(vectors[1], 3)]
    assert {m for m, _ in index.search(vectors[0], 2)} == {ids[0], ids[1]}


def test_what_was_found_ahead_answers_only_while_the_index_holds_what_it_held(vault: Vault) -> None:
    """A `Nearest` is a value handed on with its query: the index answers from it for as many records
    or fewer, and not once what the index holds has changed."""
    vectors = _unit_vectors(7, 12)
    ids, index = _indexed(vault, vectors, 10, "lantern")
    found = index.nearest(vectors[3], 4)
    assert found.hits == index.search(vectors[3], 4) and found.hits[0][0] == ids[3]
    planted = Nearest(found.k, [("planted", 1.0)] * found.k, found.generation)  # not what a search finds
    assert index.search(vectors[3], 2, planted) == [("planted", 1.0)] * 2  # answered from the value
    assert index.search(vectors[3], 5, planted)[0][0] == ids[3]  # more than was found ahead: searched
    _store_vectors(vault, ids[10:], vectors[10:])
    _refresh(vault, index)  # the index changed: what was found before no longer stands
    assert index.search(vectors[3], 2, planted)[0][0] == ids[3]


def test_records_are_embedded_when_written(vault: Vault) -> None:
    added = vault.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))
    corrected = vault.correct(OWNER, CorrectRequest.of(id=added["id"], statement="I prefer black tea in the morning"))
    with vault.ctx.reading() as conn:
        stored = {
            row[0] for row in conn.raw.execute("SELECT memory_id FROM memory_vectors WHERE model = ?", (MODEL_ID,))
        }
        blob = conn.raw.execute("SELECT vector FROM memory_vectors WHERE memory_id = ?", (corrected["id"],)).fetchone()[
            0
        ]
    assert {added["id"], corrected["id"]} <= stored
    assert np.allclose(
        np.frombuffer(blob, dtype="<f4"), shared_embedder().embed_one("I prefer black tea in the morning")
    )


def test_with_embeddings_off_everything_works_lexically_and_reindex_catches_up(vault: Vault) -> None:
    vault.set_setting(OWNER, "embeddings", "off")
    assert vault.status(OWNER)["embeddings"] == "off"
    tea = vault.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))["id"]
    with vault.ctx.reading() as conn:
        assert vector_sql.count_missing(conn.raw, MODEL_ID) == 1
    answer = vault.search(OWNER, SearchRequest.of(query="green tea"))
    assert [h["id"] for h in answer["results"]] == [tea] and answer["results"][0]["why"] == ["lexical"]
    assert (
        vault.search(OWNER, SearchRequest.of(query="which beverage at breakfast"))["results"] == []
    )  # no meaning without a model
    assert vault.reindex(OWNER) == {"embedded": 0, "missing": 1, "embeddings": "off"}
    vault.set_setting(OWNER, "embeddings", "local")
    assert vault.reindex(OWNER) == {"embedded": 1, "missing": 0, "embeddings": "local"}
    assert [h["id"] for h in vault.search(OWNER, SearchRequest.of(query="which beverage at breakfast"))["results"]] == [
        tea
    ]


def test_reindex_from_the_command_line(home: Path) -> None:
    with Vault.open(home) as opened:
        opened.set_setting(OWNER, "embeddings", "off")
        opened.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))
        opened.add(OWNER, Draft.of(statement="The bike needs a new chain"))  # a second word-index segment
        opened.set_setting(OWNER, "embeddings", "local")
    memvault = Path(sys.executable).parent / "memvault"
    done = subprocess.run([str(memvault), "--json", "reindex"], capture_output=True, text=True, check=True)
    assert '"embedded": 2' in done.stdout and '"missing": 0' in done.stdout
    tidy = json.loads(done.stdout)["word_index"]
    assert tidy["segments_before"] == 2 and tidy["segments"] == 1 and tidy["steps"] >= 1
    again = subprocess.run([str(memvault), "reindex"], capture_output=True, text=True, check=True)
    assert again.stdout.splitlines()[-1] == "word index: 1 segment(s), nothing to merge"


def test_a_record_not_embedded_yet_is_still_found_by_its_words(vault: Vault) -> None:
    vault.set_setting(OWNER, "embeddings", "off")
    tea = vault.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))["id"]
    vault.set_setting(OWNER, "embeddings", "local")
    retriever = vault.retriever
    assert isinstance(retriever, HybridRetriever)
    with vault.ctx.reading() as conn:  # as if this process had caught up already: no embedding at search
        retriever._checked_version = vector_sql.store_version(conn.raw)
    answer = vault.search(OWNER, SearchRequest.of(query="green tea"))
    assert [h["id"] for h in answer["results"]] == [tea]
    with vault.ctx.reading() as conn:
        assert vector_sql.count_missing(conn.raw, MODEL_ID) == 1


def test_a_search_first_embeds_what_another_process_wrote_without_a_vector(home: Path) -> None:
    """The catch-up before a search: its vectors are written first, then the search reads a snapshot
    that holds them, so the record is found by meaning in that same search."""
    with Vault.open(home) as searcher, Vault.open(home) as other:
        searcher.search(OWNER, SearchRequest.of(query="anything at all"))  # caught up with the empty store
        other.set_setting(OWNER, "embeddings", "off")  # the other process writes no vector
        tea = other.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))["id"]
        other.set_setting(OWNER, "embeddings", "local")
        with searcher.ctx.reading() as conn:
            assert vector_sql.count_missing(conn.raw, MODEL_ID) == 1
        answer = searcher.search(OWNER, SearchRequest.of(query="which beverage at breakfast"))
        assert [h["id"] for h in answer["results"]] == [tea] and answer["results"][0]["why"] == ["semantic"]
        with searcher.ctx.reading() as conn:
            assert vector_sql.count_missing(conn.raw, MODEL_ID) == 0


def test_a_fresh_process_searches_by_meaning_too(home: Path) -> None:
    """Loading the model is the process's warm-up: it does not count against the search deadline."""
    with Vault.open(home) as opened:
        tea = opened.add(OWNER, Draft.of(statement="I prefer green tea in the morning"))["id"]
    memvault = Path(sys.executable).parent / "memvault"
    done = subprocess.run(
        [str(memvault), "--json", "search", "which beverage do I have at breakfast"],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert [h["id"] for h in answer["results"]] == [tea] and "semantic" in answer["results"][0]["why"]
    assert answer["budget"]["truncated"] is False


def test_background_job_settles_runs_again_when_asked_and_survives_a_failure() -> None:
    job = BackgroundJob("test-embedding")
    release, ran = threading.Event(), []

    def slow() -> None:
        release.wait(5)
        ran.append("slow")

    def failing() -> None:
        raise RuntimeError("the store closed")

    job.run_soon(slow)
    threading.Timer(0.2, release.set).start()
    started = time.monotonic()
    job.settle()  # waits for the job asked before it
    assert ran == ["slow"] and time.monotonic() - started >= 0.1
    job.run_soon(failing)
    job.settle()
    job.run_soon(lambda: ran.append("after the failure"))
    job.settle()
    assert ran == ["slow", "after the failure"]
    names = [t.name for t in threading.enumerate()]
    deadline = time.monotonic() + 5
    while "test-embedding" in names and time.monotonic() < deadline:  # no idle thread is kept
        time.sleep(0.01)
        names = [t.name for t in threading.enumerate()]
    assert "test-embedding" not in names


def test_the_embedder_runs_the_model_once_for_a_text_embedded_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = shared_embedder()
    embedder.forget_recent()
    runs: list[int] = []
    real = embedder._run
    monkeypatch.setattr(embedder, "_run", lambda texts: runs.append(len(texts)) or real(texts))
    first = embedder.embed_one("a statement the duplicate check embeds")
    again = embedder.embed(["a statement the duplicate check embeds", "another one"])
    assert runs == [1, 1] and np.array_equal(first, again[0])


def test_an_expected_search_finds_its_vector_made(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    vault.add(OWNER, Draft.of(statement="The garden hose hangs in the shed.", domain="garden"))
    embedder = shared_embedder()
    embedder.forget_recent()
    ran: list[list[str]] = []
    real = embedder._run
    monkeypatch.setattr(embedder, "_run", lambda texts: ran.append(list(texts)) or real(texts))
    vault.serving.expect_search(["not", "text"])  # an argument the call will refuse: nothing starts
    vault.serving.expect_search("  where does the garden hose hang?  ")
    waited = time.monotonic() + 30
    while not ran and time.monotonic() < waited:  # it runs on the query-vector thread
        time.sleep(0.005)
    assert ran == [["where does the garden hose hang?"]]  # started ahead of any search
    answer = vault.search(OWNER, SearchRequest.of(query="where does the garden hose hang?"))
    assert ran == [["where does the garden hose hang?"]]  # the search found it made
    assert answer["results"] and "semantic" in answer["results"][0]["why"]


def _assistant_adds(vault: Vault) -> Vault:
    vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")  # they commit, not wait
    return vault


def test_an_expected_add_takes_its_vector_made_and_a_secret_is_never_embedded_ahead(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    _assistant_adds(vault).add(OWNER, Draft.of(statement="The garden hose hangs in the shed.", domain="garden"))
    embedder = shared_embedder()
    embedder.forget_recent()
    ran: list[list[str]] = []
    real = embedder._run
    monkeypatch.setattr(embedder, "_run", lambda texts: ran.append(list(texts)) or real(texts))
    rake = "The rake hangs beside the garden hose."
    vault.serving.expect_add("the deploy key is AKIAIOSFODNN7EXAMPLE for staging")  # to be refused: never embedded
    vault.serving.expect_add(["not", "text"])  # an argument the call will refuse: nothing starts
    vault.serving.expect_add(f"  {rake}  ")
    waited = time.monotonic() + 30
    while not ran and time.monotonic() < waited:  # it runs on the query-vector thread
        time.sleep(0.005)
    assert ran == [[rake]]
    added = vault.add(LOCAL_ASSISTANT, Draft.of(statement=rake, domain="garden", confidence=0.9))
    assert added["outcome"] == "added" and ran == [[rake]]  # the add took the vector made ahead
    with vault.ctx.reading() as conn:
        stored = {memory_id: blob for _, memory_id, blob in vector_sql.since(conn.raw, MODEL_ID, 0)}
    assert np.array_equal(np.frombuffer(stored[added["id"]], dtype="<f4"), embedder.embed_one(rake))
    refused = vault.add(LOCAL_ASSISTANT, Draft.of(statement="the deploy key is AKIAIOSFODNN7EXAMPLE for staging"))
    assert refused["outcome"] == "rejected" and ran == [[rake]]
    vault.serving.expect_add("The wheelbarrow leans on the fence.")  # expected, then another statement added
    can = "The watering can sits under the potting bench."
    vault.add(LOCAL_ASSISTANT, Draft.of(statement=can, domain="garden", confidence=0.9))
    assert [can] in ran  # embedded for itself, not given the vector made for the other one


@pytest.mark.parametrize("mode", ["automatic-write-within-approved-scope", "review-before-write"])
def test_an_expected_add_written_meanwhile_and_found_a_near_duplicate_leaves_nothing_behind(
    vault: Vault, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Its record (or its proposal) is written while its vector is made, under a savepoint; found to
    say what a current record says, all of it is undone, the record is confirmed, and the index
    claims no store version that was never committed."""
    vault.set_setting(OWNER, "write_mode", mode)
    hose = vault.add(OWNER, Draft.of(statement="The garden hose hangs in the shed.", domain="garden"))["id"]
    vault.search(OWNER, SearchRequest.of(query="hose"))  # the index is loaded
    index = vault.retriever._index_for(shared_embedder())  # type: ignore[attr-defined]
    written: list[Any] = []
    real = writes._store
    monkeypatch.setattr(writes, "_store", lambda *a, **k: written.append(real(*a, **k)) or written[-1])
    rows = "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM proposals), (SELECT count(*) FROM events)"
    with vault.ctx.reading() as conn:
        before = tuple(conn.raw.execute(rows).fetchone())
    vault.serving.expect_add("The garden hose hangs inside the shed.")
    again = Draft.of(statement="The garden hose hangs inside the shed.", domain="garden", entities=["hose", "shed"])
    answer = vault.add(LOCAL_ASSISTANT, again)  # its entities move the store's version further than confirming
    assert answer["outcome"] == "duplicate" and answer["duplicate_of"] == hose
    assert [w["outcome"] for w in written] == ["added" if mode.startswith("automatic") else "staged"]  # then undone
    with vault.ctx.reading() as conn:
        after = tuple(conn.raw.execute(rows).fetchone())
        confirmed = conn.raw.execute("SELECT action FROM events ORDER BY rowid DESC LIMIT 1").fetchone()[0]
        committed = vector_sql.store_version(conn.raw)
    assert after == (before[0], before[1], before[2] + 1) and confirmed == "confirmed"
    assert index._seen_version <= committed  # type: ignore[attr-defined]


def test_an_assistant_add_is_in_the_vector_index_when_it_answers(vault: Vault) -> None:
    """Its vector enters the index in the add's own transaction: the next add's nearest records,
    searched ahead of its transaction, then count it (and a refresh finds nothing new to read)."""
    _assistant_adds(vault).add(OWNER, Draft.of(statement="The garden hose hangs in the shed.", domain="garden"))
    added = vault.add(
        LOCAL_ASSISTANT,
        Draft.of(statement="The orchard ladder is stored in the barn.", domain="garden", confidence=0.9),
    )
    assert added["outcome"] == "added"
    index = vault.retriever._index_for(shared_embedder())  # type: ignore[attr-defined]
    assert [
        memory_id for memory_id, _ in index.search(shared_embedder().embed_one("orchard ladder in the barn"), 1)
    ] == [added["id"]]


def test_an_add_rolled_back_leaves_its_vector_out_of_the_index(vault: Vault) -> None:
    """The vector enters the index only once its transaction committed: a rolled-back add leaves
    no row behind, and the next add, which may reuse that row, is found by meaning."""
    _assistant_adds(vault).add(OWNER, Draft.of(statement="The garden hose hangs in the shed.", domain="garden"))
    index = vault.retriever._index_for(shared_embedder())  # type: ignore[attr-defined]
    vault.search(OWNER, SearchRequest.of(query="hose"))  # the index is loaded
    held = len(index)
    with vault.ctx.holding() as conn:  # the add's transaction fails after its vector is kept
        conn.raw.execute(
            "CREATE TEMP TRIGGER refuse_assigned BEFORE INSERT ON main.events WHEN NEW.action = 'domain_assigned'"
            " BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    vault.set_setting(OWNER, "auto_write_domains", "*")  # a domain memvault assigns needs no review
    with pytest.raises(Exception):  # noqa: B017 - whatever the store raises, nothing is kept
        vault.add(LOCAL_ASSISTANT, Draft.of(statement="The compost bin needs turning every week.", confidence=0.9))
    assert len(index) == held
    with vault.ctx.holding() as conn:
        conn.raw.execute("DROP TRIGGER temp.refuse_assigned")
    added = vault.add(LOCAL_ASSISTANT, Draft.of(statement="The seed trays dry on the windowsill.", confidence=0.9))
    assert added["outcome"] == "added"
    nearest = index.search(shared_embedder().embed_one("seed trays drying by the window"), 1)
    assert [memory_id for memory_id, _ in nearest] == [added["id"]]
