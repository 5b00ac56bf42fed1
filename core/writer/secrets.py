"""Secret detection for the writer gate: nothing that looks like a credential is ever stored.

Provider tokens and key blocks come from detect-secrets' detectors; card numbers
(Luhn) and IBANs are validated with python-stdnum; a random high-entropy string
and the common phrasings of a password are matched here; what people say in
their own words (a door code as what to press, a PIN in words, a wifi key beside
its network) is judged by a trained head over each value and the words around it
(secret_cues.py). Findings name the class of secret, never the secret.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import threading
from collections import Counter
from functools import cache
from typing import Any

from memvault.core.writer.ngram_head import NgramHead
from memvault.core.writer.secret_cues import secret_view
from memvault.core.writer.secret_numbers import has_card_number, has_iban, has_routing_number
from memvault.core.writer.secret_phrases import phrase_secrets
from memvault.core.writer.secret_text import fold
from memvault.core.writer.seed_phrase import has_seed_phrase

# detect-secrets' entropy detectors flag ordinary prose when scanning a single line,
# the keyword detector expects source code, and a public IP address is not a secret.
_DETECT_SECRETS_SKIPPED = ("HighEntropy", "KeywordDetector", "IPPublicDetector")

_BASE64 = re.compile(r"(?<![\w+/])[A-Za-z0-9+/]{16,}={0,2}(?![\w+/])")
_SPLIT_PARTS = re.compile(r"\b[A-Za-z0-9_\-]{3,12}(?:\s[A-Za-z0-9_\-]{3,12}){2,8}\b")
_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-.]{24,}")
_HEX = re.compile(r"\b[0-9a-fA-F]{32,}\b")
# A value said in a sentence that opens something (tests/writer_eval/train_heads.py trains it).
SECRET_HEAD = NgramHead("secret", "a9881560eab3b77e8e8a27c23da2822b4b3e3fb8e85d4a1c5f5ee1bd1b846a65")
_SECRET_WORDS = re.compile(r"\b(?:key|secret|token|password|credential|api|bearer|auth)\b", re.IGNORECASE)


_import_lock = threading.Lock()


def _load_detect_secrets() -> None:
    """detect-secrets' modules import one another in a circle: two threads importing them at once
    (a server's warm-up and its first write) can meet a half-made module and fail with ImportError.
    One thread imports them; once loaded this is a lock and a few dictionary look-ups."""
    with _import_lock:
        import detect_secrets.core.plugins.util  # noqa: PLC0415 - ~0.2 s import, only on writes
        import detect_secrets.core.scan  # noqa: PLC0415
        import detect_secrets.plugins.base  # noqa: PLC0415
        import detect_secrets.plugins.jwt  # noqa: PLC0415
        import detect_secrets.settings  # noqa: F401, PLC0415


@cache
def _detect_secrets_plugins() -> list[dict[str, Any]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class  # noqa: PLC0415

    plugins: list[type] = list(get_mapping_from_secret_type_to_class().values())
    names = {plugin.__name__ for plugin in plugins}
    return [{"name": n} for n in sorted(names) if not any(s in n for s in _DETECT_SECRETS_SKIPPED)]


_settings_lock = threading.Lock()


def _use_our_plugins() -> None:
    """detect-secrets reads process-wide settings: ours are set once and checked on every scan
    (setting and restoring them around each scan, as `transient_settings` does, cost ~1 ms a write:
    it clears every cache the detectors keep)."""
    _load_detect_secrets()
    from detect_secrets.settings import cache_bust, configure_settings_from_baseline, get_settings  # noqa: PLC0415

    plugins = _detect_secrets_plugins()
    wanted = {plugin["name"] for plugin in plugins}
    with _settings_lock:
        if set(get_settings().plugins) != wanted:
            cache_bust()  # a fresh settings object: no plugin configured before stays
            configure_settings_from_baseline({"plugins_used": plugins})


@cache
def _finding_patterns() -> tuple[re.Pattern[str], ...] | None:
    """Patterns one of which every provider finding matches: each of our detectors reports only
    what its own denylist patterns match (RegexBasedDetector; the JWT detector then also checks
    the token's form). None if a detector does not work so: then every line is scanned."""
    _use_our_plugins()
    from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector  # noqa: PLC0415
    from detect_secrets.plugins.jwt import JwtTokenDetector  # noqa: PLC0415
    from detect_secrets.settings import get_plugins  # noqa: PLC0415

    narrowing = (RegexBasedDetector.analyze_string, JwtTokenDetector.analyze_string)
    plugins = get_plugins()
    for plugin in plugins:
        kind = type(plugin)
        if not isinstance(plugin, RegexBasedDetector) or kind.analyze_line is not BasePlugin.analyze_line:
            return None
        if kind.analyze_string not in narrowing:
            return None
    return tuple(pattern for plugin in plugins for pattern in plugin.denylist)


def _could_hold_provider_secret(line: str) -> bool:
    """Cheap and no weaker than the scan: a line no detector's pattern matches has no finding
    (scanning a line costs ~130 us, these ~45 searches ~16 us)."""
    patterns = _finding_patterns()
    return patterns is None or any(pattern.search(line) for pattern in patterns)


def _provider_secrets(variants: list[str]) -> list[str]:
    lines = [line for text in variants if text for line in text.splitlines()]
    _use_our_plugins()
    lines = [line for line in lines if _could_hold_provider_secret(line)]
    if not lines:
        return []
    from detect_secrets.core.scan import scan_line  # noqa: PLC0415

    return sorted({finding.type for line in lines for finding in scan_line(line)})


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _has_random_token(text: str) -> bool:
    for match in _TOKEN.finditer(text):
        token = match.group()
        classes = sum(bool(re.search(p, token)) for p in ("[a-z]", "[A-Z]", "[0-9]"))
        if classes == 3 and _entropy(token) >= 4.0:
            return True
    # Long hex is common and harmless (commit ids, checksums) unless it is called a key.
    return bool(_HEX.search(text) and _SECRET_WORDS.search(text))


def _decoded_base64(folded: str) -> str:
    """What base64 runs in the text decode to, when that is text (a key hidden by encoding it)."""
    decoded = []
    for match in _BASE64.finditer(folded):
        token = match.group()
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
            decoded.append(raw.decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError):
            continue
    return "\n".join(d for d in decoded if d.isprintable())


def _compact_runs(folded: str) -> str:
    """Key parts given with spaces or dashes between them, joined again ("AKIA IOSF ODNN 7EXA MPLE")."""
    return _SPLIT_PARTS.sub(lambda m: re.sub(r"[\s]+", "", m.group()), folded)


def _format_secrets(text: str) -> list[str]:
    """Provider key formats, in the text as written, split parts joined, and base64 decoded."""
    return _provider_secrets([text, _compact_runs(text), _decoded_base64(text)])


IN_PROSE = "a code, key or password in a sentence"


def formed_secrets(text: str) -> list[str]:
    """The classes of secret whose form gives them away (key formats, checksums, phrasings, entropy)."""
    folded = fold(text)
    found = _format_secrets(folded)
    found += phrase_secrets(fold(text, line_break=": "))
    if has_card_number(folded):
        found.append("card number")
    if has_iban(folded):
        found.append("bank account number (IBAN)")
    if has_routing_number(folded) and "account or routing number" not in found:
        found.append("account or routing number")
    if has_seed_phrase(folded):
        found.append("wallet seed phrase")
    if not found and (_has_random_token(folded) or _has_random_token(_decoded_base64(folded))):
        found.append("high-entropy string")
    return found


def said_in_prose(text: str) -> bool:
    """A code, key or password said in the person's own words, as the head judges a sentence (a lone
    word, such as a domain name or a tag, is no sentence: its values have no words around them)."""
    folded = fold(text)
    if len(folded.split()) < 3:
        return False
    view = secret_view(folded)
    return bool(view) and SECRET_HEAD.says(view)


def find_secrets(text: str) -> list[str]:
    """The classes of secret found in `text` (empty when it holds none)."""
    return secrets_in([text])


def secrets_in(texts: list[str]) -> list[str]:
    """The classes of secret in texts stored together: forms across them joined (a key split between
    two fields), a sentence judged alone (a domain or a tag is no sentence)."""
    return formed_secrets("\n".join(texts)) or ([IN_PROSE] if any(map(said_in_prose, texts)) else [])
