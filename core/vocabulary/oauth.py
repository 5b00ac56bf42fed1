"""The shapes of OAuth's answers (core/operations/oauth.py): requests waiting for the person,
connections, tokens issued. Tokens and codes appear only in `Issued` and `PageAnswer`, the
answers that hand them to the client; no listing ever holds one."""

from __future__ import annotations

from typing import Literal, TypedDict

from memvault.core.vocabulary.model import OAuthScope

ALL_SCOPES: tuple[str, ...] = tuple(scope.value for scope in OAuthScope)
SCOPE_WORDS = {
    OAuthScope.READ.value: "search and read your remote_allowed memories",
    OAuthScope.PROPOSE.value: "propose new memories (they wait in your inbox)",
    OAuthScope.WRITE.value: "add, correct, archive and restore remote_allowed memories",
    OAuthScope.DELETE.value: "ask for memories to be purged (you confirm each purge)",
}


class ClientRecord(TypedDict):
    client_id: str
    client_name: str | None
    secret_hash: str | None
    metadata: dict[str, object]


class StartedRequest(TypedDict):
    id: str  # the pairing code, shown on the page and typed by the person
    page: str  # the consent page's secret path segment (only its hash is stored)


class OAuthRequestRow(TypedDict):
    id: str
    client_id: str
    client_name: str | None
    scopes: list[str]
    redirect_host: str
    created_at: str
    expires_at: str
    status: str


class PageAnswer(TypedDict):
    status: Literal["pending", "approved", "denied", "answered", "expired", "unknown"]
    request: OAuthRequestRow | None
    redirect_uri: str | None
    state: str | None
    code: str | None  # only in the one answer that sends the browser back after approval


class OAuthDecision(TypedDict):
    id: str
    status: str
    client_name: str | None
    scopes: list[str]


class CodeGrant(TypedDict):
    client_id: str
    scopes: list[str]
    redirect_uri: str
    redirect_explicit: bool
    code_challenge: str
    resource: str
    expires_at: float  # seconds since the epoch


class TokenGrant(TypedDict):
    connection_id: str
    client_id: str
    scopes: list[str]
    resource: str
    expires_at: int  # seconds since the epoch


class Issued(TypedDict):
    access_token: str
    refresh_token: str
    expires_in: int
    scopes: list[str]


class ConnectionRow(TypedDict):
    id: str
    client_id: str
    client_name: str | None
    scopes: list[str]
    created_at: str
    refreshed_at: str | None
    refresh_until: str | None
    revoked_at: str | None
    revoked_reason: str | None


class ConnectionRevoked(TypedDict):
    id: str
    revoked_tokens: int
