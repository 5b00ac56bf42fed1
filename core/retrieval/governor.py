"""The context governor: whether to search at all, and the limits every search keeps.

- Skip: self-contained requests (arithmetic, general knowledge with nothing personal in it,
  creative writing on a theme of its own, greetings, requests without a word to look up) answer
  `skipped: true` with a reason, before the store is read (`skip_reason`). So do off-topic
  requests, once the router has heard the records and activated nothing (`skip_after_route`):
  no domain and no record of this memory matches them, by words or by meaning.
- Budgets: at most `limit` records and `max_tokens` packet tokens (the packet keeps them); one
  domain takes at most `domain_max_share` of the tokens when several compete; graph expansion
  at most `graph_max_depth` hops (depth shallow: none, normal: one, deep: the setting); the
  candidate pool grows with the depth.
- Deadline: after `search_deadline_ms` the remaining candidate stages are skipped and the
  best so far is returned with `truncated: true` (see `hybrid.Deadline`).
"""

from __future__ import annotations

import re

from memvault.core.retrieval.query import is_personal
from memvault.core.retrieval.router import RouteDecision

_OPERATOR = (
    r"[-+*/^x\u00d7\u00f7%=().,]|times|multiplied\s+by|divided\s+by|plus|minus|over|modulo|mod|"
    r"to\s+the\s+power\s+of|percent\s+of|of|squared|cubed"
)
# A request made only of numbers and operators, symbols or words ("17 times 23"); possessive
# quantifiers keep the match linear in the request's length.
_ARITHMETIC = re.compile(
    r"\s*+(?:what\s+is|what's|whats|calculate|compute|how\s+much\s+is|solve|work\s+out)?+"
    rf"(?:\s++|\d++|{_OPERATOR})*+[?!]?+\s*+",
    re.IGNORECASE,
)
_GENERAL = re.compile(
    r"\b(capital\s+(city\s+)?of|boiling\s+point|freezing\s+point|speed\s+of\s+(light|sound)|"
    r"who\s+(wrote|invented|discovered|painted|composed)|chemical\s+symbol|square\s+root|"
    r"population\s+of|(meaning|definition)\s+of\s+the\s+word|define\s+the\s+word|"
    r"how\s+do\s+you\s+say|translate\b|how\s+many\s+\w+\s+(are\s+)?in\s+(a|an|one)\b|"
    r"what\s+year\s+did|tallest\s+mountain|largest\s+(ocean|planet|country)|"
    r"convert\s+\d|in\s+celsius|in\s+fahrenheit)",
    re.IGNORECASE,
)
# Creative writing on a theme the request gives itself ("write a haiku about autumn leaves"): a
# request that brings in the person ("...for my sister's birthday") is not skipped.
_CREATIVE = re.compile(
    r"^\s*(?:please\s+|can\s+you\s+|could\s+you\s+)?(?:write|compose|make\s+up|come\s+up\s+with|draft)"
    r"(?:\s+me)?\s+(?:a|an|some|another|two|three)\s+(?:\w+\s+)?"
    r"(?:haiku|haikus|poem|poems|limerick|sonnet|song|story|stories|joke|jokes|riddle|rap|verse|lyrics|tongue\s+twister)s?\b",
    re.IGNORECASE,
)
_CHATTER = re.compile(
    r"^\s*(hi|hello|hey|thanks|thank\s+you|ok|okay|good\s+(morning|night|evening)|bye)\b[\s!.?]*$", re.IGNORECASE
)


def skip_reason(text: str, has_terms: bool) -> str | None:
    """Why personal memory cannot help with this request, or None when it may."""
    if not has_terms:
        return "nothing in the request to look up in personal memory"
    if _ARITHMETIC.fullmatch(text) and any(c.isdigit() for c in text):
        return "arithmetic: self-contained, personal memory does not help"
    if _CHATTER.match(text):
        return "greeting or acknowledgement: nothing to look up"
    if _GENERAL.search(text) and not is_personal(text):
        return "general knowledge with nothing personal in it"
    creative = _CREATIVE.match(text)
    if creative and not is_personal(text[creative.end() :]):
        return "creative writing on a theme of its own: personal memory does not help"
    return None


OFF_TOPIC = "off-topic: no domain and no record of this memory matches the request, by words or by meaning"


def skip_after_route(decision: RouteDecision) -> str | None:
    """Why the search stops once routed (the router activated nothing: `router.judged`), or None."""
    return OFF_TOPIC if decision.off_topic else None


DEPTH_HOPS = {"shallow": 0, "normal": 1, "deep": 2}
DEPTH_POOL = {"shallow": 30, "normal": 60, "deep": 120}


def hops_for(depth: str, max_depth: int) -> int:
    return min(DEPTH_HOPS.get(depth, 1), max_depth)


def pool_for(depth: str, limit: int) -> int:
    """How many candidates each stage gathers."""
    return max(DEPTH_POOL.get(depth, 60), limit * 4)
