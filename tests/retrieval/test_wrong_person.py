"""A request about the wrong person: when a request names a speaker of stored turns but its other
words match what someone else said, that someone's turns are held back and the answer says so.
Real encrypted store, real ranking."""

from __future__ import annotations

import re
from typing import Any

from memvault.core.retrieval import query as q
from memvault.core.retrieval.ranking import Signals, hold_back
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Explicitness, Memory, MemoryId, MemoryType, Scope, Sensitivity, Status
from memvault.core.vocabulary.results import SearchAnswer
from memvault.core.vocabulary.search_request import SearchRequest

WHEN = "2023-05-08T13:56:00Z"
CONVERSATION = (
    "Gina: I ran a charity race for mental health last Saturday, it made me see how much self-care matters.",
    "Jon: That's great! I spent the weekend fixing the studio's sound system.",
    "Gina: The studio must sound amazing now.",
    "Jon: It does. Next I want to teach a beginners' dance class on Fridays.",
    "Gina: You will be a great teacher.",
    "Jon: Thanks, I hope the students enjoy the choreography.",
)


def _add(vault: Vault, statement: str, **fields: Any) -> str:
    result = vault.add(OWNER, Draft.of(statement=statement, **fields))
    assert result["outcome"] == "added", result
    return str(result["id"])


def _search(vault: Vault, query: str) -> SearchAnswer:
    vault.retriever.clear_caches()
    answer = vault.search(OWNER, SearchRequest.of(query=query, depth="deep"))
    assert "shadow" not in answer
    return answer


def _said(statements: dict[str, str], answer: SearchAnswer) -> list[str]:
    return [statements[hit["id"]].split(":")[0] for hit in answer["results"]]


def test_the_speaker_of_a_turn_is_the_name_before_its_colon() -> None:
    cases = {
        "Caroline: hi there": "caroline",
        "John Smith: yes": "john",
        "Anna-Lena: ok": "anna",  # split as a request's names are: "Anna-Lena" names anna and lena
        "Élodie: salut": "elodie",
        "Caroline said: hi": None,  # a sentence, not a speaker's label
        "note: buy milk": None,
        "Caroline:hi": None,
        "Caroline went home": None,
    }
    assert {text: q.speaker_of(text) for text in cases} == cases


def test_a_request_about_the_wrong_person_holds_back_what_the_other_one_said(clocked_vault: Vault) -> None:
    v = clocked_vault
    statements = {_add(v, text, event_time=WHEN): text for text in CONVERSATION}
    asked_wrong = _search(v, "What did Jon realize after his charity race?")
    assert "Gina" not in _said(statements, asked_wrong)  # the race was hers: it answers for her, not for Jon
    assert asked_wrong["results"]  # Jon's own turns still come (they are about the person asked about)
    assert re.match(r"\d+ hits? held back: the request names a speaker, but its other words", asked_wrong["reason"])
    assert asked_wrong["budget"]["records"] == len(asked_wrong["results"])

    asked_right = _search(v, "What did Gina realize after her charity race?")
    assert _said(statements, asked_right)[0] == "Gina"
    assert asked_right["reason"] == ""


def test_a_turn_that_speaks_to_the_person_asked_about_is_kept(clocked_vault: Vault) -> None:
    v = clocked_vault
    statements = {_add(v, text, event_time=WHEN): text for text in CONVERSATION}
    thanks = _add(v, "Gina: Thanks Jon, the charity race was hard but worth it.", event_time=WHEN)
    statements[thanks] = "Gina"
    answer = _search(v, "What did Jon realize after his charity race?")
    ids = [hit["id"] for hit in answer["results"]]
    assert thanks in ids
    assert "held back" in answer["reason"]


def test_notes_and_requests_naming_no_speaker_are_left_as_they_are(clocked_vault: Vault) -> None:
    v = clocked_vault
    note = _add(v, "Gina ran a charity race for mental health last Saturday.")
    _add(v, "Jon teaches a beginners' dance class on Fridays.")
    answer = _search(v, "What did Jon realize after his charity race?")
    assert note in [hit["id"] for hit in answer["results"]]  # a note has no speaker to judge it by
    assert answer["reason"] == ""
    statements = {_add(v, text, event_time=WHEN): text for text in CONVERSATION}
    unnamed = _search(v, "who ran a charity race?")
    assert "Gina" in _said(statements | {note: "note"}, unnamed)
    assert unnamed["reason"] == ""


def _turn(memory_id: str, statement: str, score: float = 1.0) -> tuple[Memory, Signals, float]:
    record = Memory(MemoryId(memory_id), "general", MemoryType.FACT, statement, Status.CURRENT, 0.8, 0.5,
                    Explicitness.EXPLICIT, Sensitivity.NORMAL, Scope.LOCAL_ONLY)  # fmt: skip
    return record, Signals(), score


def test_held_back_hits_are_not_replaced_by_lower_ones() -> None:
    ranked = [
        _turn("a", "Gina: the charity race was hard"),
        _turn("b", "Jon: the studio sounds better", 0.9),
        _turn("c", "Gina: the studio must sound amazing", 0.8),
        _turn("d", "A note on the studio", 0.7),
        _turn("e", "Jon: the studio's old speakers", 0.3),  # far below the best
        _turn("f", "Jon: dance class on Fridays", 0.2),  # below the limit
    ]

    def words(text: str, names: frozenset[str]) -> float:
        assert names == {"jon"}
        return 1.0 if "race" in text else 0.0

    kept, held = hold_back(ranked, 5, frozenset({"jon"}), words)
    assert ([r.id for r, _, _ in kept], held) == (["b", "d"], 3)  # Gina's turns, and the far one
    # The named person said something as close: nothing is held back, the ranking stays whole.
    ranked[1] = _turn("b", "Jon: my charity race")
    assert hold_back(ranked, 5, frozenset({"jon"}), words) == (ranked, 0)
    # A request naming no speaker (or nobody): as ranked.
    assert hold_back(ranked, 5, frozenset({"lena"}), words) == (ranked, 0)
    assert hold_back(ranked, 5, frozenset(), words) == (ranked, 0)
