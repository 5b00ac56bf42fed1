"""SQL for the settings table (values as JSON)."""

from __future__ import annotations

import json
from typing import Any

from memvault.core.store.sqlcipher.connection import Connection


def read(conn: Connection, name: str) -> Any | None:
    row = conn.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
    return None if row is None else json.loads(row[0])


def write(conn: Connection, name: str, value: Any) -> None:
    conn.execute(
        "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        (name, json.dumps(value)),
    )


def forget(conn: Connection, name: str) -> None:
    conn.execute("DELETE FROM settings WHERE name = ?", (name,))


def read_all(conn: Connection) -> dict[str, Any]:
    return {row[0]: json.loads(row[1]) for row in conn.execute("SELECT name, value FROM settings")}
