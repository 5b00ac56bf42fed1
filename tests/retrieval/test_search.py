"""memory_search through Vault on a real encrypted store: shape, signals, filters, time and access."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from memvault.core.retrieval.hybrid import Deadline
from memvault.core.retrieval.ranking import Signals, Weights, rank
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import (
    OWNER,
    Caller,
    Explicitness,
    Memory,
    MemoryId,
    MemoryType,
    Scope,
    Sensitivity,
    Status,
    Surface,
)
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, FeedbackRequest
from memvault.core.vocabulary.search_request import SearchRequest

REMOTE = Caller("remote-bot", Surface.REMOTE)
RECORD_FIELDS = {
    "id", "domain", "type", "statement", "status", "confidence", "importance", "explicitness", "sensitivity",
    "access_scope", "tags", "source", "source_reference", "evidence", "event_time", "learned_at", "observed_at",
    "valid_from", "valid_until", "last_confirmed_at", "created_at", "updated_at", "supersedes_id",
    "superseded_by_id", "archived_reason", "retrieval_count", "last_retrieved_at", "revision", "due_at",
}  # fmt: skip


def _add(vault: Vault, statement: str, **fields: Any) -> str:
    result = vault.add(OWNER, Draft.of(statement=statement, **fields))
    assert result["outcome"] == "added", result
    return str(result["id"])


def _ids(answer: dict[str, Any]) -> list[str]:
    return [hit["id"] for hit in answer["results"]]


@pytest.fixture
def filled(clocked_vault: Vault) -> dict[str, str]:
    v = clocked_vault
    return {
        "tea": _add(v, "I prefer green tea in the morning", domain="food", type="PREFERENCE"),
        "car": _add(v, "My car is a grey Kia Niro electric", domain="car"),
        "kitchen": _add(v, "The kitchen renovation is waiting for the plumber", domain="home", type="PROJECT"),
        "meetings": _add(
            v, "No meetings before 10 am", domain="work", type="CONSTRAINT", access_scope="remote_allowed"
        ),
        "japanese": _add(v, "東京の大学で日本語を勉強しました", domain="learning"),
    }


def test_the_answer_has_exactly_the_contract_shape(clocked_vault: Vault, filled: dict[str, str]) -> None:
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="what do I drink in the morning"))
    assert set(answer) == {"query", "skipped", "reason", "domains", "results", "packet", "budget"}
    assert set(answer["budget"]) == {"records", "tokens", "latency_ms", "truncated"}
    assert answer["skipped"] is False
    hit = answer["results"][0]
    assert hit["id"] == filled["tea"]
    assert set(hit) == RECORD_FIELDS | {"score", "why", "tier"}
    assert isinstance(hit["score"], float) and hit["tier"] in ("hot", "warm", "cold")
    assert set(hit["why"]) <= {"lexical", "semantic", "graph"} and hit["why"]
    assert all(set(d) == {"name", "weight"} for d in answer["domains"])
    assert f"[{filled['tea']}]" in answer["packet"]
    assert answer["budget"]["records"] == len(answer["results"])
    json.dumps(answer)  # serialisable as the MCP text content


def test_meaning_matches_without_shared_words(clocked_vault: Vault, filled: dict[str, str]) -> None:
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="which beverage do I have at breakfast"))
    assert _ids(answer)[:1] == [filled["tea"]]
    assert "semantic" in answer["results"][0]["why"]


def test_ranking_asks_activity_only_of_hits_that_can_reach_the_kept_head() -> None:
    """`rank(keep=k)`: the first k hits, scores and activity exactly as ranking them all gives; a hit
    too far below to reach them, whatever its activity, is left out unasked (200 random rankings)."""
    rng = random.Random(7)
    asked = everyone = 0
    for _ in range(200):
        keep = rng.choice([1, 5, 10, 30])
        everything, head, seen = _ranked_twice(rng, keep)
        assert head[:keep] == everything[:keep]
        assert seen == len(head) >= min(keep, len(everything))
        asked, everyone = asked + seen, everyone + len(everything)
    assert asked < 0.6 * everyone


def _ranked_twice(rng: random.Random, keep: int) -> tuple[list[Any], list[Any], int]:
    """Random candidates ranked whole and with `keep`, and how often the latter asked for activity."""
    items, activities = [], {}
    for n in range(60):
        record = Memory(MemoryId(f"m{n:02d}"), "work", MemoryType.FACT, f"note {n}", Status.CURRENT, 0.8,
                        rng.random(), Explicitness.EXPLICIT, Sensitivity.NORMAL, Scope.LOCAL_ONLY)  # fmt: skip
        lexical = rng.random() ** 2
        items.append((record, Signals(lexical=lexical, cosine=rng.choice([lexical, rng.random()]), semantic_on=True)))
        activities[record.id] = (rng.choice([0.0, 1.0, rng.random()]), rng.random())
    weights = Weights(activation=rng.uniform(0.0, 1.5), recency=rng.uniform(-0.2, 0.5))
    seen: list[str] = []

    def activity(record: Memory) -> tuple[float, float]:
        seen.append(record.id)
        return activities[record.id]

    def ranked(keep: int | None) -> list[tuple[str, float, float, float]]:
        fresh = [(r, replace(s)) for r, s in items]
        return [(r.id, v, s.activation, s.recency) for r, s, v in rank(fresh, weights, None, 0.0, activity, keep)]

    everything = ranked(None)
    seen.clear()
    return everything, ranked(keep), len(seen)


def test_partial_words_and_japanese_text_match(clocked_vault: Vault, filled: dict[str, str]) -> None:
    assert filled["kitchen"] in _ids(clocked_vault.search(OWNER, SearchRequest.of(query="renovat")))
    assert filled["japanese"] in _ids(clocked_vault.search(OWNER, SearchRequest.of(query="日本語")))
    assert filled["japanese"] in _ids(
        clocked_vault.search(OWNER, SearchRequest.of(query="東京"))
    )  # two characters: LIKE fallback


def test_a_record_holding_every_word_asked_for_is_a_hit_whatever_its_vector() -> None:
    record = Memory(MemoryId("m1"), "work", MemoryType.FACT, "Notes from the retro ... Vesna owns the alert",
                    Status.CURRENT, 0.8, 0.5, Explicitness.EXPLICIT, Sensitivity.NORMAL, Scope.LOCAL_ONLY)  # fmt: skip
    weights = Weights()
    far = Signals(lexical=1.0, cosine=0.05, semantic_on=True)  # a long paragraph: its vector is about the retro
    assert [r.id for r, _, _ in rank([(record, far)], weights)] == ["m1"]
    assert rank([(record, Signals(lexical=0.5, cosine=0.05, semantic_on=True))], weights) == []


@pytest.mark.parametrize("text", ['"', 'tea" OR "x', "NEAR(tea car)", "tea*", "-tea", "col:tea", "^tea", "a AND"])
def test_fts_syntax_in_user_text_is_only_text(clocked_vault: Vault, filled: dict[str, str], text: str) -> None:
    answer = clocked_vault.search(OWNER, SearchRequest.of(query=text))
    assert isinstance(answer["results"], list)


def test_nothing_relevant_means_no_results(clocked_vault: Vault, filled: dict[str, str]) -> None:
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="which football team do I support"))
    assert answer["results"] == [] and answer["skipped"] is False and answer["packet"] == ""


@pytest.mark.parametrize(
    "text", ["what is 17 * 23", "what is the capital of Australia", "thanks!", "who wrote War and Peace", "?!"]
)
def test_self_contained_questions_are_skipped_with_a_reason(
    clocked_vault: Vault, filled: dict[str, str], text: str
) -> None:
    answer = clocked_vault.search(OWNER, SearchRequest.of(query=text))
    assert answer["skipped"] is True and answer["results"] == [] and answer["reason"]


def test_personal_questions_are_not_skipped(clocked_vault: Vault, filled: dict[str, str]) -> None:
    assert (
        clocked_vault.search(OWNER, SearchRequest.of(query="what is the capital of my favourite country"))["skipped"]
        is False
    )


def test_remote_callers_never_get_local_only_records(clocked_vault: Vault, filled: dict[str, str]) -> None:
    for text in ("green tea", "kia car", "meetings before 10", "kitchen plumber"):
        answer = clocked_vault.search(REMOTE, SearchRequest.of(query=text))
        assert all(hit["access_scope"] == "remote_allowed" for hit in answer["results"])
        assert filled["tea"] not in answer["packet"] and "green tea" not in answer["packet"]
    assert _ids(clocked_vault.search(REMOTE, SearchRequest.of(query="meetings before 10"))) == [filled["meetings"]]


def test_filters_by_domain_and_type(clocked_vault: Vault, filled: dict[str, str]) -> None:
    assert filled["car"] in _ids(clocked_vault.search(OWNER, SearchRequest.of(query="my electric car")))
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="my electric car", domains=["food", "home"]))) == []
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="my electric car", domains=["car"]))) == [
        filled["car"]
    ]
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="my electric car", types=["PROJECT"]))) == []
    assert _ids(clocked_vault.search(OWNER, SearchRequest.of(query="renovation plumber", types=["PROJECT"]))) == [
        filled["kitchen"]
    ]
    with pytest.raises(InvalidArgument):
        clocked_vault.search(OWNER, SearchRequest.of(query="tea", types=["NOT_A_TYPE"]))


def test_corrections_answer_with_the_new_record_and_history_on_request(
    clocked_vault: Vault, clock: FixedClock, filled: dict[str, str]
) -> None:
    clock.advance(days=30)
    new = clocked_vault.correct(
        OWNER, CorrectRequest.of(id=filled["car"], statement="My car is a blue Volkswagen ID.3")
    )["id"]
    now_ids = _ids(clocked_vault.search(OWNER, SearchRequest.of(query="what car do I drive")))
    assert new in now_ids and filled["car"] not in now_ids
    history = clocked_vault.search(OWNER, SearchRequest.of(query="what car do I drive", include_history=True))
    assert _ids(history)[0] == new and filled["car"] in _ids(history)
    assert f"superseded on {clock.now().date().isoformat()} by [{new}]" in history["packet"]
    then = clocked_vault.search(OWNER, SearchRequest.of(query="what car do I drive", as_of="2026-03-15"))
    assert _ids(then) == [filled["car"]]


def test_archived_records_are_never_found(clocked_vault: Vault, filled: dict[str, str]) -> None:
    clocked_vault.archive(OWNER, ArchiveRequest.of(id=filled["tea"]))
    for depth in ("shallow", "normal", "deep"):
        answer = clocked_vault.search(
            OWNER, SearchRequest.of(query="green tea in the morning", depth=depth, include_history=True)
        )
        assert filled["tea"] not in _ids(answer)


def test_the_graph_stage_starts_only_from_records_with_links_or_entities(clocked_vault: Vault) -> None:
    from memvault.core.store.sqlcipher import store_stamps  # noqa: PLC0415
    from memvault.core.store.sqlcipher.search import in_graph  # noqa: PLC0415

    plain = _add(clocked_vault, "The bread tin lives on the top shelf", domain="home")
    target = _add(clocked_vault, "The pantry shelves were built in 2019", domain="home")
    linking = _add(
        clocked_vault,
        "Oil the pantry shelves each spring",
        domain="home",
        links=[{"type": "relates_to", "target_id": target}],
    )
    named = _add(clocked_vault, "Ilse lent us the bread maker", domain="home", entities=["Ilse"])
    with clocked_vault.ctx.reading() as conn:
        filled = store_stamps.read(conn.raw).filled
        assert filled == {"links", "memory_entities"}  # no feedback yet
        assert not in_graph(conn.raw, [plain], filled) and not in_graph(conn.raw, [], filled)
        assert in_graph(conn.raw, [plain, linking], filled) and in_graph(
            conn.raw, [target], filled
        )  # either end of a link
        assert in_graph(conn.raw, [named], filled)
        assert not in_graph(conn.raw, [named, linking], frozenset({"feedback"}))  # told both tables are empty


def test_links_pull_neighbours_of_strong_hits_in(clocked_vault: Vault, filled: dict[str, str]) -> None:
    plumber = _add(
        clocked_vault,
        "Call Jonas Frei about connecting the sink",
        domain="home",
        type="NEXT_ACTION",
        links=[{"type": "part_of_project", "target_id": filled["kitchen"]}],
    )
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="kitchen renovation status"))
    assert _ids(answer)[0] == filled["kitchen"]
    assert plumber in _ids(answer)
    assert "graph" in next(h for h in answer["results"] if h["id"] == plumber)["why"]
    shallow = clocked_vault.search(OWNER, SearchRequest.of(query="kitchen renovation status", depth="shallow"))
    assert plumber not in _ids(shallow)


def test_every_search_counts_usage_and_logs_ids_only(clocked_vault: Vault, filled: dict[str, str]) -> None:
    clocked_vault.search(OWNER, SearchRequest.of(query="green tea"))
    again = clocked_vault.search(OWNER, SearchRequest.of(query="green tea"))  # the cached ranking still counts
    assert again["results"][0]["retrieval_count"] == 1  # as it was when this search read it
    record = clocked_vault.get(OWNER, filled["tea"])["memory"]
    assert record["retrieval_count"] == 2 and record["last_retrieved_at"] == clocked_vault.ctx.now()
    with clocked_vault.ctx.reading() as conn:
        rows = conn.raw.execute("SELECT * FROM retrieval_log").fetchall()
    assert len(rows) == 2 and json.loads(rows[-1]["ids"])[0] == filled["tea"]
    assert "tea" not in " ".join(str(value) for row in rows for value in tuple(row))


def test_shadow_mode_ranks_and_logs_but_returns_no_memory(clocked_vault: Vault, filled: dict[str, str]) -> None:
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="green tea", shadow=True))
    assert set(answer) == {"shadow", "retrieved", "latency_ms"} and answer["shadow"] is True
    assert answer["retrieved"] == 1
    with clocked_vault.ctx.reading() as conn:
        row = conn.raw.execute("SELECT ids, shadow FROM retrieval_log").fetchone()
    assert json.loads(row["ids"]) == [filled["tea"]] and row["shadow"] == 1
    assert clocked_vault.get(OWNER, filled["tea"])["memory"]["retrieval_count"] == 0


def test_budgets_limit_records_and_tokens(clocked_vault: Vault, filled: dict[str, str]) -> None:
    for n in range(12):
        _add(clocked_vault, f"Tea tasting note {n}: a smoky lapsang souchong from shop {n}", domain="food")
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="tea tasting lapsang", limit=3))
    assert answer["budget"]["records"] == 3 == len(answer["results"])
    small = clocked_vault.search(OWNER, SearchRequest.of(query="tea tasting lapsang", limit=10, max_tokens=60))
    assert small["budget"]["tokens"] <= 60 and small["budget"]["truncated"] is True
    assert 1 <= len(small["results"]) < 10


def test_a_missed_deadline_returns_the_best_so_far(
    clocked_vault: Vault, filled: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        clocked_vault.search(OWNER, SearchRequest.of(query="green tea in the morning"))["budget"]["truncated"] is False
    )
    clocked_vault.set_setting(OWNER, "search_deadline_ms", 10)
    monkeypatch.setattr(Deadline, "passed", lambda self: True)  # a machine too busy to make 10 ms
    answer = clocked_vault.search(OWNER, SearchRequest.of(query="green tea in the morning"))
    assert answer["budget"]["truncated"] is True
    assert _ids(answer)[:1] == [filled["tea"]]  # the lexical stage always runs: the best so far
    assert answer["results"][0]["why"] == ["lexical"]
    again = clocked_vault.search(OWNER, SearchRequest.of(query="green tea in the morning"))
    assert again["budget"]["truncated"] is True  # a truncated ranking is never cached


def test_records_a_caller_cannot_see_do_not_move_its_scores(clocked_vault: Vault) -> None:
    kayak = _add(clocked_vault, "The blue kayak hangs in the garage", domain="outdoors", access_scope="remote_allowed")
    _add(clocked_vault, "Paddles for the canoe are in the shed", domain="outdoors", access_scope="remote_allowed")
    before = clocked_vault.search(REMOTE, SearchRequest.of(query="blue kayak and paddles"))["results"]
    for n in range(15):
        _add(clocked_vault, f"Kayak trip number {n} on the blue lake", domain="outdoors")  # local only
    after = clocked_vault.search(REMOTE, SearchRequest.of(query="blue kayak and paddles"))["results"]
    assert [h["id"] for h in after] == [h["id"] for h in before] and after[0]["id"] == kayak
    assert [h["score"] for h in after] == [h["score"] for h in before]
    local = clocked_vault.search(OWNER, SearchRequest.of(query="blue kayak and paddles"))["results"]
    assert len(local) > len(after)  # the person sees them all


def test_feedback_moves_a_record_within_the_relevant_ones(clocked_vault: Vault) -> None:
    first = _add(clocked_vault, "The spare house key is with the neighbour at number 6", domain="home")
    second = _add(clocked_vault, "The spare house key is in the blue box in the shed", domain="home")
    before = _ids(clocked_vault.search(OWNER, SearchRequest.of(query="where is the spare house key")))
    assert set(before[:2]) == {first, second}
    top, other = before[0], before[1]
    for _ in range(3):
        clocked_vault.record_feedback(OWNER, FeedbackRequest.of(id=top, useful=False))
        clocked_vault.record_feedback(OWNER, FeedbackRequest.of(id=other, useful=True))
    after = _ids(clocked_vault.search(OWNER, SearchRequest.of(query="where is the spare house key")))
    assert after[:2] == [other, top]  # reordered, and the unhelpful one is still there
