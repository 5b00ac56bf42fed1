"""SQL of the change feed: the event log read forward from a cursor (an event id), ids only.

Event ids come from AUTOINCREMENT inside write transactions, and SQLite lets one writer commit
at a time, so ids become visible in increasing order: "every event after id N" never skips one
that commits later.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.sqlcipher.visibility import visible_clause
from memvault.core.vocabulary.model import Caller


def cursor(conn: Connection) -> int:
    """The id of the newest committed event (0 for an empty log)."""
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0])


def after(conn: Connection, since: int, limit: int) -> list[dict[str, Any]]:
    """Events after `since`, oldest first, with what the feed needs from their record and proposal.

    `revision` and `record_domain` are the record's as it is now (NULL once purged);
    `proposer` is the principal that staged the proposal or purge request the event names.
    """
    rows = conn.execute(
        "SELECT e.id, e.time, e.surface, e.action, e.memory_id, e.details,"
        " m.revision, m.domain AS record_domain, p.principal AS proposer"
        " FROM events e"
        " LEFT JOIN memories m ON m.id = e.memory_id"
        " LEFT JOIN proposals p"
        "  ON p.id = coalesce(json_extract(e.details, '$.proposal_id'), json_extract(e.details, '$.request_id'))"
        " WHERE e.id > ? ORDER BY e.id LIMIT ?",
        (since, limit),
    ).fetchall()
    return [dict(row) for row in rows]


def visible_ids(conn: Connection, caller: Caller, ids: Sequence[str]) -> set[str]:
    """Which of `ids` name records that exist and that `caller` may see."""
    clause, params = visible_clause(caller)
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        rows = conn.execute(
            f"SELECT m.id FROM memories m WHERE m.id IN ({','.join('?' * len(chunk))}) AND {clause}",
            [*chunk, *params],
        ).fetchall()
        found.update(row[0] for row in rows)
    return found
