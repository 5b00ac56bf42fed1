"""A real `memvault serve --http ... --public-url` with OAuth, a person who answers in the CLI, and a
browser that follows redirects by hand (so each step can be checked)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from memvault.core.vault import Vault
from tests.mcp_bridge.conftest import owner_add

CALLBACK = "http://127.0.0.1:9/callback"  # never reached: the test reads the redirect itself
PAIRING = re.compile(r'<div class="code">([A-Z0-9]{4}-[A-Z0-9]{4})</div>')


def run_cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", *args],
        check=False,
        env={**os.environ, "MEMVAULT_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def query_of(location: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}


@dataclass
class Served:
    home: Path
    base: str  # the public URL (also where it listens, in tests)
    remote_id: str
    local_id: str
    log: Path

    @property
    def mcp(self) -> str:
        return self.base + "/mcp"

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = run_cli(self.home, *args)
        assert done.returncode == 0, done.stderr
        return done

    def pending(self) -> list[dict[str, Any]]:
        return list(json.loads(self.cli("--json", "connections", "pending").stdout))


@contextmanager
def serving(template_home: Path, folder: Path, *extra: str) -> Iterator[Served]:
    home = folder / "memvault"
    shutil.copytree(template_home, home)
    with Vault.open(home) as vault:
        local_id = owner_add(vault, "Lindqvist garden: the private plan is to sell the old greenhouse", domain="garden")
        remote_id = owner_add(
            vault, "Lindqvist garden: tomatoes go in the south bed", domain="garden", access_scope="remote_allowed"
        )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "serve.log"
    command = [sys.executable, "-m", "memvault.desktop.cli", "serve", "--http", f"127.0.0.1:{port}"]
    with log.open("wb") as err:
        process = subprocess.Popen(
            [*command, "--public-url", base, *extra],
            env={**os.environ, "MEMVAULT_HOME": str(home)},
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        deadline = time.monotonic() + 60
        while "serving MCP at" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "memvault serve did not start in 60 s"
            time.sleep(0.1)
        yield Served(home, base, remote_id, local_id, log)
    finally:
        process.terminate()
        process.wait(timeout=20)


@dataclass
class Browser:
    """Follows the authorization by hand: authorize -> consent page -> (the person answers) -> back."""

    served: Served
    http: httpx2.Client = field(default_factory=lambda: httpx2.Client(timeout=30, follow_redirects=False))

    def register(self, redirect: str = CALLBACK, method: str = "none", name: str = "Refusal Tester") -> dict[str, Any]:
        answer = self.http.post(
            self.served.base + "/register",
            json={"client_name": name, "redirect_uris": [redirect], "token_endpoint_auth_method": method},
        )
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    def authorize(self, client: dict[str, Any], challenge: str, **overrides: str) -> httpx2.Response:
        return self.http.get(self.authorize_url(client, challenge, **overrides))

    def authorize_url(self, client: dict[str, Any], challenge: str, **overrides: str) -> str:
        params = {
            "response_type": "code",
            "client_id": client["client_id"],
            "redirect_uri": client["redirect_uris"][0],
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": "st-1",
            "scope": "memory:read memory:propose memory:write memory:delete",
            "resource": self.served.mcp,
            **overrides,
        }
        return self.served.base + "/authorize?" + urlencode(params)

    def consent_page(self, authorized: httpx2.Response) -> tuple[str, str]:
        """The consent page's address and the pairing code it shows."""
        assert authorized.status_code == 302, authorized.text
        page = authorized.headers["location"]
        assert page.startswith(self.served.base + "/consent/")
        shown = self.http.get(page)
        assert shown.status_code == 200 and 'http-equiv="refresh"' in shown.text
        found = PAIRING.search(shown.text)
        assert found, shown.text
        return page, found.group(1)

    def back(self, page: str) -> dict[str, str]:
        """The page's next look after the person answered: the redirect back to the client."""
        answer = self.http.get(page)
        assert answer.status_code == 303, answer.text
        return query_of(answer.headers["location"])

    def code(self, client: dict[str, Any], challenge: str, *approve: str) -> str:
        page, pairing = self.consent_page(self.authorize(client, challenge))
        self.served.cli("connections", "approve", pairing, *approve)
        back = self.back(page)
        assert back["iss"] == self.served.base and back["state"] == "st-1"
        return back["code"]

    def token(self, client: dict[str, Any], **form: str) -> httpx2.Response:
        fields = {"client_id": client["client_id"], **form}
        if client.get("client_secret"):
            fields["client_secret"] = client["client_secret"]
        return self.http.post(self.served.base + "/token", data=fields)

    def exchange(self, client: dict[str, Any], code: str, verifier: str, **extra: str) -> httpx2.Response:
        return self.token(
            client,
            grant_type="authorization_code",
            code=code,
            code_verifier=verifier,
            redirect_uri=client["redirect_uris"][0],
            **extra,
        )

    def tokens(self, client: dict[str, Any], *approve: str) -> dict[str, Any]:
        verifier, challenge = pkce()
        answer = self.exchange(client, self.code(client, challenge, *approve), verifier)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def refresh(self, client: dict[str, Any], refresh_token: str) -> httpx2.Response:
        return self.token(client, grant_type="refresh_token", refresh_token=refresh_token)

    def mcp_status(self, access_token: str) -> int:
        """HTTP status of an `initialize` with this token: 200, or 401 once it is no good."""
        init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}
        headers = {"Authorization": f"Bearer {access_token}", "Accept": "application/json, text/event-stream"}
        return int(self.http.post(self.served.mcp, json=body, headers=headers).status_code)


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class Person:
    """The SDK client's redirect and callback handlers: a browser opens the page, the person
    approves in the CLI (with `approve` extra arguments), the page sends the browser back."""

    def __init__(self, served: Served, *approve: str) -> None:
        self.served = served
        self.approve = approve
        self.browser = Browser(served)
        self.result: AuthorizationCodeResult | None = None
        self.pairings: list[str] = []

    async def redirect(self, authorization_url: str) -> None:
        page, pairing = self.browser.consent_page(self.browser.http.get(authorization_url))
        self.pairings.append(pairing)
        assert pairing in [row["id"] for row in self.served.pending()]
        self.served.cli("connections", "approve", pairing, *self.approve)
        back = self.browser.back(page)
        self.result = AuthorizationCodeResult(code=back["code"], state=back.get("state"), iss=back.get("iss"))

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


def sdk_provider(served: Served, person: Person, storage: MemoryStorage | None = None) -> OAuthClientProvider:
    metadata = OAuthClientMetadata(
        client_name="SDK Test Assistant",
        redirect_uris=[CALLBACK],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="client_secret_post",
    )
    return OAuthClientProvider(
        served.mcp,
        metadata,
        storage or MemoryStorage(),
        redirect_handler=person.redirect,
        callback_handler=person.callback,
    )


@asynccontextmanager
async def sdk_client(served: Served, provider: OAuthClientProvider) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(auth=provider, timeout=60) as http,
        Client(streamable_http_client(served.mcp, http_client=http)) as client,
    ):
        yield client
