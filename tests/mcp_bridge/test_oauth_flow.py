"""OAuth 2.1 end to end: the official SDK's OAuth client against a real `memvault serve --http
--public-url` subprocess, consent given by the person in the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from tests.mcp_bridge.helpers import call
from tests.mcp_bridge.oauthkit import Browser, MemoryStorage, Person, Served, sdk_client, sdk_provider, serving

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def served(template_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(template_home, tmp_path_factory.mktemp("oauth-flow")) as running:
        yield running
    text = running.log.read_text() + (running.home / "logs" / "http.log").read_text()
    for secret in ("mva_", "mvr_", "mvc_", "/consent/", "tomatoes", "greenhouse", "code_verifier"):
        assert secret not in text, secret


async def test_metadata_and_the_401_tell_a_client_where_to_go(served: Served) -> None:
    async with httpx2.AsyncClient(timeout=30) as http:
        refused = await http.post(served.mcp, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        resource = (await http.get(served.base + "/.well-known/oauth-protected-resource/mcp")).json()
        server = (await http.get(served.base + "/.well-known/oauth-authorization-server")).json()
    assert refused.status_code == 401
    prm_url = f"{served.base}/.well-known/oauth-protected-resource/mcp"
    assert refused.headers["www-authenticate"] == f'Bearer resource_metadata="{prm_url}"'
    assert resource["resource"] == served.mcp and resource["authorization_servers"] == [served.base]
    assert resource["scopes_supported"] == ["memory:read", "memory:propose", "memory:write", "memory:delete"]
    assert server["issuer"] == served.base
    assert server["code_challenge_methods_supported"] == ["S256"]
    assert server["authorization_response_iss_parameter_supported"] is True
    assert server["registration_endpoint"] == served.base + "/register"
    assert server["revocation_endpoint"] == served.base + "/revoke"
    assert "client_id_metadata_document_supported" not in server  # no fetching unless the person turns it on


async def test_the_sdk_client_connects_after_the_person_approves_in_the_cli(served: Served) -> None:
    person = Person(served)
    storage = MemoryStorage()
    async with sdk_client(served, sdk_provider(served, person, storage)) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        search = await call(client, "memory_search", {"query": "Lindqvist garden greenhouse tomatoes"})
        hidden = await call(client, "memory_get", {"id": served.local_id})
        status = await call(client, "memory_status")
    assert "memory_search" in tools
    assert [hit["id"] for hit in search.data["results"]] == [served.remote_id]  # remote_allowed only
    assert hidden.code == "not_found"
    assert status.data["counts"]["current"] == 1
    assert storage.tokens is not None and storage.tokens.access_token.startswith("mva_")
    assert storage.tokens.expires_in is not None and storage.tokens.expires_in <= 15 * 60
    assert storage.tokens.scope == "memory:read memory:propose memory:write memory:delete"
    assert len(person.pairings) == 1 and served.pending() == []
    with Vault.open(served.home) as vault:
        made = [row for row in vault.oauth.connections(OWNER) if row["client_name"] == "SDK Test Assistant"]
    assert len(made) == 1 and made[0]["revoked_at"] is None and made[0]["refresh_until"]


async def test_the_page_names_the_client_and_scopes_and_cannot_be_answered_from_the_web(served: Served) -> None:
    browser = Browser(served)
    client = browser.register(name="Page Reader <b>")
    authorized = browser.authorize(client, "x" * 43, scope="memory:read")
    page, pairing = browser.consent_page(authorized)
    shown = browser.http.get(page)
    assert "Page Reader &lt;b&gt; asks to connect" in shown.text  # the client's words, escaped
    assert "memory:read" in shown.text and "memory:write" not in shown.text
    assert f"memvault connections approve {pairing}" in shown.text
    assert shown.headers["referrer-policy"] == "no-referrer" and shown.headers["x-frame-options"] == "DENY"
    assert browser.http.post(page, data={"approve": pairing}).status_code == 405
    assert browser.http.get(page.rsplit("/", 1)[0] + "/not-the-page").status_code == 404
    assert [row["id"] for row in served.pending() if row["id"] == pairing] == [pairing]  # still waiting
    served.cli("connections", "deny", pairing)
    back = browser.back(page)
    assert back == {
        "error": "access_denied",
        "error_description": back["error_description"],
        "state": "st-1",
        "iss": served.base,
    }
    assert "answered" in browser.http.get(page).text  # once only
    assert pairing not in [row["id"] for row in served.pending()]


async def test_refresh_rotates_and_the_connection_can_be_revoked_in_the_cli(served: Served) -> None:
    browser = Browser(served)
    client = browser.register(method="client_secret_post", name="Rotating Client")
    assert client["client_secret"]
    first = browser.tokens(client)
    assert browser.mcp_status(first["access_token"]) == 200
    rotated = browser.refresh(client, first["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    second = rotated.json()
    assert second["refresh_token"] != first["refresh_token"] and second["access_token"] != first["access_token"]
    assert browser.mcp_status(second["access_token"]) == 200
    wrong_secret = browser.token(
        {**client, "client_secret": "not-it"}, grant_type="refresh_token", refresh_token=second["refresh_token"]
    )
    assert wrong_secret.status_code == 401
    listed = served.cli("--json", "connections", "list").stdout
    connection = next(row for row in __import__("json").loads(listed) if row["client_name"] == "Rotating Client")
    served.cli("connections", "revoke", connection["id"])
    assert browser.mcp_status(second["access_token"]) == 401
    assert browser.refresh(client, second["refresh_token"]).json()["error"] == "invalid_grant"


async def test_a_client_revokes_its_own_tokens(served: Served) -> None:
    browser = Browser(served)
    client = browser.register(name="Revoking Client")
    issued = browser.tokens(client)
    answer = browser.http.post(
        served.base + "/revoke", data={"client_id": client["client_id"], "token": issued["access_token"]}
    )
    assert answer.status_code == 200
    assert browser.mcp_status(issued["access_token"]) == 401
    assert browser.refresh(client, issued["refresh_token"]).json()["error"] == "invalid_grant"  # the family went
