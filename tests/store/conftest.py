"""Stores on every engine for the store tests: a SQLCipher file in the test's folder, and a database
of its own in a real PostgreSQL 16 with pgvector that the tests start themselves (pgserver, no root)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from memory_keyring import MemoryKeyring

from memvault.core.store.seam import Store
from memvault.core.store.sqlcipher.store import ENGINE as SQLCIPHER


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server started for this test session (its `postgres` database)."""
    import pgserver  # noqa: PLC0415 - only the PostgreSQL tests start one

    server = pgserver.get_server(tmp_path_factory.mktemp("pg"), cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A database of its own for one test, dropped after it."""
    import psycopg  # noqa: PLC0415

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, query = postgres_server.partition("?")
    yield f"{base.rsplit('/', 1)[0]}/{name}?{query}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlcipher", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh, migrated store on each engine."""
    if request.param == "sqlcipher":
        opened: Store = SQLCIPHER.open(tmp_path / "store.db", os.urandom(32), create=True)
    else:
        from memvault.core.store.postgres.store import ENGINE  # noqa: PLC0415

        opened = ENGINE.open(request.getfixturevalue("postgres_url"), b"")
    opened.migrations.migrate()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> MemoryKeyring:
    """A usable OS keyring held in memory, where `init --store` keeps the store's password."""
    held = MemoryKeyring()
    monkeypatch.setattr(keyring, "get_keyring", lambda: held)
    monkeypatch.setattr(keyring, "set_password", held.set_password)
    monkeypatch.setattr(keyring, "get_password", held.get_password)
    monkeypatch.setattr(keyring, "delete_password", held.delete_password)
    return held
