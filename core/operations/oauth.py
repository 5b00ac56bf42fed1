"""OAuth 2.1 grants: the authorization server's state, kept in the encrypted store.

The HTTP front end (`mcp_bridge/oauth/`) speaks the protocol; this module decides:

- a client registers (RFC 7591); its secret, if it has one, is kept as a sha256;
- an authorization request waits for the person (`pending`), who approves or denies it from
  the CLI or the app (`approve`, `deny`: owner only). The consent page only ever *reads* the
  answer (`page`): nobody who merely reaches the public address can approve anything;
- after approval the page's next look makes the one authorization code (120 s, single use) and
  sends the browser back; a code presented twice revokes what it was exchanged for;
- a code becomes a connection: a family of tokens. Access tokens live 15 minutes; a refresh
  token is spent when used (rotation) and dies after 30 idle days; presenting a spent one
  revokes the whole family;
- `authenticate` turns an access token into a `remote` caller carrying its granted scopes,
  bound to the resource (RFC 8707) it was issued for.

Every code, token and page address is random (256 bits; the page 192) and stored only as its
sha256; nothing here logs one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from memvault.core.security.access import check_kill_switch, require_owner
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.clock import format_time, parse_time
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller, Surface
from memvault.core.vocabulary.oauth import (
    ALL_SCOPES,
    ClientRecord,
    CodeGrant,
    ConnectionRevoked,
    ConnectionRow,
    Issued,
    OAuthDecision,
    OAuthRequestRow,
    PageAnswer,
    StartedRequest,
    TokenGrant,
)

log = logging.getLogger("memvault.oauth")
_WEB = Caller(principal="oauth", surface=Surface.REMOTE)  # who acts for a web client before it holds a token

ACCESS_SECONDS = 15 * 60
REFRESH_IDLE = timedelta(days=30)
CODE_LIFETIME = timedelta(seconds=120)
REQUEST_LIFETIME = timedelta(minutes=10)
ACCESS_PREFIX, REFRESH_PREFIX, CODE_PREFIX = "mva_", "mvr_", "mvc_"
MAX_SECRET_CHARS = 200
PRINCIPAL_PREFIX = "oauth-"
# The pairing code: 8 letters and digits that cannot be mistaken for each other, shown as ABCD-EFGH.
_PAIRING = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_resource(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


def pairing_code(value: object) -> str:
    """A pairing code as typed by a person (any case, with or without its dash)."""
    if not isinstance(value, str):
        raise InvalidArgument("expected a request id such as ABCD-EFGH")
    letters = "".join(ch for ch in value.upper() if ch.isalnum())
    if len(letters) != 8 or any(ch not in _PAIRING for ch in letters):
        raise InvalidArgument("expected a request id such as ABCD-EFGH (memvault connections pending)")
    return f"{letters[:4]}-{letters[4:]}"


def _scopes(text: str | None) -> list[str]:
    return [scope for scope in (text or "").split() if scope]


def _request_row(row: Mapping[str, Any]) -> OAuthRequestRow:
    return {
        "id": row["id"],
        "client_id": row["client_id"],
        "client_name": row["client_name"],
        "scopes": _scopes(row["granted"] or row["scopes"]),
        "redirect_host": urlsplit(row["redirect_uri"]).netloc,
        "created_at": row["created_at"],
        "expires_at": row["expires_at"],
        "status": row["status"],
    }


class OAuthGrants:
    """`Vault.oauth`: the authorization server's side (no caller: it acts for whoever presents a
    secret) and the person's side (owner only: pending, approve, deny, connections, revoke)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def _now(self) -> datetime:
        return self.ctx.clock.now()

    # -- clients ---------------------------------------------------------------------------------
    def register_client(self, client_id: str, secret: str | None, metadata: Mapping[str, Any]) -> None:
        kept = {key: value for key, value in metadata.items() if key != "client_secret"}
        name = metadata.get("client_name")
        with self.ctx.transaction() as conn:
            conn.oauth.add_client(
                client_id,
                str(name)[:200] if name else None,
                digest(secret) if secret else None,
                json.dumps(kept, sort_keys=True, default=str),
                self.ctx.now(),
            )
        log.info("oauth: client %s registered", client_id)

    def client(self, client_id: str) -> ClientRecord | None:
        with self.ctx.reading() as conn:
            row = conn.oauth.client(client_id)
        if row is None:
            return None
        return {
            "client_id": row["client_id"],
            "client_name": row["client_name"],
            "secret_hash": row["secret_hash"],
            "metadata": json.loads(row["metadata"]),
        }

    @staticmethod
    def secret_matches(record: ClientRecord, presented: str | None) -> bool:
        if record["secret_hash"] is None:
            return True
        if not presented or len(presented) > MAX_SECRET_CHARS:
            return False
        return hmac.compare_digest(record["secret_hash"], digest(presented))

    # -- authorization requests (the page's side) ------------------------------------------------
    def start_request(
        self,
        *,
        client_id: str,
        scopes: list[str],
        redirect_uri: str,
        redirect_explicit: bool,
        code_challenge: str,
        state: str | None,
        resource: str,
    ) -> StartedRequest:
        """Record a request for the person to answer; refused while the kill switch is on."""
        check_kill_switch(self.ctx.kill_switch(), _WEB)
        unknown = sorted(set(scopes) - set(ALL_SCOPES))
        if unknown or not scopes:
            raise InvalidArgument(f"unknown scope(s): {' '.join(unknown)[:100]}" if unknown else "no scope asked for")
        page = secrets.token_urlsafe(24)
        now = self._now()
        with self.ctx.transaction() as conn:
            conn.oauth.forget_stale_requests(format_time(now - timedelta(days=1)))
            request_id = pairing_code("".join(secrets.choice(_PAIRING) for _ in range(8)))
            conn.oauth.add_request(
                {
                    "id": request_id,
                    "page_hash": digest(page),
                    "client_id": client_id,
                    "scopes": " ".join(scopes),
                    "redirect_uri": redirect_uri,
                    "redirect_explicit": int(redirect_explicit),
                    "code_challenge": code_challenge,
                    "state": state,
                    "resource": resource,
                    "created_at": format_time(now),
                    "expires_at": format_time(now + REQUEST_LIFETIME),
                },
            )
            # On the change feed, so the app and the tray hear of it at once.
            conn.events.record(_WEB, "oauth_requested", format_time(now), None, request=request_id, client=client_id)
        log.info("oauth: authorization request %s from client %s waits for the person", request_id, client_id)
        return {"id": request_id, "page": page}

    def page(self, page: str) -> PageAnswer:
        """What the consent page shows now. After the person's answer, the one look that sends the
        browser back: with a new code (approved) or an error (denied)."""
        answer: PageAnswer = {"status": "unknown", "request": None, "redirect_uri": None, "state": None, "code": None}
        if not isinstance(page, str) or len(page) > MAX_SECRET_CHARS:
            return answer
        now = self._now()
        with self.ctx.transaction() as conn:
            row = conn.oauth.request_by_page(digest(page))
            if row is None:
                return answer
            answer["request"], answer["redirect_uri"], answer["state"] = (
                _request_row(row),
                row["redirect_uri"],
                row["state"],
            )
            status = row["status"]
            if status in ("pending", "approved") and row["expires_at"] <= format_time(now):
                answer["status"] = "expired"
                return answer
            answer["status"] = status
            if status in ("approved", "denied") and conn.oauth.mark_answered(row["id"], status):
                if status == "approved":
                    code = CODE_PREFIX + secrets.token_urlsafe(32)
                    conn.oauth.add_code(digest(code), row["id"], format_time(now + CODE_LIFETIME))
                    answer["code"] = code
            elif status in ("approved", "denied"):
                answer["status"] = "answered"
        return answer

    # -- the person's side -----------------------------------------------------------------------
    def pending(self, caller: Caller) -> list[OAuthRequestRow]:
        require_owner(caller, "answering connection requests")
        with self.ctx.reading() as conn:
            return [_request_row(row) for row in conn.oauth.pending_requests(self.ctx.now())]

    def approve(self, caller: Caller, request_id: str, scopes: list[str] | None = None) -> OAuthDecision:
        """Approve a waiting request, granting what it asked for or, given `scopes`, a part of it."""
        return self._decide(caller, request_id, "approved", scopes)

    def deny(self, caller: Caller, request_id: str) -> OAuthDecision:
        return self._decide(caller, request_id, "denied", None)

    def _decide(self, caller: Caller, request_id: str, status: str, scopes: list[str] | None) -> OAuthDecision:
        require_owner(caller, "answering connection requests")
        code = pairing_code(request_id)
        now = self.ctx.now()
        with self.ctx.transaction() as conn:
            row = conn.oauth.request_by_id(code)
            if row is None:
                raise NotFound("no such connection request")
            asked = _scopes(row["scopes"])
            granted = asked if scopes is None else scopes
            outside = sorted(set(granted) - set(asked))
            if outside or not granted:
                raise InvalidArgument(
                    f"the request did not ask for {' '.join(outside)}" if outside else "grant at least one scope"
                )
            granted_text = " ".join(scope for scope in asked if scope in granted) if status == "approved" else None
            if not conn.oauth.decide(code, status, granted_text, now):
                raise Conflict(f"request {code} is no longer waiting ({row['status']}, or expired)")
            conn.events.record(caller, f"oauth_{status}", now, None, request=code, client=row["client_id"])
        log.info("oauth: request %s %s", code, status)
        return {
            "id": code,
            "status": status,
            "client_name": row["client_name"],
            "scopes": _scopes(granted_text) if granted_text else [],
        }

    def connections(self, caller: Caller) -> list[ConnectionRow]:
        require_owner(caller, "listing connections")
        with self.ctx.reading() as conn:
            found = conn.oauth.connections(self.ctx.now())
        return [
            {
                "id": row["id"],
                "client_id": row["client_id"],
                "client_name": row["client_name"],
                "scopes": _scopes(row["scopes"]),
                "created_at": row["created_at"],
                "refreshed_at": row["refreshed_at"],
                "refresh_until": row["refresh_until"],
                "revoked_at": row["revoked_at"],
                "revoked_reason": row["revoked_reason"],
            }
            for row in found
        ]

    def revoke(self, caller: Caller, connection_id: str) -> ConnectionRevoked:
        require_owner(caller, "revoking connections")
        name = str(connection_id).strip().removeprefix(PRINCIPAL_PREFIX)
        now = self.ctx.now()
        with self.ctx.transaction() as conn:
            if conn.oauth.connection(name) is None:
                raise NotFound("no such connection")
            revoked = conn.oauth.revoke_connection(name, "revoked by the person", now)
            conn.events.record(caller, "oauth_revoked", now, None, connection=name, tokens=revoked)
        log.info("oauth: connection %s revoked by the person (%d token(s))", name, revoked)
        return {"id": name, "revoked_tokens": revoked}

    # -- codes and tokens (the token endpoint's side) --------------------------------------------
    def code(self, code: str) -> CodeGrant | None:
        """The grant a code stands for, or None. A code presented again after its exchange revokes
        the connection it was exchanged for (OAuth 2.1, 4.1.3)."""
        if not isinstance(code, str) or not code.startswith(CODE_PREFIX) or len(code) > MAX_SECRET_CHARS:
            return None
        with self.ctx.transaction() as conn:
            row = conn.oauth.code(digest(code))
            if row is None:
                return None
            if row["used_at"] is not None:
                if row["connection_id"]:
                    self._revoke_family(conn, row["connection_id"], "authorization code used twice")
                return None
        return {
            "client_id": row["client_id"],
            "scopes": _scopes(row["granted"]),
            "redirect_uri": row["redirect_uri"],
            "redirect_explicit": bool(row["redirect_explicit"]),
            "code_challenge": row["code_challenge"],
            "resource": row["resource"],
            "expires_at": parse_time(row["code_expires_at"], "expires_at").timestamp(),
        }

    def exchange_code(self, code: str) -> Issued:
        """Spend a code (once) for a new connection and its first tokens."""
        now = self._now()
        connection_id = secrets.token_hex(5)
        with self.ctx.transaction() as conn:
            row = conn.oauth.code(digest(code))
            if row is None or row["code_expires_at"] <= format_time(now):
                raise Conflict("authorization code unknown or expired")
            scopes = _scopes(row["granted"])
            conn.oauth.add_connection(
                {
                    "id": connection_id,
                    "client_id": row["client_id"],
                    "request_id": row["id"],
                    "scopes": " ".join(scopes),
                    "resource": row["resource"],
                    "created_at": format_time(now),
                },
            )
            if not conn.oauth.spend_code(row["code_hash"], connection_id, format_time(now)):
                raise Conflict("authorization code already used")  # the transaction, connection included, is undone
            issued = self._issue(conn, connection_id, scopes, scopes, now)
            conn.events.record(
                _WEB, "oauth_connected", format_time(now), None, connection=connection_id, client=row["client_id"]
            )
        log.info("oauth: connection %s made for client %s", connection_id, row["client_id"])
        return issued

    def refresh_grant(self, token: str) -> TokenGrant | None:
        """What a refresh token stands for, or None. A spent one revokes its whole family."""
        if not isinstance(token, str) or not token.startswith(REFRESH_PREFIX) or len(token) > MAX_SECRET_CHARS:
            return None
        with self.ctx.transaction() as conn:
            row = conn.oauth.token(digest(token), "refresh")
            if row is None or row["revoked_at"] or row["connection_revoked_at"]:
                return None
            if row["used_at"] is not None:
                self._revoke_family(conn, row["connection_id"], "a spent refresh token was presented again")
                return None
        return self._grant(row)

    def exchange_refresh(self, token: str, scopes: list[str]) -> Issued:
        """Rotate: spend this refresh token, issue a new pair (the access token with `scopes`)."""
        now = self._now()
        with self.ctx.transaction() as conn:
            row = conn.oauth.token(digest(token), "refresh")
            if row is None or row["expires_at"] <= format_time(now):
                raise Conflict("refresh token unknown or expired")
            if not conn.oauth.spend_refresh(row["token_hash"], format_time(now)):
                self._revoke_family(conn, row["connection_id"], "a spent refresh token was presented again")
                raise Conflict("refresh token already used")
            conn.oauth.touch_connection(row["connection_id"], format_time(now))
            return self._issue(conn, row["connection_id"], scopes, _scopes(row["scopes"]), now)

    def access_grant(self, token: str) -> TokenGrant | None:
        """A live access token's grant (for revocation, RFC 7009), or None."""
        if not isinstance(token, str) or not token.startswith(ACCESS_PREFIX) or len(token) > MAX_SECRET_CHARS:
            return None
        with self.ctx.reading() as conn:
            row = conn.oauth.token(digest(token), "access")
        if row is None or row["revoked_at"] or row["connection_revoked_at"]:
            return None
        return self._grant(row)

    def revoke_family(self, connection_id: str, reason: str) -> None:
        """RFC 7009: a client revokes one of its tokens; its whole family goes with it."""
        with self.ctx.transaction() as conn:
            self._revoke_family(conn, connection_id, reason)

    def authenticate(self, token: str, resource: str) -> Caller | None:
        """The remote caller a live access token stands for, if it was issued for `resource`."""
        if not isinstance(token, str) or not token.startswith(ACCESS_PREFIX) or len(token) > MAX_SECRET_CHARS:
            return None
        hashed = digest(token)
        with self.ctx.reading() as conn:
            row = conn.oauth.token(hashed, "access")
        if (
            row is None
            or not hmac.compare_digest(row["token_hash"], hashed)
            or row["revoked_at"]
            or row["connection_revoked_at"]
            or row["expires_at"] <= self.ctx.now()
            or not same_resource(row["resource"], resource)
        ):
            return None
        return Caller(
            principal=PRINCIPAL_PREFIX + row["connection_id"],
            surface=Surface.REMOTE,
            scopes=frozenset(_scopes(row["scopes"])),
        )

    def _grant(self, row: Mapping[str, Any]) -> TokenGrant:
        return {
            "connection_id": row["connection_id"],
            "client_id": row["client_id"],
            "scopes": _scopes(row["scopes"]),
            "resource": row["resource"],
            "expires_at": int(parse_time(row["expires_at"], "expires_at").timestamp()),
        }

    def _issue(self, conn: Store, connection_id: str, scopes: list[str], family: list[str], now: datetime) -> Issued:
        access = ACCESS_PREFIX + secrets.token_urlsafe(32)
        refresh = REFRESH_PREFIX + secrets.token_urlsafe(32)
        stamp = format_time(now)
        access_until = format_time(now + timedelta(seconds=ACCESS_SECONDS))
        conn.oauth.add_token(digest(access), connection_id, "access", " ".join(scopes), stamp, access_until)
        conn.oauth.add_token(
            digest(refresh), connection_id, "refresh", " ".join(family), stamp, format_time(now + REFRESH_IDLE)
        )
        return {"access_token": access, "refresh_token": refresh, "expires_in": ACCESS_SECONDS, "scopes": scopes}

    def _revoke_family(self, conn: Store, connection_id: str, reason: str) -> None:
        revoked = conn.oauth.revoke_connection(connection_id, reason, self.ctx.now())
        if revoked:
            log.warning("oauth: connection %s revoked: %s (%d token(s))", connection_id, reason, revoked)
