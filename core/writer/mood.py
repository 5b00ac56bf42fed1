"""Passing moods ("so tired and grumpy today", "boah, mega grantig heute Abend"): kept out of memory.

Judged by an n-gram head (ngram_head.py) trained on the tuning parts of tests/writer_eval by
tests/writer_eval/train_heads.py; without a usable head the chatter rule in normalize.py still applies.
A statement that says it holds for longer than a moment (every…, always, this year) is no passing
mood whatever the head says: the head leans on words of time ("night", "this month"), which durable
statements use too ("The night bus runs hourly after midnight").
"""

from __future__ import annotations

from memvault.core.writer.ngram_head import NgramHead
from memvault.core.writer.secret_text import fold
from memvault.core.writer.word_families import WordFamilies

MOOD_HEAD = NgramHead("mood", "b8f56951c84e00ed5888eddc75c203e410b42a47a23dd23d9820df0953408b77")
LASTING = WordFamilies(
    {
        "lasting": r"every|each|hourly|daily|weekly|monthly|yearly|always|usually|whenever|this (?:month|year|season)"
        r"|jede[nrs]?|stündlich|täglich|wöchentlich|monatlich|immer|meistens|diesen monat|dieses jahr"
        r"|chaque|tous les|toutes les|toujours|quotidien\w*|ce mois-ci|cette année"
        r"|cada|todos los|todas las|siempre|diario|este mes|este año"
    }
)


def is_passing_mood(text: str) -> bool:
    folded = fold(text)  # full-width or look-alike letters read as what they show
    return MOOD_HEAD.says(folded) and not LASTING.found(folded)
