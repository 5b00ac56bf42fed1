"""Round trips against a real `memvault serve --http 127.0.0.1:0` subprocess, with real tokens.

One server per module (its start costs the SDK import); each test uses its own principal,
so the per-principal rate limit of one test never touches another.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument, RateLimited
from memvault.core.vocabulary.model import OWNER
from memvault.mcp_bridge.http import check_bind_address
from memvault.mcp_bridge.ratelimit import RateLimiter
from tests.mcp_bridge.conftest import Seeded, owner_add
from tests.mcp_bridge.helpers import call

pytestmark = pytest.mark.anyio
BURST = 6
MAX_BODY = 64 * 1024
LIMITS = ("--burst", str(BURST), "--calls-per-minute", "1", "--max-body", str(MAX_BODY))


def run_cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", *args],
        check=False,
        env={**os.environ, "MEMVAULT_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )


class Served:
    def __init__(self, home: Path, url: str, seeded: Seeded) -> None:
        self.home = home
        self.url = url
        self.seeded = seeded

    def token(self, principal: str, surface: str = "remote", workspace: str | None = None) -> str:
        """A token made the way a person makes one: `memvault token create`, read from stdout."""
        args = ["token", "create", "--principal", principal, "--surface", surface]
        done = run_cli(self.home, *args, *(["--workspace", workspace] if workspace else []))
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert len(lines) == 1 and lines[0].startswith("mvt_") and lines[0] not in done.stderr
        return lines[0]

    @asynccontextmanager
    async def client(self, token: str) -> AsyncIterator[Client]:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http,
            Client(streamable_http_client(self.url, http_client=http)) as client,
        ):
            yield client


def _wait_for_url(log: Path, process: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        text = log.read_text()
        if "serving MCP at " in text:
            return text.split("serving MCP at ", 1)[1].split()[0]
        if process.poll() is not None:
            raise AssertionError(f"memvault serve exited: {text}")
        time.sleep(0.1)
    raise AssertionError("memvault serve did not start in 60 s")


@pytest.fixture(scope="module")
def served(template_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("http") / "memvault"
    shutil.copytree(template_home, home)
    with Vault.open(home) as vault:
        local_only = owner_add(vault, "Lindqvist garden: the private budget ceiling is 4000 kronor", domain="garden")
        remote = owner_add(
            vault, "Lindqvist garden: tomatoes go in the south bed", domain="garden", access_scope="remote_allowed"
        )
    seeded = Seeded(local_only=local_only, remote=remote, workspace_a="", archived_remote="")
    log = home.parent / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "memvault.desktop.cli", "serve", "--http", "127.0.0.1:0", *LIMITS],
            env={**os.environ, "MEMVAULT_HOME": str(home)},
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        yield Served(home, _wait_for_url(log, process), seeded)
    finally:
        process.terminate()
        process.wait(timeout=20)
    audit = (home / "logs" / "http.log").read_text()
    assert (
        "tool memory_search principal=reader ok" in audit
        and "tool memory_export_markdown principal=reader forbidden" in audit
    )
    for text in (log.read_text(), audit):
        assert "mvt_" not in text and "tomatoes" not in text and "budget" not in text


async def test_remote_principal_sees_only_remote_allowed(served: Served) -> None:
    async with served.client(served.token("reader")) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        search = await call(client, "memory_search", {"query": "Lindqvist garden budget tomatoes"})
        hidden = await call(client, "memory_get", {"id": served.seeded.local_only})
        listed = await call(client, "memory_list", {"domain": "garden"})
        export = await call(client, "memory_export_markdown")
    assert "memory_search" in tools and len(tools) >= 9
    assert [hit["id"] for hit in search.data["results"]] == [served.seeded.remote]
    assert search.structured == search.data
    assert hidden.code == "not_found"
    assert [item["id"] for item in listed.data["items"]] == [served.seeded.remote]
    assert export.code == "forbidden"


async def test_requests_without_a_valid_token_are_refused(served: Served) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    async with httpx2.AsyncClient(timeout=30) as http:
        answers = [
            await http.post(served.url, json=body),
            await http.post(served.url, json=body, headers={"Authorization": "Bearer mvt_not-a-real-token"}),
            await http.post(served.url, json=body, headers={"Authorization": "Basic dXNlcjpwdw=="}),
            await http.post(served.url, json=body, headers={"Authorization": "Bearer mvt_" + "a" * 500}),
        ]
        elsewhere = await http.get(served.url.replace("/mcp", "/admin"))
    assert [a.status_code for a in answers] == [401, 401, 401, 401]
    assert all(a.json()["error"]["code"] == "forbidden" for a in answers)
    assert answers[0].headers["www-authenticate"].startswith("Bearer")
    assert elsewhere.status_code == 404


async def test_a_revoked_token_stops_at_its_next_request(served: Served) -> None:
    token = served.token("soon-gone")
    async with served.client(token) as client:
        assert not (await call(client, "memory_status")).is_error
        revoked = run_cli(served.home, "token", "revoke", "soon-gone")
        assert revoked.returncode == 0, revoked.stderr
        with pytest.raises(MCPError):  # the transport sees HTTP 401 mid-session
            await client.call_tool("memory_status", {})
    async with httpx2.AsyncClient(timeout=30) as http:
        again = await http.post(served.url, json={}, headers={"Authorization": f"Bearer {token}"})
    assert again.status_code == 401


async def test_workspace_token_is_bound_to_its_workspace(served: Served) -> None:
    green, blue = served.token("green-bot", "workspace", "ws-green"), served.token("blue-bot", "workspace", "ws-blue")
    async with served.client(green) as client:
        before = await call(client, "memory_status")
        staged = await call(client, "memory_add", {"statement": "Lindqvist garden: the green team owns the rhubarb"})
    with Vault.open(served.home) as vault:
        added = vault.approve(OWNER, staged.data["proposal_id"])
    async with served.client(green) as client:
        mine = await call(client, "memory_get", {"id": added["id"]})
    async with served.client(blue) as client:
        theirs = await call(client, "memory_get", {"id": added["id"]})
        listed = await call(client, "memory_list", {"domain": "garden"})
    assert before.data["counts"]["current"] == 1  # the remote_allowed record only
    assert mine.data["memory"]["access_scope"] == "workspace_allowed"
    assert theirs.code == "not_found"
    assert [item["id"] for item in listed.data["items"]] == [served.seeded.remote]


async def test_one_token_cannot_use_another_principal_session(served: Served) -> None:
    intruder = served.token("intruder")
    async with httpx2.AsyncClient(timeout=30) as http:
        headers = {
            "Authorization": f"Bearer {served.token('opener')}",
            "Accept": "application/json, text/event-stream",
        }
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
        opened = await http.post(served.url, json=init, headers=headers)
        session_id = opened.headers.get("mcp-session-id")
        assert opened.status_code == 200 and session_id
        hijack = await http.post(
            served.url,
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            headers={**headers, "Authorization": f"Bearer {intruder}", "mcp-session-id": session_id},
        )
    assert hijack.status_code == 404


async def test_oversized_bodies_are_refused(served: Served) -> None:
    token = served.token("big-talker")
    payload = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "memory_add", "arguments": {"statement": "x" * (MAX_BODY + 10)}},
    }
    async with httpx2.AsyncClient(timeout=30) as http:
        answer = await http.post(served.url, json=payload, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 413


async def test_dns_rebinding_host_is_refused(served: Served) -> None:
    token = served.token("rebinder")
    async with httpx2.AsyncClient(timeout=30) as http:
        answer = await http.post(
            served.url,
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},  # a sound body reaches the SDK's own checks
            headers={"Authorization": f"Bearer {token}", "Host": "attacker.example:80"},
        )
    assert answer.status_code == 421


async def test_tool_calls_are_rate_limited_per_token(served: Served) -> None:
    async with served.client(served.token("chatty")) as busy, served.client(served.token("calm")) as calm:
        answers = [await call(busy, "memory_status") for _ in range(BURST + 1)]
        other = await call(calm, "memory_status")
    assert [a.code for a in answers] == [None] * BURST + ["rate_limited"]
    assert not other.is_error


async def test_kill_switch_from_the_cli_stops_http_callers(served: Served) -> None:
    async with served.client(served.token("switch-watcher")) as client:
        try:
            assert run_cli(served.home, "kill-switch", "on").stdout == "on\n"
            assert (await call(client, "memory_search", {"query": "tomatoes"})).code == "kill_switch"
        finally:
            assert run_cli(served.home, "kill-switch", "off").stdout == "off\n"
        assert not (await call(client, "memory_status")).is_error


def _pings_ms(served: Served, token: str, count: int, *, kept_alive: bool) -> list[float]:
    """Milliseconds per `ping` in one MCP session: all on one kept-alive connection, or each on a fresh one."""
    host, port = served.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def post(message: dict[str, object]) -> http.client.HTTPResponse:
        nonlocal connection
        if not kept_alive:
            connection.close()
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("POST", "/mcp", json.dumps(message), headers)
        answer = connection.getresponse()
        answer.read()
        return answer

    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    opened = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
    assert opened.status == 200
    headers["mcp-session-id"] = opened.getheader("mcp-session-id") or ""
    headers["mcp-protocol-version"] = "2025-06-18"
    assert post({"jsonrpc": "2.0", "method": "notifications/initialized"}).status == 202
    times = []
    for number in range(count):
        started = time.perf_counter()
        assert post({"jsonrpc": "2.0", "id": 2 + number, "method": "ping"}).status == 200
        times.append((time.perf_counter() - started) * 1000)
    connection.close()
    return times


def test_a_kept_alive_connection_answers_as_fast_as_a_fresh_one(served: Served) -> None:
    """With Nagle's algorithm on the server's connections, each answer's second write waited for the
    client's delayed ACK: ~40 ms a call on a kept-alive connection, where a fresh one (still in
    quick-ACK mode) took a few ms. Measured against fresh connections, so a slow machine is no excuse."""
    count = 12  # the session's requests stay within the flood limit's burst (5 x BURST)
    kept = statistics.median(_pings_ms(served, served.token("keeper"), count, kept_alive=True))
    fresh = statistics.median(_pings_ms(served, served.token("newcomer"), count, kept_alive=False))
    assert kept < fresh + 20, (kept, fresh)


def test_non_loopback_addresses_are_refused_unless_allowed(home: Path) -> None:
    refused = run_cli(home, "serve", "--http", "0.0.0.0:0")
    assert refused.returncode == 1 and "not a loopback address" in refused.stderr
    bad = run_cli(home, "serve", "--http", "example.com:80")
    assert bad.returncode == 1 and "not an IP address" in bad.stderr


def test_token_list_never_shows_tokens(served: Served) -> None:
    token = served.token("lister")
    with Vault.open(served.home) as vault:
        rows = vault.list_principals(OWNER)
    listed = run_cli(served.home, "token", "list")
    assert token not in listed.stdout and "lister" in listed.stdout
    assert {row["name"] for row in rows} >= {"lister"} and all(
        "token" not in key for key in rows[0] if key != "live_tokens"
    )


def test_bind_address_rules() -> None:
    assert check_bind_address("127.0.0.1") == "127.0.0.1"
    assert check_bind_address("::1") == "::1"
    assert check_bind_address("10.20.30.40", ["10.20.30.40"]) == "10.20.30.40"
    for refused in ("10.20.30.40", "0.0.0.0", "::"):
        with pytest.raises(InvalidArgument):
            check_bind_address(refused, ["10.9.9.9"])


def test_rate_limiter_refills_over_time() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=2, now=lambda: now[0])
    limiter.check("a")
    limiter.check("a")
    with pytest.raises(RateLimited):
        limiter.check("a")
    limiter.check("b")  # buckets are per principal
    now[0] += 1.0  # one call a second comes back
    limiter.check("a")
    with pytest.raises(RateLimited):
        limiter.check("a")
