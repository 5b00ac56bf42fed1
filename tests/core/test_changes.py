"""The change feed in one process: kinds and ids from the event log, cursor semantics, access scope, the signal."""

from __future__ import annotations

import errno
import json
import re
import threading
import time
from pathlib import Path

import pytest
from corekit import OWNER, REMOTE, WORKSPACE_A, WORKSPACE_B, Adder
from watchdog.observers import Observer

from memvault.core.operations.changes import ACTION_KINDS, MAX_BATCH, Change, ChangeBatch, ChangeKind
from memvault.core.runtime import change_watch
from memvault.core.runtime.change_signal import notify, signal_path
from memvault.core.runtime.paths import VaultPaths
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument, KillSwitchEngaged
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, Caller, Scope, Surface
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest

ROOT = Path(__file__).resolve().parents[2]
LOCAL_ONLY = "Ingrith keeps the spare Vantablue key under the third flowerpot"
SHARED = "Ingrith's allotment plot is number 14 by the Orrowmere gate"


def everything(vault: Vault, caller: Caller = OWNER, cursor: int = 0, limit: int = MAX_BATCH) -> list[Change]:
    """Every change after `cursor`, page by page, checking the batch contract on the way."""
    found: list[Change] = []
    while True:
        batch = vault.changes_since(caller, cursor, limit=limit)
        assert not batch.reset
        assert all(cursor < change.cursor <= batch.cursor for change in batch.changes)
        found += batch.changes
        cursor = batch.cursor
        if not batch.more:
            return found


def revision(vault: Vault, memory_id: str) -> int:
    return int(vault.ctx.store.raw.execute("SELECT revision FROM memories WHERE id = ?", (memory_id,)).fetchone()[0])


def kinds(changes: list[Change]) -> list[str]:
    return [change.kind.value for change in changes]


def test_each_write_yields_its_change_in_order(vault: Vault, add: Adder) -> None:
    start = vault.changes_since(OWNER, None)
    assert start.changes == () and not start.more
    first = add(SHARED, domain="garden", access_scope="remote_allowed")
    corrected = vault.correct(
        OWNER, CorrectRequest.of(id=first, statement=SHARED.replace("14", "15"), reason="moved plots")
    )
    vault.archive(OWNER, ArchiveRequest.of(id=corrected["id"], reason="gave it up"))
    vault.restore(OWNER, corrected["id"])
    vault.set_setting(OWNER, "write_mode", "review-before-write")
    vault.rename_domain(OWNER, "garden", "allotment")

    changes = everything(vault, cursor=start.cursor)
    # A correction adds the new record, then supersedes the old one: two changes, in that order.
    assert kinds(changes) == [
        "memory_added",
        "memory_added",
        "memory_corrected",
        "memory_archived",
        "memory_restored",
        "setting_changed",
        "domain_changed",
    ]
    by_kind = {change.kind: change for change in changes}
    assert by_kind[ChangeKind.MEMORY_CORRECTED].memory_ids == (first, corrected["id"])
    assert by_kind[ChangeKind.MEMORY_ARCHIVED].memory_ids == (corrected["id"],)
    assert by_kind[ChangeKind.DOMAIN_CHANGED].domain == "allotment"
    assert all(change.surface is Surface.LOCAL for change in changes)
    # The revision is the record's as read now: the restored record moved past its first one.
    assert by_kind[ChangeKind.MEMORY_RESTORED].revision == revision(vault, corrected["id"]) > 1
    cursors = [change.cursor for change in changes]
    assert cursors == sorted(set(cursors))


def test_the_exact_kinds_of_a_correction(vault: Vault, add: Adder) -> None:
    first = add(SHARED, domain="garden")
    cursor = vault.changes_since(OWNER, None).cursor
    new_id = vault.correct(OWNER, CorrectRequest.of(id=first, statement=SHARED.replace("14", "16")))["id"]
    changes = everything(vault, cursor=cursor)
    corrected = [c for c in changes if c.kind is ChangeKind.MEMORY_CORRECTED]
    assert len(corrected) == 1 and corrected[0].memory_ids == (first, new_id)
    assert ChangeKind.OTHER not in {c.kind for c in changes}


def test_paging_loses_nothing_and_repeats_nothing(vault: Vault, add: Adder) -> None:
    ids = [add(f"Ingrith sowed row {n} of Kestrelwort beans", domain="garden") for n in range(7)]
    all_at_once = everything(vault)
    by_twos = everything(vault, limit=2)
    assert by_twos == all_at_once
    added = [c.memory_ids[0] for c in all_at_once if c.kind is ChangeKind.MEMORY_ADDED]
    assert added == ids
    # Asking again from the end: nothing, and the same cursor.
    end = vault.changes_since(OWNER, all_at_once[-1].cursor)
    assert end.changes == () and end.cursor == all_at_once[-1].cursor and not end.more


def test_a_cursor_past_the_log_asks_for_a_reset(vault: Vault, add: Adder) -> None:
    add(SHARED, domain="garden")
    current = vault.changes_since(OWNER, None).cursor
    batch = vault.changes_since(OWNER, current + 50)
    assert batch == ChangeBatch(cursor=current, reset=True)


@pytest.mark.parametrize("cursor", [-1, "3", 2.5, True])
def test_a_bad_cursor_is_refused(vault: Vault, cursor: object) -> None:
    with pytest.raises(InvalidArgument, match="cursor"):
        vault.changes_since(OWNER, cursor)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, MAX_BATCH + 1])
def test_a_bad_limit_is_refused(vault: Vault, limit: int) -> None:
    with pytest.raises(InvalidArgument, match="limit"):
        vault.changes_since(OWNER, 0, limit=limit)


def test_a_change_carries_ids_never_text(vault: Vault, add: Adder) -> None:
    memory_id = add(LOCAL_ONLY, domain="home")
    vault.correct(
        OWNER,
        CorrectRequest.of(id=memory_id, statement=LOCAL_ONLY.replace("third", "fourth"), reason="Vantablue moved"),
    )
    staged = vault.add(LOCAL_ASSISTANT, Draft.of(statement="Ingrith's Vantablue bicycle is in the shed", domain="home"))
    vault.reject(OWNER, staged["proposal_id"], reason="Vantablue is private")
    dumped = json.dumps([c.to_dict() for c in everything(vault)])
    for word in ("Vantablue", "flowerpot", "bicycle", "owner"):
        assert word not in dumped


def test_changes_round_trip_through_json(vault: Vault, add: Adder) -> None:
    add(SHARED, domain="garden")
    batch = vault.changes_since(OWNER, 0)
    assert ChangeBatch.from_dict(json.loads(json.dumps(batch.to_dict()))) == batch


def test_proposals_staged_and_decided(vault: Vault) -> None:
    staged = vault.add(REMOTE, Draft.of(statement=SHARED, domain="garden"))
    assert staged["outcome"] == "staged"
    approved = vault.approve(OWNER, staged["proposal_id"])
    changes = everything(vault)
    assert [c.kind for c in changes if c.proposal_id == staged["proposal_id"]] == [
        ChangeKind.PROPOSAL_STAGED,
        ChangeKind.PROPOSAL_DECIDED,
    ]
    staged_change = next(c for c in changes if c.kind is ChangeKind.PROPOSAL_STAGED)
    assert staged_change.surface is Surface.REMOTE
    assert approved["id"] in {i for c in changes for i in c.memory_ids}


def test_purge_changes(vault: Vault, add: Adder) -> None:
    memory_id = add(LOCAL_ONLY, domain="home")
    refused = vault.request_purge(OWNER, PurgeRequest.of(id=memory_id, reason="mistake"))["request_id"]
    vault.reject_purge(OWNER, refused)
    request = vault.request_purge(OWNER, PurgeRequest.of(id=memory_id))["request_id"]
    vault.confirm_purge(OWNER, request)
    purge_kinds = [c.kind for c in everything(vault) if c.proposal_id in (refused, request)]
    assert purge_kinds == [
        ChangeKind.PURGE_REQUESTED,
        ChangeKind.PURGE_REJECTED,
        ChangeKind.PURGE_REQUESTED,
        ChangeKind.PURGED,
    ]
    purged = next(c for c in everything(vault) if c.kind is ChangeKind.PURGED)
    assert purged.memory_ids == (memory_id,) and purged.revision is None


# -- access scope -----------------------------------------------------------------------------
def test_a_remote_caller_learns_nothing_of_what_it_may_not_see(vault: Vault, add: Adder) -> None:
    hidden = add(LOCAL_ONLY, domain="home")
    shared = add(SHARED, domain="garden", access_scope="remote_allowed")
    vault.archive(OWNER, ArchiveRequest.of(id=hidden, reason="old"))
    vault.set_setting(OWNER, "write_mode", "review-before-write")
    vault.create_token(OWNER, "laptop-bot", "remote")
    other = vault.add(
        Caller("someone-else", Surface.REMOTE), Draft.of(statement="Ingrith likes Ember tea", domain="garden")
    )
    own = vault.add(REMOTE, Draft.of(statement="Ingrith likes Saffronel biscuits", domain="garden"))

    seen = everything(vault, REMOTE)
    assert {i for c in seen for i in c.memory_ids} == {shared}
    assert [c.kind for c in seen] == [ChangeKind.MEMORY_ADDED, ChangeKind.PROPOSAL_STAGED]
    assert seen[1].proposal_id == own["proposal_id"] != other["proposal_id"]
    # The person sees all of it, and a local assistant sees what local callers see: everything.
    assert len(everything(vault, OWNER)) == len(everything(vault, LOCAL_ASSISTANT)) > len(seen)
    hidden_cursors = {c.cursor for c in everything(vault) if hidden in c.memory_ids}
    assert hidden_cursors and not hidden_cursors & {c.cursor for c in seen}
    # The cursor still moves past what was skipped: nothing is withheld for later either.
    assert vault.changes_since(REMOTE, 0).cursor == vault.changes_since(OWNER, None).cursor


def test_a_workspace_sees_its_own_workspace_and_shared_records(vault: Vault, add: Adder) -> None:
    shared = add(SHARED, domain="garden", access_scope="remote_allowed")
    staged = vault.add(
        WORKSPACE_A, Draft.of(statement="The team waters the Orrowmere beds on Tuesdays", domain="garden")
    )
    team_record = vault.approve(OWNER, staged["proposal_id"])["id"]
    add(LOCAL_ONLY, domain="home")

    for_a = {i for c in everything(vault, WORKSPACE_A) for i in c.memory_ids}
    for_b = {i for c in everything(vault, WORKSPACE_B) for i in c.memory_ids}
    assert for_a == {shared, team_record}
    assert for_b == {shared}
    decided = [c for c in everything(vault, WORKSPACE_B) if c.kind is ChangeKind.PROPOSAL_DECIDED]
    assert decided == []


def test_a_correction_into_a_hidden_record_shows_only_the_visible_id(vault: Vault, add: Adder) -> None:
    shared = add(SHARED, domain="garden", access_scope="remote_allowed")
    hidden_twin = add(LOCAL_ONLY, domain="home")
    vault.correct(OWNER, CorrectRequest.of(id=shared, statement=SHARED.replace("14", "18")))
    for change in everything(vault, REMOTE):
        assert hidden_twin not in change.memory_ids
        assert change.domain in (None, "garden")


def test_a_record_shared_later_shows_up_and_one_withdrawn_disappears(vault: Vault, add: Adder) -> None:
    record = add(LOCAL_ONLY, domain="home")
    start = vault.changes_since(REMOTE, None).cursor
    vault.change_scope(OWNER, record, Scope.REMOTE_ALLOWED)
    shared = everything(vault, REMOTE, cursor=start)
    assert [(c.kind, c.memory_ids) for c in shared] == [(ChangeKind.MEMORY_RESCOPED, (record,))]
    vault.change_scope(OWNER, record, Scope.LOCAL_ONLY)
    assert everything(vault, REMOTE, cursor=shared[-1].cursor) == []
    assert everything(vault, REMOTE) == []  # and its whole history is out of sight again


def test_the_kill_switch_stops_a_remote_feed(vault: Vault) -> None:
    vault.set_kill_switch(OWNER, "on")
    with pytest.raises(KillSwitchEngaged):
        vault.changes_since(REMOTE, 0)
    assert vault.changes_since(OWNER, 0).changes


# -- the signal -------------------------------------------------------------------------------
def test_a_commit_with_events_rewrites_the_signal_and_a_read_does_not(vault: Vault, add: Adder) -> None:
    path = signal_path(vault.paths)
    add(SHARED, domain="garden")
    cursor = vault.changes_since(OWNER, None).cursor
    assert path.read_text() == f"{cursor}\n"
    assert (path.stat().st_mode & 0o777) == 0o600
    path.unlink()
    vault.search(OWNER, SearchRequest.of(query="Orrowmere allotment"))
    vault.list_memories(OWNER)
    assert not path.exists()


def test_the_signal_is_rewritten_in_place_to_exactly_the_newest_cursor(tmp_path: Path) -> None:
    """Rewritten without truncating to zero first (ext4 flushes such a rewrite at close): a
    shorter cursor (after a restore) must still leave no digits of the longer one behind."""
    paths = VaultPaths.from_env(tmp_path)
    notify(paths, 123456789)
    inode = signal_path(paths).stat().st_ino
    notify(paths, 42)
    assert signal_path(paths).read_text() == "42\n"
    assert signal_path(paths).stat().st_ino == inode  # the same file: watchers see a write, not a new file


def test_every_event_action_in_the_code_has_a_kind() -> None:
    """A new event action must say what kind of change it is (else front ends see `other`)."""
    source = "\n".join(path.read_text() for path in (ROOT / "core").rglob("*.py"))
    actions = set(re.findall(r"events\.record\(\s*\w+,\s*\"(\w+)\"", source))
    actions |= set(re.findall(r"\"(domain_pinned)\" if pinned else \"(domain_unpinned)\"", source)[0])
    assert len(actions) > 20
    assert actions - set(ACTION_KINDS) == set()


def test_a_restore_to_an_older_backup_signals_and_reads_as_a_reset(home: Path) -> None:
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement=SHARED, domain="garden"))
        backup = vault.backup(OWNER)["path"]
        for n in range(5):
            vault.add(OWNER, Draft.of(statement=f"Ingrith planted Orrowmere row {n}", domain="garden"))
        ahead = vault.changes_since(OWNER, None).cursor
    signal_path(VaultPaths.from_env(home)).unlink()
    Vault.restore_backup(backup, home)
    with Vault.open(home) as vault:
        restored = vault.changes_since(OWNER, None).cursor
        assert signal_path(vault.paths).read_text() == f"{restored}\n"
        assert restored < ahead
        assert vault.changes_since(OWNER, ahead) == ChangeBatch(cursor=restored, reset=True)
        assert everything(vault)[-1].kind is ChangeKind.STORE_RESTORED


def test_without_file_system_events_the_watcher_still_wakes(
    vault: Vault, add: Adder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where inotify refuses (its watches used up), the signal is looked at once a second instead."""

    class Refusing(Observer):  # type: ignore[misc,valid-type]
        def schedule(self, *args: object, **kwargs: object) -> None:
            raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(change_watch, "Observer", Refusing)
    woken = threading.Event()
    with change_watch.SignalWatcher(vault.paths, woken.set):
        time.sleep(1.2)  # the polling observer's first snapshot
        add(SHARED, domain="garden")
        assert woken.wait(5)
