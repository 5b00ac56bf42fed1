"""OAuth's grants on a real encrypted store with a clock the test moves: lifetimes, hashes only,
who may answer, and which scope each tool needs."""

from __future__ import annotations

import pytest

from memvault.core.operations.oauth import digest, pairing_code
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.errors import Conflict, Forbidden, InvalidArgument
from memvault.core.vocabulary.model import OWNER, Caller, Surface
from memvault.core.vocabulary.oauth import Issued
from memvault.mcp_bridge.oauth.client_documents import checked_document
from memvault.mcp_bridge.oauth.scopes import TOOL_SCOPES, check_tool_scope
from memvault.mcp_bridge.server import tool_specs

RESOURCE = "https://memvault.example.net/mcp"
CHATGPT = Caller(principal="chatgpt", surface=Surface.REMOTE)


def connect(vault: Vault, *grant: str) -> Issued:
    vault.oauth.register_client("client-1", None, {"client_name": "Tester", "redirect_uris": ["https://c.example/cb"]})
    started = vault.oauth.start_request(
        client_id="client-1",
        scopes=["memory:read", "memory:write"],
        redirect_uri="https://c.example/cb",
        redirect_explicit=True,
        code_challenge="x" * 43,
        state="s",
        resource=RESOURCE,
    )
    assert vault.oauth.page(started["page"])["status"] == "pending"
    vault.oauth.approve(OWNER, started["id"].lower().replace("-", ""), list(grant) or None)
    code = vault.oauth.page(started["page"])["code"]
    assert code and vault.oauth.page(started["page"])["status"] == "answered"  # one code, once
    return vault.oauth.exchange_code(code)


def test_access_tokens_live_fifteen_minutes_and_only_for_their_resource(
    clocked_vault: Vault, clock: FixedClock
) -> None:
    issued = connect(clocked_vault)
    caller = clocked_vault.oauth.authenticate(issued["access_token"], RESOURCE)
    assert caller is not None and caller.surface is Surface.REMOTE and not caller.is_local
    assert caller.scopes == frozenset({"memory:read", "memory:write"})
    assert clocked_vault.oauth.authenticate(issued["access_token"], "https://other.example/mcp") is None
    clock.advance(minutes=14, seconds=59)
    assert clocked_vault.oauth.authenticate(issued["access_token"], RESOURCE) is not None
    clock.advance(seconds=1)
    assert clocked_vault.oauth.authenticate(issued["access_token"], RESOURCE) is None


def test_refresh_tokens_die_after_thirty_idle_days(clocked_vault: Vault, clock: FixedClock) -> None:
    issued = connect(clocked_vault)
    clock.advance(days=29)
    assert clocked_vault.oauth.refresh_grant(issued["refresh_token"]) is not None
    rotated = clocked_vault.oauth.exchange_refresh(issued["refresh_token"], ["memory:read"])
    assert rotated["scopes"] == ["memory:read"]  # a narrower access token; the family keeps its grant
    clock.advance(days=29)  # idle again, but less than 30 days since the last use
    again = clocked_vault.oauth.exchange_refresh(rotated["refresh_token"], ["memory:read", "memory:write"])
    clock.advance(days=30, seconds=1)
    with pytest.raises(Conflict):
        clocked_vault.oauth.exchange_refresh(again["refresh_token"], ["memory:read"])


def test_the_store_keeps_only_hashes(vault: Vault) -> None:
    issued = connect(vault)
    with vault.ctx.reading() as conn:
        kept = {row[0] for row in conn.raw.execute("SELECT token_hash FROM oauth_tokens").fetchall()}
    assert digest(issued["access_token"]) in kept and digest(issued["refresh_token"]) in kept
    assert issued["access_token"] not in kept and issued["refresh_token"] not in kept


def test_only_the_person_answers_requests_and_grants_at_most_what_was_asked(vault: Vault) -> None:
    vault.oauth.register_client("client-2", None, {"client_name": "Tester", "redirect_uris": ["https://c.example/cb"]})
    started = vault.oauth.start_request(
        client_id="client-2",
        scopes=["memory:read"],
        redirect_uri="https://c.example/cb",
        redirect_explicit=True,
        code_challenge="y" * 43,
        state=None,
        resource=RESOURCE,
    )
    for call in (vault.oauth.pending, lambda c: vault.oauth.approve(c, started["id"])):
        with pytest.raises(Forbidden):
            call(CHATGPT)
    with pytest.raises(InvalidArgument):
        vault.oauth.approve(OWNER, started["id"], ["memory:delete"])
    with pytest.raises(InvalidArgument):
        pairing_code("not a code")
    assert vault.oauth.deny(OWNER, started["id"])["status"] == "denied"
    with pytest.raises(Conflict):
        vault.oauth.approve(OWNER, started["id"])


def test_every_tool_a_remote_caller_may_call_names_its_scope() -> None:
    remote = {spec.name for spec in tool_specs() if not spec.local_only}
    assert remote == set(TOOL_SCOPES)
    reader = Caller(principal="oauth-x", surface=Surface.REMOTE, scopes=frozenset({"memory:read"}))
    check_tool_scope(reader, "memory_search")
    check_tool_scope(CHATGPT, "memory_purge")  # a static token carries no scopes
    with pytest.raises(Forbidden, match="memory:delete"):
        check_tool_scope(reader, "memory_purge")
    with pytest.raises(Forbidden, match="not available"):
        check_tool_scope(reader, "memory_backup")


def test_a_client_metadata_document_must_name_itself() -> None:
    url = "https://client.example/oauth/metadata.json"
    good = b'{"client_id": "%s", "client_name": "X", "redirect_uris": ["https://client.example/cb"]}' % url.encode()
    kept = checked_document(url, good)
    assert kept is not None and kept["token_endpoint_auth_method"] == "none"
    assert checked_document("https://elsewhere.example/m.json", good) is None
    assert checked_document(url, b'{"client_id": "%s"}' % url.encode()) is None  # no redirect URIs
    assert checked_document(url, b"not json") is None
