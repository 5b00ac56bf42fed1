"""Numbered SQL migrations, each applied in one transaction together with its version record."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources

from memvault.core.store.sqlcipher.connection import Connection, complete_statement
from memvault.core.vocabulary.errors import StoreTooNew

log = logging.getLogger("memvault.store")

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available() -> list[Migration]:
    folder = resources.files("memvault.core.store.sqlcipher").joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration numbering has a gap at {migration.name}")
    return found


LATEST = len(available())


def current_version(conn: Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')))"
    )
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: Connection, target: int | None = None) -> int:
    """Bring the store to `target` (default: the latest schema); refuse a newer store."""
    migrations = available()
    target = len(migrations) if target is None else target
    version = current_version(conn)
    if version > len(migrations):
        raise StoreTooNew(
            f"this store has schema {version}, newer than this memvault understands "
            f"({len(migrations)}): upgrade memvault; the store was not touched"
        )
    for migration in migrations[version:target]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # executescript would COMMIT on its own; run statement by statement instead.
            for statement in _statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_version (version, name) VALUES (?, ?)",
                (migration.version, migration.name),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        log.info("store migrated to schema %d", migration.version)
    return max(version, target)


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not buffer.strip():
            continue
        buffer += line
        if complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError("a migration ends with an incomplete statement")
    return statements
