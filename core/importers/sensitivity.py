"""How private an imported statement looks: words about health, money, faith, family or home.

A flag for the review report and the record's `sensitivity`, not a judgement: the person sees
every flagged candidate before committing, and automatic writes never take sensitive records.
"""

from __future__ import annotations

import re

from memvault.core.vocabulary.model import Sensitivity

_SENSITIVE = re.compile(
    r"\b(?:diagnos\w*|therap\w*|medication|medicine|prescri\w*|depress\w*|anxiety|illness|disease|cancer|"
    r"pregnan\w*|surgery|hospital|psychiatr\w*|religio\w*|faith|sexual\w*|gay|lesbian|bisexual|transgender|"
    r"divorce|debt|lawsuit|arrest\w*|criminal|immigration status|visa status|salary|income)\b",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:my (?:wife|husband|partner|sister|brother|daughter|son|mother|father|mum|mom|dad|kids?|children|"
    r"family|address|home|flat|apartment|birthday|doctor|dentist)|allerg\w*|i live\b|born)\b",
    re.IGNORECASE,
)


def sensitivity_of(statement: str) -> Sensitivity:
    if _SENSITIVE.search(statement):
        return Sensitivity.SENSITIVE
    if _PERSONAL.search(statement):
        return Sensitivity.PERSONAL
    return Sensitivity.NORMAL
