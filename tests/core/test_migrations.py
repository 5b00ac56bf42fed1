"""Schema migrations: recorded, atomic, upgrading from every earlier schema, refusing newer stores."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from corekit import SCRYPT_N, file_digest

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.store.sqlcipher import migrations
from memvault.core.store.sqlcipher.connection import Connection, OperationalError, open_connection
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import StoreTooNew
from memvault.core.vocabulary.model import OWNER

LATEST = len(migrations.available())
SEEDED_ID = "m-seeded-0001"
SEEDED_STATEMENT = "The rowing club meets on the river every Saturday morning"


def _store_at(home: Path, version: int) -> Connection:
    """A real encrypted store migrated only up to `version` (0: an empty database)."""
    paths = VaultPaths.from_env(home)
    paths.ensure()
    key = keys.create_key(paths.key_file, uuid.uuid4().hex, scrypt_n=SCRYPT_N)
    conn = open_connection(paths.store, key, create=True)
    assert migrations.migrate(conn, target=version) == version
    return conn


def _seed(conn: Connection) -> None:
    """A record written with schema 1's columns (later schemas must keep reading it)."""
    now = "2025-11-02T08:00:00Z"
    conn.execute("INSERT INTO domains (name, created_at, updated_at) VALUES ('sport', ?, ?)", (now, now))
    conn.execute(
        "INSERT INTO memories (id, domain, type, statement, norm_key, status, confidence, importance,"
        " explicitness, sensitivity, access_scope, created_by, learned_at, valid_from, created_at, updated_at)"
        " VALUES (?, 'sport', 'FACT', ?, ?, 'current', 0.9, 0.6, 'explicit', 'normal', 'local_only', 'owner',"
        " ?, ?, ?, ?)",
        (SEEDED_ID, SEEDED_STATEMENT, SEEDED_STATEMENT.lower(), now, now, now, now),
    )
    conn.execute("INSERT INTO memory_usage (memory_id, retrieval_count) VALUES (?, 3)", (SEEDED_ID,))
    conn.execute(
        "INSERT INTO events (time, principal, surface, action, memory_id) VALUES (?, 'owner', 'local', 'added', ?)",
        (now, SEEDED_ID),
    )
    conn.execute("INSERT INTO settings (name, value) VALUES ('write_mode', '\"retrieval-only\"')")


def _rows(conn: Connection) -> dict[str, tuple[list[str], list[tuple[object, ...]]]]:
    """Every row of every real table, with its column names (to compare across schemas)."""
    found = {}
    for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'"
        " AND name NOT IN ('schema_version', 'sqlite_sequence')"
    ).fetchall():
        columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{name}")')]
        found[name] = (columns, _select(conn, name, columns))
    return found


def _select(conn: Connection, table: str, columns: list[str]) -> list[tuple[object, ...]]:
    listed = ", ".join(f'"{c}"' for c in columns)
    return sorted((tuple(r) for r in conn.execute(f'SELECT {listed} FROM "{table}"')), key=repr)


def _schema(conn: Connection) -> list[tuple[str, str, str]]:
    return sorted(
        (row[0], row[1], row[2] or "")
        for row in conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    )


def test_migrations_are_numbered_without_gaps() -> None:
    found = migrations.available()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert found[0].name == "0001_initial.sql"


def test_schema_version_is_recorded(vault: Vault) -> None:
    rows = vault.ctx.store.raw.execute(
        "SELECT version, name, applied_at FROM schema_version ORDER BY version"
    ).fetchall()
    assert [(r[0], r[1]) for r in rows] == [(m.version, m.name) for m in migrations.available()]
    assert all(r[2] for r in rows)
    assert vault.status(OWNER)["store"]["schema_version"] == LATEST


@pytest.mark.parametrize("start", range(LATEST + 1))
def test_upgrade_from_every_earlier_schema(start: int, tmp_path: Path, template_home: Path) -> None:
    """From an empty database, and from each released schema with data in it, to the latest."""
    home = tmp_path / f"from-{start}"
    conn = _store_at(home, start)
    if start >= 1:
        _seed(conn)
    before = _rows(conn)
    conn.close()
    with Vault.open(home) as vault:
        upgraded = _schema(vault.ctx.store.raw)
        versions = [r[0] for r in vault.ctx.store.raw.execute("SELECT version FROM schema_version ORDER BY version")]
        assert versions == list(range(1, LATEST + 1))
        for table, (columns, rows) in before.items():  # every row survives, in the columns it had
            assert _select(vault.ctx.store.raw, table, columns) == rows, table
        if start >= 1:
            record = vault.get(OWNER, SEEDED_ID)["memory"]
            assert record["statement"] == SEEDED_STATEMENT
            assert record["domain"] == "sport" and record["status"] == "current"
            assert record["retrieval_count"] == 3
            assert vault.get_setting("write_mode") == "retrieval-only"
            assert [e["action"] for e in vault.events_for(OWNER, SEEDED_ID)] == ["added"]
        # The upgraded store keeps working: a write and a read through the facade.
        added = vault.add(OWNER, Draft.of(statement="The boathouse key hangs by the back door", domain="sport"))
        assert vault.get(OWNER, added["id"])["memory"]["revision"] == 1
    with Vault.open(template_home) as fresh:
        assert upgraded == _schema(fresh.ctx.store.raw), "an upgraded store must match a freshly created one"


def test_a_store_from_a_newer_schema_is_refused_and_untouched(home: Path) -> None:
    with Vault.open(home) as vault:
        vault.ctx.store.raw.execute(
            "INSERT INTO schema_version (version, name) VALUES (?, ?)", (LATEST + 1, f"{LATEST + 1:04d}_future.sql")
        )
    store = home / "memvault.db"
    before = {p.name: file_digest(p) for p in home.iterdir() if p.is_file()}
    with pytest.raises(StoreTooNew) as raised:
        Vault.open(home)
    assert "newer" in raised.value.message and "not touched" in raised.value.message
    assert {p.name: file_digest(p) for p in home.iterdir() if p.is_file()} == before
    with pytest.raises(StoreTooNew):  # still refused: nothing was "fixed" behind our back
        Vault.open(home)
    assert store.exists()


def test_a_failing_migration_leaves_no_trace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = _store_at(tmp_path / "atomic", LATEST)
    broken = migrations.Migration(
        LATEST + 1, f"{LATEST + 1:04d}_broken.sql", "CREATE TABLE half_done (a TEXT);\nSELECT no_such_function();\n"
    )
    real = migrations.available()
    monkeypatch.setattr(migrations, "available", lambda: [*real, broken])
    with pytest.raises(OperationalError):
        migrations.migrate(conn)
    assert migrations.current_version(conn) == LATEST
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'").fetchone()[0] == 0
    conn.close()


def test_migrating_twice_is_a_no_op(vault: Vault) -> None:
    before = _schema(vault.ctx.store.raw)
    assert migrations.migrate(vault.ctx.store.raw) == LATEST
    assert _schema(vault.ctx.store.raw) == before
