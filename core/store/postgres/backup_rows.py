"""The `backups` table on PostgreSQL: every backup memvault made, so a purge can reach it.

Paths inside MEMVAULT_HOME are stored relative to it, others absolute; callers see absolute paths only
(as in the SQLCipher engine's `backup_rows.py`). Backups are files of the machine that wrote them, and
several machines share this table: each row names its home (`owner`, schema 2's `home_id`), and every
function here reads and changes only the rows of the home it is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memvault.core.store.postgres.connection import Connection


def stored_path(home: Path, path: str | Path) -> str:
    chosen = Path(path)
    return str(chosen.relative_to(home)) if chosen.is_relative_to(home) else str(chosen)


def _absolute(home: Path, stored: str) -> str:
    return str(home / stored)  # an absolute stored path stays as it is


def record(
    conn: Connection, home: Path, owner: str, path: str | Path, now: str, size: int, digest: str, kind: str
) -> None:
    """Record a backup; one already recorded at this path is replaced whole (and no longer removed)."""
    conn.execute(
        "INSERT INTO backups (home_id, path, created_at, bytes, sha256, kind, removed_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, NULL)"
        " ON CONFLICT (home_id, path) DO UPDATE SET created_at = excluded.created_at, bytes = excluded.bytes,"
        " sha256 = excluded.sha256, kind = excluded.kind, removed_at = NULL",
        (owner, stored_path(home, path), now, size, digest, kind),
    )


def known(conn: Connection, home: Path, owner: str, *, include_removed: bool = False) -> list[dict[str, Any]]:
    """This home's backups, oldest first; ties by path in byte order (`COLLATE "C"`), as SQLite sorts."""
    removed = "" if include_removed else " AND removed_at IS NULL"
    rows = conn.execute(
        f"SELECT path, created_at, bytes, sha256, kind, removed_at FROM backups WHERE home_id = %s{removed}"
        ' ORDER BY created_at COLLATE "C", path COLLATE "C"',
        (owner,),
    ).fetchall()
    return [{**row, "path": _absolute(home, row["path"])} for row in rows]


def mark_removed(conn: Connection, home: Path, owner: str, path: str | Path, now: str) -> None:
    conn.execute(
        "UPDATE backups SET removed_at = %s WHERE home_id = %s AND path IN (%s, %s) AND removed_at IS NULL",
        (now, owner, stored_path(home, path), str(path)),
    )


def update_digest(conn: Connection, home: Path, owner: str, path: str | Path, size: int, digest: str) -> None:
    conn.execute(
        "UPDATE backups SET bytes = %s, sha256 = %s WHERE home_id = %s AND path IN (%s, %s)",
        (size, digest, owner, stored_path(home, path), str(path)),
    )


def merge(conn: Connection, home: Path, owner: str, rows: Iterable[dict[str, Any]]) -> None:
    """Bring backup records from another copy of the store (restore keeps what the old store knew)."""
    values = [
        (
            owner,
            stored_path(home, row["path"]),
            row["created_at"],
            row["bytes"],
            row["sha256"],
            row["kind"],
            row["removed_at"],
        )
        for row in rows
    ]
    with conn.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO backups (home_id, path, created_at, bytes, sha256, kind, removed_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (home_id, path) DO UPDATE SET removed_at = coalesce(excluded.removed_at, backups.removed_at),"
            " bytes = excluded.bytes, sha256 = excluded.sha256",
            values,
        )
