"""The append-only event log: who did what to which record, when; never memory text."""

from __future__ import annotations

import json
from typing import Any, cast

from memvault.core.store.postgres.connection import Connection
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import EventRow


def record(
    conn: Connection, caller: Caller, action: str, now: str, memory_id: str | None = None, **details: Any
) -> None:
    conn.execute(
        "INSERT INTO events (time, principal, surface, action, memory_id, details) VALUES (%s, %s, %s, %s, %s, %s)",
        (now, caller.principal, caller.surface.value, action, memory_id, json.dumps(details, sort_keys=True)),
    )


def for_memory(conn: Connection, memory_id: str) -> list[EventRow]:
    rows = conn.execute(
        "SELECT id, time, principal, surface, action, memory_id, details FROM events WHERE memory_id = %s ORDER BY id",
        (memory_id,),
    ).fetchall()
    return [cast(EventRow, {**row, "details": json.loads(row["details"])}) for row in rows]
