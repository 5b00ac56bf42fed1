"""The writer pass (Vault.propose / memory_propose) on real encrypted stores.

Embeddings are on here (the product default) unless a test turns them off: near duplicates
are judged with the local model and, without it, lexically.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, WORKSPACE_A, Adder, actions, count, dump
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from propose_pairs import CONFLICTS, DISTINCT, DUPLICATES, ENDINGS, HELD_OUT

from memvault.core.retrieval.embeddings import shared_embedder
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument, KillSwitchEngaged, NotFound, ReadOnlyMode
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ListRequest, ProposeRequest
from memvault.core.writer.similarity import Relation, relate

AUTO = "automatic-write-within-approved-scope"
SECRET = "hunter2-Correct-Horse-99"


@pytest.fixture(autouse=True)
def _embeddings_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "local")
    yield


@pytest.fixture
def lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def propose(vault: Vault, caller: Caller, *statements: str | dict[str, Any], **args: Any) -> list[dict[str, Any]]:
    candidates = [s if isinstance(s, dict) else {"statement": s} for s in statements]
    results: list[dict[str, Any]] = vault.propose(caller, ProposeRequest.of(candidates=candidates, **args))["results"]
    assert len(results) == len(candidates)
    return results


def automatic(vault: Vault) -> None:
    vault.set_setting(OWNER, "write_mode", AUTO)
    vault.set_setting(OWNER, "auto_write_scopes", ["local_only", "remote_allowed", "workspace_allowed"])


# -- the rules on the fictional pairs (tests/core/propose_pairs.py; figures in docs/writer.md) ----------------

EXPECTED = {"dup": Relation.SAME, "conflict": Relation.CONFLICT, "end": Relation.ENDS, "distinct": Relation.UNRELATED}
TUNING = [("dup", p) for p in DUPLICATES] + [("conflict", p) for p in CONFLICTS]
TUNING += [("end", p) for p in ENDINGS] + [("distinct", p) for p in DISTINCT]
HELD = [(Relation(kind), pair) for kind, pairs in HELD_OUT.items() for pair in pairs]


def _cosine(a: str, b: str) -> float:
    vectors = shared_embedder().embed([a, b])
    return float(vectors[0] @ vectors[1])


def _right(pairs: list[tuple[Relation, tuple[str, str]]], embeddings: bool) -> list[tuple[str, str]]:
    wrong = []
    for expected, (record, candidate) in pairs:
        cosine = _cosine(record, candidate) if embeddings else None
        if relate(candidate, record, cosine).relation is not expected:
            wrong.append((record, candidate))
    return wrong


def test_the_tuning_pairs_are_classified_as_written() -> None:
    pairs = [(EXPECTED[kind], pair) for kind, pair in TUNING]
    assert _right(pairs, embeddings=True) == []
    assert len(_right(pairs, embeddings=False)) <= 2  # 54 of 56 lexically: two synonyms it cannot know


def test_the_held_out_pairs_keep_their_measured_accuracy() -> None:
    # 27 of 30 (28 under the first integer graph): "I take the 7:40 train to the office" is at cosine
    # 0.889 to its record under the dynamically quantised graph (0.899 before, 0.901 in fp32), under
    # NEAR_COSINE; the threshold is not moved for a held-out pair.
    assert len(_right(HELD, embeddings=True)) <= 3
    assert len(_right(HELD, embeddings=False)) <= 3  # 27 of 30


def test_a_new_value_is_never_a_near_duplicate_however_close_the_meaning() -> None:
    for record, candidate in CONFLICTS:
        assert relate(candidate, record, 0.99).relation is not Relation.SAME, candidate


# -- the four classifications on a real store -----------------------------------------------------------


def test_an_exact_duplicate_is_no_change_and_confirms_the_record(
    clocked_vault: Vault, cadd: Adder, clock: FixedClock
) -> None:
    target = cadd("The garden budget is 4000 kronor.", domain="garden", type="CONSTRAINT")
    clock.advance(days=3)
    before = count(clocked_vault, "memories"), count(clocked_vault, "proposals")
    (result,) = propose(clocked_vault, ASSISTANT, {"statement": "the garden budget is 4000 KRONOR", "domain": "home"})
    assert result["classification"] == "NO_CHANGE" and result["outcome"] == "skipped"
    assert result["target_id"] == target and result["evidence"]["rule"] == "exact"
    assert (count(clocked_vault, "memories"), count(clocked_vault, "proposals")) == before
    record = clocked_vault.get(OWNER, target)["memory"]
    assert record["last_confirmed_at"] == "2026-03-04T09:30:00.000Z" and record["revision"] == 2
    assert actions(clocked_vault)[-1] == "confirmed"


@pytest.mark.parametrize("mode", ["embeddings", "lexical"])
def test_a_near_duplicate_is_no_change(vault: Vault, add: Adder, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if mode == "lexical":
        monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")
    target = add("The backup drive is kept in the hall cupboard.", domain="home")
    add("The spare keys are in the blue bowl by the door.", domain="home")
    (result,) = propose(vault, ASSISTANT, "The backup drive is kept in the cupboard in the hall")
    assert (result["classification"], result["outcome"], result["target_id"]) == ("NO_CHANGE", "skipped", target)
    assert result["evidence"]["rule"] == "near duplicate"
    assert (result["evidence"]["cosine"] is None) == (mode == "lexical")
    assert vault.proposals(OWNER) == []


def test_a_conflicting_value_is_supersede_and_approval_corrects_the_target(vault: Vault, add: Adder) -> None:
    target = add("The garden budget is 4000 kronor.", domain="garden", source_reference="note:1")
    (result,) = propose(vault, ASSISTANT, "The garden budget is 5500 kronor.", conversation_ref="chat:2026-03-01#7")
    assert (result["classification"], result["outcome"], result["target_id"]) == ("SUPERSEDE", "staged", target)
    assert result["evidence"]["differences"] == [{"old": ["4000"], "new": ["5500"]}]
    assert vault.get(OWNER, target)["memory"]["status"] == "current"  # nothing changes before approval
    approved = vault.approve(OWNER, result["proposal_id"])
    new = vault.get(OWNER, approved["id"])["memory"]
    assert new["statement"] == "The garden budget is 5500 kronor." and new["supersedes_id"] == target
    assert new["source_reference"] == "chat:2026-03-01#7"
    assert vault.get(OWNER, target)["memory"]["status"] == "superseded"


@pytest.mark.parametrize(
    ("record", "candidate"),
    [
        ("My sister Ylva lives in Bergen.", "My sister Ylva lives in Tromsø."),
        ("I eat meat.", "I do not eat meat."),
        ("We decided to use PostgreSQL for the ledger service.", "We decided to use SQLite for the ledger service."),
    ],
)
def test_names_polarity_and_choices_conflict(vault: Vault, add: Adder, record: str, candidate: str) -> None:
    target = add(record)
    (result,) = propose(vault, ASSISTANT, candidate)
    assert (result["classification"], result["target_id"]) == ("SUPERSEDE", target)


@pytest.mark.parametrize(
    ("record", "candidate"),
    [
        ("I need to send the Marten report by Friday.", "I need to send the Juniper report by Friday."),
        ("My sister Ylva lives in Bergen.", "My sister Maja lives in Bergen."),
        ("The Heron project is in beta now.", "The Osprey project is in beta now."),
    ],
)
def test_a_name_that_says_which_thing_it_is_makes_another_fact(
    vault: Vault, add: Adder, record: str, candidate: str
) -> None:
    add(record)
    (result,) = propose(vault, ASSISTANT, candidate)
    assert result["classification"] == "ADD", result


def test_a_record_sharing_no_word_is_compared_by_meaning(vault: Vault, add: Adder) -> None:
    add("I work as a nurse in Dundee.")
    (result,) = propose(vault, ASSISTANT, "My job: caring for patients at a Scottish hospital.")
    assert result["evidence"]["compared"] == 1 and result["evidence"]["cosine"] is not None, result


def test_records_found_by_meaning_are_only_those_the_caller_may_see(vault: Vault, add: Adder) -> None:
    add("I work as a nurse in Dundee.")  # local_only: invisible to REMOTE
    (result,) = propose(vault, REMOTE, "My job: caring for patients at a Scottish hospital.")
    assert result["evidence"]["compared"] == 0, result


def test_no_longer_is_archive_and_approval_archives_the_target(vault: Vault, add: Adder) -> None:
    target = add("I play tennis on Sunday mornings.", domain="sport")
    other = add("I watch tennis on television at night.", domain="sport")
    (result,) = propose(vault, ASSISTANT, "I no longer play tennis on Sundays.", conversation_ref="chat:42")
    assert (result["classification"], result["outcome"], result["target_id"]) == ("ARCHIVE", "staged", target)
    vault.approve(OWNER, result["proposal_id"])
    archived = vault.get(OWNER, target)["memory"]
    assert archived["status"] == "archived" and "chat:42" in archived["archived_reason"]
    assert vault.get(OWNER, other)["memory"]["status"] == "current"
    assert count(vault, "memories") == 2  # the ending itself is not stored


def test_an_ending_that_says_what_replaces_it_is_supersede(vault: Vault, add: Adder) -> None:
    target = add("I use Vim for editing code.")
    (result,) = propose(vault, ASSISTANT, "I stopped using Vim for editing code, I switched to Helix instead.")
    assert (result["classification"], result["target_id"]) == ("SUPERSEDE", target)


def test_unrelated_is_add(vault: Vault, add: Adder) -> None:
    add("My sister Ylva lives in Bergen.", domain="family")
    add("The garden budget is 4000 kronor.", domain="garden")
    results = propose(vault, ASSISTANT, "My brother Arvid lives in Bergen.", "I prefer jazz while working.")
    assert [(r["classification"], r["target_id"], r["outcome"]) for r in results] == [("ADD", None, "staged")] * 2
    assert len(vault.proposals(OWNER)) == 2


def test_an_empty_store_adds_and_a_candidate_sees_the_one_before_it(vault: Vault) -> None:
    automatic(vault)
    vault.add(
        OWNER, Draft.of(statement="The kitchen has a gas stove.", domain="home")
    )  # automatic mode: existing domains
    first, again = propose(
        vault,
        ASSISTANT,
        {"statement": "The cabin's wifi router is in the attic.", "domain": "home"},
        {"statement": "The wifi router of the cabin is in the attic.", "domain": "home"},
    )
    assert (first["classification"], first["outcome"]) == ("ADD", "added") and first["id"]
    assert (again["classification"], again["outcome"], again["target_id"]) == ("NO_CHANGE", "skipped", first["id"])


# -- the gate -------------------------------------------------------------------------------------------


def test_secrets_and_chatter_are_rejected_without_echo(
    vault: Vault, add: Adder, caplog: pytest.LogCaptureFixture
) -> None:
    add("The gate code of the Lindqvist garden changes every spring.")
    caplog.set_level(logging.DEBUG)
    before = dump(vault)
    results = propose(
        vault,
        ASSISTANT,
        f"The Lindqvist garden gate password is {SECRET}",
        {"statement": "The garden shed is green.", "evidence": f"token={SECRET}"},
        "ok thanks",
        "The garden hose is 25 metres long.",
    )
    assert [r["outcome"] for r in results] == ["rejected", "rejected", "rejected", "staged"]
    for refused in results[:3]:
        assert refused["classification"] is None and refused["target_id"] is None and refused["evidence"] is None
        assert refused["reason"].startswith("refused")
    assert SECRET not in repr(results) and SECRET not in caplog.text
    after = dump(vault)
    assert SECRET not in repr(after)
    assert after["memories"] == before["memories"] and len(after["proposals"]) == 1


# -- access: compared only with what the caller may see -----------------------------------------------------


def test_a_remote_caller_never_gets_a_local_only_target(vault: Vault, add: Adder) -> None:
    hidden = [
        add("The garden budget is 4000 kronor.", domain="garden"),
        add("I play tennis on Sunday mornings.", domain="sport"),
        add("The backup drive is kept in the hall cupboard.", domain="home"),
    ]
    results = propose(
        vault,
        REMOTE,
        "The garden budget is 4000 kronor.",
        "The garden budget is 5500 kronor.",
        "I no longer play tennis on Sundays.",
        "The backup drive is stored in the hall cupboard.",
    )
    for result in results:
        assert result["classification"] == "ADD" and result["target_id"] is None, result
        assert result["evidence"]["compared"] == 0
    assert not any(memory_id in repr(results) for memory_id in hidden)


HIDDEN_STATEMENTS = sorted({record for record, _ in DUPLICATES + CONFLICTS + ENDINGS})
ALL_CANDIDATES = sorted({c for _, c in DUPLICATES + CONFLICTS + ENDINGS + DISTINCT} | set(HIDDEN_STATEMENTS))


@pytest.fixture(scope="module")
def half_hidden(module_vault: Vault) -> tuple[Vault, set[str], set[str]]:
    """Every record of the pairs twice: local_only, and reworded (a suffix) as remote_allowed."""
    hidden, shared = set(), set()
    for statement in HIDDEN_STATEMENTS:
        hidden.add(module_vault.add(OWNER, Draft.of(statement=statement, domain="pairs"))["id"])
        again = module_vault.add(OWNER, Draft.of(statement=f"{statement} (shared copy)", access_scope="remote_allowed"))
        shared.add(again["id"])
    return module_vault, hidden, shared


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(candidate=st.sampled_from(ALL_CANDIDATES), caller=st.sampled_from([REMOTE, WORKSPACE_A]))
def test_no_pass_of_a_remote_caller_touches_or_names_a_hidden_record(
    half_hidden: tuple[Vault, set[str], set[str]], candidate: str, caller: Caller
) -> None:
    vault, hidden, shared = half_hidden
    (result,) = propose(vault, caller, candidate)
    assert result["target_id"] is None or result["target_id"] in shared
    assert not any(memory_id in repr(result) for memory_id in hidden)
    assert {m["revision"] for m in vault.list_memories(OWNER, ListRequest.of(domain="pairs", limit=200))["items"]} == {
        1
    }


def test_a_remote_caller_is_compared_with_what_it_may_see(vault: Vault, add: Adder) -> None:
    add("The garden budget is 4000 kronor.", domain="garden")  # local_only: invisible to REMOTE
    shared = add("The garden budget is 4200 kronor.", domain="garden", access_scope="remote_allowed")
    (result,) = propose(vault, REMOTE, "The garden budget is 4000 kronor.")
    assert (result["classification"], result["target_id"]) == ("SUPERSEDE", shared)
    assert result["evidence"]["compared"] == 1


def test_a_workspace_caller_does_not_see_another_workspace(vault: Vault, add: Adder) -> None:
    staged = vault.add(WORKSPACE_A, Draft.of(statement="The team retro is on Fridays at 14:00.", domain="team"))
    vault.approve(OWNER, staged["proposal_id"])
    other = Caller(principal="team-bot-b", surface=WORKSPACE_A.surface, workspace_id="ws-beta")
    (mine,) = propose(vault, WORKSPACE_A, "The team retro is on Fridays at 15:00.")
    (theirs,) = propose(vault, other, "The team retro is on Fridays at 15:00.")
    assert mine["classification"] == "SUPERSEDE" and theirs["classification"] == "ADD"
    assert theirs["target_id"] is None


# -- write modes --------------------------------------------------------------------------------------------


def _mixed(add: Adder) -> tuple[list[str], dict[str, str]]:
    ids = {
        "same": add("The office is on the third floor.", domain="work"),
        "conflict": add("Choir practice is on Thursdays.", domain="music"),
        "ending": add("I have a gym membership at FitZone.", domain="sport"),
    }
    candidates = [
        "The office is on the third floor.",
        "Choir practice is on Wednesdays.",
        "I cancelled the FitZone gym membership.",
        {"statement": "The office has a bike room in the basement.", "domain": "work"},
    ]
    return candidates, ids  # type: ignore[return-value]


def test_review_mode_stages_every_change(vault: Vault, add: Adder) -> None:
    candidates, ids = _mixed(add)
    results = propose(vault, ASSISTANT, *candidates)
    assert [(r["classification"], r["outcome"]) for r in results] == [
        ("NO_CHANGE", "skipped"),
        ("SUPERSEDE", "staged"),
        ("ARCHIVE", "staged"),
        ("ADD", "staged"),
    ]
    assert [r["target_id"] for r in results] == [ids["same"], ids["conflict"], ids["ending"], None]
    assert all(r["proposal_id"] for r in results[1:]) and results[0]["proposal_id"] is None
    assert sorted(p["kind"] for p in vault.proposals(OWNER)) == ["add", "archive", "correct"]
    assert count(vault, "memories") == 3


def test_automatic_mode_commits_adds_and_corrections_but_archives_wait(vault: Vault, add: Adder) -> None:
    """Contract revision 3: a correction inside the approved scope commits (the old version stays as
    history); the pass's ARCHIVE is a judgement and always waits for the person."""
    candidates, ids = _mixed(add)
    automatic(vault)
    results = propose(vault, ASSISTANT, *candidates)
    assert [r["outcome"] for r in results] == ["skipped", "added", "staged", "added"]
    assert vault.get(OWNER, ids["conflict"])["memory"]["superseded_by_id"] == results[1]["id"]
    assert results[3]["id"] and vault.get(OWNER, results[3]["id"])["memory"]["domain"] == "work"


def test_the_persons_own_pass_writes_directly(vault: Vault, add: Adder) -> None:
    candidates, ids = _mixed(add)
    results = propose(vault, OWNER, *candidates)
    assert [r["outcome"] for r in results] == ["skipped", "added", "archived", "added"]
    assert vault.get(OWNER, ids["conflict"])["memory"]["superseded_by_id"] == results[1]["id"]
    assert vault.get(OWNER, ids["ending"])["memory"]["status"] == "archived"
    assert vault.proposals(OWNER) == []


def test_retrieval_only_refuses_the_whole_call_and_changes_nothing(vault: Vault, add: Adder) -> None:
    candidates, _ = _mixed(add)
    vault.set_setting(OWNER, "write_mode", "retrieval-only")
    before = dump(vault)
    with pytest.raises(ReadOnlyMode):
        vault.propose(
            ASSISTANT, ProposeRequest.of(candidates=[{"statement": c} if isinstance(c, str) else c for c in candidates])
        )
    assert dump(vault) == before


def test_the_kill_switch_stops_remote_passes(vault: Vault) -> None:
    vault.set_kill_switch(OWNER, "on")
    with pytest.raises(KillSwitchEngaged):
        vault.propose(REMOTE, ProposeRequest.of(candidates=[{"statement": "The garden hose is 25 metres long."}]))


# -- bad input changes nothing ------------------------------------------------------------------------------

GOOD = {"statement": "The garden hose is 25 metres long.", "domain": "garden"}


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({}, InvalidArgument),
        ({"candidates": []}, InvalidArgument),
        ({"candidates": GOOD}, InvalidArgument),
        ({"candidates": [GOOD] * 51}, InvalidArgument),
        ({"candidates": [GOOD, "The shed is green."]}, InvalidArgument),
        ({"candidates": [GOOD, {"statement": "The shed is green.", "colour": "green"}]}, InvalidArgument),
        ({"candidates": [GOOD, {"statement": "The shed is green.", "type": "GOSSIP"}]}, InvalidArgument),
        ({"candidates": [GOOD, {"statement": "  "}]}, InvalidArgument),
        ({"candidates": [GOOD], "conversation_ref": "line one\nline two"}, InvalidArgument),
        ({"candidates": [GOOD], "conversation_ref": "x" * 201}, InvalidArgument),
        ({"candidates": [GOOD], "conversation_ref": f"chat?token={SECRET}"}, InvalidArgument),
        ({"candidates": [GOOD], "since": "yesterday"}, InvalidArgument),
        ({"candidates": [GOOD, {**GOOD, "links": [{"type": "relates_to", "target_id": "m000000000000"}]}]}, NotFound),
    ],
)
def test_bad_input_refuses_the_whole_call(vault: Vault, add: Adder, args: dict[str, Any], error: type) -> None:
    add("The garden shed is red.", domain="garden")
    before = dump(vault)
    with pytest.raises(error) as raised:
        vault.propose(ASSISTANT, ProposeRequest.of(**args))
    assert SECRET not in str(raised.value)
    assert dump(vault) == before


def test_a_remote_caller_may_not_propose_local_only_records(vault: Vault) -> None:
    before = dump(vault)
    with pytest.raises(Forbidden, match=r"candidates\[1\]"):
        vault.propose(REMOTE, ProposeRequest.of(candidates=[GOOD, {**GOOD, "access_scope": "local_only"}]))
    assert dump(vault) == before


def test_a_link_to_a_record_the_caller_may_not_see_is_not_found(vault: Vault, add: Adder) -> None:
    hidden = add("The garden shed is red.", domain="garden")
    before = dump(vault)
    with pytest.raises(NotFound):
        vault.propose(
            REMOTE, ProposeRequest.of(candidates=[{**GOOD, "links": [{"type": "relates_to", "target_id": hidden}]}])
        )
    assert dump(vault) == before
