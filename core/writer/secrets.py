"""Secret detection for the writer gate: nothing that looks like a credential is ever stored.

Provider tokens and key blocks come from detect-secrets' detectors; card numbers
(Luhn) and IBANs are validated with python-stdnum; what no library names for
prose (a password or a one-time code said in a sentence, a random high-entropy
string) is matched here. Findings name the class of secret, never the secret.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache
from typing import Any

# detect-secrets' entropy detectors flag ordinary prose when scanning a single line,
# the keyword detector expects source code, and a public IP address is not a secret.
_DETECT_SECRETS_SKIPPED = ("HighEntropy", "KeywordDetector", "IPPublicDetector")

_PASSWORD = re.compile(
    r"\b(?:password|passwd|passphrase|pwd|passcode|pin(?:\s+code)?)\b\s*(?:is|was|:|=|->)\s*\S{3,}",
    re.IGNORECASE,
)
# "api_key=...", "token: ...", "my secret key is ...": a named credential with a value holding digits.
_NAMED_CREDENTIAL = re.compile(
    r"\b(?:api[_ -]?key|access[_ -]?key|secret(?:[_ -]?key)?|(?:auth|access|bearer|api)?[_ -]?token|bearer)\b"
    r"\s*(?:is|was|:|=|->)\s*[\"']?(?=[A-Za-z0-9_\-./+]*\d)[A-Za-z0-9_\-./+]{12,}",
    re.IGNORECASE,
)
_ONE_TIME_CODE = re.compile(
    r"\b(?:otp|one[- ]time\s+(?:pass)?code|verification\s+code|2fa\s+code|auth(?:entication)?\s+code"
    r"|security\s+code|login\s+code|sms\s+code|cvv|cvc)\b\D{0,12}\d{3,8}\b",
    re.IGNORECASE,
)
_CARD_CANDIDATE = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")
_IBAN_CANDIDATE = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b")
_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-.]{24,}")
_HEX = re.compile(r"\b[0-9a-fA-F]{32,}\b")
_SECRET_WORDS = re.compile(r"\b(?:key|secret|token|password|credential|api|bearer|auth)\b", re.IGNORECASE)


@cache
def _detect_secrets_plugins() -> list[dict[str, Any]]:
    from detect_secrets.core.plugins.util import (  # noqa: PLC0415 - ~0.2 s import, only on writes
        get_mapping_from_secret_type_to_class,
    )

    plugins: list[type] = list(get_mapping_from_secret_type_to_class().values())
    names = {plugin.__name__ for plugin in plugins}
    return [{"name": n} for n in sorted(names) if not any(s in n for s in _DETECT_SECRETS_SKIPPED)]


def _provider_secrets(text: str) -> list[str]:
    from detect_secrets.core.scan import scan_line  # noqa: PLC0415
    from detect_secrets.settings import transient_settings  # noqa: PLC0415

    with transient_settings({"plugins_used": _detect_secrets_plugins()}):
        return sorted({finding.type for line in text.splitlines() for finding in scan_line(line)})


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _has_card_number(text: str) -> bool:
    from stdnum import luhn  # noqa: PLC0415

    for match in _CARD_CANDIDATE.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits):
            return True
    return False


def _has_iban(text: str) -> bool:
    from stdnum import iban  # noqa: PLC0415

    # The candidate pattern is greedy and runs on into the next word ("... 32 MONTHLY"):
    # try every shorter ending too (an IBAN has at least 15 characters).
    return any(
        iban.is_valid(m.group()[:end])
        for m in _IBAN_CANDIDATE.finditer(text.upper())
        for end in range(len(m.group()), 14, -1)
    )


def _has_random_token(text: str) -> bool:
    for match in _TOKEN.finditer(text):
        token = match.group()
        classes = sum(bool(re.search(p, token)) for p in ("[a-z]", "[A-Z]", "[0-9]"))
        if classes == 3 and _entropy(token) >= 4.0:
            return True
    # Long hex is common and harmless (commit ids, checksums) unless it is called a key.
    return bool(_HEX.search(text) and _SECRET_WORDS.search(text))


def find_secrets(text: str) -> list[str]:
    """The classes of secret found in `text` (empty when it holds none)."""
    found = _provider_secrets(text)
    if _PASSWORD.search(text):
        found.append("password")
    if _NAMED_CREDENTIAL.search(text):
        found.append("credential")
    if _ONE_TIME_CODE.search(text):
        found.append("one-time code")
    if _has_card_number(text):
        found.append("card number")
    if _has_iban(text):
        found.append("bank account number (IBAN)")
    if not found and _has_random_token(text):
        found.append("high-entropy string")
    return found
