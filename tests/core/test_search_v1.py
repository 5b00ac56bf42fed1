"""The first search: safe against FTS syntax, current by default, and answering in both times."""

from __future__ import annotations

import pytest
from corekit import OWNER, Adder, count
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.vocabulary.text_safety import refused_char

NASTY_QUERIES = [
    '"foo* NEAR(',
    "AND OR NOT",
    "NOT",
    "foo AND",
    "(((",
    ")",
    '"',
    '""""',
    "*",
    "statement: kettle",
    "tags:kettle OR entities:x",
    "^kettle",
    "kettle -descale",
    "NEAR(kettle descale, 2)",
    "kettle + descale",
    "{statement tags}: kettle",
    "'; DROP TABLE memories; --",
    "\u0000kettle",
    "kett\u00e9le caf\u00e9",
    "\u6c34\u58fa\u306e\u6383\u9664",
]


FTS_TOKENS = ["AND", "OR", "NOT", "NEAR(", ")", '"', "*", "^", ":", "-", "+", "{", "}", "kettle", "caf\u00e9", "x*"]


def _ids(answer: dict[str, object]) -> list[str]:
    return [hit["id"] for hit in answer["results"]]  # type: ignore[attr-defined, index]


@pytest.mark.parametrize("query", NASTY_QUERIES)
def test_fts_syntax_in_a_query_never_errors(vault: Vault, add: Adder, query: str) -> None:
    add("Descale the kettle every month with citric acid", domain="home")
    try:
        answer = vault.search(OWNER, SearchRequest.of(query=query))
    except InvalidArgument as refused:  # a NUL character is refused as bad input, never a crash
        assert "\x00" in query and "U+0000" in refused.message
        return
    assert isinstance(answer["results"], list)


def test_fts_operators_are_searched_as_words(vault: Vault, add: Adder) -> None:
    memory_id = add("Descale the kettle every month with citric acid", domain="home")
    assert _ids(vault.search(OWNER, SearchRequest.of(query="kettle AND OR NOT"))) == [memory_id]
    assert _ids(vault.search(OWNER, SearchRequest.of(query='"kettle* NEAR('))) == [memory_id]


@pytest.fixture(scope="module")
def searchable(module_vault: Vault) -> Vault:
    module_vault.add(OWNER, Draft.of(statement="Descale the kettle every month with citric acid", domain="home"))
    module_vault.add(OWNER, Draft.of(statement="The caf\u00e9 near the station serves oat milk", domain="food"))
    return module_vault


@settings(max_examples=100, deadline=None)
@given(query=st.text(min_size=1, max_size=80) | st.lists(st.sampled_from(FTS_TOKENS), max_size=8).map(" ".join))
def test_any_text_query_searches_or_is_refused_cleanly(searchable: Vault, query: str) -> None:
    try:
        answer = searchable.search(OWNER, SearchRequest.of(query=query))
    except InvalidArgument:
        assert not query.strip() or any(refused_char(c) for c in query)  # control and bidi characters
        return
    assert answer["skipped"] in (True, False)


def test_search_returns_current_records_by_default(vault: Vault, add: Adder) -> None:
    old = add("The gym opens at six on weekdays", domain="health")
    new = vault.correct(OWNER, CorrectRequest.of(id=old, statement="The gym opens at seven on weekdays"))["id"]
    assert _ids(vault.search(OWNER, SearchRequest.of(query="gym opens weekdays"))) == [new]
    assert set(_ids(vault.search(OWNER, SearchRequest.of(query="gym opens weekdays", include_history=True)))) == {
        old,
        new,
    }


def test_search_hits_carry_score_why_and_tier_and_the_packet_cites_ids(vault: Vault, add: Adder) -> None:
    memory_id = add("The gym opens at six on weekdays", domain="health")
    answer = vault.search(OWNER, SearchRequest.of(query="when does the gym open"))
    hit = answer["results"][0]
    assert hit["id"] == memory_id and hit["score"] > 0 and hit["why"] and hit["tier"] in ("hot", "warm", "cold")
    assert f"[{memory_id}]" in answer["packet"]
    assert answer["budget"]["records"] == 1
    assert vault.get(OWNER, memory_id)["memory"]["retrieval_count"] == 1


def test_shadow_search_returns_no_text_and_logs_ids(vault: Vault, add: Adder) -> None:
    add("The gym opens at six on weekdays", domain="health")
    answer = vault.search(OWNER, SearchRequest.of(query="gym", shadow=True))
    assert set(answer) == {"shadow", "retrieved", "latency_ms"} and answer["retrieved"] == 1
    assert count(vault, "retrieval_log") == 1


def test_filters_limit_domains_and_types(vault: Vault, add: Adder) -> None:
    a = add("The blue kayak lives in the garage", domain="sport")
    b = add("Buy a new kayak paddle before summer", domain="sport", type="NEXT_ACTION")
    c = add("The kayak club fee is due in March", domain="money")
    assert set(_ids(vault.search(OWNER, SearchRequest.of(query="kayak")))) == {a, b, c}
    assert set(_ids(vault.search(OWNER, SearchRequest.of(query="kayak", domains=["sport"])))) == {a, b}
    assert _ids(vault.search(OWNER, SearchRequest.of(query="kayak", types=["NEXT_ACTION"]))) == [b]
    assert len(_ids(vault.search(OWNER, SearchRequest.of(query="kayak", limit=1)))) == 1


def test_as_of_answers_as_things_stood_at_a_past_valid_time(
    clocked_vault: Vault, cadd: Adder, clock: FixedClock
) -> None:
    lisbon = cadd("Alma lives in Lisbon", domain="people")  # valid from 2026-03-01
    clock.advance(days=30)
    porto = clocked_vault.correct(OWNER, CorrectRequest.of(id=lisbon, statement="Alma lives in Porto"))[
        "id"
    ]  # from 2026-03-31
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", as_of="2026-03-10"))) == [lisbon]
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", as_of="2026-04-15T00:00:00Z"))) == [
        porto
    ]
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", as_of="2026-02-01"))) == []
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives"))) == [porto]


def test_known_at_answers_what_the_store_knew_then(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    # Learned on 2026-03-01 that Alma has lived in Lisbon since 2020.
    lisbon = cadd("Alma lives in Lisbon", domain="people", valid_from="2020-01-01")
    clock.advance(days=30)
    # Learned on 2026-03-31 that she had in fact moved to Porto back in 2025.
    porto = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=lisbon, statement="Alma lives in Porto", valid_from="2025-06-01")
    )["id"]

    def search(**when: str) -> list[str]:
        return _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", **when)))

    assert search(known_at="2026-03-15") == [lisbon]  # what the store said mid-March
    then = clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", known_at="2026-03-15"))
    shown = then["results"][0]  # ... shown as it was then, not as today's superseded row
    assert shown["status"] == "current" and shown["superseded_by_id"] is None and shown["valid_until"] is None
    assert "superseded" not in then["packet"] and porto not in then["packet"]
    assert search(known_at="2026-04-01") == [porto]  # what it says after the correction
    assert search(known_at="2026-02-01") == []  # it knew nothing yet
    # Valid time is a different question: in late 2025 she was (as we now know) in Porto.
    assert search(as_of="2025-10-01") == [porto]
    assert search(as_of="2024-10-01") == [lisbon]


def test_as_of_and_known_at_together(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    lisbon = cadd("Alma lives in Lisbon", domain="people", valid_from="2020-01-01")
    clock.advance(days=30)
    porto = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=lisbon, statement="Alma lives in Porto", valid_from="2025-06-01")
    )["id"]

    def search(as_of: str, known_at: str) -> list[str]:
        return _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", as_of=as_of, known_at=known_at)))

    # On 2026-03-15 the store believed that in late 2025 she lived in Lisbon ...
    assert search("2025-10-01", "2026-03-15") == [lisbon]
    # ... and since the correction on 2026-03-31 it says Porto for the same moment.
    assert search("2025-10-01", "2026-04-01") == [porto]
    assert search("2024-10-01", "2026-04-01") == [lisbon]
    assert search("2019-10-01", "2026-03-15") == []


def test_an_archived_record_is_not_known_at_any_time(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    memory_id = cadd("Alma lives in Lisbon", domain="people")
    clock.advance(days=1)
    clocked_vault.archive(OWNER, ArchiveRequest.of(id=memory_id))
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma", known_at="2026-03-01T12:00:00Z"))) == []


def test_a_restored_record_was_not_known_while_it_was_archived(
    clocked_vault: Vault, cadd: Adder, clock: FixedClock
) -> None:
    memory_id = cadd("Alma lives in Lisbon", domain="people")
    clock.advance(days=1)
    clocked_vault.archive(OWNER, ArchiveRequest.of(id=memory_id))  # 2026-03-02
    clock.advance(days=2)
    clocked_vault.restore(OWNER, memory_id)  # 2026-03-04

    def search(known_at: str) -> list[str]:
        return _ids(clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", known_at=known_at)))

    assert search("2026-03-01T12:00:00Z") == [memory_id]
    assert search("2026-03-03T00:00:00Z") == []  # the store held it archived then
    assert search("2026-03-05T00:00:00Z") == [memory_id]
    assert (
        _ids(
            clocked_vault.search(OWNER, SearchRequest.of(query="Alma lives", as_of="2026-03-10", known_at="2026-03-03"))
        )
        == []
    )


def test_bad_time_arguments_are_invalid(vault: Vault) -> None:
    for bad in ({"as_of": "yesterday"}, {"known_at": "2026-02-30"}, {"as_of": "2026-03-01T10:00:00"}):
        with pytest.raises(InvalidArgument):
            vault.search(OWNER, SearchRequest.of(query="anything", **bad))
