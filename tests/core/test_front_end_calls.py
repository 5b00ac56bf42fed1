"""What the desktop needs from core: a record's provenance, browsing that writes nothing, a passphrase
handed over directly (no environment variable), and domain texts screened like records."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from corekit import OWNER, REMOTE

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument, KeyUnavailable, NotFound, WrongPassphrase
from memvault.core.vocabulary.search_request import SearchRequest

TOKEN = "ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3po1234"  # fictional, shaped like a GitHub token


def test_provenance_shows_the_evidence_hash_and_whether_it_still_matches(vault: Vault) -> None:
    evidence = "said on the call about the allotment, 3 March"
    added = vault.add(
        OWNER,
        Draft.of(statement="The allotment plot is number 14", domain="garden", evidence=evidence, source="call"),
    )
    assert added["id"] is not None
    seen = vault.provenance(OWNER, added["id"])
    assert seen["evidence_hash"] == hashlib.sha256(evidence.encode()).hexdigest()
    assert seen["evidence_intact"] is True
    assert seen["source"] == "call"
    assert seen["created_by"] == OWNER.principal

    bare = vault.add(OWNER, Draft.of(statement="The shed key hangs by the door", domain="garden"))
    assert bare["id"] is not None
    assert vault.provenance(OWNER, bare["id"])["evidence_intact"] is None


def test_provenance_of_a_record_the_caller_may_not_see_is_not_found(vault: Vault) -> None:
    added = vault.add(OWNER, Draft.of(statement="The allotment plot is number 14", domain="garden"))
    assert added["id"] is not None
    with pytest.raises(NotFound) as hidden:
        vault.provenance(REMOTE, added["id"])
    with pytest.raises(NotFound) as unknown:
        vault.provenance(REMOTE, "m000000000000")
    assert str(hidden.value) == str(unknown.value)


def test_browsing_does_not_count_as_retrieval(vault: Vault) -> None:
    added = vault.add(OWNER, Draft.of(statement="The allotment plot is number 14", domain="garden"))
    assert added["id"] is not None
    browse = SearchRequest.of(query="allotment plot").browsing()
    answer = vault.search(OWNER, browse)
    assert "results" in answer
    assert [hit["id"] for hit in answer["results"]] == [added["id"]]
    assert vault.get(OWNER, added["id"])["memory"]["retrieval_count"] == 0

    vault.search(OWNER, SearchRequest.of(query="allotment plot"))
    assert vault.get(OWNER, added["id"])["memory"]["retrieval_count"] == 1


def test_browsing_is_not_an_mcp_argument() -> None:
    with pytest.raises(InvalidArgument):
        SearchRequest.parse({"query": "allotment", "count_usage": False})


@pytest.fixture
def passphrase_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No passphrase in the environment and no terminal: only the parameter can unlock."""
    monkeypatch.delenv("MEMVAULT_PASSPHRASE", raising=False)
    monkeypatch.setenv("MEMVAULT_KEY_BACKEND", "passphrase")
    monkeypatch.setattr("sys.stdin", None)


@pytest.mark.usefixtures("passphrase_only")
def test_a_passphrase_store_is_created_and_opened_with_the_parameter(tmp_path: Path) -> None:
    home = tmp_path / "store"
    with Vault.open(home, create=True, scrypt_n=2**12, passphrase="a fictional phrase") as created:
        created.add(OWNER, Draft.of(statement="The shed key hangs by the door", domain="garden"))
    with pytest.raises(WrongPassphrase):
        Vault.open(home, passphrase="not the phrase")
    with pytest.raises(WrongPassphrase):
        Vault.open(home, passphrase="")
    with pytest.raises(KeyUnavailable):
        Vault.open(home)
    with Vault.open(home, passphrase="a fictional phrase") as reopened:
        assert reopened.status(OWNER)["counts"]["current"] == 1


@pytest.mark.usefixtures("passphrase_only")
def test_restore_of_a_passphrase_store_takes_the_passphrase_as_a_parameter(tmp_path: Path) -> None:
    home = tmp_path / "store"
    with Vault.open(home, create=True, scrypt_n=2**12, passphrase="a fictional phrase") as created:
        created.add(OWNER, Draft.of(statement="The shed key hangs by the door", domain="garden"))
        backup = created.backup(OWNER, to=str(tmp_path / "backups"))["path"]
        created.add(OWNER, Draft.of(statement="The water butt is full", domain="garden"))
    with pytest.raises(WrongPassphrase):
        Vault.restore_backup(backup, home, secret="not the phrase")
    restored = Vault.restore_backup(backup, home, secret="a fictional phrase")
    assert restored["records"] == 1


def test_domain_names_descriptions_and_keywords_holding_a_secret_are_refused(vault: Vault) -> None:
    vault.add(OWNER, Draft.of(statement="The allotment plot is number 14", domain="garden"))
    before = vault.list_domains(OWNER)
    with pytest.raises(InvalidArgument, match="secret"):
        vault.rename_domain(OWNER, "garden", TOKEN.lower())
    with pytest.raises(InvalidArgument, match="secret"):
        vault.update_domain(OWNER, "garden", description=f"uses {TOKEN}")
    with pytest.raises(InvalidArgument, match="secret"):
        vault.update_domain(OWNER, "garden", keywords=["plots", TOKEN])
    with pytest.raises(InvalidArgument, match="secret"):
        vault.merge_domains(OWNER, ["garden"], TOKEN.lower())
    assert vault.list_domains(OWNER) == before
