"""Chatter and passing moods are refused by the writer gate, whatever the write mode (issue 11)."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.requests import ProposeRequest
from memvault.core.writer.normalize import is_chatter

CHATTER = [
    "I'm feeling really grumpy today",
    "sounds good to me",
    "great, thanks a lot",
    "Great, thanks a lot!",
    "That works for me.",
    "Thank you so much!",
    "you're welcome",
    "I am so tired right now",
    "feeling a bit down this morning",
    "Good morning everyone",
    "ok, noted",
    "perfect, that makes sense",
]
DURABLE = [
    "I prefer green tea in the morning",
    "I am allergic to peanuts",
    "I feel strongly that the ledger should use PostgreSQL",
    "Sounds good, book the 7:40 train to Uppsala",
    "Maren is tired of the long commute",
    "I'm a nurse at the Northfield hospital",
    "I'm happy to take calls after 10:00 on Fridays",
    "Great Ormond Street is where Arvid had his surgery",
]


@pytest.mark.parametrize("statement", CHATTER)
def test_chatter_is_chatter(statement: str) -> None:
    assert is_chatter(statement)


@pytest.mark.parametrize("statement", DURABLE)
def test_durable_statements_are_not_chatter(statement: str) -> None:
    assert not is_chatter(statement)


@pytest.mark.parametrize("statement", CHATTER[:3])
def test_automatic_mode_refuses_chatter_and_stores_nothing(vault: Vault, statement: str) -> None:
    vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
    before = dump(vault)
    answer = vault.add(ASSISTANT, Draft.of(statement=statement))
    assert answer["outcome"] == "rejected" and "chatter" in answer["reason"]
    results = vault.propose(ASSISTANT, ProposeRequest.of(candidates=[{"statement": statement}]))["results"]
    assert results[0]["outcome"] == "rejected"
    assert dump(vault) == before
