"""Values in a sentence replaced by the name of their shape, so a head learns the words around them.

"the key box opens on 5242" and "my desk extension is 4417" differ only in the words around the
number; "garage code is three two nine four" and "press 7-8-1-5 then the bell" differ from them only
in how the digits are written. `mask` writes each value as a placeholder naming its shape (`⟨d4⟩`,
`⟨spelled⟩`, `⟨groups⟩`, `⟨mixed⟩`...) so that a head over the masked text weighs the context a value
stands in, whatever its digits, and `has_value` says whether anything could be a credential at all
(a statement with no value names a secret without holding it: "the wifi password is on the router").

Shapes only; no judgement here. Runs on folded text (`secret_text.fold`).
"""

from __future__ import annotations

import re

# Number words of the four languages memvault claims, 0-9 (and "oh"/"zwo" as people say them).
_DIGIT_WORDS = (
    "zero oh one two three four five six seven eight nine "
    "null eins zwei zwo drei vier fünf funf sechs sieben acht neun "
    "zéro zero un une deux trois quatre cinq six sept huit neuf "
    "cero uno una dos tres cuatro cinco seis siete ocho nueve"
).split()
_DIGIT_WORD = r"(?:" + "|".join(sorted(set(_DIGIT_WORDS), key=len, reverse=True)) + r")"
# Three or more digit words in a row, joined by spaces, dashes or commas.
_SPELLED = re.compile(rf"\b{_DIGIT_WORD}(?:[\s,\-\u2013]+{_DIGIT_WORD}){{2,}}\b", re.IGNORECASE)
# Digits in groups: "7-8-1-5", "18-24-26", "6 0 3 8", "552 918", "4.7.1.9" (two or more groups).
_GROUPS = re.compile(r"(?<![\w.+])\d{1,4}(?:(?:\s?[-\u2013.]\s?|\s)\d{1,4}){1,5}[#*]?(?![\w])")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+", re.IGNORECASE)
_PHONE = re.compile(r"\+\d[\d\s().-]{6,}\d")
_TIME = re.compile(r"\b\d{1,2}[:h.]\d{2}(?:\s?[ap]\.?m\.?)?\b|\b\d{1,2}\s?[ap]\.?m\.?\b", re.IGNORECASE)
# Dates as people write them: a year first with dashes, or day and month first with dots or slashes
# ("18-24-26" is a lock combination, not a date).
_DATE = re.compile(
    r"\b(?:\d{4}-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])"
    r"|(?:0?[1-9]|[12]\d|3[01])([./])(?:0?[1-9]|1[0-2])\1(?:\d{4}|\d{2}))\b"
)
# Ordinals and centuries ("19th-century", "3e étage", "2º piso").
_ORDINAL = re.compile(r"\b\d{1,4}(?:st|nd|rd|th|e|er|re|ère|ème|eme|º|ª|o|a)\b(?:-\w+)?", re.IGNORECASE)
# Years ("in 2025", "since 1998"): a number of that shape is far more often a year than a PIN.
_YEAR = re.compile(r"(?<![\w.,:/-])(?:19|20)\d{2}(?!\w|[.,:/-]\d|[#*])")
# A number joined to its unit or noun ("40-person", "3-day", "10-minute").
_MEASURE = re.compile(r"\b\d+-[^\W\d_]{2,}\b")
# Quantities with their unit ("68.5 square metres", "4000 kronor", "16 GB").
_QUANTITY = re.compile(
    r"\b\d[\d,.]*\s?(?:square|sq|m²|m2|metres?|meters?|km|kg|g|mg|ml|l|cm|mm|mb|gb|tb|kb|kronor|kroner|kr|chf|yen"
    r"|pounds?|pesos?|francs?|zł|złoty|percent|per ?cent|prozent|pour ?cent|por ?ciento|minutes?|hours?|days?|weeks?"
    r"|months?|years?|people|persons?|personen|personnes|personas)\b",
    re.IGNORECASE,
)
# Counts with thousands separators ("3,000 requests", "12.500 Anfragen").
_COUNT = re.compile(r"\b\d{1,3}(?:[,.]\d{3})+\b")
_MONEY = re.compile(r"(?<!\w)[$€£]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:[$€£%]|eur|euros?|usd|dollars?|k\b)", re.IGNORECASE)
_VERSION = re.compile(r"\bv?\d+(?:\.\d+){1,3}\b")
# Any other run of non-space characters holding a digit, or letters in mixed case inside a word.
_TOKEN = re.compile(r"[^\s,;:()\[\]{}\"'«»“”]+")


_HYPHENATED_NAME = re.compile(r"^[A-Z][a-zà-ÿ]+(?:-[A-Z][a-zà-ÿ]+)+$")  # "Pemberton-Oyelaran", "Saint-Étienne"
_PASSWORD_MANAGERS = frozenset({"1password", "bitwarden", "keepass", "keepassxc", "lastpass", "dashlane", "enpass"})
_CASE_TURN = re.compile(r"[a-zà-ÿ][A-ZÀ-Þ]")
_TAG = re.compile(r"^[#@][a-z][a-z0-9_.-]*$")  # "#billing-data", "@noor"


def _token_shape(token: str) -> str | None:
    core = token.rstrip(".!?")
    if not core or _HYPHENATED_NAME.match(core) or _TAG.match(core):  # a name, a #channel or an @handle
        return None
    digits = sum(c.isdigit() for c in core)
    letters = sum(c.isalpha() for c in core)
    symbols = len(core) - digits - letters
    # Lower case then upper case inside a word ("WolkeTulip", "mLDej"); "SIM-only" is no such mix.
    inner_upper = bool(_CASE_TURN.search(core))
    if digits and not letters and digits <= 2:
        return None  # "+34", "#7", "5%": too short to open anything
    if core.lower() in _PASSWORD_MANAGERS:
        return None  # where passwords are kept, not a password
    if digits and not letters and not symbols:
        return f"d{min(len(core), 7)}"
    if digits and not letters:
        return f"d{min(digits, 7)}s"
    if digits and letters and len(core) < 4:
        return None  # "4B", "X1", "B2": a flat, a model or a level, too short to open anything
    if digits and letters:
        # "gl4c13r8244", "TulipCobalt13", "MOVISTAR_3A8F", "OPS-1177": the head tells them apart.
        kind = "mixed" if letters >= 3 and digits >= 2 else "tagged"
        return f"{kind}{'s' if symbols else ''}{'l' if len(core) >= 12 else ''}"
    if inner_upper and letters >= 6 and not core.isupper():
        return f"camel{'s' if symbols else ''}"
    if symbols and letters >= 4 and any(c in "!#$%&*?@^~" for c in core):
        return "symbols"
    return None


_SPANS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("url", _URL),
    ("email", _EMAIL),
    ("phone", _PHONE),
    ("money", _MONEY),
    ("date", _DATE),
    ("time", _TIME),
    ("version", _VERSION),
    ("quantity", _QUANTITY),
    ("year", _YEAR),
    ("measure", _MEASURE),
    ("count", _COUNT),
    ("ordinal", _ORDINAL),
    ("spelled", _SPELLED),
    ("groups", _GROUPS),
)
PLACEHOLDER = re.compile(r"⟨(\w+)⟩")
# Shapes that cannot hold a credential on their own (a product name in camel case, "SQLite", neither).
_NOT_VALUES = frozenset(
    (
        "d1 d2 camel ordinal longgroups shortgroups quantity year measure url email phone money date time version count"
    ).split()
)


def _span_shape(name: str, value: str) -> str:
    # Digits in groups that add up to nine or more are a phone or account number's shape (a card or an
    # IBAN is the checksum rules' to find); a code or a key press sequence is shorter.
    # Two or fewer digits ("shelf 0-1", "a 2-1 win") open nothing.
    if name != "groups":
        return name
    digits = sum(c.isdigit() for c in value)
    return "longgroups" if digits >= 9 else "shortgroups" if digits < 3 else name


def _shapes(text: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    taken = [False] * len(text)
    for name, pattern in _SPANS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(taken[start:end]):
                continue
            spans.append((start, end, _span_shape(name, match.group())))
            taken[start:end] = [True] * (end - start)
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        if any(taken[start:end]):
            continue
        shape = _token_shape(match.group())
        if shape:
            spans.append((start, end, shape))
    return sorted(spans)


def mask(text: str) -> str:
    """`text` with every value written as `⟨shape⟩`."""
    out, at = [], 0
    for start, end, shape in _shapes(text):
        out.append(text[at:start])
        out.append(f"⟨{shape}⟩")
        at = end
    out.append(text[at:])
    return "".join(out)


def value_windows(text: str, words: int = 6) -> list[str]:
    """Each value that could hold a credential, masked, with the `words` words either side."""
    tokens = mask(text).split()
    windows = []
    for i, token in enumerate(tokens):
        shapes = PLACEHOLDER.findall(token)
        if any(shape not in _NOT_VALUES for shape in shapes):
            windows.append(" ".join(tokens[max(0, i - words) : i + words + 1]))
    return windows


def value_shapes(text: str) -> list[str]:
    """The shapes of the values in `text` that could hold a credential."""
    return [shape for _, _, shape in _shapes(text) if shape not in _NOT_VALUES]
