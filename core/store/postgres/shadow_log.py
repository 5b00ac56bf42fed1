"""The retrieval log's shadow rows (ids, scores, latency: the log never holds text)."""

from __future__ import annotations

import json

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.rows import ShadowRow


def shadow_rows(conn: Connection, since: str) -> list[ShadowRow]:
    rows = conn.execute(
        "SELECT time, principal, ids, scores, latency_ms FROM retrieval_log WHERE shadow = 1 AND time >= %s"
        " ORDER BY time, id",
        (since,),
    ).fetchall()
    return [
        ShadowRow(r["time"], r["principal"], json.loads(r["ids"]), json.loads(r["scores"]), float(r["latency_ms"]))
        for r in rows
    ]
