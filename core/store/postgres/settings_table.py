"""The settings table (values as JSON text, as in the SQLCipher store)."""

from __future__ import annotations

import json
from typing import Any

from memvault.core.store.postgres.connection import Connection


def read(conn: Connection, name: str) -> Any | None:
    row = conn.execute("SELECT value FROM settings WHERE name = %s", (name,)).fetchone()
    return None if row is None else json.loads(row["value"])


def write(conn: Connection, name: str, value: Any) -> None:
    conn.execute(
        "INSERT INTO settings (name, value) VALUES (%s, %s) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        (name, json.dumps(value)),
    )


def forget(conn: Connection, name: str) -> None:
    conn.execute("DELETE FROM settings WHERE name = %s", (name,))


def read_all(conn: Connection) -> dict[str, Any]:
    return {row["name"]: json.loads(row["value"]) for row in conn.execute("SELECT name, value FROM settings")}
