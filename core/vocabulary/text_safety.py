"""Hostile text: what an assistant writes cannot steer a terminal or hide words from the person.

Stored text holds no control characters (other than line breaks and tabs) and none of the
bidirectional overrides and isolates that reorder what a reader sees ("Trojan Source"):
`checked` refuses them. `visible` renders whatever non-printable character is still in a
text (older records, names from elsewhere) as a visible `<U+XXXX>` for every human-facing
output, so a person never approves an instruction they could not see.
"""

from __future__ import annotations

import re
import unicodedata

from memvault.core.vocabulary.errors import InvalidArgument

_KEPT = frozenset("\n\t")
# Embeddings, overrides and isolates reorder the text around them; the marks (LRM, RLM, ALM) do not.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_ENDINGS = re.compile(r"\r\n?")
# Shown as they are (besides spaces of every width): the joiners some scripts and emoji need.
_PRINTED_AS_IS = frozenset("\u200c\u200d")


def refused_char(char: str) -> bool:
    """A character no stored text may hold."""
    return char in _BIDI_CONTROLS or (unicodedata.category(char) == "Cc" and char not in _KEPT)


def checked(value: str, name: str) -> str:
    """`value` with Windows line endings made plain, or InvalidArgument naming the first bad character."""
    value = _LINE_ENDINGS.sub("\n", value)
    bad = next((c for c in value if refused_char(c)), None)
    if bad is not None:
        raise InvalidArgument(
            f"{name}: contains a control or text-direction character (U+{ord(bad):04X}); remove it and try again"
        )
    return value


def _shown(char: str) -> str:
    if char in _KEPT or char in _PRINTED_AS_IS or char.isprintable() or unicodedata.category(char) == "Zs":
        return char
    return f"<U+{ord(char):04X}>"


def visible(text: str) -> str:
    """`text` for a person's eyes: every non-printable character but line breaks and tabs made visible."""
    return "".join(_shown(c) for c in text)
