"""Candidate memories from the person's own turns, in English, German, French and Spanish.

A turn is cut into sentences (fenced code dropped; a long pasted turn skipped). A sentence is a
candidate when, after its lead-in is dropped ("quick update:", "remind me that", "erinnere mich
bitte:", "rappelle-moi que", "recuérdame que"), it states something of a kind worth keeping
(cues.py): a decision, a plan or appointment with its time, a limit, a preference, an open
question, a project's state, a fact about the person's life or work, or a change of one ("I no
longer work at X; now I work at Y", "we deploy to Fly.io from now on, not Heroku"). Statements
need not start with "I": "Flight to Lisbon is on June 9", "Team rule: no deploys on Fridays",
"Budget is 18,000 max" are candidates. Questions, requests to the assistant, hypotheticals and code
are not; a question or request said in the same sentence as a statement is cut off it ("I'm
vegetarian, so something for tonight?"), and a request that states a rule for good ("never run the
e2e suite locally", "antworte mir immer auf Deutsch") is one.

A candidate is *weak* when it hedges, depends on a condition or is long: weak candidates are
committed only when asked. Secrets, chatter and passing moods are the writer gate's to refuse
(decide.py); a change is the decide step's to turn into a correction. An assistant reading the
conversation does better through `memory_propose`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memvault.core.importers import cues, kinds
from memvault.core.importers.conversation import Conversation, Turn
from memvault.core.importers.said_changes import Change, change_in
from memvault.core.vocabulary.model import MemoryType

MIN_WORDS, MAX_WORDS, WEAK_WORDS = 2, 45, 28
MAX_TURN_CHARS = 6000  # longer turns are pasted material, not the person speaking
MAX_LEAD_INS = 3
CONTEXT_WORDS = 20  # a sentence pointing back ("take it") is kept with the one before, if this short

_ABBREVIATIONS = "".join(
    rf"(?<!\b{re.escape(a)}\.)"
    for a in ("Dr", "Mr", "Ms", "St", "vs", "ca", "Nr", "Sr", "Mrs", "Mme", "Sra", "etc", "bzw", "usw")
)
_ABBREVIATIONS += "".join(rf"(?<!\b{re.escape(a)}\.)" for a in ("a.m", "p.m", "e.g", "i.e", "z.B"))
_DE_MONTHS = "Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"
# Sentences end at . ! ? before a new word, except after a title ("Dr.") or in a German date ("14. März").
_SENTENCE = re.compile(rf"(?<=[.!?]){_ABBREVIATIONS}(?!(?<=\d\.)\s+(?:{_DE_MONTHS})\b)\s+(?=[\w\"'(¿¡])|\n+")
_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_INLINE = re.compile(r"`([^`\n]{1,40})`")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_CLAUSE = re.compile(r"\s*(?:,|;|\s[\u2013\u2014-]\s)\s*")
_POINTS_BACK = re.compile(r"\b(?:it|that|them|there|then|es|das|dort|dann|ca|cela|eso|ello|alli)\b")
_QUESTION_END = re.compile(r"\?[\s\W]*$")


@dataclass(frozen=True)
class Extracted:
    statement: str
    type: MemoryType
    weak: bool
    why_weak: str | None
    turn: Turn
    conversation: Conversation
    change: Change | None = None  # said as a change: what it replaces (decide.py makes it a correction)


@dataclass(frozen=True)
class _Sentence:
    text: str  # the person's words, lead-ins and trailing questions or requests cut off
    folded: str
    remember: bool  # the person asked for it to be remembered ("remind me: ...")


def sentences(text: str) -> list[str]:
    text = _INLINE.sub(r"\1", _FENCE.sub(" ", text))
    return [part.strip() for part in _SENTENCE.split(text) if part and part.strip()]


def _strip_lead_ins(text: str) -> tuple[str, bool]:
    remember = False
    for _ in range(MAX_LEAD_INS):
        folded = cues.fold(text)
        found = cues.REMEMBER.match(folded) or cues.LEAD_IN.match(folded)
        if found is None or found.end() >= len(text):
            break
        remember = remember or found.re is cues.REMEMBER
        text = text[found.end() :]
    return text, remember


def _statement_part(text: str) -> str | None:
    """The sentence without a trailing question or request ("I'm vegetarian, so what can I cook?");
    None when nothing of it is a statement."""
    folded = cues.fold(text)
    if cues.REQUEST.match(folded) or cues.QUESTION_START.match(folded) or cues.HYPOTHETICAL.match(folded):
        if cues.RULE.search(folded) and not _QUESTION_END.search(text):
            return text  # a standing instruction: "never run the e2e suite locally"
        return None
    if not _QUESTION_END.search(text) and not text.startswith("¿"):
        return text
    cuts = list(_CLAUSE.finditer(text))
    return text[: cuts[-1].start()] if cuts else None


def _clauses(text: str) -> list[str]:
    """A request said with a statement ("please stop suggesting X, I switched to Y"): its other clauses."""
    return [c for c in _CLAUSE.split(text)[1:] if cues.FIRST_PERSON.match(cues.fold(c))]


def _prepared(raw: str) -> list[_Sentence]:
    text = _BULLET.sub("", raw).strip().strip('"')
    text, remember = _strip_lead_ins(text)
    kept = _statement_part(text)
    if kept is None:
        folded = cues.fold(text)
        if not cues.REQUEST.match(folded):
            return []
        return [_Sentence(c, cues.fold(c), False) for c in _clauses(text) if _QUESTION_END.search(c) is None]
    kept = kept.strip()
    return [_Sentence(kept, cues.fold(kept), remember)] if kept else []


def _change_type(folded: str) -> MemoryType:
    if kinds.DECISION.search(folded):
        return MemoryType.DECISION
    if cues.RULE_SCOPE.search(folded) and not cues.ANSWER_STYLE.search(folded):
        return MemoryType.CONSTRAINT
    if kinds.PREFERENCE.search(folded):
        return MemoryType.PREFERENCE
    return MemoryType.FACT


def _about_the_person(folded: str) -> bool:
    return bool(cues.FIRST_PERSON.search(folded) or cues.RULE.search(folded))


_NAME = re.compile(r"(?<=\s)[A-Z][\w-]*[a-z][\w-]*")
_VAGUE_START = re.compile(r"^(?:it|that|this|es|das|ca|cela|eso|esto)\b")
APPROACH_WORDS = 6  # "it didn't work" is a moment of debugging; "moving the jobs to X didn't fix the leak" is kept


def _timed(folded: str) -> MemoryType | None:
    """A plan or appointment with its time (a goal when it is what the person wants)."""
    if not cues.TIME.search(folded):
        return None
    appointment = kinds.APPOINTMENT.search(folded) is not None
    if cues.RECURRING.search(folded) and not appointment:
        return None  # "every Tuesday": a habit, not a plan
    if kinds.GOAL.search(folded) and not appointment:
        return MemoryType.GOAL
    if appointment or kinds.PLAN.search(folded) or kinds.SOFT_CONSTRAINT.search(folded):
        return MemoryType.NEXT_ACTION  # "the tax return has to be in by July"
    return None


def _approach(sentence: _Sentence) -> MemoryType | None:
    if len(sentence.text.split()) < APPROACH_WORDS or _VAGUE_START.match(sentence.folded):
        return None
    if kinds.FAILED_APPROACH.search(sentence.folded):
        return MemoryType.FAILED_APPROACH
    if kinds.SUCCESSFUL_APPROACH.search(sentence.folded):
        return MemoryType.SUCCESSFUL_APPROACH
    return None


def type_of(sentence: _Sentence) -> MemoryType | None:
    """What kind of memory a sentence states, or None when it states nothing worth keeping (kinds.py
    lists the cues; the first kind that matches, in this order, wins)."""
    about = _about_the_person(sentence.folded)
    found = _said_firmly(sentence.folded, about) or _said_otherwise(sentence, about)
    if found is None and sentence.remember:  # "remind me: ..." with no cue of its own
        return MemoryType.NEXT_ACTION if cues.TIME.search(sentence.folded) else MemoryType.FACT
    return found


def _said_firmly(folded: str, about: bool) -> MemoryType | None:
    """A correction, an open question, a decision, a hard limit, a goal, a plan with its time."""
    if about and kinds.USER_CORRECTION.match(folded):
        return MemoryType.USER_CORRECTION
    if kinds.OPEN_QUESTION.search(folded):
        return MemoryType.OPEN_QUESTION
    if about and kinds.DECISION.search(folded):
        return MemoryType.DECISION
    if kinds.HARD_CONSTRAINT.search(folded):
        return MemoryType.CONSTRAINT
    if kinds.GOAL_NAMED.search(folded):
        return MemoryType.GOAL
    return _timed(folded)


def _said_otherwise(sentence: _Sentence, about: bool) -> MemoryType | None:
    """A preference, an approach that worked or not, a discovery, a habit, a rule, a project, a fact."""
    folded = sentence.folded
    if kinds.PREFERENCE.search(folded) or cues.ADDRESS.search(folded):
        return MemoryType.PREFERENCE
    if cues.ANSWER_STYLE.search(folded) and cues.RULE.search(folded):
        return MemoryType.PREFERENCE  # "always answer in German"
    approach = _approach(sentence)
    if approach is not None:
        return approach
    if kinds.DISCOVERY.search(folded):
        return MemoryType.DISCOVERY
    if about and cues.SCHEDULE.search(folded):
        return MemoryType.FACT  # "our review is always on Fridays": how things are, not a rule
    if about and kinds.HABIT.search(folded):
        return MemoryType.WORKFLOW
    if cues.RULE.search(folded) or kinds.SOFT_CONSTRAINT.search(folded):
        return MemoryType.CONSTRAINT
    if kinds.PROJECT_STATE.search(folded):
        return MemoryType.PROJECT_STATE
    if kinds.PROJECT.search(folded):
        return MemoryType.PROJECT
    if kinds.FACT.search(folded) or (about and cues.RECURRING.search(folded)):
        return MemoryType.FACT
    return None


def _weakness(sentence: _Sentence, kind: MemoryType, words: int) -> str | None:
    if cues.HEDGE.search(sentence.folded):
        return "hedged"
    if kind is MemoryType.CONSTRAINT and not (
        _about_the_person(sentence.folded)
        or kinds.HARD_CONSTRAINT.search(sentence.folded)
        or _NAME.search(sentence.text)
    ):
        return "impersonal"  # "the function must return a list": whose rule, for how long?
    if cues.CONDITION.match(sentence.folded):
        return "conditional"
    if words > WEAK_WORDS:
        return "long"
    return None


def _usable(sentence: _Sentence) -> bool:
    words = len(sentence.text.split())
    return MIN_WORDS <= words <= MAX_WORDS and not cues.CODE.search(sentence.folded)


def _with_context(sentence: _Sentence, before: _Sentence | None) -> _Sentence:
    """A sentence that points back ("still haven't decided whether to take it") with the one before it
    ("I got an offer from X"), when that one is a short statement the person made."""
    if before is None or not _POINTS_BACK.search(sentence.folded):
        return sentence
    if len(before.text.split()) > CONTEXT_WORDS or _QUESTION_END.search(before.text):
        return sentence
    joined = before.text.rstrip(" .!") + ". " + sentence.text
    return _Sentence(joined, cues.fold(joined), sentence.remember or before.remember)


def candidates(conversation: Conversation) -> list[Extracted]:
    found: list[Extracted] = []
    for turn in conversation.user_turns:
        if len(turn.text) > MAX_TURN_CHARS:
            continue
        before: _Sentence | None = None  # the sentence before, when it was a statement but no candidate
        for raw in sentences(turn.text):
            prepared = _prepared(raw)
            for sentence in prepared:
                made = _candidate(sentence, before, turn, conversation)
                found.extend(made)
                before = None if made else sentence
            if not prepared:
                before = None
    return found


def _candidate(
    sentence: _Sentence, before: _Sentence | None, turn: Turn, conversation: Conversation
) -> list[Extracted]:
    if not _usable(sentence):
        return []
    change = change_in(sentence.text)
    kind = _change_type(sentence.folded) if change else type_of(sentence)
    if kind is None:
        return []
    sentence = _with_context(sentence, before) if kind is MemoryType.OPEN_QUESTION else sentence
    text = sentence.text.rstrip(" ,;:")
    statement = text if text[-1] in ".!" else text + "."
    why = _weakness(sentence, kind, len(text.split()))
    statement = statement[0].upper() + statement[1:]
    return [Extracted(statement, kind, why is not None, why, turn, conversation, change)]
