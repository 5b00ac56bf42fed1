"""The records written beside a record on PostgreSQL: the turns around it in the same conversation."""

from __future__ import annotations

from collections.abc import Sequence

from memvault.core.store.postgres.connection import Connection


def written_beside(conn: Connection, ids: Sequence[str]) -> list[tuple[str, str]]:
    """(id, neighbour id) for each record written just before or after one of `ids` with the same
    event time and source: the next and previous turn of one session, stored one after the other.

    The record before and after are the nearest rowids either way: a PostgreSQL identity skips the
    values a rolled-back write took, where SQLite's next rowid follows the last row stored.
    Records without an event time have no session to share. Access and filters are the caller's
    business (`search.filtered`): this only names the pairs.
    """
    if not ids:
        return []
    rows = conn.execute(
        "SELECT a.id AS id, b.id AS other FROM memories a CROSS JOIN LATERAL ("
        "(SELECT p.id, p.event_time, p.source FROM memories p WHERE p.rowid < a.rowid ORDER BY p.rowid DESC LIMIT 1)"
        " UNION ALL"
        " (SELECT n.id, n.event_time, n.source FROM memories n WHERE n.rowid > a.rowid ORDER BY n.rowid LIMIT 1)"
        ") b WHERE a.id = ANY(%s) AND a.event_time IS NOT NULL"
        " AND b.event_time = a.event_time AND b.source IS NOT DISTINCT FROM a.source",
        (list(ids),),
    ).fetchall()
    return [(str(r["id"]), str(r["other"])) for r in rows]
