"""The change feed: the event log read forward from a cursor (an event id), ids only.

Every write transaction holds the store's write lock (`store.WRITE_LOCK`), so event ids commit in
increasing order on every machine: "every event after id N" never skips one that commits later.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.visibility import visible_clause
from memvault.core.vocabulary.model import Caller


def cursor(conn: Connection) -> int:
    """The id of the newest committed event (0 for an empty log)."""
    row = conn.execute("SELECT coalesce(max(id), 0) AS id FROM events").fetchone()
    return int(row["id"]) if row else 0


def after(conn: Connection, since: int, limit: int) -> list[dict[str, Any]]:
    """Events after `since`, oldest first, with what the feed needs from their record and proposal."""
    rows = conn.execute(
        "SELECT e.id, e.time, e.surface, e.action, e.memory_id, e.details,"
        " m.revision, m.domain AS record_domain, p.principal AS proposer"
        " FROM events e"
        " LEFT JOIN memories m ON m.id = e.memory_id"
        " LEFT JOIN proposals p"
        "  ON p.id = coalesce(e.details::jsonb ->> 'proposal_id', e.details::jsonb ->> 'request_id')"
        " WHERE e.id > %s ORDER BY e.id LIMIT %s",
        (since, limit),
    ).fetchall()
    return [dict(row) for row in rows]


def visible_ids(conn: Connection, caller: Caller, ids: Sequence[str]) -> set[str]:
    """Which of `ids` name records that exist and that `caller` may see."""
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT m.id FROM memories m WHERE m.id = ANY(%s) AND {clause}", [list(ids), *params]
    ).fetchall()
    return {row["id"] for row in rows}
