"""Whether a new statement says the same as a close record, changes it, or is another fact: trained heads.

The rules in similarity.py read English sentence structure; people say a change in other words and
in other languages ("I switched to a Fairphone 5", "Osprey est passé en bêta", "Schwimmen ist jetzt
am Montag"). For a pair close by meaning (cosine at least HEADS_FLOOR), three heads (same / changes / another
fact, ngram_head.py) read a view of the pair: what the rules found, the cosine and word overlap in
steps, the words only the record says and only the new statement says (numbers and names by their
shape), and whether the new statement says it is a change or names another person. They were
trained on the tuning parts of tests/writer_eval's pairs (tests/writer_eval/train_heads.py).

Where the rules read a conflict (a new value, a turned-round comparison, added detail: contract
revision 4 says these are never duplicates), an ending or a said replacement, their answer stands:
heads allowed to overrule them took "my sister lives in Bergen" / "... in Tromsø" and "I eat meat" /
"I do not eat meat" for other facts. Otherwise the heads decide, the rules' finding among what they
read. A head's answer is taken only when it says yes (a score above zero): a change the heads are
unsure of would supersede another fact, a "same" they are unsure of would drop a write. "The same" is
vetoed besides by what the words say: a pair with a value change, whose new statement says it
changed, or whose cosine is below SAME_FLOOR, is not a duplicate whatever the heads say. In doubt the
answer is another fact: a duplicate kept costs a record the person can merge, a write dropped is lost.
"""

from __future__ import annotations

import re

from memvault.core.writer.ngram_head import NgramHead
from memvault.core.writer.secret_text import fold
from memvault.core.writer.similarity import SUBJECT_COSINE, Judgement, Relation, hard_difference
from memvault.core.writer.word_families import WordFamilies

SAME_FLOOR = 0.6
# Below this cosine a pair is about different things whatever its words say of a change: in a store
# of 312 records, heads judging every neighbour took 110 of 300 unrelated statements for changes.
HEADS_FLOOR = SUBJECT_COSINE
HEADS = {
    Relation.CONFLICT: NgramHead("pair_changes", "164e7b9a995347d4705f523e0404561acd2e20f028d7202421777e39c39cfca1"),
    Relation.SAME: NgramHead("pair_same", "552e5eb80aa26c18b9fd677acdc0725174b030eceb0111fdef867948e868557f"),
    Relation.UNRELATED: NgramHead("pair_other", "b89b0cdadb964d1f7e929946a37f6f473623c61fc43968fee0c71ef8c1e22916"),
}
CUES = WordFamilies(
    {
        # A statement that says it is a change (four languages).
        "change": r"now|no longer|anymore|instead|switched|switch|moved|move|changed|new|took over|relocated"
        r"|stopped|these days|from now on|correction|sold|bought|migrated|jetzt|nicht mehr|neu\w*|gewechselt"
        r"|umgezogen|statt|mittlerweile|maintenant|désormais|plus|nouveau|nouvelle|déplacée?|déménag\w*"
        r"|au lieu|ahora|ya no|nuev[oa]|cambi\w*|mudado|mud\w*|en vez|ya|pass[ée]e?s? (?:en|à|au)|devenu\w*"
        r"|devient|geworden|übergegangen|wechselt\w*|pas[óo] a|pasad[oa] a|convirti[óo]",
        # Someone else the statement may be about.
        "someone": r"partner|wife|husband|sister|brother|mum|mom|dad|mother|father|son|daughter|friend"
        r"|colleague|boss|manager|team|partnerin|schwester|bruder|mutter|vater|conjoint|femme|mari|sœur"
        r"|frère|pareja|hermana|hermano|madre|padre|novi[oa]",
        # A statement that says it is one more of a kind: another fact beside the record, not its change.
        "also": r"also|too|as well|another|second|other|auch|ebenfalls|noch ein\w*|zweite\w*|aussi|également"
        r"|autre|deuxième|second[e]?|también|tambien|otr[oa]|segund[oa]",
        # When: a weekday, a month or a part of the day (a habit or a date moved is a new value).
        "when": r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekends?|mornings?|evenings?"
        r"|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|morgens|abends|wochenende"
        r"|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|matin|soir|lunes|martes|miércoles"
        r"|jueves|viernes|sábado|domingo|mañana|tarde|noche"
        r"|january|february|march|april|june|july|august|september|october|november|december"
        r"|januar|februar|märz|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet"
        r"|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio"
        r"|agosto|septiembre|octubre|noviembre|diciembre",
        # Not: a claim said the other way round ("ich esse kein Fleisch" / "ich esse wieder Fleisch").
        "not": r"not|no|never|don't|doesn't|didn't|isn't|nicht|kein\w*|nie|niemals|ne|pas|jamais|n'\w+"
        r"|no|nunca|tampoco",
    }
)
_WORD = re.compile(r"\w+(?:[.:']\w+)*")
_KEPT = (Relation.ENDS, Relation.REPLACES, Relation.CONFLICT)  # the rules' answer stands


def _words(text: str) -> list[str]:
    """Lower-cased words, numbers as `⟨n⟩`, a capitalised word inside the sentence as `⟨N⟩ word`."""
    out = []
    for position, match in enumerate(_WORD.finditer(fold(text))):
        word = match.group()
        if any(c.isdigit() for c in word):
            out.append("⟨n⟩")
        elif word[0].isupper() and position > 0:
            out.append(f"⟨N⟩ {word.lower()}")
        else:
            out.append(word.lower())
    return out


def says_change(candidate: str, record: str) -> bool:
    return "change" in CUES.found(candidate) and "change" not in CUES.found(record)


def view(candidate: str, record: str, judgement: Judgement) -> str:
    """What the heads read of a pair (the record first, as the writer sees it)."""
    old, new = _words(record), _words(candidate)
    only_old = [w for w in old if w not in set(new)]
    only_new = [w for w in new if w not in set(old)]
    names = (any(w.startswith("⟨N⟩") for w in only_old), any(w.startswith("⟨N⟩") for w in only_new))
    numbers = ("⟨n⟩" in only_old, "⟨n⟩" in only_new)
    said, had = CUES.found(candidate), CUES.found(record)
    someone = "someone" in said and "someone" not in had
    marks = [
        f"§rule-{judgement.relation.value}-{judgement.rule or 'none'}§",
        f"§cos{int((judgement.cosine or 0.0) * 10)}§",
        f"§dice{int(judgement.dice * 10)}§",
        f"§ao{min(len(only_old), 4)}§",
        f"§bo{min(len(only_new), 4)}§",
        f"§names{names[0]}{names[1]}§",
        f"§subjB{someone}§",
        f"§cue{says_change(candidate, record)}§",
        f"§num{numbers[0]}{numbers[1]}§",
        f"§also{'also' in said and 'also' not in had}§",
        f"§when{'when' in had}{'when' in said}§",
        f"§not{'not' in had}{'not' in said}§",
    ]
    return " ".join(marks * 2) + " A: " + " ".join(only_old) + " B: " + " ".join(only_new)


def says_another(candidate: str, record: str) -> bool:
    """The candidate is about someone else ("my brother" / "my sister") or says it is one more of a
    kind ("…at Skyvane too"): another fact beside the record, whatever else the two share."""
    said, had = CUES.found(candidate), CUES.found(record)
    if "also" in said and "also" not in had:
        return True
    return CUES.words(fold(candidate), "someone") != CUES.words(fold(record), "someone")


def says_otherwise(candidate: str, record: str) -> bool:
    """Another day, month or time of day, or a "not" on one side only ("ich esse kein Fleisch" /
    "ich esse wieder Fleisch"), in any of the four languages. A duplicate said with a negation
    ("vegetarian" / "no meat") is missed by this, and stored as a record of its own: nothing is lost."""
    new, old = fold(candidate), fold(record)
    if CUES.words(new, "when") != CUES.words(old, "when"):
        return True
    return bool(CUES.words(new, "not")) != bool(CUES.words(old, "not"))


def could_be_same(candidate: str, record: str, judgement: Judgement) -> bool:
    """The vetoes on "the same": nothing the rules or the words say of a change or of another fact.
    A write dropped as a duplicate is lost, a duplicate kept costs a record: in doubt, not the same."""
    if judgement.cosine is None or judgement.cosine < SAME_FLOOR:
        return False
    if judgement.relation in _KEPT or hard_difference(candidate, record):
        return False
    return not (says_change(candidate, record) or says_another(candidate, record) or says_otherwise(candidate, record))


def judged(candidate: str, record: str, judgement: Judgement) -> Judgement:
    """The rules' judgement, or the heads' where they apply (embeddings on, a close pair, no conflict,
    ending or replacement read by the rules)."""
    if judgement.relation in _KEPT or judgement.cosine is None or judgement.cosine < HEADS_FLOOR:
        return judgement
    seen = view(candidate, record, judgement)
    scored = {relation: head.score(seen) for relation, head in HEADS.items()}
    scores = {relation: score for relation, score in scored.items() if score is not None}
    if len(scores) < len(scored):
        return judgement  # a head missing or not matching its pin: the rules alone
    said = [
        relation
        for relation in sorted(scores, key=scores.__getitem__, reverse=True)
        if scores[relation] > 0.0 and (relation is not Relation.SAME or could_be_same(candidate, record, judgement))
    ]
    relation = said[0] if said else Relation.UNRELATED
    if relation is judgement.relation:
        return judgement
    rule = {Relation.SAME: "same (head)", Relation.CONFLICT: "changes (head)", Relation.UNRELATED: ""}[relation]
    score = judgement.dice + judgement.cosine + (1.0 if relation is Relation.SAME else 0.0)
    return Judgement(relation, score, judgement.dice, judgement.cosine, judgement.differences, rule=rule)
