"""What OAuth refuses, each on its own: a redirect URI not registered, PKCE plain, another
resource, a spent code, a reused refresh token (its whole family goes), a tool outside the
granted scopes, and everything a connection does while the kill switch is on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from tests.mcp_bridge.helpers import call
from tests.mcp_bridge.oauthkit import Browser, Person, Served, pkce, query_of, sdk_client, sdk_provider, serving

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def served(template_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(template_home, tmp_path_factory.mktemp("oauth-refusals")) as running:
        yield running


@pytest.fixture
def browser(served: Served) -> Browser:
    return Browser(served)


def waiting(served: Served) -> set[str]:
    return {row["id"] for row in served.pending()}


def test_a_redirect_uri_not_registered_is_refused_without_redirecting(served: Served, browser: Browser) -> None:
    client = browser.register(redirect="http://127.0.0.1:9/callback")
    before = waiting(served)
    _, challenge = pkce()
    for elsewhere in ("http://127.0.0.1:9/callback/", "http://127.0.0.1:9/other", "https://attacker.example/cb"):
        answer = browser.authorize(client, challenge, redirect_uri=elsewhere)
        assert answer.status_code == 400 and "location" not in answer.headers
        assert answer.json()["error"] == "invalid_request"
    assert waiting(served) == before


def test_pkce_plain_or_no_challenge_is_refused(served: Served, browser: Browser) -> None:
    client = browser.register()
    before = waiting(served)
    verifier, challenge = pkce()
    plain = browser.authorize(client, verifier, code_challenge_method="plain")
    unnamed = browser.authorize(client, challenge, code_challenge_method="")
    assert plain.status_code == 400 and plain.json()["error"] == "invalid_request"
    assert unnamed.status_code == 400
    missing = browser.http.get(
        served.base + "/authorize",
        params={
            "response_type": "code",
            "client_id": client["client_id"],
            "code_challenge_method": "S256",
            "redirect_uri": client["redirect_uris"][0],
            "state": "st-1",
        },
    )
    assert missing.status_code == 302 and query_of(missing.headers["location"])["error"] == "invalid_request"
    assert waiting(served) == before


def test_a_code_for_another_resource_is_never_made(served: Served, browser: Browser) -> None:
    client = browser.register()
    verifier, challenge = pkce()
    elsewhere = browser.authorize(client, challenge, resource="https://other.example/mcp")
    assert elsewhere.status_code == 302
    back = query_of(elsewhere.headers["location"])
    assert back["error"] == "invalid_target" and back["state"] == "st-1"
    # A token request naming another resource is refused, and the code stays unspent.
    code = browser.code(client, challenge)
    wrong = browser.exchange(client, code, verifier, resource="https://other.example/mcp")
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_target"
    right = browser.exchange(client, code, verifier, resource=served.mcp)
    assert right.status_code == 200, right.text


def test_a_wrong_verifier_or_spent_code_gets_nothing_and_reuse_revokes_what_the_code_gave(
    served: Served, browser: Browser
) -> None:
    client = browser.register()
    verifier, challenge = pkce()
    code = browser.code(client, challenge)
    assert browser.exchange(client, code, pkce()[0]).json()["error"] == "invalid_grant"
    first = browser.exchange(client, code, verifier)
    assert first.status_code == 200, first.text
    access = first.json()["access_token"]
    assert browser.mcp_status(access) == 200
    again = browser.exchange(client, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert browser.mcp_status(access) == 401  # the code was stolen or replayed: its tokens are gone
    other = browser.register()
    assert browser.exchange(other, code, verifier).json()["error"] == "invalid_grant"


def test_a_reused_refresh_token_revokes_its_whole_family(served: Served, browser: Browser) -> None:
    client = browser.register()
    first = browser.tokens(client)
    second = browser.refresh(client, first["refresh_token"]).json()
    third = browser.refresh(client, second["refresh_token"]).json()
    assert browser.mcp_status(third["access_token"]) == 200
    replayed = browser.refresh(client, first["refresh_token"])  # an attacker's copy of a spent token
    assert replayed.status_code == 400 and replayed.json()["error"] == "invalid_grant"
    assert browser.mcp_status(third["access_token"]) == 401
    assert browser.refresh(client, third["refresh_token"]).json()["error"] == "invalid_grant"
    listed = json.loads(served.cli("--json", "connections", "list").stdout)
    reasons = [row["revoked_reason"] for row in listed if row["revoked_at"]]
    assert "a spent refresh token was presented again" in reasons


async def test_a_tool_outside_the_granted_scopes_is_forbidden_naming_the_scope(served: Served) -> None:
    person = Person(served, "--scope", "memory:read")  # the person grants less than was asked
    async with sdk_client(served, sdk_provider(served, person)) as client:
        search = await call(client, "memory_search", {"query": "Lindqvist garden tomatoes"})
        add = await call(client, "memory_add", {"statement": "Lindqvist garden: the gate squeaks"})
        archive = await call(client, "memory_archive", {"id": served.remote_id, "reason": "old"})
        purge = await call(client, "memory_purge", {"id": served.remote_id, "reason": "old"})
        export = await call(client, "memory_export_markdown")
    assert [hit["id"] for hit in search.data["results"]] == [served.remote_id]
    assert add.code == "forbidden" and "memory:write or memory:propose" in add.data["error"]["message"]
    assert archive.code == "forbidden" and "memory:write" in archive.data["error"]["message"]
    assert purge.code == "forbidden" and "memory:delete" in purge.data["error"]["message"]
    assert export.code == "forbidden"


async def test_a_connection_granted_propose_alone_has_its_adds_wait_for_review(served: Served) -> None:
    with Vault.open(served.home) as vault:
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
        vault.set_setting(OWNER, "auto_write_scopes", ["remote_allowed"])
    try:
        person = Person(served, "--scope", "memory:read", "--scope", "memory:propose")
        async with sdk_client(served, sdk_provider(served, person)) as client:
            add = await call(client, "memory_add", {"statement": "Lindqvist garden: the hose lives by the shed"})
            correct = await call(client, "memory_correct", {"id": served.remote_id, "statement": "x", "reason": "y"})
    finally:
        with Vault.open(served.home) as vault:
            vault.set_setting(OWNER, "write_mode", "review-before-write")
    assert add.data["outcome"] == "staged" and add.data["proposal_id"]
    assert correct.code == "forbidden" and "memory:write" in correct.data["error"]["message"]


async def test_the_kill_switch_stops_oauth_connections_and_new_authorizations(served: Served) -> None:
    browser = Browser(served)
    async with sdk_client(served, sdk_provider(served, Person(served))) as client:
        assert not (await call(client, "memory_status")).is_error
        served.cli("kill-switch", "on")
        try:
            stopped = await call(client, "memory_search", {"query": "Lindqvist garden"})
            other = browser.register()
            refused = browser.authorize(other, pkce()[1])
        finally:
            served.cli("kill-switch", "off")
        resumed = await call(client, "memory_status")
    assert stopped.code == "kill_switch"
    assert refused.status_code == 302
    assert query_of(refused.headers["location"])["error"] == "temporarily_unavailable"
    assert not resumed.is_error
