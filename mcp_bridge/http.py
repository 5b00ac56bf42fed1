"""The loopback HTTP transport: streamable HTTP at /mcp, every request with a bearer token.

`BearerGate` wraps the SDK's Starlette app. For each request it:
- refuses any path but /mcp (404), a missing, malformed, unknown or revoked token
  (401), an oversized body (413) and floods from one principal (429);
- binds each MCP session to the principal that opened it, so one token cannot
  ride another's session (an unknown session to that principal: 404);
- puts the authenticated `Caller` into the request scope, where the tools' caller
  source finds it. The caller therefore comes from the token of each request,
  never from arguments, and a token revoked mid-session stops at its next request;
- judges each POST body as stdio judges a line (`jsonrpc_guard.body_problem`): a
  malformed message gets its JSON-RPC error (400) with the request's id when one can
  be read, never the SDK's `id: null` and validator text; a sound one goes on unchanged.

Binding: loopback only, unless `--allow-address` names the address.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio.to_thread
import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument, RateLimited
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge.jsonrpc_guard import body_problem
from memvault.mcp_bridge.oauth.app import OAuthFront, config_for
from memvault.mcp_bridge.ratelimit import RateLimiter
from memvault.mcp_bridge.server import create_server

log = logging.getLogger("memvault.http")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MCP_PATH = "/mcp"
CALLER_KEY = "memvault.caller"
SESSION_HEADER = b"mcp-session-id"
DEFAULT_MAX_BODY = 1024 * 1024
DEFAULT_CALLS_PER_MINUTE = 120.0
DEFAULT_BURST = 30
MAX_SESSIONS_REMEMBERED = 10_000


def caller_from_request(context: Context | None) -> Caller:
    """The caller the HTTP gate authenticated for this request (never taken from arguments)."""
    request = None if context is None else context.request_context.request
    scope = getattr(request, "scope", None)
    caller = scope.get(CALLER_KEY) if isinstance(scope, dict) else None
    if not isinstance(caller, Caller):
        raise Forbidden("this connection is not authenticated")
    return caller


def check_bind_address(host: str, allowed: list[str] | None = None) -> str:
    """The address to bind: loopback always; anything else only when explicitly allowed."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        raise InvalidArgument(f"--http: {host!r} is not an IP address (use 127.0.0.1)") from None
    if address.is_loopback or host in (allowed or []):
        return str(address)
    raise InvalidArgument(f"refusing to listen on {host}: not a loopback address (name it with --allow-address)")


def _plain(status: int, code: str, message: str, extra: list[tuple[bytes, bytes]] | None = None) -> list[Message]:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *(extra or [])]
    return [
        {"type": "http.response.start", "status": status, "headers": headers},
        {"type": "http.response.body", "body": body},
    ]


def _json_rpc_error(body: bytes) -> list[Message]:
    """A JSON-RPC error answering a POST body the guard refused (`jsonrpc_guard.body_problem`)."""
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    return [
        {"type": "http.response.start", "status": 400, "headers": headers},
        {"type": "http.response.body", "body": body},
    ]


class BearerGate:
    """ASGI middleware in front of the SDK app: authentication, limits and session ownership."""

    def __init__(
        self,
        app: ASGIApp,
        authenticate: Callable[[str], Caller | None],
        *,
        max_body: int = DEFAULT_MAX_BODY,
        limiter: RateLimiter | None = None,
        challenge: bytes = b'Bearer realm="memvault"',
    ) -> None:
        self.app = app
        self.authenticate = authenticate
        self.max_body = max_body
        self.limiter = limiter
        self.challenge = challenge  # the 401's WWW-Authenticate (with OAuth: where its metadata is)
        self._sessions: dict[bytes, str] = {}
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return
        refusal = await self._refusal(scope)
        if refusal is not None:
            await self._answer(send, *refusal)
            return
        await self._forward(scope, receive, send)

    async def _refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        if scope["path"].rstrip("/") != MCP_PATH:
            return 404, "not_found", "nothing here"
        headers = dict(scope["headers"])
        token = _bearer(headers.get(b"authorization"))
        caller = None if token is None else await anyio.to_thread.run_sync(self.authenticate, token)
        if caller is None:
            log.info("http: refused a request without a valid token")
            return 401, "forbidden", "a valid bearer token is required"
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            return 413, "invalid_argument", f"request body larger than {self.max_body} bytes"
        session = headers.get(SESSION_HEADER)
        with self._lock:
            owner = self._sessions.get(session) if session else None
        if session and owner is not None and owner != caller.principal:
            log.warning("http: principal %s used a session of another principal", caller.principal)
            return 404, "not_found", "no such session"
        if self.limiter is not None:
            try:
                self.limiter.check(caller.principal)
            except RateLimited as exc:
                return 429, "rate_limited", exc.message
        scope[CALLER_KEY] = caller
        return None

    def _own(self, session: bytes, principal: str) -> None:
        with self._lock:
            self._sessions.setdefault(session, principal)
            while len(self._sessions) > MAX_SESSIONS_REMEMBERED:
                del self._sessions[next(iter(self._sessions))]

    async def _answer(self, send: Send, status: int, code: str, message: str) -> None:
        extra = [(b"www-authenticate", self.challenge)] if status == 401 else None
        for message_part in _plain(status, code, message, extra):
            await send(message_part)

    async def _forward(self, scope: Scope, receive: Receive, send: Send) -> None:
        caller: Caller = scope[CALLER_KEY]
        body = await self._whole_body(receive)
        if body is None:
            # Read here, before the SDK: an error raised inside its task group came out as a 500.
            log.info("http: principal %s sent an oversized body", caller.principal)
            await self._answer(send, 413, "invalid_argument", f"request body larger than {self.max_body} bytes")
            return
        refused = body_problem(body) if scope.get("method") == "POST" else None
        if refused is not None:  # the SDK would answer `id: null` with its validator's text
            log.info("http: principal %s sent a malformed JSON-RPC message; answered with an error", caller.principal)
            for message_part in _json_rpc_error(refused):
                await send(message_part)
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()  # what follows the body: a disconnect
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def recording_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                for name, value in message.get("headers", []):
                    if name.lower() == SESSION_HEADER:
                        self._own(value, caller.principal)
            await send(message)

        await self.app(scope, replay, recording_send)

    async def _whole_body(self, receive: Receive) -> bytes | None:
        """The request body (chunked or not), or None once it grows past the limit."""
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(parts)
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)


def _bearer(value: bytes | None) -> str | None:
    if not value:
        return None
    try:
        scheme, _, token = value.decode("latin-1").partition(" ")
    except UnicodeDecodeError:
        return None
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def build_app(
    vault: Vault,
    host: str,
    port: int,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    calls_per_minute: float = DEFAULT_CALLS_PER_MINUTE,
    burst: int = DEFAULT_BURST,
    public_url: str | None = None,
    client_metadata_documents: bool = False,
) -> tuple[ASGIApp, MCPServer]:
    """The ASGI app of `memvault serve --http` (and the MCP server inside it); with a public URL,
    OAuth 2.1 beside /mcp (`oauth/app.py`)."""
    server = create_server(vault, caller_from_request, RateLimiter(calls_per_minute, burst))
    named = f"[{host}]" if ":" in host else host
    hosts = [named, "localhost"] if ipaddress.ip_address(host).is_loopback else [named]
    front = (
        None
        if public_url is None
        else OAuthFront(vault, config_for(public_url, fetch_client_documents=client_metadata_documents))
    )
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{h}:{port}" for h in hosts] + ([front.host] if front else []),
        allowed_origins=[f"http://{h}:{port}" for h in hosts] + ([front.config.issuer] if front else []),
    )
    inner = server.streamable_http_app(
        streamable_http_path=MCP_PATH, max_request_body_size=max_body, transport_security=security, host=host
    )
    # Requests (any MCP message) get a looser limit than tool calls: listing and initialising are cheap.
    flood = RateLimiter(calls_per_minute * 5, burst * 5)
    if front is None:
        return BearerGate(inner, vault.authenticate, max_body=max_body, limiter=flood), server
    gate = BearerGate(inner, front.authenticate, max_body=max_body, limiter=flood, challenge=front.challenge)
    return front.wrap(gate), server


def bind(host: str, port: int, allowed: list[str] | None = None) -> socket.socket:
    """A listening socket on a checked address (port 0: the system picks a free one).

    Made as a TCP socket by name (`IPPROTO_TCP`, not the default protocol 0): the connections it
    accepts carry that protocol, and only then does asyncio turn Nagle's algorithm off on them
    (`TCP_NODELAY`, set per transport for `IPPROTO_TCP` sockets alone). With Nagle on, uvicorn's
    second write of an answer (the body after the headers, an SSE event's chunks) waited for the
    client's delayed ACK: ~40 ms a call on a kept-alive connection (a fresh one is still in quick-ACK
    mode). The listener gets the option too, for a platform that copies it to accepted sockets.
    """
    address = check_bind_address(host, allowed)
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((address, port))
    except OSError as exc:
        sock.close()
        raise InvalidArgument(f"cannot listen on {address}:{port} ({exc.strerror})") from None
    sock.listen(128)
    return sock


def serve_http(vault: Vault, sock: socket.socket, **limits: Any) -> None:
    """Serve on a bound socket until interrupted. Logs go to stderr; never tokens or memory text."""
    host, port = sock.getsockname()[:2]
    app, _server = build_app(vault, host, port, **limits)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
