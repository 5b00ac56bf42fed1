"""Who may reach the store and what it knows of its copies, asked through the `Store` protocol on every
engine (`store` in conftest.py): principals and their tokens, OAuth clients, requests, codes, connections
and tokens, and the backups table. Only hashes stand in for secrets here, as in the store itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memvault.core.store.seam import Store

NOW, LATER, LATEST = "2026-12-07T10:00:00.000Z", "2026-12-07T11:00:00.000Z", "2026-12-08T11:00:00.000Z"
NEXT_WEEK = "2026-12-14T10:00:00.000Z"


def _request(request_id: str, *, created: str = NOW, expires: str = LATER) -> dict[str, Any]:
    return {
        "id": request_id,
        "page_hash": f"page-{request_id}",
        "client_id": "client-a",
        "scopes": "memory:read memory:write",
        "redirect_uri": "http://127.0.0.1:8765/callback",
        "redirect_explicit": 1,
        "code_challenge": "challenge",
        "state": "xyz",
        "resource": "https://vault.example/mcp",
        "created_at": created,
        "expires_at": expires,
    }


def _connection(connection_id: str, request_id: str) -> dict[str, Any]:
    return {
        "id": connection_id,
        "client_id": "client-a",
        "request_id": request_id,
        "scopes": "memory:read",
        "resource": "https://vault.example/mcp",
        "created_at": NOW,
    }


def _approved_with_code(store: Store, request_id: str, code_hash: str, *, expires: str = LATER) -> None:
    with store.write_transaction() as writing:
        writing.oauth.add_client("client-a", "Reading lamp", None, "{}", NOW)
        writing.oauth.add_request(_request(request_id, expires=expires))
        assert writing.oauth.decide(request_id, "approved", "memory:read", NOW)
        writing.oauth.add_code(code_hash, request_id, expires)


# -- principals --------------------------------------------------------------------------------
def test_a_principal_answers_for_its_live_tokens_until_revoked(store: Store) -> None:
    with store.write_transaction() as writing:
        writing.principals.upsert("tunnel-assistant", "remote", None, NOW)
        writing.principals.upsert("team-space", "workspace", "ws-1", NOW)
        writing.principals.add_token("hash-1", "tunnel-assistant", NOW)
        writing.principals.add_token("hash-2", "tunnel-assistant", LATER)
        writing.principals.add_token("hash-3", "team-space", NOW)
    with store.read_snapshot() as reading:
        assert reading.principals.fetch("team-space") == {
            "name": "team-space",
            "surface": "workspace",
            "workspace_id": "ws-1",
            "created_at": NOW,
            "revoked_at": None,
        }
        assert reading.principals.fetch("nobody") is None
        assert reading.principals.by_token_hash("hash-2") == {
            "token_hash": "hash-2",
            "name": "tunnel-assistant",
            "surface": "remote",
            "workspace_id": None,
        }
        assert reading.principals.by_token_hash("hash-unknown") is None
        listed = reading.principals.list_all()
    assert [(row["name"], row["live_tokens"]) for row in listed] == [("team-space", 1), ("tunnel-assistant", 2)]
    with store.write_transaction() as writing:
        assert writing.principals.revoke("tunnel-assistant", LATER) == 2
        assert writing.principals.revoke("tunnel-assistant", LATEST) == 0  # nothing left to revoke
    with store.read_snapshot() as reading:
        assert reading.principals.by_token_hash("hash-1") is None
        assert reading.principals.by_token_hash("hash-3") is not None
        revoked = reading.principals.fetch("tunnel-assistant")
        assert revoked is not None and revoked["revoked_at"] == LATER  # the first revocation's time stays
        assert {row["name"]: row["live_tokens"] for row in reading.principals.list_all()}["tunnel-assistant"] == 0


def test_a_revoked_principal_comes_back_without_its_old_tokens(store: Store) -> None:
    with store.write_transaction() as writing:
        writing.principals.upsert("tunnel-assistant", "remote", None, NOW)
        writing.principals.add_token("hash-old", "tunnel-assistant", NOW)
        writing.principals.revoke("tunnel-assistant", LATER)
    with store.write_transaction() as writing:
        writing.principals.upsert("tunnel-assistant", "workspace", "ws-2", LATEST)
        writing.principals.add_token("hash-new", "tunnel-assistant", LATEST)
    with store.read_snapshot() as reading:
        back = reading.principals.fetch("tunnel-assistant")
        assert back is not None
        assert (back["surface"], back["workspace_id"], back["created_at"], back["revoked_at"]) == (
            "workspace",
            "ws-2",
            NOW,
            None,
        )
        assert reading.principals.by_token_hash("hash-old") is None
        found = reading.principals.by_token_hash("hash-new")
        assert found is not None and found["surface"] == "workspace"


def test_principals_are_listed_by_name_in_byte_order_and_a_token_needs_one(store: Store) -> None:
    with store.write_transaction() as writing:
        for name in ("tunnel", "Zed", "alpha_b", "alpha-c"):
            writing.principals.upsert(name, "local", None, NOW)
    with pytest.raises(store.engine.errors), store.write_transaction() as writing:
        writing.principals.add_token("hash-orphan", "nobody", NOW)
    with store.read_snapshot() as reading:
        assert [row["name"] for row in reading.principals.list_all()] == ["Zed", "alpha-c", "alpha_b", "tunnel"]
        assert reading.principals.by_token_hash("hash-orphan") is None


# -- OAuth -------------------------------------------------------------------------------------
def test_a_client_registered_again_keeps_its_first_date(store: Store) -> None:
    with store.write_transaction() as writing:
        writing.oauth.add_client("client-a", "Reading lamp", None, '{"v": 1}', NOW)
        writing.oauth.add_client("client-a", "Reading lamp 2", "secret-hash", '{"v": 2}', LATER)
    with store.read_snapshot() as reading:
        assert reading.oauth.client("client-a") == {
            "client_id": "client-a",
            "client_name": "Reading lamp 2",
            "secret_hash": "secret-hash",
            "metadata": '{"v": 2}',
            "created_at": NOW,
        }
        assert reading.oauth.client("client-b") is None


def test_a_request_is_decided_once_while_it_lasts_and_answered_once(store: Store) -> None:
    with store.write_transaction() as writing:
        writing.oauth.add_client("client-a", "Reading lamp", None, "{}", NOW)
        writing.oauth.add_request(_request("REQ-1"))
        writing.oauth.add_request(_request("REQ-2", created="2026-12-07T10:30:00.000Z"))
    with store.read_snapshot() as reading:
        by_page = reading.oauth.request_by_page("page-REQ-1")
        assert by_page is not None and by_page == reading.oauth.request_by_id("REQ-1")
        assert by_page["client_name"] == "Reading lamp" and by_page["status"] == "pending"
        assert (by_page["redirect_explicit"], by_page["granted"], by_page["decided_at"]) == (1, None, None)
        assert reading.oauth.request_by_id("REQ-9") is None and reading.oauth.request_by_page("page-9") is None
        assert [row["id"] for row in reading.oauth.pending_requests("2026-12-07T10:45:00.000Z")] == ["REQ-1", "REQ-2"]
        assert reading.oauth.pending_requests(LATER) == []  # expired: no longer waiting
    with store.write_transaction() as writing:
        assert writing.oauth.decide("REQ-1", "approved", "memory:read", "2026-12-07T10:40:00.000Z")
        assert not writing.oauth.decide("REQ-1", "denied", None, "2026-12-07T10:41:00.000Z")  # already decided
        assert not writing.oauth.decide("REQ-2", "approved", "memory:read", LATER)  # expired
        assert not writing.oauth.decide("REQ-9", "approved", "memory:read", NOW)  # unknown
    with store.read_snapshot() as reading:
        decided = reading.oauth.request_by_id("REQ-1")
        assert decided is not None
        assert (decided["status"], decided["granted"], decided["decided_at"]) == (
            "approved",
            "memory:read",
            "2026-12-07T10:40:00.000Z",
        )
        assert [row["id"] for row in reading.oauth.pending_requests("2026-12-07T10:45:00.000Z")] == ["REQ-2"]
    with store.write_transaction() as writing:
        assert not writing.oauth.mark_answered("REQ-1", "denied")  # not what was decided
        assert writing.oauth.mark_answered("REQ-1", "approved")
        assert not writing.oauth.mark_answered("REQ-1", "approved")  # once


def test_a_code_is_spent_once_for_one_connection(store: Store) -> None:
    _approved_with_code(store, "REQ-1", "code-hash")
    with store.read_snapshot() as reading:
        code = reading.oauth.code("code-hash")
        assert code is not None and reading.oauth.code("code-unknown") is None
        assert (code["id"], code["granted"], code["code_expires_at"]) == ("REQ-1", "memory:read", LATER)
        assert (code["used_at"], code["connection_id"], code["code_challenge"]) == (None, None, "challenge")
    with store.write_transaction() as writing:
        writing.oauth.add_connection(_connection("conn-1", "REQ-1"))
        assert writing.oauth.spend_code("code-hash", "conn-1", "2026-12-07T10:05:00.000Z")
    with store.write_transaction() as writing:
        writing.oauth.add_connection(_connection("conn-2", "REQ-1"))
        assert not writing.oauth.spend_code("code-hash", "conn-2", "2026-12-07T10:06:00.000Z")  # spent
        assert not writing.oauth.spend_code("code-unknown", "conn-2", "2026-12-07T10:06:00.000Z")  # unknown
    with store.read_snapshot() as reading:
        spent = reading.oauth.code("code-hash")
        assert spent is not None
        assert (spent["used_at"], spent["connection_id"]) == ("2026-12-07T10:05:00.000Z", "conn-1")
    with pytest.raises(store.engine.errors), store.write_transaction() as writing:
        writing.oauth.add_code("code-hash-2", "REQ-1", LATER)  # one code per request


def test_a_refresh_token_is_spent_once_and_revoking_the_connection_takes_the_family(store: Store) -> None:
    _approved_with_code(store, "REQ-1", "code-hash")
    with store.write_transaction() as writing:
        writing.oauth.add_connection(_connection("conn-1", "REQ-1"))
        assert writing.oauth.spend_code("code-hash", "conn-1", NOW)
        writing.oauth.add_token("access-1", "conn-1", "access", "memory:read", NOW, LATER)
        writing.oauth.add_token("refresh-1", "conn-1", "refresh", "memory:read", NOW, LATEST)
        writing.oauth.add_token("refresh-2", "conn-1", "refresh", "memory:read", NOW, NEXT_WEEK)
    with store.read_snapshot() as reading:
        assert reading.oauth.token("access-1", "access") == {
            "token_hash": "access-1",
            "connection_id": "conn-1",
            "scopes": "memory:read",
            "expires_at": LATER,
            "used_at": None,
            "revoked_at": None,
            "client_id": "client-a",
            "resource": "https://vault.example/mcp",
            "connection_revoked_at": None,
        }
        assert reading.oauth.token("access-1", "refresh") is None and reading.oauth.token("nope", "access") is None
        assert [row["refresh_until"] for row in reading.oauth.connections(LATER)] == [NEXT_WEEK]
    with store.write_transaction() as writing:
        assert not writing.oauth.spend_refresh("access-1", LATER)  # not a refresh token
        assert writing.oauth.spend_refresh("refresh-2", LATER)
        assert not writing.oauth.spend_refresh("refresh-2", LATER)  # once
        writing.oauth.touch_connection("conn-1", LATER)
    with store.read_snapshot() as reading:
        spent = reading.oauth.token("refresh-2", "refresh")
        assert spent is not None and spent["used_at"] == LATER
        (listed,) = reading.oauth.connections(LATER)
        assert (listed["id"], listed["client_name"], listed["refreshed_at"]) == ("conn-1", "Reading lamp", LATER)
        assert listed["refresh_until"] == LATEST  # the spent one no longer counts
        assert reading.oauth.connection("conn-1") == {"id": "conn-1", "revoked_at": None}
        assert reading.oauth.connection("conn-9") is None
    with store.write_transaction() as writing:
        assert writing.oauth.revoke_connection("conn-1", "revoked by the person", LATEST) == 3
        assert writing.oauth.revoke_connection("conn-1", "again", NEXT_WEEK) == 0
        assert not writing.oauth.spend_refresh("refresh-1", LATEST)  # revoked
    with store.read_snapshot() as reading:
        assert reading.oauth.connection("conn-1") == {"id": "conn-1", "revoked_at": LATEST}
        (listed,) = reading.oauth.connections(LATER)
        assert (listed["revoked_reason"], listed["refresh_until"]) == ("revoked by the person", None)
        access = reading.oauth.token("access-1", "access")
        assert access is not None and (access["revoked_at"], access["connection_revoked_at"]) == (LATEST, LATEST)


def test_stale_requests_are_forgotten_and_a_used_code_keeps_its_request(store: Store) -> None:
    _approved_with_code(store, "REQ-USED", "code-used")
    with store.write_transaction() as writing:
        writing.oauth.add_connection(_connection("conn-1", "REQ-USED"))
        assert writing.oauth.spend_code("code-used", "conn-1", NOW)
        assert writing.oauth.mark_answered("REQ-USED", "approved")
        writing.oauth.add_request(_request("REQ-EXPIRED"))  # never decided
        writing.oauth.add_request(_request("REQ-IDLE"))  # approved, code never exchanged
        assert writing.oauth.decide("REQ-IDLE", "approved", "memory:read", NOW)
        writing.oauth.add_code("code-idle", "REQ-IDLE", LATER)
        writing.oauth.add_request(_request("REQ-WAITING", expires=NEXT_WEEK))
    with store.write_transaction() as writing:
        assert writing.oauth.forget_stale_requests(LATEST) == 2
        assert writing.oauth.forget_stale_requests(LATEST) == 0
    with store.read_snapshot() as reading:
        assert reading.oauth.request_by_id("REQ-EXPIRED") is None and reading.oauth.request_by_id("REQ-IDLE") is None
        assert reading.oauth.code("code-idle") is None
        assert reading.oauth.request_by_id("REQ-USED") is not None and reading.oauth.code("code-used") is not None
        assert [row["id"] for row in reading.oauth.pending_requests(LATEST)] == ["REQ-WAITING"]


OWNER_HOME = "home-1"  # which home wrote a backup (a shared store keeps each home's list apart)


# -- backups -----------------------------------------------------------------------------------
def test_backups_are_known_by_absolute_path_until_removed(store: Store, tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere" / "copy.db"
    daily, weekly = home / "backups" / "memvault-daily.db", home / "backups" / "memvault-weekly.db"
    with store.write_transaction() as writing:
        writing.backups.record(home, OWNER_HOME, daily, NOW, 10, "digest-daily", "daily")
        writing.backups.record(home, OWNER_HOME, str(elsewhere), NOW, 20, "digest-elsewhere", "manual")
        writing.backups.record(home, OWNER_HOME, weekly, LATER, 30, "digest-weekly", "weekly")
    with store.read_snapshot() as reading:
        known = reading.backups.known(home, OWNER_HOME)
    # oldest first; at the same time by the path as stored: an absolute one ("/") before one inside the home
    assert [row["path"] for row in known] == [str(elsewhere), str(daily), str(weekly)]
    assert known[2] == {
        "path": str(weekly),
        "created_at": LATER,
        "bytes": 30,
        "sha256": "digest-weekly",
        "kind": "weekly",
        "removed_at": None,
    }
    moved = tmp_path / "moved-home"  # paths inside the home move with it; others stay
    with store.read_snapshot() as reading:
        assert {row["path"] for row in reading.backups.known(moved, OWNER_HOME)} == {
            str(moved / "backups" / "memvault-daily.db"),
            str(moved / "backups" / "memvault-weekly.db"),
            str(elsewhere),
        }
    with store.write_transaction() as writing:
        writing.backups.mark_removed(home, OWNER_HOME, daily, LATER)
        writing.backups.mark_removed(home, OWNER_HOME, elsewhere, LATER)
        writing.backups.mark_removed(home, OWNER_HOME, elsewhere, LATEST)  # removed already: the first time stays
        writing.backups.update_digest(home, OWNER_HOME, str(weekly), 31, "digest-weekly-2")
    with store.read_snapshot() as reading:
        assert [row["path"] for row in reading.backups.known(home, OWNER_HOME)] == [str(weekly)]
        everything = {row["path"]: row for row in reading.backups.known(home, OWNER_HOME, include_removed=True)}
    assert {path: row["removed_at"] for path, row in everything.items()} == {
        str(daily): LATER,
        str(elsewhere): LATER,
        str(weekly): None,
    }
    assert (everything[str(weekly)]["bytes"], everything[str(weekly)]["sha256"]) == (31, "digest-weekly-2")
    with store.write_transaction() as writing:  # recorded again: replaced whole, no longer removed
        writing.backups.record(home, OWNER_HOME, daily, LATEST, 11, "digest-daily-2", "manual")
    with store.read_snapshot() as reading:
        again = [row for row in reading.backups.known(home, OWNER_HOME) if row["path"] == str(daily)]
    assert again == [
        {
            "path": str(daily),
            "created_at": LATEST,
            "bytes": 11,
            "sha256": "digest-daily-2",
            "kind": "manual",
            "removed_at": None,
        }
    ]
    with pytest.raises(store.engine.errors), store.write_transaction() as writing:
        writing.backups.record(home, OWNER_HOME, home / "backups" / "memvault-x.db", NOW, 1, "d", "hourly")


def test_a_merge_keeps_what_either_copy_knew_of_removals(store: Store, tmp_path: Path) -> None:
    home = tmp_path / "home"
    removed, kept = home / "backups" / "memvault-1.db", home / "backups" / "memvault-2.db"
    with store.write_transaction() as writing:
        writing.backups.record(home, OWNER_HOME, removed, NOW, 10, "digest-1", "daily")
        writing.backups.record(home, OWNER_HOME, kept, NOW, 20, "digest-2", "weekly")
        writing.backups.mark_removed(home, OWNER_HOME, removed, LATER)
    old = [
        {"path": str(removed), "created_at": "2026-01-01", "bytes": 99, "sha256": "old-1", "kind": "manual"},
        {"path": str(kept), "created_at": "2026-01-01", "bytes": 5, "sha256": "old-2", "kind": "manual"},
        {"path": str(home / "backups" / "memvault-3.db"), "created_at": NOW, "bytes": 7, "sha256": "old-3"},
    ]
    rows = [
        {**old[0], "removed_at": None},
        {**old[1], "removed_at": LATEST},
        {**old[2], "kind": "pre-restore", "removed_at": None},
    ]
    with store.write_transaction() as writing:
        writing.backups.merge(home, OWNER_HOME, rows)
        writing.backups.merge(home, OWNER_HOME, [])
    with store.read_snapshot() as reading:
        merged = {row["path"]: row for row in reading.backups.known(home, OWNER_HOME, include_removed=True)}
    first, second = merged[str(removed)], merged[str(kept)]
    assert (first["removed_at"], first["bytes"], first["sha256"]) == (LATER, 99, "old-1")  # a removal stays
    assert (first["created_at"], first["kind"]) == (NOW, "daily")  # this store's own record otherwise
    assert (second["removed_at"], second["bytes"], second["sha256"]) == (LATEST, 5, "old-2")
    assert merged[str(home / "backups" / "memvault-3.db")]["kind"] == "pre-restore"


def test_each_home_knows_only_its_own_backups_on_a_shared_store(postgres_url: str, tmp_path: Path) -> None:
    """Several machines share a PostgreSQL store; a backup is a file of the machine that wrote it."""
    from memvault.core.store.postgres.store import ENGINE  # noqa: PLC0415

    store = ENGINE.open(postgres_url, b"")
    try:
        store.migrations.migrate()
        home = tmp_path / "home"  # the same folder name on both machines: the same relative paths
        same = home / "backups" / "memvault-daily.db"
        with store.write_transaction() as writing:
            writing.backups.record(home, "laptop", same, NOW, 10, "digest-laptop", "daily")
            writing.backups.record(home, "desktop", same, LATER, 20, "digest-desktop", "daily")
            writing.backups.mark_removed(home, "desktop", same, LATEST)
            writing.backups.update_digest(home, "laptop", same, 11, "digest-laptop-2")
        with store.read_snapshot() as reading:
            laptop = reading.backups.known(home, "laptop")
            desktop = reading.backups.known(home, "desktop", include_removed=True)
            assert reading.backups.known(home, "desktop") == []
        assert [(row["bytes"], row["sha256"], row["removed_at"]) for row in laptop] == [(11, "digest-laptop-2", None)]
        assert [(row["bytes"], row["sha256"], row["removed_at"]) for row in desktop] == [(20, "digest-desktop", LATEST)]
    finally:
        store.close()
