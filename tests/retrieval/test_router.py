"""The router on real encrypted stores: the right domains wake, unrelated ones stay dormant."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from regions_data import fill

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.retrieval.router import RouteDecision, likely_depth, route
from memvault.core.store.sqlcipher import domain_rows as domain_store
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.search_request import SearchRequest

REMOTE = Caller(principal="remote-bot", surface=Surface.REMOTE)


def _route(vault: Vault, text: str, caller: Caller = OWNER, vector: np.ndarray | None = None) -> RouteDecision:
    with vault.ctx.reading() as conn:
        return route(conn, caller, text, vector)


def test_an_empty_store_routes_nowhere(vault: Vault) -> None:
    decision = _route(vault, "what is growing in the greenhouse?")
    assert decision.active == ()
    assert decision.dormant == ()
    assert decision.broad


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("when should I water the tomato seedlings in the greenhouse?", "garden"),
        ("what is my monthly grocery budget?", "finance"),
        ("how is the knee physiotherapy going?", "health"),
        ("which database does the web service backend use?", "software"),
    ],
)
def test_a_single_domain_request_wakes_that_domain_alone(vault: Vault, query: str, expected: str) -> None:
    fill(vault)
    decision = _route(vault, query)
    assert decision.names[0] == expected, decision
    assert decision.weight(expected) > 0.6
    assert not decision.broad
    for other in {"garden", "finance", "health", "software"} - {expected}:
        assert decision.weight(other) < 0.25, decision


def test_a_cross_domain_request_wakes_each_relevant_domain(vault: Vault) -> None:
    fill(vault)
    decision = _route(vault, "can the running plan fit around the knee physiotherapy and the monthly budget?")
    assert {"health", "finance"} <= set(decision.names)
    assert "garden" in decision.dormant
    assert "knee" not in decision.why and "budget" not in decision.why  # counts and numbers, never words
    assert sum(decision.weights.values()) == pytest.approx(1.0)


def test_weights_sum_to_one_and_dormant_domains_are_disjoint(vault: Vault) -> None:
    fill(vault)
    decision = _route(vault, "greenhouse seedlings and the tax return")
    assert sum(decision.weights.values()) == pytest.approx(1.0)
    assert not set(decision.names) & set(decision.dormant)
    assert set(decision.names) | set(decision.dormant) == {"garden", "finance", "health", "software"}
    assert decision.as_contract()[0]["weight"] >= decision.as_contract()[-1]["weight"]


def test_a_request_matching_nothing_searches_broadly(vault: Vault) -> None:
    fill(vault)
    decision = _route(vault, "zzyzx quorble")
    assert decision.broad
    assert set(decision.names) == {"garden", "finance", "health", "software"}
    assert set(decision.weights.values()) == {0.25}  # none favoured


def test_history_questions_route_deep(vault: Vault) -> None:
    fill(vault)
    assert _route(vault, "how has the pension contribution changed over time?").depth == "deep"
    assert _route(vault, "what is the pension contribution?").depth == "normal"


def test_the_likely_depth_is_the_routes_when_every_domain_has_one_depth(vault: Vault) -> None:
    """A search gathers words for this depth's pool while the model runs (pipeline)."""
    fill(vault)
    queries = ("what is the pension contribution?", "how has the pension contribution changed over time?")
    with vault.ctx.reading() as conn:
        assert [likely_depth(conn, OWNER, q) for q in queries] == [_route(vault, q).depth for q in queries]
    for name in ("garden", "finance", "health", "software"):
        vault.update_domain(OWNER, name, depth="deep")
    with vault.ctx.reading() as conn:
        assert [likely_depth(conn, OWNER, q) for q in queries] == ["deep", "deep"]
    vault.update_domain(OWNER, "garden", depth="shallow")
    with vault.ctx.reading() as conn:
        assert likely_depth(conn, OWNER, queries[0]) == "normal"  # the domains differ: a guess
        assert likely_depth(conn, OWNER, queries[1]) == "deep"  # a history cue is always deep


def test_a_search_whose_route_chose_another_pool_than_guessed_answers_as_that_depth(vault: Vault) -> None:
    fill(vault)
    vault.update_domain(OWNER, "garden", depth="shallow")
    vault.update_domain(OWNER, "finance", depth="deep")
    query = "what is my monthly grocery budget?"
    assert _route(vault, query).depth == "deep"
    routed = vault.search(OWNER, SearchRequest.of(query=query, limit=5))
    vault.retriever.clear_caches()
    explicit = vault.search(OWNER, SearchRequest.of(query=query, limit=5, depth="deep"))
    assert routed["results"]
    assert [r["id"] for r in routed["results"]] == [r["id"] for r in explicit["results"]]


def test_a_domain_the_caller_cannot_see_is_neither_active_nor_dormant(vault: Vault) -> None:
    fill(vault)  # every record local_only
    vault.add(
        OWNER,
        Draft.of(
            statement="Shared gardening tips go to the allotment group", domain="garden", access_scope="remote_allowed"
        ),
    )
    decision = _route(vault, "what is my monthly grocery budget and the tax return?", caller=REMOTE)
    assert "finance" not in decision.names and "finance" not in decision.dormant
    assert set(decision.names) | set(decision.dormant) == {"garden"}


def test_priority_and_keywords_steer_the_router(vault: Vault) -> None:
    fill(vault)
    with vault.ctx.transaction() as conn:
        conn.raw.execute("UPDATE domains SET keywords = '[\"allotment\"]' WHERE name = 'garden'")
    assert _route(vault, "allotment plans").names == ("garden",)


def test_centroids_decide_when_words_do_not_match(vault: Vault) -> None:
    fill(vault)
    rng = np.random.default_rng(7)
    axes = {name: rng.normal(size=384).astype(np.float32) for name in ("garden", "finance", "health", "software")}
    with vault.ctx.transaction() as conn:
        for name, axis in axes.items():
            conn.raw.execute(
                "UPDATE domains SET centroid = ? WHERE name = ?", ((axis / np.linalg.norm(axis)).tobytes(), name)
            )
    query = axes["health"] + 0.3 * rng.normal(size=384).astype(np.float32)
    decision = _route(vault, "zzyzx quorble", vector=query / np.linalg.norm(query))
    assert decision.names == ("health",), decision
    assert decision.active[0].semantic is not None


def test_routing_among_twenty_domains_picks_the_named_ones(vault: Vault) -> None:
    with vault.ctx.transaction() as conn:
        now = "2026-01-01T00:00:00Z"
        for i in range(20):
            conn.raw.execute(
                "INSERT INTO domains (name, keywords, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (f"region-{i}", f'["topic{i}", "subject{i}", "theme{i}"]', now, now),
            )
    for i in range(20):
        for j in range(5):
            vault.add(OWNER, Draft.of(statement=f"Note {j} about topic{i} and subject{i}", domain=f"region-{i}"))
    vector = np.ones(384, dtype=np.float32) / np.sqrt(384)
    _route(vault, "warm the cache", vector=vector)
    decision = _route(vault, "what about topic7 and theme12 lately?", vector=vector)
    assert set(decision.names) == {"region-7", "region-12"}  # its speed is measured by bench_retrieval, not here


@pytest.mark.parametrize(
    ("query", "expected"),
    [("is my sore back getting better?", "health"), ("how much money goes on the car?", "finance")],
)
def test_real_embeddings_route_requests_that_share_no_word_with_a_domain(
    vault: Vault, query: str, expected: str
) -> None:
    fill(vault)  # the vault embeds what it stores (local ONNX model)
    decision = _route(vault, query, vector=shared_embedder().embed_one(query))
    assert decision.names == (expected,), decision
    assert decision.active[0].lexical == 0.0 and (decision.active[0].semantic or 0) > 0


def test_two_stores_in_one_process_never_share_routing(template_home: Path, tmp_path: Path) -> None:
    """Same history, different domains: a cache keyed by anything but the store would mix them."""
    answers, stamps = [], []
    for n, domain in enumerate(("alpha", "beta")):
        home = tmp_path / f"store-{n}"
        shutil.copytree(template_home, home)
        with Vault.open(home) as vault:
            vault.add(OWNER, Draft.of(statement="Zebras graze on the savannah", domain=domain))
            answers.append(_route(vault, "zebras").names)
            stamps.append(domain_store.version(vault.ctx.store.raw))
    assert answers == [("alpha",), ("beta",)]
    assert stamps[0][1:] == stamps[1][1:]  # the same history...
    assert stamps[0] != stamps[1]  # ...yet two cache keys


PARAPHRASES = [
    ("what pests bother my flowers", {"garden"}),
    ("how do I keep weeds down around the veg", {"garden"}),
    ("when does my fixed home loan deal run out", {"finance"}),
    ("am I putting enough aside for retirement", {"finance"}),
    ("which medicine am I allergic to", {"health"}),
    ("how many times a week do I lift weights", {"health"}),
    ("how does a change get reviewed before it lands", {"software"}),  # routed to finance ("review")
    ("what checks run automatically when I push code", {"software"}),
    ("can I afford new raised beds this month", {"garden", "finance"}),
    ("should I run or cycle to protect my knee", {"health"}),
    ("what does it cost to insure the car", {"finance"}),
    ("where do I keep track of household spending", {"finance"}),
]


def test_paraphrased_requests_route_to_their_domains(vault: Vault) -> None:
    """Requests worded unlike the records: the top domain is right and every expected one is active."""
    fill(vault)
    embedder = shared_embedder()
    right = []
    for query, expected in PARAPHRASES:
        decision = _route(vault, query, vector=embedder.embed_one(query))
        right.append(bool(decision.names) and decision.names[0] in expected and expected <= set(decision.names))
    assert sum(right) >= 11, [q for (q, _), ok in zip(PARAPHRASES, right, strict=True) if not ok]


def test_routing_reveals_nothing_of_records_the_caller_cannot_see(vault: Vault) -> None:
    """A hidden record's words (learned or stored as keywords) never steer a remote request."""
    shared = {"access_scope": "remote_allowed"}
    for statement in ("The gym opens at six on weekdays", "Stretch after every run"):
        vault.add(OWNER, Draft.of(statement=statement, domain="health", **shared))
    for statement in ("The bank sends statements monthly", "Savings go into the index fund"):
        vault.add(OWNER, Draft.of(statement=statement, domain="finance", **shared))
    for n in range(3):
        vault.add(
            OWNER, Draft.of(statement=f"Private note {n}: the quokkafever diagnosis needs a follow-up", domain="health")
        )
    assert _route(vault, "quokkafever").names == ("health",)  # the person's own view
    for stage in ("learned", "stored keywords"):
        hidden, nonsense = _route(vault, "quokkafever", REMOTE), _route(vault, "zzyzx", REMOTE)
        assert (hidden.weights, hidden.broad) == (nonsense.weights, nonsense.broad), stage
        assert hidden.broad, stage
        vault.refresh_domains(OWNER)
    assert "quokkafever" in vault.show_domain(OWNER, "health")["keywords"]


def test_a_remote_route_is_the_same_with_or_without_hidden_records(template_home: Path, tmp_path: Path) -> None:
    """Invisible = missing, for routing too: words, vectors and stored keywords of local-only
    records change nothing a remote caller can observe."""
    query = "quokkafever"
    vector = shared_embedder().embed_one(query)
    decisions = []
    for n, hidden in enumerate((True, False)):
        home = tmp_path / f"store-{n}"
        shutil.copytree(template_home, home)
        with Vault.open(home) as vault:
            fill(vault, access_scope="remote_allowed")
            if hidden:
                for i in range(4):
                    text = f"Private: the doctor says the quokkafever diagnosis needs test {i}"
                    vault.add(OWNER, Draft.of(statement=text, domain="health"))
                    vault.add(
                        OWNER, Draft.of(statement=f"Private: the quokkafever bill {i} was paid", domain="finance")
                    )
            vault.refresh_domains(OWNER)  # stored keywords and centroids now include the hidden text
            decision = _route(vault, query, REMOTE, vector)
            decisions.append([(d.name, round(d.weight, 6)) for d in decision.active])
    assert decisions[0] == decisions[1]
