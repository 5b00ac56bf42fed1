"""Why a write waits, was refused or is kept sensitive: the words the app and the CLI share.

The writer words its reasons whole (core/writer/writes.py), e.g. "sensitive (health, beliefs, ...):
waits for the person's approval, then stays local_only". A list shows their first words ("sensitive",
"review-before-write", "a new domain waits for review"); the whole reason is on hover in the app and in
`--json` at the CLI. No Qt here: `memvault proposals list` imports this module too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from memvault.core.vocabulary.model import Sensitivity
from memvault.core.writer.writes import SENSITIVE_WAITS

SENSITIVE = Sensitivity.SENSITIVE.value  # the badge's word, in the app and at the CLI ("[sensitive]")
WHY_WIDTH = 28  # the most a list shows of the reason's first words
NO_REASON = "no reason recorded"  # corrections, archives, purges and older proposals carry none
REFUSED = "refused: "  # how the writer's gate begins a refusal
# What the writer counts as sensitive, in its own words (the brackets of its reason).
_MATTERS = re.search(r"\(([^)]*)\)", SENSITIVE_WAITS)
SENSITIVE_MATTERS = _MATTERS.group(1) if _MATTERS else "health, beliefs and other private matters"


def is_sensitive(values: Mapping[str, Any] | None) -> bool:
    """A record, or a proposal's draft, judged (or marked) sensitive."""
    return values is not None and values.get("sensitivity") == SENSITIVE


def proposed_draft(proposal: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record an add proposal would write ({} for the other kinds)."""
    draft = proposal["payload"].get("draft") if proposal["kind"] == "add" else None
    return draft if isinstance(draft, Mapping) else {}


def waits_because(proposal: Mapping[str, Any]) -> str:
    """The writer's whole reason for staging this proposal ("" when it carries none)."""
    return " ".join(str(proposal["payload"].get("waits_because") or "").split())


def why_waits(proposal: Mapping[str, Any]) -> str:
    """Why it waits, in its first words: what comes before the reason's colon and its brackets."""
    first = waits_because(proposal).split(":", maxsplit=1)[0].split(" (", maxsplit=1)[0].strip()
    return first if len(first) <= WHY_WIDTH else first[: WHY_WIDTH - 1].rstrip() + "…"


def refusal(reason: str) -> str:
    """A refusal said as the outcome: the gate's reason without its "refused: "."""
    return reason[len(REFUSED) :] if reason.startswith(REFUSED) else reason


def kept_sensitive(scope: str) -> str:
    """What a sensitive record the person wrote is, and who may read it (the writer's words for an add)."""
    return f"{SENSITIVE} ({SENSITIVE_MATTERS}): kept {scope}"
