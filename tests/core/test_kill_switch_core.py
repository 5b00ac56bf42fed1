"""The kill switch in core: `remote` stops remote and workspace callers, `all` stops every assistant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, WORKSPACE_A, Adder, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden, KillSwitchEngaged
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest


def _calls(memory_id: str) -> dict[str, Callable[[Vault, Caller], Any]]:
    return {
        "add": lambda v, c: v.add(c, Draft.of(statement="The night bus runs hourly after midnight")),
        "get": lambda v, c: v.get(c, memory_id),
        "list": lambda v, c: v.list_memories(c),
        "search": lambda v, c: v.search(c, SearchRequest.of(query="ferry timetable")),
        "status": lambda v, c: v.status(c),
        "correct": lambda v, c: v.correct(c, CorrectRequest.of(id=memory_id, statement="The ferry leaves at 7:45")),
        "archive": lambda v, c: v.archive(c, ArchiveRequest.of(id=memory_id)),
        "restore": lambda v, c: v.restore(c, memory_id),
        "export": lambda v, c: v.export_markdown(c),
        "events": lambda v, c: v.events_for(c, memory_id),
    }


@pytest.fixture
def shared(add: Adder) -> str:
    return add("The ferry leaves at 7:30 on weekdays", domain="travel", access_scope="remote_allowed")


def test_off_by_default(vault: Vault) -> None:
    assert vault.status(OWNER)["kill_switch"] == "off"


@pytest.mark.parametrize("caller", [REMOTE, WORKSPACE_A], ids=["remote", "workspace"])
def test_remote_position_refuses_remote_callers_everywhere(vault: Vault, shared: str, caller: Caller) -> None:
    assert vault.get(caller, shared)["memory"]["id"] == shared
    vault.set_kill_switch(OWNER, "on")  # `on` is the remote position
    assert vault.get_setting("kill_switch") == "remote"
    before = dump(vault)
    for name, call in _calls(shared).items():
        with pytest.raises(KillSwitchEngaged) as raised:
            call(vault, caller)
        assert raised.value.code == "kill_switch", name
    assert dump(vault) == before


def test_remote_position_lets_local_callers_work(vault: Vault, shared: str) -> None:
    vault.set_kill_switch(OWNER, "remote")
    assert vault.get(ASSISTANT, shared)["memory"]["id"] == shared
    assert vault.search(ASSISTANT, SearchRequest.of(query="ferry"))["results"]
    assert vault.add(ASSISTANT, Draft.of(statement="The ferry café opens at seven"))["outcome"] == "staged"
    assert vault.status(OWNER)["kill_switch"] == "remote"


def test_all_position_refuses_local_assistants_but_not_the_owner(vault: Vault, shared: str) -> None:
    vault.set_kill_switch(OWNER, "all")
    before = dump(vault)
    for caller in (ASSISTANT, REMOTE, WORKSPACE_A):
        for call in _calls(shared).values():
            with pytest.raises(KillSwitchEngaged):
                call(vault, caller)
    assert dump(vault) == before
    assert vault.get(OWNER, shared)["memory"]["id"] == shared
    assert vault.search(OWNER, SearchRequest.of(query="ferry"))["results"]
    assert vault.add(OWNER, Draft.of(statement="The ferry café opens at seven", domain="travel"))["outcome"] == "added"
    assert vault.status(OWNER)["kill_switch"] == "all"


def test_switching_off_restores_access(vault: Vault, shared: str) -> None:
    vault.set_kill_switch(OWNER, "all")
    vault.set_kill_switch(OWNER, "off")
    assert vault.get(REMOTE, shared)["memory"]["id"] == shared
    assert vault.get(ASSISTANT, shared)["memory"]["id"] == shared


def test_the_switch_holds_across_a_reopen(vault: Vault, shared: str) -> None:
    vault.set_kill_switch(OWNER, "remote")
    with Vault.open(vault.paths.home) as other_process, pytest.raises(KillSwitchEngaged):
        other_process.get(REMOTE, shared)


def test_only_the_owner_moves_the_switch(vault: Vault) -> None:
    for caller in (ASSISTANT, REMOTE):
        with pytest.raises(Forbidden):
            vault.set_kill_switch(caller, "off")
    assert vault.get_setting("kill_switch") == "off"
