"""Passing moods are refused on every write path, in several languages; durable statements are not."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, count

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.writer import mood
from memvault.core.writer.gate import rejection
from memvault.core.writer.ngram_head import NgramHead

MOODS = [
    "Feeling really tired and grumpy today",  # a new user's own try, stored before the head
    "ugh, so annoyed right now",
    "boah, mega grantig heute Abend",
    "je suis crevé ce soir",
]
DURABLE = [
    "I was tired of Heroku, so we moved the Ostrava app to Fly.io.",
    "I get anxious before flights, so I prefer aisle seats.",
    "The kitchen renovation starts in March with the Oakfield builders.",
    "Mein Bruder wohnt in Graz.",
    # Said of today, but an event, not a feeling.
    "we shipped the beta today",
    # Text the head knows no n-gram of scores its learned constant, below the cut: no mood.
    "東京の大学で日本語を勉強しました",
    "bank account",
]


@pytest.mark.parametrize("text", MOODS)
def test_a_passing_mood_is_refused_by_the_gate(text: str) -> None:
    assert rejection(text) == "refused: a passing mood, not a durable fact (moods are not remembered)"


@pytest.mark.parametrize("text", DURABLE)
def test_a_durable_statement_is_not_a_mood(text: str) -> None:
    assert rejection(text) is None


def test_no_write_path_stores_a_mood(vault: Vault) -> None:
    before = count(vault, "memories"), count(vault, "proposals")
    for caller in (OWNER, ASSISTANT):
        answer = vault.add(caller, Draft.of(statement=MOODS[0], domain="life"))
        assert answer["outcome"] == "rejected" and "passing mood" in answer["reason"]
    assert (count(vault, "memories"), count(vault, "proposals")) == before


def test_a_head_that_does_not_match_its_pin_is_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    assert mood.MOOD_HEAD.says(MOODS[1])
    monkeypatch.setattr(mood, "MOOD_HEAD", NgramHead("mood", "0" * 64))
    assert mood.MOOD_HEAD.score(MOODS[0]) is None and rejection(MOODS[1]) is None
