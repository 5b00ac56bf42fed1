"""The SDK's authorization-server provider protocol over `Vault.oauth`.

The SDK's handlers (`mcp.server.auth.handlers`) parse and check the protocol (PKCE S256 only,
the redirect URI registered, the code's redirect and verifier at the token endpoint); this
provider answers from the encrypted store, on a worker thread, and adds memvault's rules: the
`resource` must be this server (RFC 8707), consent waits for the person, client secrets are
kept as hashes (so `HashedClientAuthenticator` checks them).
"""

from __future__ import annotations

import base64
import binascii
import logging
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import unquote

import anyio.to_thread
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    RefreshToken,
    TokenError,
)
from mcp.shared.auth import InvalidRedirectUriError, OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl
from starlette.requests import Request

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, KillSwitchEngaged
from memvault.core.vocabulary.oauth import ALL_SCOPES, ClientRecord, TokenGrant
from memvault.mcp_bridge.oauth.client_documents import ClientDocuments, is_document_client_id

log = logging.getLogger("memvault.oauth")

DEFAULT_SCOPE = "memory:read"


@dataclass(frozen=True)
class OAuthConfig:
    """Where this server is reached: `--public-url` names the issuer and, with /mcp, the resource."""

    issuer: str  # e.g. https://memvault.example.net (no path, no trailing slash)
    resource: str  # issuer + /mcp
    fetch_client_documents: bool = False


class StoredClient(OAuthClientInformationFull):
    """A client as the store keeps it: its secret only as a hash, its redirect URIs compared as
    the exact strings it registered."""

    secret_hash: str | None = None

    def validate_redirect_uri(self, redirect_uri: AnyUrl | None) -> AnyUrl:
        registered = [str(uri) for uri in self.redirect_uris or []]
        if redirect_uri is None:
            if len(registered) == 1:
                return AnyUrl(registered[0])
            raise InvalidRedirectUriError("redirect_uri is required")
        if str(redirect_uri) not in registered:
            raise InvalidRedirectUriError("redirect_uri is not one this client registered")
        return redirect_uri


class GrantedRefresh(RefreshToken):
    connection_id: str


class GrantedAccess(AccessToken):
    connection_id: str


_G = TypeVar("_G", GrantedRefresh, GrantedAccess)


def _granted(kind: type[_G], token: str, grant: TokenGrant) -> _G:
    """The SDK's token object for a grant the store answered."""
    return kind(
        token=token,
        client_id=grant["client_id"],
        scopes=grant["scopes"],
        expires_at=grant["expires_at"],
        resource=grant["resource"],
        connection_id=grant["connection_id"],
    )


def _stored(record: ClientRecord) -> StoredClient:
    return StoredClient.model_validate(
        {**record["metadata"], "client_id": record["client_id"], "secret_hash": record["secret_hash"]}
    )


class MemvaultProvider:
    """`OAuthAuthorizationServerProvider` for memvault (the SDK's protocol, structurally)."""

    def __init__(self, vault: Vault, config: OAuthConfig) -> None:
        self.vault = vault
        self.config = config
        self.documents = ClientDocuments() if config.fetch_client_documents else None

    async def get_client(self, client_id: str) -> StoredClient | None:
        if not client_id or len(client_id) > 500:
            return None
        record = await anyio.to_thread.run_sync(self.vault.oauth.client, client_id)
        if record is None and self.documents is not None and is_document_client_id(client_id):
            metadata = await self.documents.fetch(client_id)
            if metadata is None:
                return None
            await anyio.to_thread.run_sync(self.vault.oauth.register_client, client_id, None, metadata)
            record = await anyio.to_thread.run_sync(self.vault.oauth.client, client_id)
        return None if record is None else _stored(record)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        metadata = client_info.model_dump(mode="json", exclude_none=True)
        await anyio.to_thread.run_sync(
            self.vault.oauth.register_client, client_info.client_id, client_info.client_secret, metadata
        )

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        resource = params.resource or self.config.resource
        if resource.rstrip("/") != self.config.resource.rstrip("/"):
            raise AuthorizeError("invalid_target", "resource: tokens here are only for " + self.config.resource)
        scopes = params.scopes or (client.scope or DEFAULT_SCOPE).split()
        if not set(scopes) <= set(ALL_SCOPES):
            raise AuthorizeError("invalid_scope", "scopes offered: " + " ".join(ALL_SCOPES))
        try:
            started = await anyio.to_thread.run_sync(
                lambda: self.vault.oauth.start_request(
                    client_id=client.client_id,
                    scopes=scopes,
                    redirect_uri=str(params.redirect_uri),
                    redirect_explicit=params.redirect_uri_provided_explicitly,
                    code_challenge=params.code_challenge,
                    state=params.state,
                    resource=self.config.resource,
                )
            )
        except KillSwitchEngaged:
            raise AuthorizeError("temporarily_unavailable", "remote access is stopped in memvault") from None
        except InvalidArgument as exc:
            raise AuthorizeError("invalid_scope", exc.message) from None
        return f"{self.config.issuer}/consent/{started['page']}"

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        grant = await anyio.to_thread.run_sync(self.vault.oauth.code, authorization_code)
        if grant is None or grant["client_id"] != client.client_id:
            return None
        return AuthorizationCode(
            code=authorization_code,
            scopes=grant["scopes"],
            expires_at=grant["expires_at"],
            client_id=grant["client_id"],
            code_challenge=grant["code_challenge"],
            redirect_uri=AnyUrl(grant["redirect_uri"]),
            redirect_uri_provided_explicitly=grant["redirect_explicit"],
            resource=grant["resource"],
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        try:
            issued = await anyio.to_thread.run_sync(self.vault.oauth.exchange_code, authorization_code.code)
        except Conflict as exc:
            raise TokenError("invalid_grant", exc.message) from None
        return _token(issued)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> GrantedRefresh | None:
        grant = await anyio.to_thread.run_sync(self.vault.oauth.refresh_grant, refresh_token)
        return None if grant is None else _granted(GrantedRefresh, refresh_token, grant)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: GrantedRefresh, scopes: list[str]
    ) -> OAuthToken:
        try:
            issued = await anyio.to_thread.run_sync(self.vault.oauth.exchange_refresh, refresh_token.token, scopes)
        except Conflict as exc:
            raise TokenError("invalid_grant", exc.message) from None
        return _token(issued)

    async def load_access_token(self, token: str) -> GrantedAccess | None:
        grant = await anyio.to_thread.run_sync(self.vault.oauth.access_grant, token)
        return None if grant is None else _granted(GrantedAccess, token, grant)

    async def revoke_token(self, token: GrantedAccess | GrantedRefresh) -> None:
        await anyio.to_thread.run_sync(self.vault.oauth.revoke_family, token.connection_id, "revoked by the client")

    async def exchange_identity_assertion(self, client: OAuthClientInformationFull, params: Any) -> OAuthToken:
        raise TokenError("unsupported_grant_type", "only authorization_code and refresh_token")


def _token(issued: Any) -> OAuthToken:
    return OAuthToken(
        access_token=issued["access_token"],
        token_type="Bearer",  # noqa: S106 (the scheme, not a secret)
        expires_in=issued["expires_in"],
        scope=" ".join(issued["scopes"]),
        refresh_token=issued["refresh_token"],
    )


class HashedClientAuthenticator(ClientAuthenticator):
    """The token and revocation endpoints' client check, against the secret's stored hash."""

    def __init__(self, provider: MemvaultProvider) -> None:
        super().__init__(provider)
        self.memvault = provider

    async def authenticate_request(self, request: Request) -> OAuthClientInformationFull:
        form = await request.form()
        client_id = form.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise AuthenticationError("Missing client_id")
        client = await self.memvault.get_client(client_id)
        if client is None:
            raise AuthenticationError("Invalid client_id")
        presented = _presented_secret(request, client, form.get("client_secret"))
        record: ClientRecord = {
            "client_id": client.client_id,
            "client_name": client.client_name,
            "secret_hash": client.secret_hash,
            "metadata": {},
        }
        if not self.memvault.vault.oauth.secret_matches(record, presented):  # sha256, compared in constant time
            raise AuthenticationError("Invalid client credentials")
        return client


def _presented_secret(request: Request, client: StoredClient, posted: object) -> str | None:
    method = client.token_endpoint_auth_method
    if method == "client_secret_basic":
        header = request.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            raise AuthenticationError("Missing Basic authentication")
        try:
            who, _, secret = base64.b64decode(header[6:]).decode("utf-8").partition(":")
        except (ValueError, UnicodeDecodeError, binascii.Error):
            raise AuthenticationError("Invalid Basic authentication") from None
        if unquote(who) != client.client_id:
            raise AuthenticationError("Client ID mismatch in Basic authentication")
        return unquote(secret)
    if method in ("client_secret_post", None):
        return posted if isinstance(posted, str) else None
    if method == "none":
        return None
    raise AuthenticationError("Unsupported client authentication method")
