"""The duplicate rule and the chatter filter.

Two statements are duplicates when they are equal after Unicode NFKC, case
folding, collapsing white space and dropping trailing punctuation (the contract's
rule), in the same domain and type.
"""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_TRAILING_PUNCTUATION = re.compile(r"[\s.,;:!?…。、！？]+$")  # noqa: RUF001 - CJK punctuation too
_WORD = re.compile(r"\w+", re.UNICODE)

# Words that carry no durable content on their own: a statement made only of these is chatter
# ("ok thanks", "sounds good to me", "great, thanks a lot", "that works for me").
_CHATTER = frozenset(
    """
    ok okay k sure yes yeah yep no nope thanks thank you thx ty hi hello hey bye goodbye lol haha cool great nice
    fine good awesome wow hmm um uh please sorry got it alright right indeed that this is the a an
    test testing asdf foo bar baz
    sounds sound looks look seems seem works work makes make sense to me for so much lot very really just all
    perfect exactly agreed agree absolutely definitely totally brilliant excellent fantastic amazing wonderful
    lovely super neat cheers welcome worries problem no-problem np appreciate appreciated glad helpful
    morning evening afternoon night day everyone there again too as well im am i we thats its youre
    plan deal done noted understood yup nah of course
    """.split()
)
# A passing mood, said of now: "I'm feeling really grumpy today", "so tired right now".
_MOOD = re.compile(
    r"^(?:i'?m|i am|i feel|i'?m feeling|i am feeling|feeling|i was|i've been|i have been|been|so|today i'?m)"
    r"(?:\s+(?:so|really|very|a bit|a little|kind of|pretty|quite|super|extremely|totally|just|kinda|rather))*"
    r"\s+(?:grumpy|tired|exhausted|sleepy|happy|sad|upset|angry|annoyed|frustrated|stressed|bored|excited|"
    r"great|good|fine|okay|ok|bad|awful|terrible|down|low|meh|cranky|moody|anxious|nervous|lazy|hungry|"
    r"sick of (?:it|this)|fed up|overwhelmed|cheerful|grateful|thankful|blessed|relieved|motivated|productive)"
    r"(?:\s+(?:today|now|right now|at the moment|this morning|this afternoon|this evening|tonight|lately|"
    r"these days|this week))?$"
)


def normalize_statement(statement: str) -> str:
    text = unicodedata.normalize("NFKC", statement).casefold()
    text = _SPACE.sub(" ", text).strip()
    return _TRAILING_PUNCTUATION.sub("", text)


def is_chatter(statement: str) -> bool:
    """True for statements with nothing durable in them: empty, filler only, a passing mood, or no words."""
    text = normalize_statement(statement).replace("\u2019", "'")
    words = _WORD.findall(text.replace("'", ""))
    if not words:
        return True
    return all(word in _CHATTER for word in words) or _MOOD.match(text) is not None
