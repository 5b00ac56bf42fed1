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


@pytest.mark.parametrize("embeddings", ["local", "off"])
@pytest.mark.parametrize(
    ("known", "said"),
    [
        ("I prefer black coffee over green tea.", "I prefer green tea over black coffee."),  # turned round
        ("Project Heron is in alpha now.", "Project Heron is in beta now."),  # a new value
        ("The team stand-up is at 9:30 on Mondays.", "The team stand-up is at 9:30 on Mondays, in the small room."),
    ],
)
def test_a_contradiction_or_added_detail_is_never_dropped_as_a_duplicate(
    vault: Vault, add: Adder, embeddings: str, known: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Contract revision 4: only a statement that says the same thing is a duplicate; the new one is
    kept (staged in review mode) and `memory_propose` calls it a correction of the record."""
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", embeddings)
    target = add(known, domain="work")
    answer = vault.add(ASSISTANT, Draft.of(statement=said, domain="work"))
    assert answer["outcome"] == "staged" and answer.get("duplicate_of") is None
    (proposed,) = vault.propose(ASSISTANT, ProposeRequest.of(candidates=[{"statement": said}]))["results"]
    assert proposed["classification"] == "SUPERSEDE" and proposed["target_id"] == target
