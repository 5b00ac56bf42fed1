"""Off-topic requests (issue 28): when no domain and no record of the memory matches a request, by
words or by meaning, the router activates nothing and the search answers nothing, with the
governor's reason; requests about the person are searched as before. Real encrypted stores, the
real embedding model; the figures behind the bounds are in tests/retrieval/eval_off_topic.py."""

from __future__ import annotations

from typing import Any

import pytest

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.retrieval.governor import OFF_TOPIC, skip_after_route
from memvault.core.retrieval.router import (
    OFF_TOPIC_COSINE,
    OFF_TOPIC_LEXICAL,
    OFF_TOPIC_NEAR,
    OFF_TOPIC_ROUTE,
    Evidence,
    RouteDecision,
    judged,
    route,
)
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.search_request import SearchRequest

REMOTE = Caller("remote-bot", Surface.REMOTE)

RECORDS = (  # (domain, statement): a fictional person's garden, work and family
    ("garden", "My allotment is plot 14 at the Brackenfield Lane allotments"),
    ("garden", "I grow Sungold cherry tomatoes every year in the greenhouse"),
    ("garden", "Copper tape around the raised beds kept the slugs off the lettuce"),
    ("garden", "Lift the dahlia tubers after the first frost and store them in the shed"),
    ("garden", "The old Bramley apple tree by the gate needs pruning in late winter"),
    ("work", "Juniper is the new mobile banking app at Tessellate Labs; launch is set for 14 May 2026"),
    ("work", "The Android login screen of Juniper freezes after signing out and in again"),
    ("work", "My manager at Tessellate Labs is Priya Okonkwo; one-to-ones are on Thursdays"),
    ("work", "My work laptop is a ThinkPad X1 with asset tag TL-0931"),
    ("work", "We decided to drop the web dashboard from the Q3 roadmap to ship Juniper on time"),
    ("family", "Our daughter Lena is eight and has swimming lessons on Wednesday after school"),
    ("family", "Oskar, our son, turns six on 3 September; he wants a dinosaur party"),
    ("family", "My brother Pieter lives in Rotterdam and is getting married in August"),
    ("family", "My dentist is Dr Aoife Brennan at Millbrook Dental, 12 Quarry Lane, Brackenfield"),
    ("family", "Mama Ingrid hat am 22. Juli Geburtstag und wohnt in Hamburg-Altona"),
)
OFF_TOPIC_REQUESTS = (
    "explain how TCP slow start works",
    "what is the difference between affect and effect",
    "how does Docker differ from a virtual machine",
    "explain the rules of cricket",
)


def _fill(vault: Vault) -> dict[str, str]:
    ids = {}
    for domain, statement in RECORDS:
        result = vault.add(OWNER, Draft.of(statement=statement, domain=domain))
        assert result["outcome"] == "added", result
        ids[statement] = str(result["id"])
    return ids


def _search(vault: Vault, text: str, caller: Caller = OWNER) -> dict[str, Any]:
    return dict(vault.search(caller, SearchRequest.of(query=text, limit=10)))


def _id_of(ids: dict[str, str], start: str) -> str:
    return next(memory_id for statement, memory_id in ids.items() if statement.startswith(start))


# -- the router's second look -------------------------------------------------------------------


def _routed(vault: Vault, text: str) -> RouteDecision:
    vector = shared_embedder().embed_one(text)
    with vault.ctx.reading() as conn:
        return route(conn, OWNER, text, vector)


WEAK = Evidence(best_cosine=0.2, near_cosine=0.1, best_lexical=0.3)


def test_a_route_whose_records_match_nothing_activates_no_domain(vault: Vault) -> None:
    _fill(vault)
    text = "explain the rules of cricket"
    decision = _routed(vault, text)
    assert decision.active and max(decision.scores.values()) < OFF_TOPIC_ROUTE  # the first look wakes domains
    judgement = judged(decision, WEAK, text)
    assert judgement.off_topic
    assert judgement.active == () and judgement.weights == {} and judgement.as_contract() == []
    assert set(judgement.dormant) == {"garden", "work", "family"}
    assert "cricket" not in judgement.why  # numbers, never the request's words
    assert skip_after_route(judgement) == OFF_TOPIC


@pytest.mark.parametrize(
    "evidence",
    [
        Evidence(best_cosine=OFF_TOPIC_COSINE, near_cosine=0.1, best_lexical=0.3),  # one record near in meaning
        Evidence(best_cosine=0.2, near_cosine=OFF_TOPIC_NEAR, best_lexical=0.3),  # a neighbourhood of this memory
        Evidence(best_cosine=0.2, near_cosine=0.1, best_lexical=OFF_TOPIC_LEXICAL),  # a record holds its words
        None,  # meaning unknown: embeddings off, the semantic stage cut, records not embedded yet
    ],
)
def test_any_one_signal_at_its_bound_keeps_the_route(vault: Vault, evidence: Evidence | None) -> None:
    _fill(vault)
    decision = _routed(vault, "explain the rules of cricket")
    assert judged(decision, evidence, "explain the rules of cricket") is decision
    assert skip_after_route(decision) is None


@pytest.mark.parametrize(
    "text", ["what's my blood type", "remind me of the rules of cricket", "how do we play cricket"]
)
def test_a_request_about_the_person_is_never_off_topic(vault: Vault, text: str) -> None:
    _fill(vault)
    decision = _routed(vault, text)
    assert max(decision.scores.values()) < OFF_TOPIC_ROUTE
    assert judged(decision, WEAK, text) is decision


def test_a_domain_that_scores_keeps_the_route_whatever_the_records_say(vault: Vault) -> None:
    _fill(vault)
    text = "when do the tomatoes in the greenhouse ripen"
    decision = _routed(vault, text)
    assert max(decision.scores.values()) >= OFF_TOPIC_ROUTE
    assert judged(decision, WEAK, text) is decision


def test_evidence_is_the_nearest_the_ten_nearest_and_the_best_words() -> None:
    cosines = [0.9, 0.1, 0.5, *([0.2] * 12)]
    evidence = Evidence.of([(c, 0.4 if c == 0.5 else 0.0) for c in cosines])
    assert evidence is not None
    assert evidence.best_cosine == 0.9
    assert evidence.near_cosine == pytest.approx((0.9 + 0.5 + 0.2 * 8) / 10)  # 0.1 is not among the ten
    assert evidence.best_lexical == 0.4
    assert Evidence.of([]) is None  # nothing to judge by
    assert Evidence.of([(None, 0.0), (None, 0.0)]) is None  # no vector at all
    assert Evidence.of([(0.1, 0.0), (None, 0.8)]) is None  # a word match not embedded yet: not judged


# -- the search ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", OFF_TOPIC_REQUESTS)
def test_an_off_topic_request_answers_nothing_and_names_the_reason(vault: Vault, text: str) -> None:
    _fill(vault)
    answer = _search(vault, text)
    assert answer["skipped"] is True
    assert answer["reason"] == OFF_TOPIC
    assert answer["results"] == [] and answer["domains"] == [] and answer["packet"] == ""


def test_a_personal_question_memory_cannot_answer_is_searched_and_finds_nothing(vault: Vault) -> None:
    _fill(vault)
    answer = _search(vault, "what's my blood type")
    assert (answer["skipped"], answer["results"]) == (False, [])
    assert answer["reason"] == "nothing in personal memory is relevant enough"


def test_general_knowledge_the_rules_know_is_skipped_before_the_store_is_read(vault: Vault) -> None:
    _fill(vault)
    answer = _search(vault, "what's the capital of Australia?")
    assert answer["skipped"] is True
    assert answer["reason"] == "general knowledge with nothing personal in it"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("when is the Juniper launch", "Juniper is the new"),
        ("what's my dentist's address", "My dentist is"),
        ("TL-0931", "My work laptop"),  # a code: its words, not its meaning, find it
        ("how did I keep slugs off the lettuce", "Copper tape"),
        ("what does Oskar want for his birthday", "Oskar, our son"),
        ("Wann hat Mama Geburtstag?", "Mama Ingrid"),
    ],
)
def test_a_request_about_the_person_still_finds_its_record(vault: Vault, text: str, expected: str) -> None:
    ids = _fill(vault)
    answer = _search(vault, text)
    assert answer["skipped"] is False, answer["reason"]
    assert answer["domains"]
    assert _id_of(ids, expected) in [hit["id"] for hit in answer["results"]]


def test_a_repeated_off_topic_request_is_answered_from_the_cache_the_same_way(vault: Vault) -> None:
    _fill(vault)
    first = _search(vault, OFF_TOPIC_REQUESTS[0])
    hits = vault.retriever.cache.hits  # type: ignore[attr-defined]
    again = _search(vault, OFF_TOPIC_REQUESTS[0])
    assert vault.retriever.cache.hits == hits + 1  # type: ignore[attr-defined]
    assert (again["skipped"], again["reason"], again["results"]) == (first["skipped"], OFF_TOPIC, [])


def test_the_judgement_hears_only_records_the_caller_may_see(vault: Vault) -> None:
    """A remote assistant is judged by what it may see: a local-only record it cannot see neither
    keeps its request searched nor shows through; the owner's same request finds the record."""
    _fill(vault)
    hidden = vault.add(OWNER, Draft.of(statement="Notes on how TCP slow start works for my networking course"))
    shared = "Lena's swimming lessons are on Wednesday"
    vault.add(OWNER, Draft.of(statement=shared, domain="family", access_scope="remote_allowed"))
    text = "explain how TCP slow start works"
    owner = _search(vault, text)
    assert owner["skipped"] is False and hidden["id"] in [hit["id"] for hit in owner["results"]]
    remote = _search(vault, text, REMOTE)
    assert (remote["skipped"], remote["reason"], remote["results"]) == (True, OFF_TOPIC, [])
    assert _search(vault, "when does Lena go swimming", REMOTE)["results"]


def test_without_embeddings_nothing_is_judged_off_topic(vault: Vault) -> None:
    _fill(vault)
    vault.set_setting(OWNER, "embeddings", "off")
    answer = _search(vault, OFF_TOPIC_REQUESTS[0])
    assert answer["skipped"] is False  # words alone cannot tell: the search runs as before
    assert answer["reason"] != OFF_TOPIC
