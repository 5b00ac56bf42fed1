"""PostgreSQL schema migrations, numbered as files in `migrations/`, each applied in one transaction
with its version record. Machines share one database: the first to open it creates the schema, the
others find it and change nothing (an advisory lock makes them take turns)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources

from memvault.core.store.postgres.connection import Connection, privileges_explained
from memvault.core.vocabulary.errors import StoreTooNew

log = logging.getLogger("memvault.store")

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
# pg_advisory_xact_lock's key for "the schema is being changed" (any number, the same on every machine).
SCHEMA_LOCK = 0x6D656D7661756C74  # "memvault"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available() -> list[Migration]:
    folder = resources.files("memvault.core.store.postgres").joinpath("migrations")
    found = sorted(
        (
            Migration(int(match.group(1)), entry.name, entry.read_text("utf-8"))
            for entry in folder.iterdir()
            if (match := _NAME.match(entry.name))
        ),
        key=lambda m: m.version,
    )
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration numbering has a gap at {migration.name}")
    return found


LATEST = len(available())


def current_version(conn: Connection) -> int:
    row = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL AS made").fetchone()
    if row is None or not row["made"]:
        return 0
    found = conn.execute("SELECT coalesce(max(version), 0) AS version FROM schema_version").fetchone()
    return int(found["version"]) if found else 0


def migrate(conn: Connection, target: int | None = None) -> int:
    """Bring the store to `target` (default: the latest schema); refuse a newer store."""
    migrations = available()
    target = len(migrations) if target is None else target
    with privileges_explained(), conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        version = current_version(conn)
        if version > len(migrations):
            raise StoreTooNew(
                f"this store has schema {version}, newer than this memvault understands "
                f"({len(migrations)}): upgrade memvault; the store was not touched"
            )
        if version < target:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TEXT NOT NULL)"
            )
        for migration in migrations[version:target]:
            conn.execute(migration.sql.encode())  # a script: no parameters, several statements
            conn.execute(
                "INSERT INTO schema_version (version, name, applied_at)"
                " VALUES (%s, %s, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
                (migration.version, migration.name),
            )
            log.info("store migrated to schema %d", migration.version)
    return max(version, target)
