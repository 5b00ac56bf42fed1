"""The access rule, as this engine's SQL (`shared_sql.visible_clause`): every read path uses it."""

from __future__ import annotations

from memvault.core.store import shared_sql
from memvault.core.vocabulary.model import Caller


def visible_clause(caller: Caller, alias: str = "m") -> tuple[str, list[object]]:
    return shared_sql.visible_clause(caller, alias, "%s")
