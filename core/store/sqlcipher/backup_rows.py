"""The `backups` table: every backup memvault made, so a purge can reach it.

Paths inside MEMVAULT_HOME are recorded relative to it (`backups/memvault-….db`), so a
home folder that moves (or is restored on another machine) keeps reaching its backups;
a backup written elsewhere (`backup --to`) keeps its absolute path. Callers see
absolute paths only. A store file is one home's, so every row is that home's: the `owner` the
functions take (which home wrote a backup, for a store several machines share) changes nothing here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memvault.core.store.sqlcipher.connection import Connection


def stored_path(home: Path, path: str | Path) -> str:
    chosen = Path(path)
    return str(chosen.relative_to(home)) if chosen.is_relative_to(home) else str(chosen)


def _absolute(home: Path, stored: str) -> str:
    return str(home / stored)  # an absolute stored path stays as it is


def record(
    conn: Connection, home: Path, owner: str, path: str | Path, now: str, size: int, digest: str, kind: str
) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO backups (path, created_at, bytes, sha256, kind, removed_at)"
        " VALUES (?, ?, ?, ?, ?, NULL)",
        (stored_path(home, path), now, size, digest, kind),
    )


def known(conn: Connection, home: Path, owner: str, *, include_removed: bool = False) -> list[dict[str, Any]]:
    where = "" if include_removed else " WHERE removed_at IS NULL"
    rows = conn.execute(
        f"SELECT path, created_at, bytes, sha256, kind, removed_at FROM backups{where} ORDER BY created_at, path"
    ).fetchall()
    return [{**dict(row), "path": _absolute(home, row["path"])} for row in rows]


def mark_removed(conn: Connection, home: Path, owner: str, path: str | Path, now: str) -> None:
    conn.execute(
        "UPDATE backups SET removed_at = ? WHERE path IN (?, ?) AND removed_at IS NULL",
        (now, stored_path(home, path), str(path)),
    )


def update_digest(conn: Connection, home: Path, owner: str, path: str | Path, size: int, digest: str) -> None:
    conn.execute(
        "UPDATE backups SET bytes = ?, sha256 = ? WHERE path IN (?, ?)",
        (size, digest, stored_path(home, path), str(path)),
    )


def merge(conn: Connection, home: Path, owner: str, rows: Iterable[dict[str, Any]]) -> None:
    """Bring backup records from another copy of the store (restore keeps what the old store knew)."""
    for row in rows:
        conn.execute(
            "INSERT INTO backups (path, created_at, bytes, sha256, kind, removed_at) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (path) DO UPDATE SET removed_at = coalesce(excluded.removed_at, backups.removed_at),"
            " bytes = excluded.bytes, sha256 = excluded.sha256",
            (
                stored_path(home, row["path"]),
                row["created_at"],
                row["bytes"],
                row["sha256"],
                row["kind"],
                row["removed_at"],
            ),
        )
