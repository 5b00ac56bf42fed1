"""OAuth on PostgreSQL: clients, authorization requests waiting for the person, codes, connections and
their tokens. Only sha256 digests of secrets are stored (`core/operations/oauth.py` makes them)."""

from __future__ import annotations

from typing import Any

from memvault.core.store.postgres.connection import Connection

_REQUEST_COLUMNS = (
    "r.id, r.client_id, c.client_name, r.scopes, r.granted, r.redirect_uri, r.redirect_explicit,"
    " r.code_challenge, r.state, r.resource, r.created_at, r.expires_at, r.status, r.decided_at"
)
_REQUESTS = "oauth_requests r JOIN oauth_clients c ON c.client_id = r.client_id"


# -- clients -----------------------------------------------------------------------------------
def add_client(
    conn: Connection, client_id: str, name: str | None, secret_hash: str | None, metadata: str, now: str
) -> None:
    conn.execute(
        "INSERT INTO oauth_clients (client_id, client_name, secret_hash, metadata, created_at)"
        " VALUES (%s, %s, %s, %s, %s)"
        " ON CONFLICT (client_id) DO UPDATE SET client_name = excluded.client_name,"
        " secret_hash = excluded.secret_hash, metadata = excluded.metadata",
        (client_id, name, secret_hash, metadata, now),
    )


def client(conn: Connection, client_id: str) -> dict[str, Any] | None:
    return conn.execute(
        "SELECT client_id, client_name, secret_hash, metadata, created_at FROM oauth_clients WHERE client_id = %s",
        (client_id,),
    ).fetchone()


# -- authorization requests --------------------------------------------------------------------
def add_request(conn: Connection, fields: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO oauth_requests (id, page_hash, client_id, scopes, redirect_uri, redirect_explicit,"
        " code_challenge, state, resource, created_at, expires_at)"
        " VALUES (%(id)s, %(page_hash)s, %(client_id)s, %(scopes)s, %(redirect_uri)s, %(redirect_explicit)s::integer,"
        " %(code_challenge)s, %(state)s, %(resource)s, %(created_at)s, %(expires_at)s)",
        fields,
    )


def request_by_id(conn: Connection, request_id: str) -> dict[str, Any] | None:
    return conn.execute(f"SELECT {_REQUEST_COLUMNS} FROM {_REQUESTS} WHERE r.id = %s", (request_id,)).fetchone()


def request_by_page(conn: Connection, page_hash: str) -> dict[str, Any] | None:
    return conn.execute(f"SELECT {_REQUEST_COLUMNS} FROM {_REQUESTS} WHERE r.page_hash = %s", (page_hash,)).fetchone()


def pending_requests(conn: Connection, now: str) -> list[dict[str, Any]]:
    return conn.execute(
        f"SELECT {_REQUEST_COLUMNS} FROM {_REQUESTS} WHERE r.status = 'pending' AND r.expires_at > %s"
        " ORDER BY r.created_at",
        (now,),
    ).fetchall()


def decide(conn: Connection, request_id: str, status: str, granted: str | None, now: str) -> bool:
    """Move a pending, unexpired request to approved or denied; False when it was not pending."""
    cursor = conn.execute(
        "UPDATE oauth_requests SET status = %(status)s, granted = %(granted)s, decided_at = %(now)s"
        " WHERE id = %(id)s AND status = 'pending' AND expires_at > %(now)s",
        {"status": status, "granted": granted, "now": now, "id": request_id},
    )
    return cursor.rowcount == 1


def mark_answered(conn: Connection, request_id: str, status: str) -> bool:
    """The page has sent the browser back (once): the request is done."""
    cursor = conn.execute(
        "UPDATE oauth_requests SET status = 'answered' WHERE id = %s AND status = %s", (request_id, status)
    )
    return cursor.rowcount == 1


def forget_stale_requests(conn: Connection, before: str) -> int:
    """Requests that expired unanswered, and answered ones whose code was never exchanged."""
    conn.execute(
        "DELETE FROM oauth_codes WHERE connection_id IS NULL AND expires_at < %(before)s"
        " AND request_id IN (SELECT id FROM oauth_requests WHERE expires_at < %(before)s)",
        {"before": before},
    )
    cursor = conn.execute(
        "DELETE FROM oauth_requests WHERE expires_at < %s AND status != 'answered'"
        " AND id NOT IN (SELECT request_id FROM oauth_codes)",
        (before,),
    )
    return int(cursor.rowcount)


# -- codes -------------------------------------------------------------------------------------
def add_code(conn: Connection, code_hash: str, request_id: str, expires_at: str) -> None:
    conn.execute(
        "INSERT INTO oauth_codes (code_hash, request_id, expires_at) VALUES (%s, %s, %s)",
        (code_hash, request_id, expires_at),
    )


def code(conn: Connection, code_hash: str) -> dict[str, Any] | None:
    """A code with the request it answers (its client, scopes, redirect, challenge and resource)."""
    return conn.execute(
        "SELECT k.code_hash, k.expires_at AS code_expires_at, k.used_at, k.connection_id,"
        f" {_REQUEST_COLUMNS} FROM oauth_codes k JOIN {_REQUESTS} ON r.id = k.request_id WHERE k.code_hash = %s",
        (code_hash,),
    ).fetchone()


def spend_code(conn: Connection, code_hash: str, connection_id: str, now: str) -> bool:
    """Mark the code used (once): False for a spent or unknown one. A concurrent spender waits for this
    row and, once it commits, finds it used (PostgreSQL checks the WHERE again on the new row)."""
    cursor = conn.execute(
        "UPDATE oauth_codes SET used_at = %s, connection_id = %s WHERE code_hash = %s AND used_at IS NULL",
        (now, connection_id, code_hash),
    )
    return cursor.rowcount == 1


# -- connections and tokens --------------------------------------------------------------------
def add_connection(conn: Connection, fields: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO oauth_connections (id, client_id, request_id, scopes, resource, created_at)"
        " VALUES (%(id)s, %(client_id)s, %(request_id)s, %(scopes)s, %(resource)s, %(created_at)s)",
        fields,
    )


def add_token(
    conn: Connection, token_hash: str, connection_id: str, kind: str, scopes: str, now: str, expires_at: str
) -> None:
    conn.execute(
        "INSERT INTO oauth_tokens (token_hash, connection_id, kind, scopes, created_at, expires_at)"
        " VALUES (%s, %s, %s, %s, %s, %s)",
        (token_hash, connection_id, kind, scopes, now, expires_at),
    )


def token(conn: Connection, token_hash: str, kind: str) -> dict[str, Any] | None:
    """A token of this kind with its connection (revoked ones included: the caller decides)."""
    return conn.execute(
        "SELECT t.token_hash, t.connection_id, t.scopes, t.expires_at, t.used_at, t.revoked_at,"
        " n.client_id, n.resource, n.revoked_at AS connection_revoked_at"
        " FROM oauth_tokens t JOIN oauth_connections n ON n.id = t.connection_id"
        " WHERE t.token_hash = %s AND t.kind = %s",
        (token_hash, kind),
    ).fetchone()


def spend_refresh(conn: Connection, token_hash: str, now: str) -> bool:
    """Mark a live refresh token used (once): False for a spent, revoked or unknown one."""
    cursor = conn.execute(
        "UPDATE oauth_tokens SET used_at = %s WHERE token_hash = %s AND kind = 'refresh'"
        " AND used_at IS NULL AND revoked_at IS NULL",
        (now, token_hash),
    )
    return cursor.rowcount == 1


def touch_connection(conn: Connection, connection_id: str, now: str) -> None:
    conn.execute("UPDATE oauth_connections SET refreshed_at = %s WHERE id = %s", (now, connection_id))


def revoke_connection(conn: Connection, connection_id: str, reason: str, now: str) -> int:
    """Revoke a connection and every live token of its family; the number of tokens revoked."""
    conn.execute(
        "UPDATE oauth_connections SET revoked_at = %s, revoked_reason = %s WHERE id = %s AND revoked_at IS NULL",
        (now, reason, connection_id),
    )
    cursor = conn.execute(
        "UPDATE oauth_tokens SET revoked_at = %s WHERE connection_id = %s AND revoked_at IS NULL",
        (now, connection_id),
    )
    return int(cursor.rowcount)


def connection(conn: Connection, connection_id: str) -> dict[str, Any] | None:
    return conn.execute("SELECT id, revoked_at FROM oauth_connections WHERE id = %s", (connection_id,)).fetchone()


def connections(conn: Connection, now: str) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT n.id, n.client_id, c.client_name, n.scopes, n.resource, n.created_at, n.refreshed_at,"
        " n.revoked_at, n.revoked_reason,"
        " (SELECT max(t.expires_at) FROM oauth_tokens t WHERE t.connection_id = n.id AND t.kind = 'refresh'"
        "  AND t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > %s) AS refresh_until"
        " FROM oauth_connections n JOIN oauth_clients c ON c.client_id = n.client_id ORDER BY n.created_at",
        (now,),
    ).fetchall()
