"""Principals (the remote and workspace callers) and their bearer tokens.

A token is shown once, when it is made; the store keeps only its sha256. A
request's token is hashed and looked up; the stored hash is then compared in
constant time. Revoking a principal revokes all its tokens at once, and the
next request with any of them is refused (every request reads the store).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any, cast

from memvault.core.security.access import require_owner
from memvault.core.store.context import Context
from memvault.core.vocabulary.drafts import required_text, text
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller, Surface
from memvault.core.vocabulary.results import PrincipalRevoked, PrincipalRow, TokenCreated

TOKEN_PREFIX = "mvt_"  # noqa: S105 (a marker that helps secret scanners, not a secret)
TOKEN_BYTES = 32
MAX_TOKEN_CHARS = 200
RESERVED_NAMES = frozenset({"local", "owner"})
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.\-]{0,63}$")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _name(value: Any) -> str:
    name = required_text(value, "principal", max_chars=64).lower()
    if not _NAME.match(name):
        raise InvalidArgument("principal: letters, digits, '.', '-' and '_' only, at most 64 characters")
    if name in RESERVED_NAMES:
        raise InvalidArgument(f"principal: {name!r} is reserved")
    return name


def create_token(ctx: Context, caller: Caller, principal: Any, surface: Any, workspace: Any = None) -> TokenCreated:
    """A new token for `principal` (made, or brought back, with this surface). The token is in the answer only."""
    require_owner(caller, "creating access tokens")
    name = _name(principal)
    if surface not in (Surface.REMOTE.value, Surface.WORKSPACE.value):
        raise InvalidArgument("surface: expected remote or workspace")
    workspace_id = text(workspace, "workspace", max_chars=64)
    if surface == Surface.WORKSPACE.value and not workspace_id:
        raise InvalidArgument("a workspace principal needs --workspace ID")
    if surface == Surface.REMOTE.value and workspace_id:
        raise InvalidArgument("--workspace is for workspace principals only")
    token = TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)
    with ctx.transaction() as conn:
        existing = conn.principals.fetch(name)
        if (
            existing
            and existing["revoked_at"] is None
            and (existing["surface"], existing["workspace_id"])
            != (
                surface,
                workspace_id,
            )
        ):
            raise Conflict(f"principal {name} exists with another surface or workspace: revoke it first")
        now = ctx.now()
        conn.principals.upsert(name, surface, workspace_id, now)
        conn.principals.add_token(token_hash(token), name, now)
        conn.events.record(caller, "token_created", now, None, principal=name, surface=surface)
    return {"principal": name, "surface": surface, "workspace_id": workspace_id, "token": token}


def revoke(ctx: Context, caller: Caller, principal: Any) -> PrincipalRevoked:
    require_owner(caller, "revoking access tokens")
    name = required_text(principal, "principal", max_chars=64).lower()
    with ctx.transaction() as conn:
        existing = conn.principals.fetch(name)
        if existing is None:
            raise NotFound("no such principal")
        now = ctx.now()
        revoked = conn.principals.revoke(name, now)
        conn.events.record(caller, "principal_revoked", now, None, principal=name, tokens=revoked)
    return {"principal": name, "revoked_tokens": revoked}


def list_principals(ctx: Context, caller: Caller) -> list[PrincipalRow]:
    require_owner(caller, "listing principals")
    with ctx.reading() as conn:
        return cast(list[PrincipalRow], conn.principals.list_all())


def authenticate(ctx: Context, token: Any) -> Caller | None:
    """The caller a bearer token stands for, or None (unknown, revoked, malformed)."""
    if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > MAX_TOKEN_CHARS:
        return None
    digest = token_hash(token)
    with ctx.reading() as conn:
        row = conn.principals.by_token_hash(digest)
    if row is None or not hmac.compare_digest(row["token_hash"], digest):
        return None
    return Caller(principal=row["name"], surface=Surface(row["surface"]), workspace_id=row["workspace_id"])
