"""Words for the domain brain: tokens, a light stemmer, and distinctive-term scoring.

Used by the router (lexical overlap of a request with a domain), by discovery
(TF-IDF profiles and names of regions) and by `assign_domain`. Pure functions,
no SQL, no numpy.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

from memvault.core.runtime.text_caches import keeps_text

_WORD = re.compile(r"[^\W\d_][\w'-]*", re.UNICODE)
STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are aren as at be because been before being below
    between both but by can cannot could did do does doing done down during each else ever every few for from
    further get gets got had has have having he her here hers herself him himself his how i if in into is isn it
    its itself just let like lot me might more most much must my myself need needs no nor not now of off often on
    once one only or other our ours ourselves out over own per quite rather really same she should so some such
    than that the their theirs them themselves then there these they thing things this those through to too
    under until up upon us use used uses using very via was we well were what when where whether which while who
    whom why will with within without would yes yet you your yours yourself yourselves able always another
    around away back being best better bit come comes could day days does either enough even etc far feel
    find first go goes going good great help keep kind know last least less made make makes many may maybe mine
    new next nothing old others part put said say says see seem seems set several shall since still sure take
    takes tell time times today tomorrow try two way ways week weeks went whatever year years yesterday
    three four five six seven eight nine ten twelve twenty hundred thousand first second third month months
    monthly weekly daily yearly annual annually morning mornings evening evenings afternoon afternoons
    everything anything something nothing prefers prefer preferred wants want wanted likes liked usually
    """.split()
)
MIN_WORD = 2
MAX_WORD = 40


@keeps_text
@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A deliberately light English stemmer: plural, -ing, -ed, -ly. Good enough to meet halfway."""
    w = word
    if len(w) <= 3:
        return w
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("edly", ""), ("ed", ""), ("ly", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + keep
            break
    else:
        if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
            w = w[:-1]
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]  # running -> runn -> run
    if w.endswith("e") and len(w) >= 4:
        w = w[:-1]  # recipe/recipes -> recip; baking -> bak; bake -> bak
    return w


def words(text: str) -> list[str]:
    """Lower-cased content words (stop words and one-letter words dropped), in order."""
    found = []
    for raw in _WORD.findall(text.casefold()):
        word = raw.strip("'-")
        if word.endswith("'s"):
            word = word[:-2]
        if MIN_WORD <= len(word) <= MAX_WORD and word not in STOPWORDS:
            found.append(word)
    return found


def terms(text: str) -> list[str]:
    """Stemmed content words of a text, in order (repeats kept)."""
    return [stem(word) for word in words(text)]


def term_set(text: str) -> frozenset[str]:
    return frozenset(terms(text))


def surface_forms(texts: Iterable[str]) -> dict[str, str]:
    """The most common spelling of each stem, to show people words rather than stems."""
    spellings: dict[str, Counter[str]] = {}
    for text in texts:
        for word in words(text):
            spellings.setdefault(stem(word), Counter())[word] += 1
    return {key: counts.most_common(1)[0][0] for key, counts in spellings.items()}


def distinctive_terms(
    group: Mapping[str, int], rest: Mapping[str, int], group_size: int, rest_size: int, limit: int = 12
) -> list[tuple[str, float]]:
    """Terms that set a group of documents apart from the rest (document frequencies in, best first).

    Score: how common the term is inside the group, times how much more common it is there than
    elsewhere (smoothed log ratio). Terms that occur once are noise and are skipped.
    """
    scored = []
    for term, inside in group.items():
        if inside < 2 and group_size > 3:
            continue
        share_in = inside / max(group_size, 1)
        share_out = (rest.get(term, 0) + 0.5) / (rest_size + 1)
        lift = math.log((share_in + 1e-9) / share_out)
        if lift <= 0:
            continue
        scored.append((term, share_in * lift))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:limit]


def document_frequencies(docs: Iterable[frozenset[str]]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for doc in docs:
        counts.update(doc)
    return counts
