"""A change said in a conversation, and the stored record it replaces, in English, German, French and Spanish.

`change_in(sentence)` finds what no longer holds and what holds now, from the shapes people use:

- from X to Y with a verb of change: "the standup moved from Thursday to Wednesday", "wir sind von
  Slack zu Matrix gewechselt", "on passe de Jenkins à GitLab CI", "nos mudamos de Bilbao a Oviedo";
- replaced X with Y: "we replaced Jenkins with Drone", "X durch Y ersetzt", "remplacé X par Y",
  "sustituimos X por Y";
- Y instead of X: "we use Render instead of Heroku", "statt", "anstatt", "au lieu de", "en vez de",
  "en lugar de";
- no longer X, now Y: "I no longer work at X; now I work at Y", "ich arbeite nicht mehr bei X,
  sondern bei Y", "je ne travaille plus chez X ; maintenant ...", "ya no trabajo en X, ahora ...";
- Y, not X, said as a rule or a decision: "we deploy to Fly.io from now on, not Heroku".

`replaces(change, candidate, record)` says how surely a stored record is the one the change replaces
(0: it is not): the record holds what no longer holds, does not already say what holds now, and
whatever else it says is mostly in the candidate (the same thing: "I work at X" is replaced by "I no
longer work at X; now I work at Y", "X's office is in Leeds" is not). The import's decide step makes
the candidate a correction of the best such record (decide.py). Pure text rules; no store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memvault.core.importers.cues import RULE, fold
from memvault.core.importers.kinds import DECISION

_END = (
    r"(?=\s*[,;.!?:()]|\s+(?:and|but|because|since|as|so|for|und|aber|weil|denn|et|mais|car|parce que|pour|y|pero|"
    r"porque|para)\s|$)"
)
_PHRASE = r"[^,;.!?()]+?"
_CHANGE_VERB = re.compile(
    r"\b(?:switch\w*|mov(?:e|ed|ing)|migrat\w*|chang\w*|went|gone|convert\w*|upgrad\w*|downgrad\w*|transferred|"
    r"wechsel\w*|gewechselt|umgestiegen|umgezogen|umgestellt|migriert|verlegt|verschoben|"
    r"pass(?:e|es|ons|ez|ent|er|e|ee|es)|migr\w*|bascul\w*|demenag\w*|"
    r"cambi\w*|pasamos|pase|paso|pasado|migramos|mudamos|mudado|mude|trasladad\w*)\b"
)
_FROM_TO = re.compile(
    rf"\b(?:from|von|vom|de|du|des|desde)\s+(?P<old>{_PHRASE})\s+(?:over\s+)?(?:to|into|zu|zum|zur|auf|nach|in|a|au|"
    rf"aux|en|hacia|al)\s+(?P<new>{_PHRASE}){_END}"
)
_REPLACED = (
    re.compile(
        rf"\b(?:replac\w*|swapped|remplace\w*|reemplaz\w*|sustitu\w*|cambiamos|cambie)\s+(?P<old>{_PHRASE})\s+"
        rf"(?:with|by|for|par|por)\s+(?P<new>{_PHRASE}){_END}"
    ),
    re.compile(rf"\b(?P<old>{_PHRASE})\s+durch\s+(?P<new>{_PHRASE})\s+(?:ersetzt|ausgetauscht|abgelost)\b"),
)
_INSTEAD_MARK = (
    r"instead of|in place of|anstatt|statt|anstelle von|anstelle|au lieu de|au lieu du|au lieu des|a la place de|"
    r"a la place du|en vez de|en lugar de|en vez del|en lugar del"
)
_INSTEAD = (
    re.compile(rf"^(?:{_INSTEAD_MARK})\s+(?P<old>[^,;.!?]+?),\s*(?P<new>.+?){_END}"),
    re.compile(rf"(?P<new>[^,;.!?]+?)\s+(?:{_INSTEAD_MARK})\s+(?P<old>{_PHRASE}){_END}"),
)
_NO_LONGER = re.compile(
    rf"\b(?:no longer|nicht mehr|kein\w*\s+\w+\s+mehr|ne\s+\w+\s+plus|n'\w+\s+plus|ne\s+plus|ya no)\s+"
    rf"(?P<old>{_PHRASE}){_END}"
    rf"|\b(?:don't|do not|doesn't|does not|not)\s+(?P<old2>{_PHRASE})\s+any\s*more\b"
)
_NOW = re.compile(
    r"[,;:.]?\s*(?:but\s+|and\s+)?(?:now|instead|these days|jetzt|nun|sondern|stattdessen|seit\s+\w+|inzwischen|"
    r"mittlerweile|maintenant|desormais|mais|plutot|depuis\s+\w+|ahora|sino|en cambio|actualmente|desde\s+\w+)\b"
)
_CONTRAST = re.compile(rf"(?P<new>[^,;.!?]+?),\s*(?:not|nicht|pas|no)\s+(?P<old>[\w .'&-]{{2,40}}?){_END}")
_CONTRAST_CUE = re.compile(r"\b(?:now|jetzt|maintenant|ahora)\b")
_LEADING = re.compile(
    r"^(?:(?:the|a|an|at|in|on|to|with|for|my|our|bei|beim|im|am|auf|in|der|die|das|den|dem|zu|zum|zur|chez|a|au|"
    r"aux|le|la|les|l'|du|des|de|en|el|los|las|con|para|por|del)\s+)+"
)
_WORD = re.compile(r"\w+")
_STOP = frozenset(
    """
    a an the i me my we us our you your he she it they them their this that these those to of in on at for with by
    from as and or but so is are was were be been am do does did have has had will would can could not no now
    ich mich mir mein meine wir uns unser unsere du der die das den dem des ein eine einen und oder aber ist sind
    war bin bei beim im am auf zu zum zur von vom mit fur nicht mehr jetzt nun seit als es sie er
    je j me moi mon ma mes nous notre nos tu le la les l un une des du de et ou mais est sont suis chez au aux en
    pour par avec ne pas plus maintenant on qu que y
    yo mi mis nosotros nuestro nuestra el los las lo un una unos unas y o pero es son soy estoy en con para por
    del al de ya ahora que se
    """.split()
)
CHANGE_AT = 0.6  # the share of what no longer holds that a record must hold
ABOUT_AT = 0.5  # the share of the rest of the record the candidate must mention


@dataclass(frozen=True)
class Change:
    old: str  # what no longer holds (the person's words)
    new: str  # what holds now ("" when not said)


def change_in(sentence: str) -> Change | None:
    """The change a sentence states, or None."""
    folded = fold(sentence)

    def said(start: int, end: int) -> str:
        return _LEADING.sub("", sentence[start:end].strip(" ,;:")).strip()

    ended = _NO_LONGER.search(folded)
    if ended:
        group = "old" if ended.group("old") is not None else "old2"
        now = _NOW.search(folded, ended.end(group))
        if now:
            return Change(said(*ended.span(group)), said(now.end(), len(sentence)))
        return None  # an ending alone: the writer lists it for archiving by hand
    if _CHANGE_VERB.search(folded):
        moved = _FROM_TO.search(folded)
        if moved:
            return Change(said(*moved.span("old")), said(*moved.span("new")))
    for pattern in (*_REPLACED, *_INSTEAD):
        found = pattern.search(folded)
        if found:
            return Change(said(*found.span("old")), said(*found.span("new")))
    contrast = _CONTRAST.search(folded)
    if contrast and (RULE.search(folded) or DECISION.search(folded) or _CONTRAST_CUE.search(folded)):
        return Change(said(*contrast.span("old")), said(*contrast.span("new")))
    return None


def terms(text: str) -> list[str]:
    """Content words, folded, without the function words of the four languages."""
    return [w for w in _WORD.findall(fold(text)) if w not in _STOP and (len(w) > 1 or w.isdigit())]


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 5:
        return long_[:5] == short[:5]
    return len(short) >= 3 and long_.startswith(short) and len(long_) - len(short) <= 2 and not short.isdigit()


def _held(part: list[str], whole: list[str]) -> list[str]:
    return [t for t in part if any(_same(t, w) for w in whole)]


def replaces(change: Change, candidate: str, record: str) -> float:
    """How surely `record` is what the `change` said in `candidate` replaces (0: it is not)."""
    old = list(dict.fromkeys(terms(change.old)))
    theirs = terms(record)
    if not old or not theirs:
        return 0.0
    held = _held(old, theirs)
    if len(held) / len(old) < CHANGE_AT or len(held) < min(2, len(old)):
        return 0.0
    new = [t for t in dict.fromkeys(terms(change.new)) if not any(_same(t, o) for o in old)]
    if new and len(_held(new, theirs)) == len(new):
        return 0.0  # the record already says what holds now
    rest = [t for t in dict.fromkeys(theirs) if not any(_same(t, o) for o in old)]
    about = len(_held(rest, terms(candidate))) / len(rest) if rest else 1.0
    if about < ABOUT_AT:
        return 0.0
    return len(held) / len(old) + about
