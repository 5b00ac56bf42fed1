"""The OAuth front of `memvault serve --http ... --public-url URL`.

`OAuthFront.wrap(gate)` puts the authorization server's routes beside the bearer gate of /mcp:

    /.well-known/oauth-protected-resource[/mcp]   RFC 9728 (the resource: URL/mcp)
    /.well-known/oauth-authorization-server       RFC 8414 (the issuer: URL)
    /register                                      RFC 7591 dynamic registration
    /authorize                                     code + PKCE S256, exact redirect URI, `resource`
    /consent/{page}                                the page that waits for the person's answer
    /token                                         codes and rotating refresh tokens
    /revoke                                        RFC 7009

Everything else goes to the gate, which asks every request for a bearer token (a static one
or an OAuth access token issued for this resource) and answers 401 with
`WWW-Authenticate: Bearer resource_metadata="…"`. The SDK's handlers do the protocol; the
provider (`provider.py`) answers from the store.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from mcp.server.auth.handlers.authorize import AuthorizationHandler
from mcp.server.auth.handlers.metadata import MetadataHandler, ProtectedResourceMetadataHandler
from mcp.server.auth.handlers.register import RegistrationHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.middleware.client_auth import AuthenticationError
from mcp.server.auth.routes import build_metadata, cors_middleware
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import RequestBodyLimitMiddleware
from mcp.shared.auth import OAuthMetadata, ProtectedResourceMetadata
from pydantic import AnyHttpUrl
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, Router, request_response

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument, RateLimited
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.oauth import ALL_SCOPES
from memvault.mcp_bridge.oauth import consent_page
from memvault.mcp_bridge.oauth.provider import HashedClientAuthenticator, MemvaultProvider, OAuthConfig
from memvault.mcp_bridge.ratelimit import RateLimiter

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MCP_PATH = "/mcp"
PRM_PATH = "/.well-known/oauth-protected-resource"
AS_METADATA_PATH = "/.well-known/oauth-authorization-server"
CONSENT_PREFIX = "/consent/"
MAX_FORM = 64 * 1024
NO_STORE = {"Cache-Control": "no-store"}


def config_for(public_url: str, *, fetch_client_documents: bool = False) -> OAuthConfig:
    """`--public-url`: an origin (https, or http on loopback for testing), no path, query or fragment."""
    parts = urlsplit(public_url.strip())
    host = parts.hostname or ""
    loopback = host == "localhost" or _is_loopback(host)
    if parts.scheme not in ("https", "http") or not host or (parts.scheme == "http" and not loopback):
        raise InvalidArgument("--public-url: expected https://HOST (http only for a loopback address)")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise InvalidArgument("--public-url: give the origin only, e.g. https://memvault.example.net")
    issuer = f"{parts.scheme}://{parts.netloc.lower()}"
    return OAuthConfig(issuer=issuer, resource=issuer + MCP_PATH, fetch_client_documents=fetch_client_documents)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _error(status: int, error: str, description: str) -> JSONResponse:
    return JSONResponse({"error": error, "error_description": description}, status_code=status, headers=NO_STORE)


class OAuthFront:
    """The authorization server of one `serve --http` and how /mcp authenticates its tokens."""

    def __init__(self, vault: Vault, config: OAuthConfig) -> None:
        self.vault = vault
        self.config = config
        self.provider = MemvaultProvider(vault, config)
        self.limiter = RateLimiter(per_minute=60, burst=20)  # per endpoint: registration and consent are rare
        self.router = Router(routes=self._routes())

    @property
    def host(self) -> str:
        return urlsplit(self.config.issuer).netloc

    @property
    def challenge(self) -> bytes:
        """The 401's `WWW-Authenticate`: where a client learns how to get a token (RFC 9728)."""
        return f'Bearer resource_metadata="{self.config.issuer}{PRM_PATH}{MCP_PATH}"'.encode()

    def authenticate(self, token: str) -> Caller | None:
        """A static token's principal, or the remote caller of an OAuth access token for this resource."""
        return self.vault.authenticate(token) or self.vault.oauth.authenticate(token, self.config.resource)

    def wrap(self, gate: ASGIApp) -> ASGIApp:
        router = self.router

        async def front(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http" and _is_oauth_path(scope["path"]):
                await router(scope, receive, send)
            else:
                await gate(scope, receive, send)

        return front

    def _routes(self) -> list[Route]:
        issuer = AnyHttpUrl(self.config.issuer)
        registration = ClientRegistrationOptions(
            enabled=True, valid_scopes=list(ALL_SCOPES), default_scopes=list(ALL_SCOPES)
        )
        built = build_metadata(issuer, None, registration, RevocationOptions(enabled=True))
        methods = ["client_secret_post", "client_secret_basic", "none"]
        # Strings, so that the models keep the issuer exactly as given (no trailing slash: RFC 8414/9207
        # compare it as a string).
        metadata = OAuthMetadata.model_validate(
            {
                **built.model_dump(mode="json", exclude_none=True),
                "issuer": self.config.issuer,
                "authorization_response_iss_parameter_supported": True,
                "client_id_metadata_document_supported": self.config.fetch_client_documents or None,
                "token_endpoint_auth_methods_supported": methods,
                "revocation_endpoint_auth_methods_supported": methods,
            }
        )
        resource = ProtectedResourceMetadata.model_validate(
            {
                "resource": self.config.resource,
                "authorization_servers": [self.config.issuer],
                "scopes_supported": list(ALL_SCOPES),
                "resource_name": "memvault",
            }
        )
        authenticator = HashedClientAuthenticator(self.provider)
        authorize = AuthorizationHandler(self.provider)
        token = TokenHandler(self.provider, authenticator)
        register = RegistrationHandler(self.provider, registration)
        prm = cors_middleware(ProtectedResourceMetadataHandler(resource).handle, ["GET", "OPTIONS"])
        look = self.vault.oauth.page

        async def authorizing(request: Request) -> Response:
            refused = await self._authorize_refusal(request)
            return refused or await authorize.handle(request)

        async def tokens(request: Request) -> Response:
            form = await request.form()
            asked = form.get("resource")
            if isinstance(asked, str) and asked.rstrip("/") != self.config.resource.rstrip("/"):
                return _error(400, "invalid_target", "tokens here are only for " + self.config.resource)
            answer: Response = await token.handle(request)
            return answer

        async def revoking(request: Request) -> Response:
            return await revoke(request, self.provider, authenticator)

        async def consent(request: Request) -> Response:
            return await consent_page.consent(request, look, self.config.issuer)

        return [
            Route(PRM_PATH + MCP_PATH, prm, methods=["GET", "OPTIONS"]),
            Route(PRM_PATH, prm, methods=["GET", "OPTIONS"]),
            Route(
                AS_METADATA_PATH,
                cors_middleware(MetadataHandler(metadata).handle, ["GET", "OPTIONS"]),
                methods=["GET", "OPTIONS"],
            ),
            Route("/authorize", self._limited("authorize", authorizing, cors=False), methods=["GET", "POST"]),
            Route("/token", self._limited("token", tokens), methods=["POST", "OPTIONS"]),
            Route("/register", self._limited("register", register.handle), methods=["POST", "OPTIONS"]),
            Route("/revoke", self._limited("revoke", revoking), methods=["POST", "OPTIONS"]),
            Route(CONSENT_PREFIX + "{page}", self._limited("consent", consent, cors=False), methods=["GET"]),
        ]

    def _limited(self, name: str, handler: Callable[[Request], Awaitable[Response]], *, cors: bool = True) -> ASGIApp:
        limiter = self.limiter

        async def checked(request: Request) -> Response:
            try:
                limiter.check(name)
            except RateLimited as exc:
                return _error(429, "temporarily_unavailable", exc.message)
            return await handler(request)

        app: ASGIApp = RequestBodyLimitMiddleware(request_response(checked), MAX_FORM)
        return cors_middleware_app(app, ["POST", "OPTIONS"]) if cors else app

    async def _authorize_refusal(self, request: Request) -> Response | None:
        """What the SDK's handler does not check: PKCE's method given explicitly (S256), and the
        redirect URI exactly as registered (compared as strings), before anything redirects."""
        params = request.query_params if request.method == "GET" else await request.form()
        if params.get("code_challenge_method") != "S256":
            return _error(400, "invalid_request", "code_challenge_method=S256 is required (PKCE)")
        client_id, redirect = params.get("client_id"), params.get("redirect_uri")
        if isinstance(client_id, str) and isinstance(redirect, str):
            client = await self.provider.get_client(client_id)
            if client is not None and redirect not in [str(uri) for uri in client.redirect_uris or []]:
                return _error(400, "invalid_request", "redirect_uri is not one this client registered")
        return None


async def revoke(request: Request, provider: MemvaultProvider, authenticator: HashedClientAuthenticator) -> Response:
    """RFC 7009: a client revokes one of its tokens (and with it the whole connection). Unknown
    tokens and other clients' tokens answer 200 alike. (The SDK's handler insists on a
    `client_secret` field even from a public client.)"""
    try:
        client = await authenticator.authenticate_request(request)
    except AuthenticationError as exc:
        return _error(401, "invalid_client", exc.message)
    token = (await request.form()).get("token")
    if not isinstance(token, str) or not token:
        return _error(400, "invalid_request", "token is required")
    found = await provider.load_access_token(token) or await provider.load_refresh_token(client, token)
    if found is not None and found.client_id == client.client_id:
        await provider.revoke_token(found)
    return Response(status_code=200, headers={**NO_STORE, "Pragma": "no-cache"})


def cors_middleware_app(app: ASGIApp, methods: list[str]) -> ASGIApp:
    """As the SDK's own routes: endpoints a browser-based client calls allow any origin."""
    return CORSMiddleware(app, allow_origins="*", allow_methods=methods, allow_headers=["mcp-protocol-version"])


def _is_oauth_path(path: str) -> bool:
    return path in OAUTH_PATHS or path.startswith(CONSENT_PREFIX)


OAUTH_PATHS = frozenset(
    {PRM_PATH, PRM_PATH + MCP_PATH, AS_METADATA_PATH, "/authorize", "/token", "/register", "/revoke"}
)
