"""Fixtures for the MCP server tests: a real encrypted store, records per scope, callers per surface."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller, Surface
from memvault.core.vocabulary.requests import ArchiveRequest

REMOTE = Caller(principal="chatgpt", surface=Surface.REMOTE)
WORKSPACE_A = Caller(principal="team-a-bot", surface=Surface.WORKSPACE, workspace_id="ws-a")
WORKSPACE_B = Caller(principal="team-b-bot", surface=Surface.WORKSPACE, workspace_id="ws-b")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass(frozen=True)
class Seeded:
    """One record per scope, all about the (fictional) Lindqvist garden project."""

    local_only: str
    remote: str
    workspace_a: str
    archived_remote: str


def owner_add(vault: Vault, statement: str, **fields: object) -> str:
    answer = vault.add(OWNER, Draft.of(statement=statement, **fields))
    assert answer["outcome"] == "added", answer
    return str(answer["id"])


@pytest.fixture
def seeded(vault: Vault) -> Seeded:
    local_only = owner_add(
        vault, "Lindqvist garden: the private budget ceiling is 4000 kronor", domain="garden", type="CONSTRAINT"
    )
    remote = owner_add(
        vault, "Lindqvist garden: tomatoes go in the south bed", domain="garden", access_scope="remote_allowed"
    )
    # A workspace record is bound to the workspace that wrote it: proposed by ws-a's assistant, approved by the owner.
    staged = vault.add(
        WORKSPACE_A, Draft.of(statement="Lindqvist garden: the team waters on Tuesdays", domain="garden")
    )
    if staged["outcome"] == "staged":  # review mode (the default); automatic mode adds it at once
        staged = vault.approve(OWNER, staged["proposal_id"])
    workspace_a = str(staged["id"])
    archived_remote = owner_add(
        vault, "Lindqvist garden: the old shed was painted blue", domain="garden", access_scope="remote_allowed"
    )
    vault.archive(OWNER, ArchiveRequest.of(id=archived_remote, reason="shed torn down"))
    return Seeded(local_only, remote, workspace_a, archived_remote)


@pytest.fixture
def auto_vault(vault: Vault) -> Vault:
    """Assistants' writes commit directly (in existing domains) instead of waiting for review."""
    vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
    vault.set_setting(OWNER, "auto_write_scopes", ["local_only", "remote_allowed", "workspace_allowed"])
    return vault


__all__ = ["LOCAL_ASSISTANT", "REMOTE", "WORKSPACE_A", "WORKSPACE_B"]
