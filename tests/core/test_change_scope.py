"""The person decides who may read a record; every version of it follows, nothing else changes."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, Adder, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument, NotFound
from memvault.core.vocabulary.model import Scope
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest


def test_sharing_a_record_makes_it_and_its_history_visible_to_remote_callers(vault: Vault, add: Adder) -> None:
    first = add("The choir rehearses on Thursdays", domain="music")
    current = str(vault.correct(OWNER, CorrectRequest.of(id=first, statement="The choir rehearses on Fridays"))["id"])
    with pytest.raises(NotFound):
        vault.get(REMOTE, current)
    record = vault.change_scope(OWNER, current, Scope.REMOTE_ALLOWED)
    assert record["access_scope"] == "remote_allowed" and record["revision"] == 2
    seen = vault.get(REMOTE, current)
    assert [older["id"] for older in seen["history"]] == [first]
    assert [h["id"] for h in vault.search(REMOTE, SearchRequest.of(query="choir rehearses"))["results"]] == [current]
    vault.change_scope(OWNER, current, Scope.LOCAL_ONLY)
    with pytest.raises(NotFound):
        vault.get(REMOTE, first)


def test_only_the_person_changes_scope_and_bad_requests_change_nothing(vault: Vault, add: Adder) -> None:
    target = add("The attic key is on the blue hook", domain="home")
    before = dump(vault)
    with pytest.raises(Forbidden):
        vault.change_scope(ASSISTANT, target, Scope.REMOTE_ALLOWED)
    with pytest.raises(InvalidArgument):
        vault.change_scope(OWNER, target, Scope.WORKSPACE_ALLOWED)  # names no workspace
    with pytest.raises(InvalidArgument):
        vault.change_scope(OWNER, target, Scope.REMOTE_ALLOWED, workspace_id="ws-a")
    with pytest.raises(NotFound):
        vault.change_scope(OWNER, "m000000000000", Scope.REMOTE_ALLOWED)
    assert dump(vault) == before
