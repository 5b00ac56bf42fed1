"""SQL reading the retrieval log's shadow rows (ids, scores, latency: the log never holds text)."""

from __future__ import annotations

import json

from memvault.core.store.rows import ShadowRow
from memvault.core.store.sqlcipher.connection import Connection


def shadow_rows(conn: Connection, since: str) -> list[ShadowRow]:
    rows = conn.execute(
        "SELECT time, principal, ids, scores, latency_ms FROM retrieval_log WHERE shadow = 1 AND time >= ?"
        " ORDER BY time, id",
        (since,),
    ).fetchall()
    return [ShadowRow(r[0], r[1], json.loads(r[2]), json.loads(r[3]), float(r[4])) for r in rows]
