"""Choosing a domain (region) for a write that names none.

First version: the domain most represented among the record's lexical neighbours,
else `general`. The retrieval brain replaces this with embedding centroids.
"""

from __future__ import annotations

from collections import Counter

from memvault.core.retrieval.query import fts_query
from memvault.core.store.connection import Connection

DEFAULT_DOMAIN = "general"


def assign_domain(conn: Connection, statement: str) -> str:
    match = fts_query(statement)
    if match is None:
        return DEFAULT_DOMAIN
    rows = conn.execute(
        "SELECT m.domain FROM memory_fts f JOIN memories m ON m.rowid = f.rowid"
        " WHERE memory_fts MATCH ? AND m.status IN ('current', 'partial', 'disputed')"
        " ORDER BY bm25(memory_fts) LIMIT 10",
        (match,),
    ).fetchall()
    votes = Counter(row[0] for row in rows)
    return votes.most_common(1)[0][0] if votes else DEFAULT_DOMAIN
