"""Card, IBAN and routing numbers, however they are written (dots, slashes, dashes, spaces).

Numbers are checked by their check digits (python-stdnum: Luhn, IBAN, ABA), so an order
reference or a phone number that merely has as many digits is not taken for one.
"""

from __future__ import annotations

import re

from memvault.core.writer.secret_text import digits_of

_SEPARATOR = r"[\s.\-/_·•,]"
_CARD_CANDIDATE = re.compile(rf"(?<![\w.])(?:\d{_SEPARATOR}{{0,2}}){{12,18}}\d(?![\d])")
_IBAN_CANDIDATE = re.compile(rf"\b[A-Z]{{2}}{_SEPARATOR}?\d{{2}}(?:{_SEPARATOR}{{0,3}}[A-Z0-9]){{11,30}}")
_NINE_DIGITS = re.compile(r"(?<!\d)(?<!\d[\s-])\d{9}(?![\s-]?\d)")  # written whole: grouped digits are a phone number
_BANK_WORDS = re.compile(
    r"\b(?:bank|routing|aba|wire|transfer|deposit|checking|savings|account|überweisung|konto|virement|banque"
    r"|compte|transferencia|cuenta|banco)\b",
    re.IGNORECASE,
)
_PHONE = re.compile(r"\+\d[\d\s().-]{6,}\d")
_DATE_LIKE = re.compile(r"^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$")


def has_card_number(folded: str) -> bool:
    from stdnum import luhn  # noqa: PLC0415 - only on writes

    for match in _CARD_CANDIDATE.finditer(folded):
        digits = digits_of(match.group())
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits) and not _DATE_LIKE.match(match.group().strip()):
            return True
    return False


def has_iban(folded: str) -> bool:
    from stdnum import iban  # noqa: PLC0415

    # The candidate runs on into the next word ("... 32 MONTHLY"): try every shorter ending too.
    for match in _IBAN_CANDIDATE.finditer(folded.upper()):
        compact = re.sub(_SEPARATOR, "", match.group())
        if any(iban.is_valid(compact[:end]) for end in range(len(compact), 14, -1)):
            return True
    return False


def has_routing_number(folded: str) -> bool:
    """A valid ABA routing number in a sentence about banking."""
    from stdnum.us import rtn  # noqa: PLC0415

    if not _BANK_WORDS.search(folded):
        return False
    # A bank's phone number is not its routing number: international numbers are left out.
    unphoned = _PHONE.sub(" ", folded)
    return any(rtn.is_valid(digits_of(m.group())) for m in _NINE_DIGITS.finditer(unphoned))
