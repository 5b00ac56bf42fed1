"""memory_add and memory_propose share one near-duplicate judgement (issue 11)."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, Adder, count

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.requests import ProposeRequest


@pytest.mark.parametrize("embeddings", ["local", "off"])
def test_an_assistants_paraphrase_through_add_is_a_duplicate(
    vault: Vault, add: Adder, embeddings: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", embeddings)
    target = add("The team stand-up is at 9:15 on weekdays.", domain="work")
    before = count(vault, "memories"), count(vault, "proposals")
    answer = vault.add(ASSISTANT, Draft.of(statement="Team stand-up happens at 9:15 every weekday.", domain="work"))
    assert answer["outcome"] == "duplicate" and answer["duplicate_of"] == target
    (proposed,) = vault.propose(
        ASSISTANT, ProposeRequest.of(candidates=[{"statement": "Team stand-up happens at 9:15 every weekday."}])
    )["results"]
    assert proposed["classification"] == "NO_CHANGE" and proposed["target_id"] == target
    assert (count(vault, "memories"), count(vault, "proposals")) == before


def test_a_new_value_through_add_is_not_a_duplicate(vault: Vault, add: Adder) -> None:
    add("The team stand-up is at 9:15 on weekdays.", domain="work")
    answer = vault.add(ASSISTANT, Draft.of(statement="The team stand-up is at 10:00 on weekdays.", domain="work"))
    assert answer["outcome"] == "staged"


def test_the_persons_own_add_is_direct(vault: Vault, add: Adder) -> None:
    add("The team stand-up is at 9:15 on weekdays.", domain="work")
    answer = vault.add(OWNER, Draft.of(statement="Team stand-up happens at 9:15 every weekday.", domain="work"))
    assert answer["outcome"] == "added"
