"""Text as the secret detectors read it: look-alikes and hidden characters cannot hide a secret.

`fold` applies Unicode NFKC (full-width letters and digits become ASCII), drops
invisible format characters (zero-width spaces and joiners, bidi marks, soft
hyphens), writes digits of every script as ASCII, maps letters that merely look Latin (a Cyrillic or Greek "o") to their
Latin twin from Unicode's confusables table, and joins lines, so a secret split
over two lines reads as one sentence. Case is kept: provider key formats need it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

_LINE_BREAKS = re.compile(r"\s*[\r\n\u2028\u2029]+\s*")


@cache
def _confusable_table() -> dict[int, str]:
    from confusable_homoglyphs.confusables import confusables_data  # noqa: PLC0415 - 0.9 MB table, only on writes

    table: dict[int, str] = {}
    for char, twins in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [t["c"] for t in twins if len(t["c"]) == 1 and t["c"].isascii() and t["c"].isalnum()]
        letters = [c for c in latin if c.isalpha()]
        if latin:
            table[ord(char)] = (letters or latin)[0]
    return table


def _visible(char: str) -> bool:
    return unicodedata.category(char) != "Cf"


def _ascii_digit(char: str) -> str:
    return str(unicodedata.decimal(char)) if char.isdecimal() and not char.isascii() else char


def fold(text: str, *, line_break: str = " ") -> str:
    """The text with compatibility forms, invisible characters and look-alike letters folded.

    Lines are joined with `line_break`: a space for key formats and numbers, ": " where a
    line break stands between a name and its value ("wifi password⏎kestrel").
    """
    if not text.isascii():  # ASCII is its own fold: NFKC keeps it, it has no format characters or look-alikes
        text = unicodedata.normalize("NFKC", text)
        text = "".join(_ascii_digit(c) for c in text if _visible(c))
        text = text.translate(_confusable_table())
    return _LINE_BREAKS.sub(line_break, text)


def digits_of(text: str) -> str:
    return re.sub(r"\D", "", text)
