"""How two statements relate: the same, the same subject with a different value, or an ending.

Pure functions over text (and an optional embedding cosine); no store, no model. The
writer pass (`propose.py`) calls `relate(candidate, record, cosine)` for every visible
record near a candidate. docs/writer.md explains the rules and where the thresholds come
from (tests/core/propose_pairs.py).

Statements are reduced to *terms*: folded words without function words, lightly
stemmed; two terms are equal when their stems are, or when the shorter (at least five
letters) begins the longer ("postgres" / "postgresql"). *Values* are the terms that
carry a slot's content: numbers, dates and times, names (capitalised inside a
sentence), and a closed list of value words (weekdays, months, colours, ordinals,
directions...). A difference of values on both sides, or of polarity, is a *hard
difference*: it blocks a near duplicate and makes a conflict.

A statement said as a change ("switched from X to Y", "moved from X to Y", "replaced X with Y",
"Y instead of X", "changed X to Y") names what it replaces: it replaces a record that holds X
and is about the same thing (`_change_match`).

Two statements are never the same when the same words say another thing: a comparison turned
round ("black coffee over green tea" / "green tea over black coffee") conflicts (`_reversed`);
and a candidate that says all a record says and more adds detail: it supersedes the record
rather than being dropped as a duplicate of it (`_adds_detail`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from memvault.core.retrieval.query import stem
from memvault.core.runtime.text_caches import keeps_text

# Near duplicate: the same meaning. With embeddings: cosine >= NEAR_COSINE and term overlap
# (Dice) >= NEAR_DICE_WITH_COSINE, or very high overlap with a good cosine; without: overlap alone.
NEAR_COSINE = 0.895  # 0.90 left a labelled pair at 0.9012 (fp32) / 0.8993 (int8 compute) on the edge
NEAR_DICE_WITH_COSINE = 0.5
HIGH_DICE = 0.85
HIGH_DICE_COSINE = 0.80
NEAR_DICE_LEXICAL = 0.80
# No near duplicate is less similar in meaning than this: a search by meaning above it finds them all.
SAME_COSINE_FLOOR = min(NEAR_COSINE, HIGH_DICE_COSINE)
# Conflicts and endings must still be about the same thing: below this cosine they are not.
SUBJECT_COSINE = 0.50
NEGATION_DICE = 0.75  # "I eat meat" / "I do not eat meat": the rest nearly equal
VALUE_REST_DICE = 0.70  # no verb found: values differ and the rest is nearly equal
MAX_SWAP = 3  # a conflict replaces a few words of the predicate, not the whole of it
ENDING_CONTAINMENT = 0.6  # share of an ending's own terms the ended record holds
CHANGE_REST = 0.5  # share of the rest of a record (beyond what a change replaces) the change must mention

_TOKEN = re.compile(r"\d+(?:[:.\-/]\d+)*(?:am|pm)?|\w+", re.UNICODE)
_CONTRACTIONS = (
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"'(?:s|m|re|ve|ll|d)\b"), ""),
)

_FUNCTION_WORDS = frozenset(
    """
    a an the i me my mine we our ours us you your yours he him his she her hers it its they them their theirs
    this that these those there here to of in on at for with by from into onto as and or but so if than then
    do does did done doing be is are was were am been being has have had having will would shall should can
    could might must just also very really some any all each every per via about around over under while
    which who whom whose what when where why how again still always usually often
    """.split()
)
_NEGATIONS = frozenset({"not", "no", "never", "nor", "none", "nothing", "nobody", "neither"})
_COPULAS = frozenset({"is", "are", "was", "were", "am", "be", "been", "has", "have", "had"})
# Verbs that open a predicate (base forms; inflections are matched by `_verb_base`).
_VERBS = frozenset(
    """
    use prefer like love hate enjoy dislike want need live work go drive take make start begin finish run play
    eat drink own keep call name set cost meet plan decide choose move switch learn study teach read write watch
    listen visit buy sell pay rent wear sleep wake cook walk swim sing speak deploy release ship host store
    happen open close leave stay attend join lead manage report depend belong contain include mean require
    allow follow sit train practise practice volunteer subscribe support avoid grow plant water build fix test
    review schedule book travel commute cycle bike fly celebrate drop give get send receive prepare teach
    """.split()
)
_ENDING = re.compile(
    r"\b(?:no\s+longer|not\s+\w+(?:\s+\w+){0,6}\s+any\s*more|any\s*more|stopped|stop|quit|quitted|"
    r"cancel(?:l)?ed|discontinued|ended|is\s+over|was\s+over|gave\s+up|given\s+up|called\s+off|"
    r"dropped\s+out|abandoned|terminated|unsubscribed|no\s+more)\b"
)
_REPLACEMENT = re.compile(r"\b(?:instead|switched|switching|replaced|in\s+favou?r\s+of|now\s+\w+|rather)\b")
_CHANGE_VERB = r"(?:switch(?:ed|ing)?|mov(?:e|ed|ing)|migrat(?:e|ed|ing)|chang(?:e|ed|ing)|went|gone|convert(?:ed)?)"
_CLAUSE_END = r"(?=[,;.!?]|\s+(?:and|but|because|since|after|as)\s|$)"
# (what is replaced, what holds now) said as a change; matched on the folded text
_CHANGES = (
    re.compile(
        rf"\b{_CHANGE_VERB}\b(?P<slot>(?:\s+[\w'-]+){{0,4}}?)\s+from\s+(?P<old>[^,;.!?]+?)\s+(?:over\s+)?to\s+(?P<new>.+?){_CLAUSE_END}"
    ),
    re.compile(rf"\breplac(?:e|ed|ing)\s+(?P<old>[^,;.!?]+?)\s+(?:with|by)\s+(?P<new>.+?){_CLAUSE_END}"),
    re.compile(rf"(?P<new>[^,;.!?]+?)\s+instead\s+of\s+(?P<old>.+?){_CLAUSE_END}"),
)
# "changed X to Y" without a "from": the same as saying "X is Y" (matched on the original text)
_SET_TO = re.compile(
    rf"\b(?:changed|switched|moved|set)\s+(?P<slot>(?:the|my|our)\s+[^,;.!?]+?)\s+to\s+(?P<new>[^,;.!?]+?){_CLAUSE_END}",
    re.IGNORECASE,
)
# "prefer X to Y": a comparison whose marker is "to" (others: "X over Y", "X rather than Y").
_COMPARED = re.compile(r"\b(?:over|than|versus|vs)\b")
_PREFER_TO = re.compile(r"\bprefer(?:s|red)?\b[^,;.!?]+?\s(?P<to>to)\s")
_CHANGE_TERMS = frozenset({"switch", "move", "migrat", "chang", "went", "gone", "convert", "replac", "instead", "now"})
_ENDING_WORDS = frozenset(
    """
    no longer not any anymore more stopped stop quit quitted cancelled canceled discontinued ended over gave given
    up called off dropped out abandoned terminated unsubscribed
    """.split()
)
_VALUE_WORDS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends
    january february march april may june july august september october november december
    spring summer autumn fall winter morning mornings afternoon afternoons evening evenings night nights
    daily weekly fortnightly monthly quarterly yearly annually hourly
    first second third fourth fifth sixth seventh eighth ninth tenth last
    one two three four five six seven eight nine ten eleven twelve twenty thirty hundred thousand
    red orange yellow green blue purple pink brown black white grey gray silver gold
    north south east west northern southern eastern western left right upper lower top bottom front back
    early late small medium large big short long tall low high cheap expensive
    yes on off enabled disabled true false
    """.split()
)


_PARTICIPLES = frozenset(
    """
    written taken given eaten driven spoken chosen begun grown flown sung swum known shown seen gone done held
    kept built bought paid sold sent taught made met led run set put
    """.split()
)
_PLACEHOLDERS = frozenset({"be", "have"})  # copulas stand in `terms` only to mark where the predicate starts
_ENDING_TERMS = frozenset(
    {stem(w) for w in _ENDING_WORDS}
    | _ENDING_WORDS
    | {"give", "call", "drop", "stop", "cancel", "quit", "end", "terminate", "abandon", "discontinue"}
    | _PLACEHOLDERS
)


class Relation(StrEnum):
    SAME = "same"  # exact or near duplicate
    CONFLICT = "conflict"  # same subject, a different value: the candidate supersedes the record
    ENDS = "ends"  # the candidate says the record is no longer true
    REPLACES = "replaces"  # the candidate ends the record and says what holds instead
    UNRELATED = "unrelated"


@dataclass(frozen=True)
class Parsed:
    """One statement as the rules see it."""

    terms: tuple[str, ...]  # content terms, stemmed, in order
    values: frozenset[str]  # the terms that are values
    negated: bool
    anchor: int | None  # index in `terms` of the first predicate verb (None: no verb found)
    anchor_base: str | None
    ending: bool  # says something stopped or is no longer so
    replacement: bool  # ...and what holds instead
    ended: tuple[str, ...] = ()  # with a replacement: the terms before it (what stopped)
    replaced: tuple[str, ...] = ()  # said as a change: the terms of what it replaces ("from X")...
    instead: tuple[str, ...] = ()  # ...and of what holds now ("to Y")
    restated: str | None = None  # "changed X to Y" said as "X is Y"
    compared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # a comparison's two sides, in order

    @property
    def content(self) -> set[str]:
        return set(self.terms) - _PLACEHOLDERS

    @property
    def subject(self) -> tuple[str, ...]:
        return self.terms[: self.anchor] if self.anchor is not None else ()

    @property
    def predicate(self) -> tuple[str, ...]:
        return self.terms[self.anchor + 1 :] if self.anchor is not None else self.terms


@dataclass(frozen=True)
class Judgement:
    relation: Relation
    score: float  # how strongly (for choosing between several records)
    dice: float
    cosine: float | None
    differences: list[dict[str, list[str]]] = field(default_factory=list)
    rule: str = ""


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    return text.casefold()


def _verb_base(word: str) -> str | None:
    """The verb a word is a form of (uses, used, using -> use), or None."""
    if word in _COPULAS:
        return "be" if word not in ("has", "have", "had") else "have"
    candidates = [word]
    for suffix, repl in (
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("d", ""),
        ("ing", ""),
        ("ing", "e"),
    ):
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            candidates.append(word[: -len(suffix)] + repl)
    if word.endswith(("pped", "nned", "mmed", "tted")):
        candidates.append(word[:-3])
    irregular = {"went": "go", "took": "take", "made": "make", "ran": "run", "ate": "eat", "drank": "drink",
                 "kept": "keep", "met": "meet", "chose": "choose", "left": "leave", "led": "lead", "sold": "sell",
                 "bought": "buy", "paid": "pay", "wrote": "write", "drove": "drive", "swam": "swim", "sang": "sing",
                 "spoke": "speak", "began": "begin", "grew": "grow", "built": "build", "flew": "fly", "gave": "give",
                 "got": "get", "sent": "send", "taught": "teach", "sat": "sit", "wore": "wear", "slept": "sleep",
                 "woke": "wake", "stood": "stand", "held": "hold", "lives": "live"}  # fmt: skip
    if word in irregular:
        return irregular[word]
    return next((c for c in candidates if c in _VERBS), None)


def _is_name(word: str, position: int) -> bool:
    """Capitalised (a sentence's first word only when it is no function word or verb), or mixed case."""
    if not any(c.isupper() for c in word) or word == "I":
        return False
    if position > 0 or any(c.isupper() for c in word[1:]):
        return True
    folded = word.casefold()
    return folded not in _FUNCTION_WORDS and folded not in _VALUE_WORDS and _verb_base(folded) is None


@keeps_text
@lru_cache(maxsize=4096)
def parse(statement: str) -> Parsed:
    text = unicodedata.normalize("NFKC", statement).replace("\u2019", "'")
    lowered = text.casefold()
    for pattern, replacement in _CONTRACTIONS:
        lowered = pattern.sub(replacement, lowered)
    raw = _TOKEN.findall(text)
    names = {t.casefold() for i, t in enumerate(raw) if _is_name(t, i)}
    words = _TOKEN.findall(lowered)
    terms: list[str] = []
    values: set[str] = set()
    anchor: int | None = None
    anchor_base: str | None = None
    negated = False
    for word in words:
        if word in _NEGATIONS:
            negated = True
            continue
        base = _verb_base(word)
        if anchor is None and base is not None and (word in _COPULAS or word not in names):
            anchor, anchor_base = len(terms), base
            terms.append(base)
            continue
        if word in _FUNCTION_WORDS:
            continue
        term = _term(word)
        terms.append(term)
        if any(c.isdigit() for c in word) or word in names or word in _VALUE_WORDS:
            values.add(term)
    ending = bool(_ENDING.search(lowered))
    marker = _REPLACEMENT.search(lowered) if ending else None
    change = None if ending else next((m for m in (c.search(lowered) for c in _CHANGES) if m), None)
    set_to = None if ending or change else _SET_TO.search(text)
    return Parsed(
        terms=tuple(terms),
        values=frozenset(values),
        negated=negated,
        anchor=anchor,
        anchor_base=anchor_base,
        ending=ending,
        replacement=marker is not None,
        ended=parse(lowered[: marker.start()]).terms if marker else tuple(terms),
        replaced=_phrase_terms(change["old"]) if change else (),
        instead=_phrase_terms(change["new"]) if change else (),
        restated=f"{set_to['slot']} is {set_to['new']}" if set_to else None,
        compared=_comparison(lowered),
    )


def _comparison(lowered: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The terms before and after a comparison's marker ("X over Y", "X rather than Y", "prefer X to
    Y"), each side within its clause; ((), ()) when the statement compares nothing."""
    marker = _PREFER_TO.search(lowered)
    start, end = (marker.start("to"), marker.end("to")) if marker else (-1, -1)
    if marker is None:
        found = _COMPARED.search(lowered)
        if found is None:
            return (), ()
        start, end = found.start(), found.end()
    before = re.split(r"[,;.!?]", lowered[:start])[-1]
    after = re.split(r"[,;.!?]", lowered[end:])[0]
    return _phrase_terms(before), _phrase_terms(after)


def _phrase_terms(phrase: str) -> tuple[str, ...]:
    """The content terms of a phrase (no verb anchor, no function words)."""
    return tuple(_term(w) for w in _TOKEN.findall(phrase) if w not in _FUNCTION_WORDS and w not in _NEGATIONS)


def _term(word: str) -> str:
    return word if any(c.isdigit() for c in word) else stem(word)


def _same_term(a: str, b: str) -> bool:
    if a == b:
        return True
    if a[:5] != b[:5]:
        return False
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 5 and long_.startswith(short) and not short.isdigit()


def _only(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> set[str]:
    """Terms of `a` with no equal in `b`."""
    return {x for x in a if x not in b and not any(_same_term(x, y) for y in b)}


def dice(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    shared = len(a) - len(_only(a, b))
    shared_b = len(b) - len(_only(b, a))
    return (shared + shared_b) / (len(a) + len(b))


def overlap(candidate: str, record: str) -> float:
    """The Dice overlap of two statements' content terms, as `relate` weighs it."""
    return dice(parse(candidate).content, parse(record).content)


def containment(part: set[str], whole: set[str]) -> float:
    """The share of `part`'s terms that `whole` holds."""
    return 1.0 if not part else (len(part) - len(_only(part, whole))) / len(part)


def value_differences(a: Parsed, b: Parsed) -> list[dict[str, list[str]]]:
    new, old = sorted(_only(a.values, b.values)), sorted(_only(b.values, a.values))
    return [{"old": old, "new": new}] if new and old else []


def _hard_difference(a: Parsed, b: Parsed) -> bool:
    return a.negated != b.negated or bool(value_differences(a, b))


def hard_difference(candidate: str, record: str) -> bool:
    """Whether the two give different values or polarities (see `_hard_difference`)."""
    return _hard_difference(parse(candidate), parse(record))


def _subjects_match(a: Parsed, b: Parsed) -> bool:
    sa, sb = set(a.subject), set(b.subject)
    if not _only(sa, sb) and not _only(sb, sa):
        return True
    smaller = sa if len(sa) <= len(sb) else sb
    larger = sb if smaller is sa else sa
    return (len(smaller) >= 2 and not _only(smaller, larger)) or dice(sa, sb) >= 0.8


def _reversed(a: Parsed, b: Parsed) -> bool:
    """The same comparison turned round: what `a` ranks last, `b` ranks first, and the other way."""
    (a_first, a_last), (b_first, b_last) = a.compared, b.compared
    if not (a_last and b_last):
        return False
    return containment(set(a_last), set(b_first)) >= 0.5 and containment(set(b_last), set(a_first)) >= 0.5


def _adds_detail(a: Parsed, b: Parsed, cosine: float | None) -> bool:
    """Candidate `a` says everything record `b` says, and more: new words a duplicate would drop."""
    if len(b.content) < 2 or _hard_difference(a, b) or a.ending != b.ending:
        return False
    if cosine is not None and cosine < HIGH_DICE_COSINE:
        return False
    if _only(b.content - {b.anchor_base or ""}, a.content):
        return False
    # New words that only say it another way ("happens at", "is written in", "hangs inside") are no
    # detail: a new value ("Bergen, Norway"), or at least two new words ("in the small room"), is.
    new = [t for t in _only(a.content, b.content) if _verb_base(t) is None and t not in _PARTICIPLES]
    return len(new) >= 2 or any(t in a.values for t in new)


def _other_subject(a: Parsed, b: Parsed) -> bool:
    """One names someone or something the other never mentions as its subject ("my partner
    prefers ..." / "I prefer ..."): the same words about another subject are another fact."""
    return bool(_only(set(a.subject), b.content) or _only(set(b.subject), a.content))


def _near_duplicate(a: Parsed, b: Parsed, overlap: float, cosine: float | None) -> bool:
    if _hard_difference(a, b) or a.ending != b.ending or _reversed(a, b) or _adds_detail(a, b, cosine):
        return False
    if _other_subject(a, b):
        return False
    if cosine is None:
        return overlap >= NEAR_DICE_LEXICAL
    return (cosine >= NEAR_COSINE and overlap >= NEAR_DICE_WITH_COSINE) or (
        overlap >= HIGH_DICE and cosine >= HIGH_DICE_COSINE
    )


def could_be_same(candidate: str, record: str) -> bool:
    """Whether `relate` could find the two the same for some cosine: its conditions on words alone
    (overlap at least NEAR_DICE_WITH_COSINE, no hard difference, the same ending)."""
    a, b = parse(candidate), parse(record)
    return dice(a.content, b.content) >= NEAR_DICE_WITH_COSINE and not _hard_difference(a, b) and a.ending == b.ending


_WORDS = re.compile(r"[\w'.-]*\w")


_DETERMINERS = frozenset({"the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that"})
_NO_KIND = frozenset({"now", "today", "instead", "anymore", "too", "already", "yet", "these", "days"})  # "the VW now"


def _kind_word(word: str, position: int, noun_phrase: bool = False) -> bool:
    """A word that names a kind of thing ("report", "project", "sister"): no function, value or verb
    word, no name; in a noun phrase ("the Marten report") a word that could be a verb too."""
    folded = word.casefold()
    return (
        word.isalpha()
        and len(word) >= 3
        and folded not in _FUNCTION_WORDS
        and folded not in _VALUE_WORDS
        and folded not in _NO_KIND
        and (noun_phrase or _verb_base(folded) is None)
        and not _is_name(word, position)
    )


def names_another(candidate: str, record: str) -> bool:
    """The two differ only in a name that says which thing they are about: the kind beside it in both
    and more said of it, or whose it is ("the Marten report by Friday" / "the Juniper report by
    Friday", "my sister Ylva lives in Bergen" / "my sister Maja lives in Bergen", "... for the Heron
    project" / "... for the Osprey project"). Another thing of the same kind, not a
    change of one. A name where a value stands ("lives in Bergen" / "... in Tromsø", "use
    PostgreSQL for ..." / "use SQLite for ...", "I use the Vim editor" / "... the Emacs editor") or
    a weekday ("due Friday" / "due Monday") is a change."""
    a = _WORDS.findall(unicodedata.normalize("NFKC", candidate))
    b = _WORDS.findall(unicodedata.normalize("NFKC", record))
    shortest = min(len(a), len(b))
    start = 0
    while start < shortest and a[start].casefold() == b[start].casefold():
        start += 1
    end = 0
    while end < shortest - start and a[-1 - end].casefold() == b[-1 - end].casefold():
        end += 1
    middles = (a[start : len(a) - end], b[start : len(b) - end])
    if not all(1 <= len(m) <= 2 and all(_names(w, start + k) for k, w in enumerate(m)) for m in middles):
        return False
    suffix = a[len(a) - end :]
    before = a[start - 1] if start else None
    if before is not None and before.casefold() in _DETERMINERS and suffix:
        # "the Marten report by Friday": the kind after the name, and more said of the thing; or
        # whose it is ("... for the Juniper project").
        whose = start >= 2 and a[start - 2].casefold() == "for"
        return _kind_word(suffix[0], len(a) - end, noun_phrase=True) and (whose or _says_more(suffix[1:]))
    # "my sister Ylva lives in Bergen": the kind before the name, and more said of the one named.
    return before is not None and _kind_word(before, start - 1) and _says_more(suffix)


def _names(word: str, position: int) -> bool:
    """A name, not a weekday, month or other value word ("due Friday" / "due Monday" is a change)."""
    return _is_name(word, position) and word.casefold() not in _VALUE_WORDS


def _says_more(words: list[str]) -> bool:
    """Words that say something of what was named (a name that ends its statement is its value:
    "I use the Vim editor" / "... the Emacs editor")."""
    return any(w.casefold() not in _FUNCTION_WORDS and w.casefold() not in _NO_KIND for w in words)


def _conflict(a: Parsed, b: Parsed, cosine: float | None) -> str | None:
    """Why candidate `a` contradicts record `b` (same subject, different value), or None."""
    if cosine is not None and cosine < SUBJECT_COSINE:
        return None
    if a.negated != b.negated and dice(a.content, b.content) >= NEGATION_DICE:
        return "polarity"
    if _reversed(a, b):
        return "order"
    if _adds_detail(a, b, cosine):
        return "detail"
    if a.anchor is not None and b.anchor is not None:
        if a.anchor_base != b.anchor_base or not _subjects_match(a, b):
            return None
        pa, pb = set(a.predicate), set(b.predicate)
        new, old = _only(pa, pb), _only(pb, pa)
        if not new or not old or len(new) > MAX_SWAP or len(old) > MAX_SWAP:
            return None
        shares = len(pa) - len(new) > 0
        if shares or (len(pa) <= 2 and len(pb) <= 2):
            return "value"
        return None
    if value_differences(a, b):
        rest_a, rest_b = a.content - a.values, b.content - b.values
        if dice(rest_a, rest_b) >= VALUE_REST_DICE:
            return "value"
    return None


def _ending_match(a: Parsed, b: Parsed, cosine: float | None) -> float:
    """How far ending `a` is about record `b` (0: not at all): the share of its own terms `b` holds."""
    if b.ending or (cosine is not None and cosine < SUBJECT_COSINE):
        return 0.0
    own = {t for t in a.ended if t not in _ENDING_TERMS}
    theirs = set(b.terms) - _PLACEHOLDERS
    if not own:
        return 0.0
    held = containment(own, theirs)
    shared = len(own) - len(_only(own, theirs))
    return held if held >= ENDING_CONTAINMENT and shared >= min(2, len(own)) else 0.0


def _change_match(a: Parsed, b: Parsed, cosine: float | None) -> float:
    """How far change `a` ("from X to Y") replaces record `b` (0: not at all): `b` holds X, does not
    already say Y, is no change itself, and at least half of whatever else it says is in `a` (the same
    thing). The more of it `a` shares, the stronger: of two records holding X, the one it is about wins."""
    if not a.replaced or b.replaced or b.ending or (cosine is not None and cosine < SUBJECT_COSINE):
        return 0.0
    old, theirs = set(a.replaced), set(b.terms) - _PLACEHOLDERS
    held = containment(old, theirs)
    if held < ENDING_CONTAINMENT or len(old) - len(_only(old, theirs)) < min(2, len(old)):
        return 0.0
    if a.instead and not _only(set(a.instead), theirs):
        return 0.0  # the record already says what holds now
    context = {t for t in a.terms if t not in _CHANGE_TERMS} - old
    rest = _only(theirs - {b.anchor_base or ""}, old)
    about = containment(rest, context)
    return held + about if about >= CHANGE_REST else 0.0


def _restated_conflict(a: Parsed, record: str, cosine: float | None) -> Judgement | None:
    """ "changed X to Y" replaces a record about X when "X is Y" would conflict with it."""
    if a.restated is None:
        return None
    judged = relate(a.restated, record, cosine)
    if judged.relation is not Relation.CONFLICT:
        return None
    return Judgement(Relation.REPLACES, judged.score, judged.dice, cosine, judged.differences, rule="change")


def relate(candidate: str, record: str, cosine: float | None = None) -> Judgement:
    """How `candidate` (a proposed statement) relates to `record` (a current one)."""
    a, b = parse(candidate), parse(record)
    overlap = dice(a.content, b.content)
    changed = _change_match(a, b, cosine)
    if changed:
        differences = [{"old": sorted(a.replaced), "new": sorted(a.instead)}]
        return Judgement(Relation.REPLACES, changed + (cosine or 0.0), overlap, cosine, differences, rule="change")
    restated = _restated_conflict(a, record, cosine)
    if restated:
        return restated
    # Without embeddings a changed word of the predicate cannot be told from a synonym: a
    # conflict is checked first, so that a new value is never dropped as a duplicate.
    why = _conflict(a, b, cosine) if cosine is None and not a.ending else None
    if not why and _near_duplicate(a, b, overlap, cosine):
        return Judgement(Relation.SAME, 1.0 + overlap + (cosine or 0.0), overlap, cosine, rule="near duplicate")
    if a.ending and not b.ending:
        held = _ending_match(a, b, cosine)
        if held:
            relation = Relation.REPLACES if a.replacement else Relation.ENDS
            return Judgement(relation, held + (cosine or 0.0), overlap, cosine, rule="ending")
        return Judgement(Relation.UNRELATED, overlap, overlap, cosine)
    why = why or _conflict(a, b, cosine)
    if why == "value" and names_another(candidate, record):
        return Judgement(Relation.UNRELATED, overlap, overlap, cosine, rule="another of its kind")
    if why:
        differences = value_differences(a, b) or [
            {
                "old": sorted(_only(set(b.predicate), set(a.predicate))),
                "new": sorted(_only(set(a.predicate), set(b.predicate))),
            }
        ]
        if why == "order":
            differences = [{"old": list(b.compared[0]), "new": list(a.compared[0])}]
        elif why == "polarity":
            differences = [
                {"old": ["negated" if b.negated else "affirmed"], "new": ["negated" if a.negated else "affirmed"]}
            ]
        return Judgement(Relation.CONFLICT, overlap + (cosine or 0.0), overlap, cosine, differences, rule=why)
    return Judgement(Relation.UNRELATED, overlap, overlap, cosine)
