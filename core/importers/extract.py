"""Candidate memories from the person's own turns: conservative, honest heuristics.

Only sentences the person said about themself or their work count, in the first person,
matching one of a few cues per type (stated preferences, decisions, constraints, project
state, open questions, next actions, plain facts about them, changes such as "I switched from
X to Y"). Requests to the assistant, questions to it, code, quotes and long pasted text are
skipped. A candidate is *weak* when it hedges ("maybe", "I think"), depends on a condition, or
is long: the report says so, and weak candidates are committed only when asked. An assistant reading the conversation
does better through `memory_propose`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memvault.core.importers.conversation import Conversation, Turn
from memvault.core.vocabulary.model import MemoryType

MIN_WORDS, MAX_WORDS, WEAK_WORDS = 4, 45, 28
MAX_TURN_CHARS = 6000  # longer turns are pasted material, not the person speaking

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|\n+")
_LEAD = re.compile(r"^(?:also|btw|by the way|oh|and|so|well|ok|okay|fyi|note)[,:]?\s+", re.IGNORECASE)
_CODE = re.compile(r"`|[{};=<>]|\b(?:def|function|import|return|SELECT)\b|^\s*[-*>|#]")
_REQUEST = re.compile(
    r"^(?:can|could|would|will) you\b|^please\b|^(?:write|explain|fix|show|give|tell|help|make|create|list|"
    r"summari[sz]e|translate|generate|rewrite|draft|check|find|compare|suggest)\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(?:maybe|perhaps|probably|i think|i guess|i suppose|might|not sure if|kind of|sort of)\b", re.I)
_CONDITION = re.compile(r"^(?:if|when|unless|whether)\b", re.IGNORECASE)

_CUES: tuple[tuple[MemoryType, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        (
            MemoryType.DECISION,
            r"^(?:i|we)(?:'ve| have)? (?:decided|chose|chosen|picked|settled on|went with|agreed)\b"
            r"|^(?:i|we)(?:'re| are| am|'m) going with\b|^(?:our|my|the) decision\b|^decision:",
        ),
        (
            MemoryType.CONSTRAINT,
            r"^(?:i|we) (?:can't|cannot|can not|must|mustn't|must not|have to|need to keep|am not allowed|"
            r"are not allowed|never|always)\b|^(?:i'm|i am) allergic\b|^(?:my|our|the) (?:budget|deadline|limit)\b",
        ),
        (
            MemoryType.PREFERENCE,
            r"^(?:i|we) (?:really |strongly )?(?:prefer|like|love|hate|dislike|enjoy|don't like|do not like|"
            r"can't stand)\b|^(?:i'd|i would) rather\b|^my favou?rite\b",
        ),
        (
            MemoryType.NEXT_ACTION,
            r"^(?:i|we) (?:need to|have to|will|plan to|'ll)\b.*\b(?:tomorrow|today|tonight|next week|next month|"
            r"this week|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d))|^(?:todo|next step):"
            r"|^(?:my|our|the) next step\b",
        ),
        (
            MemoryType.OPEN_QUESTION,
            r"^(?:i|we) (?:still )?(?:need to (?:figure out|decide|find out)|haven't decided|have not decided)\b"
            r"|^(?:i'm|i am|we're|we are) (?:not sure|unsure|undecided) (?:whether|if|how|which)\b"
            r"|^(?:open question|unresolved):",
        ),
        (
            MemoryType.PROJECT_STATE,
            r"^(?:i'm|i am|we're|we are) (?:working on|building|migrating|rewriting|writing|developing)\b"
            r"|^(?:the|my|our) [\w-]+(?: [\w-]+)? project (?:is|has|was)\b|^we (?:shipped|launched|released)\b",
        ),
        (
            MemoryType.FACT,
            r"^my (?:name|wife|husband|partner|sister|brother|daughter|son|mother|father|dog|cat|team|manager|"
            r"job|company|employer|birthday)\b|^my [\w-]+(?: [\w-]+)? (?:is|are)\b|^i (?:live|work|was born|grew up)\b"
            r"|^i'm (?:a|an) [\w-]+ (?:at|in|for)\b|^i am (?:a|an) [\w-]+ (?:at|in|for)\b"
            r"|^(?:i|we) [\w-]+ .*\b(?:every|each) (?:day|morning|evening|week|weekend|month|year|monday|tuesday|"
            r"wednesday|thursday|friday|saturday|sunday)\b",
        ),
        (  # a change: the writer supersedes the record about what it replaces (core/writer/similarity.py)
            MemoryType.FACT,
            r"^(?:i|we|the|my|our)\b[\w' -]{0,40}? (?:switched|moved|migrated|changed|went) "
            r"(?:[\w'-]+ ){0,4}?from \S.* to \S"
            r"|^(?:i|we)(?:'ve| have)? (?:switched|changed|moved) (?:the|my|our) [\w' -]+ to \S"
            r"|^(?:i|we)(?:'ve| have)? replaced \S.* with \S"
            r"|^(?:i|we)(?:'re| are| am|'m)? no longer\b.*\b(?:now|instead)\b"
            r"|^(?:i|we) (?:now )?[\w-]+ \S.* instead of \S",
        ),
    )
)


@dataclass(frozen=True)
class Extracted:
    statement: str
    type: MemoryType
    weak: bool
    why_weak: str | None
    turn: Turn
    conversation: Conversation


def sentences(text: str) -> list[str]:
    if "```" in text:  # drop fenced code whole
        text = re.sub(r"```.*?(```|$)", " ", text, flags=re.DOTALL)
    return [part.strip() for part in _SENTENCE.split(text) if part and part.strip()]


def _type_of(sentence: str) -> MemoryType | None:
    return next((kind for kind, cue in _CUES if cue.search(sentence)), None)


def _weakness(sentence: str, words: int) -> str | None:
    if _HEDGE.search(sentence):
        return "hedged"
    if _CONDITION.search(sentence):
        return "conditional"
    if words > WEAK_WORDS:
        return "long"
    return None


def candidates(conversation: Conversation) -> list[Extracted]:
    found: list[Extracted] = []
    for turn in conversation.user_turns:
        if len(turn.text) > MAX_TURN_CHARS:
            continue
        for raw in sentences(turn.text):
            sentence = _LEAD.sub("", raw).strip().strip('"')
            words = len(sentence.split())
            if not MIN_WORDS <= words <= MAX_WORDS or sentence.endswith("?") or _CODE.search(sentence):
                continue
            if _REQUEST.search(sentence):
                continue
            kind = _type_of(sentence)
            if kind is None:
                continue
            statement = sentence if sentence[-1] in ".!" else sentence + "."
            why = _weakness(sentence, words)
            found.append(
                Extracted(statement[0].upper() + statement[1:], kind, why is not None, why, turn, conversation)
            )
    return found
