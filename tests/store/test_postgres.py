"""The PostgreSQL engine's own rules, against a real PostgreSQL 16 with pgvector (conftest.py): where a
store may be, the schema made once and joined by every other machine, writers taking turns."""

from __future__ import annotations

import threading
import time

import pytest

from memvault.core.store.postgres import connection
from memvault.core.store.postgres.store import ENGINE
from memvault.core.vocabulary.errors import InvalidArgument, StoreUnavailable
from memvault.core.vocabulary.model import OWNER


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://memvault@/memory?host=/run/postgresql",
        "postgresql://memvault@localhost/memory",
        "postgresql://memvault@127.0.0.1:5433/memory",
        "postgresql://memvault@[::1]/memory",
        "postgresql://memvault@db.example.net/memory?sslmode=verify-full",
    ],
)
def test_this_machine_or_verified_tls_is_accepted(url: str) -> None:
    connection.check_location(url)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://memvault:hunter2@db.example.net/memory",
        "postgresql://memvault@192.0.2.10/memory?sslmode=require",
        "postgresql://memvault@db.example.net/memory?sslmode=verify-ca",
        "postgresql://memvault@db.example.net/m?sslmode=verify-full&sslmode=disable",  # libpq: the last wins
        "postgresql://memvault@localhost/m?host=localhost&host=db.example.net",
        "postgresql:///m?host=/tmp,db.example.net",  # a host list reaching another machine
    ],
)
def test_another_machine_without_verified_tls_is_refused_without_its_password(url: str) -> None:
    with pytest.raises(InvalidArgument, match="sslmode=verify-full") as refused:
        connection.check_location(url)
    assert "hunter2" not in str(refused.value)


@pytest.mark.parametrize(
    "url",
    ["postgresql://memvault@localhost/m?hostaddr=203.0.113.5", "postgresql://memvault@localhost/m?service=home"],
)
def test_a_server_named_other_than_by_host_is_refused(url: str) -> None:
    with pytest.raises(InvalidArgument, match="by host"):
        connection.check_location(url)


def test_an_empty_host_reaching_another_machine_through_pghost_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGHOST", "db.example.net")
    with pytest.raises(InvalidArgument, match="sslmode=verify-full"):
        connection.check_location("postgresql://memvault@/memory")


def test_a_password_with_an_unencoded_slash_is_refused_without_quoting_it() -> None:
    with pytest.raises(InvalidArgument, match="percent-encode") as refused:
        connection.check_location("postgresql://memvault:Ab3/xY+9@db.example.net/memory?sslmode=verify-full")
    assert "xY" not in str(refused.value)


def test_only_postgresql_urls_are_stores() -> None:
    with pytest.raises(InvalidArgument, match="postgresql://"):
        connection.check_location("mysql://memvault@localhost/memory")


def test_an_unreachable_server_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(StoreUnavailable, match="could not be reached"):
        ENGINE.open(f"postgresql://memvault@/memory?host={tmp_path}&connect_timeout=2", b"")


def test_the_server_offers_what_memvault_needs(postgres_url: str) -> None:
    conn = connection.open_connection(postgres_url)
    try:
        connection.check_server(conn)  # PostgreSQL 14+, pgvector 0.5+ (pgserver: 16.2 and 0.6.2)
        assert conn.info.server_version >= connection.MIN_SERVER
    finally:
        conn.close()


def test_the_first_machine_makes_the_schema_and_the_next_joins_it_changing_nothing(postgres_url: str) -> None:
    first = ENGINE.open(postgres_url, b"")
    try:
        assert first.migrations.migrate() == ENGINE.latest_schema
        with first.write_transaction() as writing:
            writing.settings.write("write_mode", "retrieval-only")
            writing.events.record(OWNER, "setting_changed", "2026-12-07T10:00:00Z", None, name="write_mode")
    finally:
        first.close()
    second = ENGINE.open(postgres_url, b"")
    try:
        assert second.migrations.current_version() == ENGINE.latest_schema
        assert second.migrations.migrate() == ENGINE.latest_schema  # nothing to apply
        with second.read_snapshot() as reading:
            assert reading.settings.read("write_mode") == "retrieval-only"
            assert [row["action"] for row in reading.changes.after(0, 10)] == ["setting_changed"]
    finally:
        second.close()


def test_writers_on_two_connections_take_turns(postgres_url: str) -> None:
    """The change feed relies on it: event ids commit in the order they were taken."""
    first, second = ENGINE.open(postgres_url, b""), ENGINE.open(postgres_url, b"")
    first.migrations.migrate()
    order: list[str] = []
    try:
        with first.write_transaction() as writing:
            writing.settings.write("holder", "first")

            def other() -> None:
                with second.write_transaction() as waiting:
                    order.append("second writes")
                    waiting.settings.write("holder", "second")

            thread = threading.Thread(target=other)
            thread.start()
            time.sleep(0.3)  # the other writer is waiting for the lock by now
            order.append("first commits")
        thread.join(10)
        assert order == ["first commits", "second writes"]
        with first.read_snapshot() as reading:
            assert reading.settings.read("holder") == "second"
    finally:
        first.close()
        second.close()
