"""SQL for the records written beside a record: the turns around it in the same conversation."""

from __future__ import annotations

from collections.abc import Sequence

from memvault.core.store.sqlcipher.connection import Connection


def written_beside(conn: Connection, ids: Sequence[str]) -> list[tuple[str, str]]:
    """(id, neighbour id) for each record written just before or after one of `ids` with the same
    event time and source: the next and previous turn of one session, stored one after the other.

    Records without an event time have no session to share. Access and filters are the caller's
    business (`search.filtered`): this only names the pairs.
    """
    if not ids:
        return []
    rows = conn.execute(
        "SELECT a.id, b.id FROM memories a JOIN memories b ON b.rowid IN (a.rowid - 1, a.rowid + 1)"
        f" WHERE a.id IN ({','.join('?' * len(ids))}) AND a.event_time IS NOT NULL"
        " AND b.event_time = a.event_time AND b.source IS a.source",
        list(ids),
    ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]
