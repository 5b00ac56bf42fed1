"""How private a statement is, as the writer judges it whatever the caller sent (contract revision 4).

`sensitive` (health, sex life, faith, politics and unions, ethnic origin, genetic and biometric data,
criminal records, money trouble, a child's health or schooling) is judged by a trained head over
the statement with the categories' word families marked (sensitive_cues.py); `personal` (family,
home, routines) by the words that name them. The higher of the writer's and the caller's value wins:
automatic mode stages `sensitive` writes for the person, and a sensitive record defaults to
`local_only`.
"""

from __future__ import annotations

import re

from memvault.core.vocabulary.model import Sensitivity
from memvault.core.writer.ngram_head import NgramHead
from memvault.core.writer.secret_text import fold
from memvault.core.writer.sensitive_cues import sensitive_view

SENSITIVE_HEAD = NgramHead("sensitive", "01e4218d8ef15b7b8efcad8c896c9f359da94b5f9d97eda037a4fc599311cccd")
_RANK = {Sensitivity.NORMAL: 0, Sensitivity.PERSONAL: 1, Sensitivity.SENSITIVE: 2}
_PERSONAL = re.compile(
    r"\b(?:my (?:wife|husband|partner|sister|brother|daughter|son|mother|father|mum|mom|dad|kids?|children|"
    r"family|address|home|flat|apartment|birthday|doctor|dentist)|allerg\w*|i live\b|born"
    r"|meine? (?:frau|mann|partner\w*|schwester|bruder|tochter|sohn|mutter|vater|mama|papa|kinder|familie|adresse"
    r"|wohnung|geburtstag)|ich wohne"
    r"|m(?:a|on|es) (?:femme|mari|partenaire|s(?:œ|oe)ur|frère|fille|fils|mère|père|enfants|famille|adresse"
    r"|appartement|anniversaire)|j'habite"
    r"|mis? (?:esposa|marido|pareja|hermana|hermano|hija|hijo|madre|padre|hijos|familia|dirección|piso"
    r"|cumpleaños)|vivo en)\b",
    re.IGNORECASE,
)


def judged(statement: str) -> Sensitivity:
    """The writer's own judgement of the statement."""
    view = sensitive_view(fold(statement))
    if view and SENSITIVE_HEAD.says(view):
        return Sensitivity.SENSITIVE
    return Sensitivity.PERSONAL if _PERSONAL.search(statement) else Sensitivity.NORMAL


def higher(*values: Sensitivity) -> Sensitivity:
    return max(values, key=_RANK.__getitem__)


def of(statement: str, claimed: Sensitivity = Sensitivity.NORMAL) -> Sensitivity:
    """The statement's sensitivity: the writer's judgement or the caller's value, whichever is higher."""
    return higher(judged(statement), claimed)
