"""Word families marked in a text, so a trained head weighs a kind of word rather than one word.

A head over character n-grams learns "door" from the sentences it was trained on; marking every
word of the family "lock" with one token (`§lock§`) lets what it learned carry to "Haustür",
"portail" and "puerta". Families are written per judgement (secret_cues.py, sensitive_cues.py) in
the four languages memvault claims; the heads' weights on them are learned.
"""

from __future__ import annotations

import re


class WordFamilies:
    """Named families of words (regular expressions of whole words, case-insensitive)."""

    def __init__(self, families: dict[str, str]) -> None:
        empty = [name for name, words in families.items() if re.fullmatch(f"(?:{words})", "")]
        if empty:  # a stray "||" in a family would mark every position of every text
            raise ValueError(f"word families that match nothing at all: {', '.join(empty)}")
        self.names = tuple(families)
        self._pattern = re.compile(
            # Whole words only, and never inside a value's placeholder (`⟨tagged⟩`).
            "|".join(rf"(?P<{name}>(?<![\w⟨])(?:{words})(?!\w))" for name, words in families.items()),
            re.IGNORECASE,
        )

    def mark(self, text: str) -> str:
        """The text with its family's token after each word of a family."""
        return self._pattern.sub(lambda m: f"{m.group()} §{m.lastgroup}§", text)

    def found(self, text: str) -> list[str]:
        """The families whose words the text holds anywhere, in their fixed order."""
        present = {match.lastgroup for match in self._pattern.finditer(text)}
        return [name for name in self.names if name in present]

    def words(self, text: str, name: str) -> set[str]:
        """The words of family `name` the text holds, lower-cased."""
        return {m.group().lower() for m in self._pattern.finditer(text) if m.lastgroup == name}
