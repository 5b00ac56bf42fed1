"""Choosing a domain (region) for a write that names none.

First version: the domain most represented among the record's lexical neighbours,
else `general`. The retrieval brain replaces this with embedding centroids.
Only records the writer may see vote: a remote write must not learn the domain of a
local_only record from the domain it is given.
"""

from __future__ import annotations

from collections import Counter

from memvault.core.model import Caller
from memvault.core.retrieval.query import fts_query
from memvault.core.store.connection import Connection
from memvault.core.store.visibility import visible_clause

DEFAULT_DOMAIN = "general"


def assign_domain(conn: Connection, statement: str, caller: Caller) -> str:
    match = fts_query(statement)
    if match is None:
        return DEFAULT_DOMAIN
    clause, params = visible_clause(caller)
    rows = conn.execute(
        "SELECT m.domain FROM memory_fts f JOIN memories m ON m.rowid = f.rowid"
        f" WHERE memory_fts MATCH ? AND m.status IN ('current', 'partial', 'disputed') AND {clause}"
        " ORDER BY bm25(memory_fts) LIMIT 10",
        (match, *params),
    ).fetchall()
    votes = Counter(row[0] for row in rows)
    return votes.most_common(1)[0][0] if votes else DEFAULT_DOMAIN
