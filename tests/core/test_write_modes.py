"""The write mode governs assistants' writes; the person (OWNER) always writes directly."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, Adder, count, dump

from memvault.core.errors import InvalidArgument, ReadOnlyMode
from memvault.core.vault import Vault

AUTO = "automatic-write-within-approved-scope"


def test_review_before_write_is_the_default(vault: Vault) -> None:
    assert vault.get_setting("write_mode") == "review-before-write"
    assert vault.status(OWNER)["write_mode"] == "review-before-write"


def test_retrieval_only_refuses_assistant_writes_and_stores_nothing(vault: Vault, add: Adder) -> None:
    target = add("The recycling goes out on Tuesday night", domain="home")
    vault.set_setting(OWNER, "write_mode", "retrieval-only")
    before = dump(vault)
    for caller in (ASSISTANT, REMOTE):
        with pytest.raises(ReadOnlyMode):
            vault.add(caller, statement="The compost goes out on Friday", domain="home")
    with pytest.raises(ReadOnlyMode):
        vault.correct(ASSISTANT, id=target, statement="The recycling goes out on Wednesday night")
    with pytest.raises(ReadOnlyMode):
        vault.archive(ASSISTANT, id=target)
    assert dump(vault) == before
    # Reading still works, and the person still writes.
    assert vault.search(ASSISTANT, query="recycling")["results"]
    assert vault.add(OWNER, statement="The compost goes out on Friday", domain="home")["outcome"] == "added"


def test_review_before_write_stages_and_approval_commits(vault: Vault) -> None:
    answer = vault.add(ASSISTANT, statement="The piano tuner visits every January", domain="music")
    assert answer["outcome"] == "staged" and answer["id"] is None and answer["proposal_id"]
    assert count(vault, "memories") == 0
    assert [p["id"] for p in vault.proposals(OWNER)] == [answer["proposal_id"]]
    approved = vault.approve(OWNER, answer["proposal_id"])
    assert approved["outcome"] == "added"
    record = vault.get(OWNER, approved["id"])["memory"]
    assert record["statement"] == "The piano tuner visits every January" and record["domain"] == "music"
    assert vault.proposals(OWNER) == []
    assert [p["id"] for p in vault.proposals(OWNER, status="approved")] == [answer["proposal_id"]]


def test_review_before_write_reject_leaves_no_record(vault: Vault) -> None:
    answer = vault.add(ASSISTANT, statement="The piano tuner visits every January", domain="music")
    memories_before = count(vault, "memories")
    assert vault.reject(OWNER, answer["proposal_id"], reason="not needed") == {
        "proposal_id": answer["proposal_id"],
        "outcome": "rejected",
    }
    assert count(vault, "memories") == memories_before == 0
    assert vault.search(OWNER, query="piano tuner")["results"] == []
    assert [p["id"] for p in vault.proposals(OWNER, status="rejected")] == [answer["proposal_id"]]


def test_the_owner_writes_directly_in_every_mode(vault: Vault) -> None:
    for i, mode in enumerate(("review-before-write", "retrieval-only", AUTO)):
        vault.set_setting(OWNER, "write_mode", mode)
        answer = vault.add(OWNER, statement=f"The owner note number {i} about the shed roof", domain="brand-new")
        assert answer["outcome"] == "added", mode
    assert vault.proposals(OWNER) == []


@pytest.fixture
def automatic(vault: Vault, add: Adder) -> Vault:
    add("The bike lock code is kept in the safe", domain="home")  # makes `home` an existing domain
    vault.set_setting(OWNER, "write_mode", AUTO)
    return vault


def test_automatic_commits_a_normal_confident_write_in_an_existing_domain(automatic: Vault) -> None:
    answer = automatic.add(ASSISTANT, statement="The hallway bulb is a warm white LED", domain="home", confidence=0.9)
    assert answer["outcome"] == "added"
    assert automatic.get(OWNER, answer["id"])["memory"]["access_scope"] == "local_only"


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"domain": "home", "sensitivity": "sensitive"}, "sensitive"),
        ({"domain": "home", "sensitivity": "personal"}, "personal"),
        ({"domain": "home", "confidence": 0.4}, "low confidence"),
        ({"domain": "astronomy", "confidence": 0.95}, "a new domain"),
        ({"domain": "home", "confidence": 0.95, "access_scope": "remote_allowed"}, "a scope not approved"),
    ],
)
def test_automatic_stages_what_it_may_not_commit(automatic: Vault, fields: dict[str, object], why: str) -> None:
    memories_before = count(automatic, "memories")
    answer = automatic.add(ASSISTANT, statement="The telescope mirror was recoated last spring", **fields)
    assert answer["outcome"] == "staged", why
    assert count(automatic, "memories") == memories_before
    assert len(automatic.proposals(OWNER)) == 1


def test_automatic_commits_within_approved_domains_and_scopes(automatic: Vault) -> None:
    automatic.set_setting(OWNER, "auto_write_domains", ["astronomy"])
    automatic.set_setting(OWNER, "auto_write_scopes", ["local_only", "remote_allowed"])
    assert (
        automatic.add(ASSISTANT, statement="The telescope lives in the loft", domain="astronomy")["outcome"] == "added"
    )
    assert automatic.add(ASSISTANT, statement="The loft ladder is wobbly", domain="home")["outcome"] == "staged"
    shared = automatic.add(REMOTE, statement="Jupiter rises late this month", domain="astronomy", confidence=0.9)
    assert shared["outcome"] == "added"


def test_automatic_still_stages_corrections_and_archives(automatic: Vault, add: Adder) -> None:
    target = add("The hallway bulb is a cold white LED", domain="home")
    corrected = automatic.correct(ASSISTANT, id=target, statement="The hallway bulb is a warm white LED")
    assert corrected["outcome"] == "staged"
    assert automatic.get(OWNER, target)["memory"]["status"] == "current"


def test_the_environment_overrides_the_stored_write_mode(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_WRITE_MODE", "retrieval-only")
    assert vault.status(OWNER)["write_mode"] == "retrieval-only"
    with pytest.raises(ReadOnlyMode):
        vault.add(ASSISTANT, statement="The porch light is on a timer", domain="home")
    vault.set_setting(OWNER, "write_mode", "retrieval-only")
    monkeypatch.setenv("MEMVAULT_WRITE_MODE", AUTO)
    vault.add(OWNER, statement="The porch light is on a dusk timer", domain="home")
    answer = vault.add(ASSISTANT, statement="The porch light bulb was replaced", domain="home", confidence=0.9)
    assert answer["outcome"] == "added"
    monkeypatch.setenv("MEMVAULT_WRITE_MODE", "sometimes")
    with pytest.raises(InvalidArgument, match="write_mode"):
        vault.add(ASSISTANT, statement="The porch step is loose", domain="home")


def test_setting_an_unknown_mode_is_invalid_and_changes_nothing(vault: Vault) -> None:
    before = dump(vault)
    with pytest.raises(InvalidArgument):
        vault.set_setting(OWNER, "write_mode", "yolo")
    with pytest.raises(InvalidArgument):
        vault.set_setting(OWNER, "no_such_setting", "x")
    assert dump(vault) == before
