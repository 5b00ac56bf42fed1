"""Sensitive matters are judged by the writer on every write path (contract revision 4): automatic mode
stages them for the person, they stay local_only unless asked, and the answer says why in words."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, Adder, count

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import Sensitivity
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.core.writer import sensitivity

AUTO = "automatic-write-within-approved-scope"
# Fictional, and none of them in tests/writer_eval (the heads were trained there).
SENSITIVE = [
    "I was diagnosed with type 2 diabetes last spring and take metformin with breakfast",
    "Ich gehe jeden Donnerstag zur Psychotherapie wegen meiner Panikattacken",
    "we are two months behind on the rent and the landlord sent a final notice",
    "je suis membre du syndicat CGT et délégué du personnel",
    "mi hija tiene dislexia y el colegio le ha puesto un plan de apoyo",
]
ORDINARY = [
    "The hallway bulb is a warm white LED",
    "I'm reading a history of the 1918 flu in Europe",
    "The Pinecone release train leaves every second Tuesday",
]


@pytest.fixture
def automatic(vault: Vault, add: Adder) -> Vault:
    add("The recycling goes out on Tuesday night", domain="home")
    vault.set_setting(OWNER, "write_mode", AUTO)
    vault.set_setting(OWNER, "auto_write_domains", "*")
    return vault


@pytest.mark.parametrize("statement", SENSITIVE)
def test_the_writer_judges_sensitive_matters_in_four_languages(statement: str) -> None:
    assert sensitivity.judged(statement) is Sensitivity.SENSITIVE


@pytest.mark.parametrize("statement", ORDINARY)
def test_a_sensitive_word_about_something_impersonal_is_not_sensitive(statement: str) -> None:
    assert sensitivity.judged(statement) is not Sensitivity.SENSITIVE


def test_automatic_mode_stages_a_sensitive_add_with_the_reason_in_words(automatic: Vault) -> None:
    before = count(automatic, "memories")
    answer = automatic.add(ASSISTANT, Draft.of(statement=SENSITIVE[0], domain="home", confidence=0.95))
    assert answer["outcome"] == "staged" and answer["reason"].startswith("sensitive (health")
    assert count(automatic, "memories") == before
    (proposal,) = automatic.proposals(OWNER)
    assert proposal["payload"]["draft"]["sensitivity"] == "sensitive"
    assert proposal["payload"]["waits_because"] == answer["reason"]
    record = automatic.get(OWNER, automatic.approve(OWNER, proposal["id"])["id"])["memory"]
    assert (record["sensitivity"], record["access_scope"]) == ("sensitive", "local_only")


def test_automatic_mode_still_commits_an_ordinary_add(automatic: Vault) -> None:
    answer = automatic.add(ASSISTANT, Draft.of(statement=ORDINARY[2], domain="home", confidence=0.95))
    assert answer["outcome"] == "added" and answer["reason"] is None


def test_the_higher_of_the_callers_and_the_writers_value_wins(automatic: Vault) -> None:
    claimed = automatic.add(ASSISTANT, Draft.of(statement=ORDINARY[0], domain="home", sensitivity="sensitive"))
    assert claimed["outcome"] == "staged"
    judged = automatic.add(ASSISTANT, Draft.of(statement=SENSITIVE[2], domain="home", sensitivity="normal"))
    assert judged["outcome"] == "staged" and judged["reason"].startswith("sensitive")


def test_the_persons_own_sensitive_add_is_kept_local_only_and_says_so(vault: Vault) -> None:
    answer = vault.add(OWNER, Draft.of(statement=SENSITIVE[1], domain="health"))
    assert answer["outcome"] == "added" and "kept local_only" in answer["reason"]
    record = vault.get(OWNER, answer["id"])["memory"]
    assert (record["sensitivity"], record["access_scope"]) == ("sensitive", "local_only")
    assert vault.get(OWNER, vault.add(OWNER, Draft.of(statement=ORDINARY[1]))["id"])["memory"]["sensitivity"] != (
        "sensitive"
    )


def test_an_explicit_scope_is_kept_for_a_sensitive_record(vault: Vault) -> None:
    answer = vault.add(OWNER, Draft.of(statement=SENSITIVE[3], domain="work", access_scope="remote_allowed"))
    assert vault.get(OWNER, answer["id"])["memory"]["access_scope"] == "remote_allowed"


def test_a_remote_callers_sensitive_add_waits_and_is_then_hidden_from_it(automatic: Vault) -> None:
    answer = automatic.add(REMOTE, Draft.of(statement=SENSITIVE[4], domain="home", confidence=0.95))
    assert answer["outcome"] == "staged"
    approved = automatic.approve(OWNER, answer["proposal_id"])
    assert automatic.get(OWNER, approved["id"])["memory"]["access_scope"] == "local_only"
    assert approved["id"] not in {item["id"] for item in automatic.list_memories(REMOTE)["items"]}


def test_a_correction_that_makes_a_record_sensitive_waits(automatic: Vault, add: Adder) -> None:
    target = add("Mondays I am at the office in Leith", domain="home")
    answer = automatic.correct(
        ASSISTANT, CorrectRequest.of(id=target, statement="Mondays I am at the oncology day unit for chemotherapy")
    )
    assert answer["outcome"] == "staged"
    assert automatic.get(OWNER, target)["memory"]["status"] == "current"
