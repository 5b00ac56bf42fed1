"""The approval inbox: staged writes wait, approval carries them out as proposed, re-checked against now."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, WORKSPACE_A, Adder, count, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest


def test_the_same_pending_statement_is_staged_once(vault: Vault) -> None:
    first = vault.add(ASSISTANT, Draft.of(statement="The dentist is Dr Abernathy on Kiln Road", domain="health"))
    again = vault.add(ASSISTANT, Draft.of(statement="the dentist is Dr Abernathy on Kiln Road.", domain="health"))
    assert again["outcome"] == "staged" and again["proposal_id"] == first["proposal_id"]
    assert len(vault.proposals(OWNER)) == 1


def test_an_approved_proposal_cannot_be_decided_again(vault: Vault) -> None:
    staged = vault.add(ASSISTANT, Draft.of(statement="The dentist is Dr Abernathy on Kiln Road", domain="health"))
    vault.approve(OWNER, staged["proposal_id"])
    before = dump(vault)
    with pytest.raises(Conflict, match="already approved"):
        vault.approve(OWNER, staged["proposal_id"])
    with pytest.raises(Conflict):
        vault.reject(OWNER, staged["proposal_id"])
    assert dump(vault) == before


def test_a_rejected_proposal_cannot_be_approved(vault: Vault) -> None:
    staged = vault.add(ASSISTANT, Draft.of(statement="The dentist is Dr Abernathy on Kiln Road", domain="health"))
    vault.reject(OWNER, staged["proposal_id"])
    with pytest.raises(Conflict, match="already rejected"):
        vault.approve(OWNER, staged["proposal_id"])
    assert count(vault, "memories") == 0


def test_a_rejected_proposal_keeps_no_content(vault: Vault) -> None:
    staged = vault.add(ASSISTANT, Draft.of(statement="The dentist is Dr Abernathy on Kiln Road", domain="health"))
    vault.reject(OWNER, staged["proposal_id"])
    (rejected,) = vault.proposals(OWNER, status="rejected")
    assert rejected["id"] == staged["proposal_id"] and rejected["payload"] == {}
    assert "Abernathy" not in repr(dump(vault))


def test_unknown_and_malformed_proposal_ids(vault: Vault) -> None:
    with pytest.raises(NotFound):
        vault.approve(OWNER, "pr000000000000")
    with pytest.raises(InvalidArgument):
        vault.approve(OWNER, 42)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument):
        vault.proposals(OWNER, status="maybe")


def test_approving_an_add_that_became_a_duplicate_stores_nothing_new(vault: Vault, add: Adder) -> None:
    staged = vault.add(ASSISTANT, Draft.of(statement="The dentist is Dr Abernathy on Kiln Road", domain="health"))
    existing = add("The dentist is Dr Abernathy on Kiln Road!", domain="health")
    approved = vault.approve(OWNER, staged["proposal_id"])
    assert approved["outcome"] == "duplicate" and approved["id"] == existing
    assert count(vault, "memories") == 1


def test_a_staged_correction_is_applied_on_approval(vault: Vault, add: Adder) -> None:
    target = add("The dentist is Dr Abernathy on Kiln Road", domain="health")
    staged = vault.correct(
        ASSISTANT, CorrectRequest.of(id=target, statement="The dentist is Dr Abernathy on Mill Road", reason="moved")
    )
    assert staged["outcome"] == "staged" and staged["supersedes_id"] == target and staged["id"] is None
    assert vault.get(OWNER, target)["memory"]["status"] == "current"
    approved = vault.approve(OWNER, staged["proposal_id"])
    assert approved["outcome"] == "superseded" and approved["supersedes_id"] == target
    assert vault.get(OWNER, target)["memory"]["status"] == "superseded"
    assert vault.get(OWNER, approved["id"])["memory"]["statement"] == "The dentist is Dr Abernathy on Mill Road"


def test_a_staged_change_of_a_record_that_moved_on_is_a_conflict(vault: Vault, add: Adder) -> None:
    target = add("The dentist is Dr Abernathy on Kiln Road", domain="health")
    staged = vault.archive(ASSISTANT, ArchiveRequest.of(id=target, reason="old"))
    vault.correct(OWNER, CorrectRequest.of(id=target, statement="The dentist is Dr Abernathy on Mill Road"))
    before = dump(vault)
    with pytest.raises(Conflict):
        vault.approve(OWNER, staged["proposal_id"])
    assert dump(vault) == before
    assert [p["id"] for p in vault.proposals(OWNER)] == [staged["proposal_id"]]


def test_a_staged_archive_is_applied_on_approval(vault: Vault, add: Adder) -> None:
    target = add("The dentist is Dr Abernathy on Kiln Road", domain="health")
    staged = vault.archive(ASSISTANT, ArchiveRequest.of(id=target, reason="changed dentist"))
    assert staged["outcome"] == "staged"
    assert vault.approve(OWNER, staged["proposal_id"])["outcome"] == "archived"
    assert vault.get(OWNER, target)["memory"]["status"] == "archived"


def test_an_approved_remote_proposal_keeps_the_proposers_scope_and_name(vault: Vault) -> None:
    staged = vault.add(REMOTE, Draft.of(statement="The Kiln Road library closes at five", domain="errands"))
    approved = vault.approve(OWNER, staged["proposal_id"])
    record = vault.get(REMOTE, approved["id"])["memory"]
    assert record["access_scope"] == "remote_allowed"
    added = [e for e in vault.events_for(OWNER, approved["id"]) if e["action"] == "added"]
    assert added[0]["principal"] == REMOTE.principal and added[0]["surface"] == "remote"


def test_a_workspace_change_to_its_own_record_can_be_approved(vault: Vault) -> None:
    staged = vault.add(WORKSPACE_A, Draft.of(statement="The alpha team demo is on Friday", domain="team"))
    record = vault.approve(OWNER, staged["proposal_id"])["id"]
    corrected = vault.correct(WORKSPACE_A, CorrectRequest.of(id=record, statement="The alpha team demo is on Thursday"))
    approved = vault.approve(OWNER, corrected["proposal_id"])
    assert approved["outcome"] == "superseded"
    new = vault.get(WORKSPACE_A, approved["id"])["memory"]
    assert (new["statement"], new["access_scope"]) == ("The alpha team demo is on Thursday", "workspace_allowed")
    archived = vault.archive(WORKSPACE_A, ArchiveRequest.of(id=approved["id"]))
    assert vault.approve(OWNER, archived["proposal_id"])["outcome"] == "archived"
    assert vault.get(WORKSPACE_A, approved["id"])["memory"]["status"] == "archived"


def test_a_rejected_correction_keeps_no_reason_text(vault: Vault, add: Adder) -> None:
    target = add("The dentist is Dr Abernathy on Kiln Road", domain="health")
    staged = vault.correct(
        ASSISTANT,
        CorrectRequest.of(id=target, statement="The dentist is Dr Abernathy on Mill Road", reason="Quillfeather moved"),
    )
    vault.reject(OWNER, staged["proposal_id"])
    (rejected,) = vault.proposals(OWNER, status="rejected")
    assert rejected["reason"] is None
    assert "Quillfeather" not in repr(dump(vault))


def test_approving_an_add_that_became_a_duplicate_records_the_confirmation(vault: Vault, add: Adder) -> None:
    staged = vault.add(ASSISTANT, Draft.of(statement="The dentist is Dr Abernathy on Kiln Road", domain="health"))
    existing = add("The dentist is Dr Abernathy on Kiln Road!", domain="health")
    vault.approve(OWNER, staged["proposal_id"])
    assert [e["action"] for e in vault.events_for(OWNER, existing)] == ["added", "confirmed", "approved"]


def test_a_workspace_callers_shared_add_linking_its_own_record_can_be_approved(vault: Vault) -> None:
    staged = vault.add(WORKSPACE_A, Draft.of(statement="The alpha team demo is on Friday", domain="team"))
    demo = vault.approve(OWNER, staged["proposal_id"])["id"]
    shared = vault.add(
        WORKSPACE_A,
        Draft.of(
            statement="The alpha demo needs the projector in room four",
            domain="team",
            access_scope="remote_allowed",
            links=[{"type": "relates_to", "target_id": demo}],
        ),
    )
    approved = vault.approve(OWNER, shared["proposal_id"])
    assert approved["outcome"] == "added"
    record = vault.get(WORKSPACE_A, approved["id"])
    assert record["memory"]["access_scope"] == "remote_allowed"
    assert record["links"] == [{"type": "relates_to", "target_id": demo}]
    row = vault.ctx.store.raw.execute("SELECT authorized_workspace_id FROM memories WHERE id = ?", (approved["id"],))
    assert row.fetchone()[0] is None  # a shared record is bound to no workspace
