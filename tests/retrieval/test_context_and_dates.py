"""Session context and dates in requests: the turn written beside a hit joins it; a record whose
event falls in the date a request names comes first. Real encrypted store, real ranking."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memvault.core.retrieval import query as q
from memvault.core.retrieval import ranking
from memvault.core.retrieval.hybrid import Gathered, gather_neighbours
from memvault.core.retrieval.query_dates import date_span, without_date
from memvault.core.retrieval.ranking import Signals, Weights, rank
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Explicitness, Memory, MemoryId, MemoryType, Scope, Sensitivity, Status
from memvault.core.vocabulary.search_request import SearchRequest


def _add(vault: Vault, statement: str, **fields: Any) -> str:
    result = vault.add(OWNER, Draft.of(statement=statement, **fields))
    assert result["outcome"] == "added", result
    return str(result["id"])


def _ids(vault: Vault, query: str) -> list[str]:
    vault.retriever.clear_caches()
    return [hit["id"] for hit in vault.search(OWNER, SearchRequest.of(query=query, depth="deep"))["results"]]


def _record(memory_id: str) -> Memory:
    return Memory(MemoryId(memory_id), "general", MemoryType.FACT, memory_id, Status.CURRENT, 0.8, 0.5,
                  Explicitness.EXPLICIT, Sensitivity.NORMAL, Scope.LOCAL_ONLY)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("What did Joanna finish on 23 January, 2022?", datetime(2022, 1, 22), datetime(2022, 1, 25)),
        ("What painting did she show on October 13, 2023?", datetime(2023, 10, 12), datetime(2023, 10, 15)),
        ("What book did Tim finish on 8th December, 2023?", datetime(2023, 12, 7), datetime(2023, 12, 10)),
        ("Where did Joanna travel to in July 2022?", datetime(2022, 7, 1), datetime(2022, 8, 1)),
        ("what did I change in Dec 2024", datetime(2024, 12, 1), datetime(2025, 1, 1)),
        ("which charity event was organised in 2024", datetime(2024, 1, 1), datetime(2025, 1, 1)),
        ("notes from 2025-03-02 standup", datetime(2025, 3, 1), datetime(2025, 3, 4)),
    ],
)
def test_a_date_named_in_a_request_is_a_span_of_time(text: str, start: datetime, end: datetime) -> None:
    span = date_span(text)
    assert span is not None
    assert (span.start, span.end) == (start.replace(tzinfo=UTC), end.replace(tzinfo=UTC))
    assert not any(ch.isdigit() for ch in without_date(text, span))


@pytest.mark.parametrize("text", ["May I see my notes", "the 2 of us in room 2024b", "my plans"])
def test_words_that_only_look_like_dates_are_not_dates(text: str) -> None:
    assert date_span(text) is None
    assert without_date(text, None) == text


def test_the_date_words_leave_the_word_query_but_the_rest_stays() -> None:
    text = "What did Nate share with his writers group in August 2022?"
    assert without_date(text, date_span(text)).split() == "What did Nate share with his writers group in ?".split()


def test_a_record_beside_a_hit_borrows_a_share_of_its_score_and_alone_is_no_hit() -> None:
    weights = Weights()
    question, reply = _record("question"), _record("reply")
    strong = Signals(lexical=0.9, cosine=0.8, semantic_on=True)
    unrelated = Signals(lexical=0.0, cosine=0.05, semantic_on=True)
    assert [r.id for r, _, _ in rank([(question, strong), (reply, unrelated)], weights)] == ["question"]
    ranked = rank([(question, strong), (reply, unrelated)], weights, {"question": {"reply"}, "reply": {"question"}})
    scores = {r.id: value for r, _, value in ranked}
    assert list(scores) == ["question", "reply"]
    assert 0.3 * scores["question"] < scores["reply"] < scores["question"]
    # Two records beside each other, neither relevant: nothing to lend.
    assert rank([(question, unrelated), (reply, unrelated)], weights, {"question": {"reply"}}) == []


def test_the_reply_written_beside_a_matching_turn_is_found(clocked_vault: Vault) -> None:
    v = clocked_vault
    other_day = _add(
        v, "Gina: The quarterly invoices are filed in the green binder.", event_time="2023-05-01T10:00:00Z"
    )
    asked = _add(v, "Jon: What did you pack for the weekend trip to the lake cabin?", event_time="2023-05-08T13:56:00Z")
    reply = _add(v, "Gina: Mostly novels by Le Guin, honestly.", event_time="2023-05-08T13:56:00Z")
    _add(v, "Jon: I bought a new set of winter tyres for the van.", event_time="2023-05-20T09:00:00Z")
    found = _ids(v, "What was packed for the weekend trip to the lake cabin?")
    assert found[0] == asked
    assert reply in found  # it shares no word that counts and little meaning: it is there as context
    assert other_day not in found  # written just before, but on another day: another session


def test_a_record_whose_event_is_in_the_date_asked_about_comes_first(
    clocked_vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = clocked_vault
    july = _add(v, "Anna and I walked the Dolomites ridge.", event_time="2023-07-14T10:00:00Z")
    may = _add(v, "Where we hike with Anna: the Dolomites ridge, every spring.", event_time="2023-05-02T10:00:00Z")
    query = "Where did we hike with Anna in July 2023?"
    assert _ids(v, query)[:2] == [july, may]
    monkeypatch.setattr(ranking, "DATE_LIFT", 0.0)  # the control: without the date, the other one leads
    assert _ids(v, query)[:2] == [may, july]


def test_among_conversation_turns_words_order_more_than_meaning() -> None:
    weights = Weights()
    words = (_record("words"), Signals(lexical=0.7, cosine=0.40, semantic_on=True))
    meaning = (_record("meaning"), Signals(lexical=0.0, cosine=0.62, semantic_on=True))
    both = (_record("both"), Signals(lexical=0.2, cosine=0.60, semantic_on=True))

    def order(conversation: float) -> list[str]:
        return [r.id for r, _, _ in rank([words, meaning, both], weights, None, conversation)]

    assert order(0.0) == ["both", "meaning", "words"]  # notes: the formula fitted to them
    assert order(1.0) == ["both", "words", "meaning"]  # turns: the shared words count more


def test_the_conversation_share_counts_the_seeds_that_are_turns_of_a_session(clocked_vault: Vault) -> None:
    v = clocked_vault
    when = "2023-05-08T13:56:00Z"
    turns = [_add(v, f"Jon: turn {n} about the lake cabin", event_time=when) for n in range(3)]
    notes = [_add(v, f"Note {n}: the lake cabin key is under the mat") for n in range(2)]
    request = SearchRequest.of(query="lake cabin")
    with v.ctx.reading() as conn:
        for seeds, share in ((turns, 1.0), (notes, 0.0), ([turns[0], notes[0]], 0.5)):
            gathered = Gathered()
            gather_neighbours(conn, OWNER, request, seeds, gathered, None)
            assert gathered.conversation == share


def test_names_in_a_request_and_the_name_a_statement_starts_with() -> None:
    assert q.request_names("What did Caroline tell Melanie about the LGBTQ group?") == {"caroline", "melanie", "lgbtq"}
    assert q.request_names("what did I say about the cabin") == frozenset()
    assert [q.leading_name(t) for t in ("Caroline: hi", "Lena's sister", "I went", "the cabin", "3 cats")] == [
        "caroline",
        "lena",
        None,
        None,
        None,
    ]


def test_in_a_conversation_the_turns_of_the_person_asked_about_come_first(clocked_vault: Vault) -> None:
    v = clocked_vault
    when = "2023-05-08T13:56:00Z"
    hers = _add(v, "Gina: I finally painted the lake cabin's porch blue.", event_time=when)
    _add(v, "Jon: Nice, blue suits it.", event_time=when)
    his = _add(v, "Jon: I painted the lake cabin's porch blue last year too.", event_time=when)
    _add(v, "Gina: Really? I did not know that.", event_time=when)
    # Her turn about the porch comes before his, and the first hit is hers. Her reply "Really?..." may
    # come first too: it sits beside his porch turn, and the two are within 0.5% of each other.
    for asked, first, other in (("Gina", hers, his), ("Jon", his, hers)):
        ids = _ids(v, f"What did {asked} paint at the lake cabin?")
        assert ids.index(first) < ids.index(other) and ids.index(first) <= 1
        assert v.get(OWNER, ids[0])["memory"]["statement"].startswith(f"{asked}:")


def test_pronouns_and_the_pieces_of_contractions_are_not_words_to_look_up() -> None:
    assert q.query_terms("What did John's sister tell him about her trip? She'd loved it") == [
        "john",
        "sister",
        "trip",
        "loved",
    ]
