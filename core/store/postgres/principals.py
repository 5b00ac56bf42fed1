"""Principals and their tokens, on PostgreSQL. Only a token's sha256 is ever stored."""

from __future__ import annotations

from typing import Any

from memvault.core.store.postgres.connection import Connection


def fetch(conn: Connection, name: str) -> dict[str, Any] | None:
    return conn.execute(
        "SELECT name, surface, workspace_id, created_at, revoked_at FROM principals WHERE name = %s", (name,)
    ).fetchone()


def upsert(conn: Connection, name: str, surface: str, workspace_id: str | None, now: str) -> None:
    """Create the principal, or bring a revoked one back with the given surface and workspace."""
    conn.execute(
        "INSERT INTO principals (name, surface, workspace_id, created_at) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (name) DO UPDATE SET surface = excluded.surface, workspace_id = excluded.workspace_id,"
        " revoked_at = NULL",
        (name, surface, workspace_id, now),
    )


def add_token(conn: Connection, token_hash: str, principal: str, now: str) -> None:
    conn.execute(
        "INSERT INTO tokens (token_hash, principal, created_at) VALUES (%s, %s, %s)", (token_hash, principal, now)
    )


def revoke(conn: Connection, name: str, now: str) -> int:
    """Revoke the principal and every live token of it; the number of tokens revoked."""
    conn.execute("UPDATE principals SET revoked_at = %s WHERE name = %s AND revoked_at IS NULL", (now, name))
    cursor = conn.execute("UPDATE tokens SET revoked_at = %s WHERE principal = %s AND revoked_at IS NULL", (now, name))
    return int(cursor.rowcount)


def by_token_hash(conn: Connection, token_hash: str) -> dict[str, Any] | None:
    """The live principal a live token belongs to (with the stored hash, for a constant-time check)."""
    return conn.execute(
        "SELECT t.token_hash, p.name, p.surface, p.workspace_id FROM tokens t"
        " JOIN principals p ON p.name = t.principal"
        " WHERE t.token_hash = %s AND t.revoked_at IS NULL AND p.revoked_at IS NULL",
        (token_hash,),
    ).fetchone()


def list_all(conn: Connection) -> list[dict[str, Any]]:
    """Every principal by name, in byte order (`COLLATE "C"`) as SQLite sorts, whatever the database's locale."""
    return conn.execute(
        "SELECT p.name, p.surface, p.workspace_id, p.created_at, p.revoked_at,"
        " (SELECT count(*) FROM tokens t WHERE t.principal = p.name AND t.revoked_at IS NULL) AS live_tokens"
        ' FROM principals p ORDER BY p.name COLLATE "C"'
    ).fetchall()
