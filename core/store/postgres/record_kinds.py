"""The tables that index records by kind: decisions, unresolved items, project states."""

from __future__ import annotations

from memvault.core.store.postgres.connection import Connection


def add_decision(conn: Connection, memory_id: str, project_id: str | None, decided_at: str) -> None:
    conn.execute(
        "INSERT INTO decisions (memory_id, project_id, decided_at) VALUES (%s, %s, %s)",
        (memory_id, project_id, decided_at),
    )


def add_unresolved(conn: Connection, memory_id: str, project_id: str | None, kind: str, due_at: str | None) -> None:
    conn.execute(
        "INSERT INTO unresolved_items (memory_id, project_id, kind, due_at) VALUES (%s, %s, %s, %s)",
        (memory_id, project_id, kind, due_at),
    )


def add_project_state(conn: Connection, project_id: str, memory_id: str, recorded_at: str) -> None:
    conn.execute(
        "INSERT INTO project_states (project_id, memory_id, recorded_at) VALUES (%s, %s, %s)",
        (project_id, memory_id, recorded_at),
    )


def close_unresolved(conn: Connection, memory_id: str, now: str) -> None:
    conn.execute(
        "UPDATE unresolved_items SET resolved_at = %s WHERE memory_id = %s AND resolved_at IS NULL", (now, memory_id)
    )


def reopen_unresolved(conn: Connection, memory_id: str) -> None:
    conn.execute("UPDATE unresolved_items SET resolved_at = NULL WHERE memory_id = %s", (memory_id,))
