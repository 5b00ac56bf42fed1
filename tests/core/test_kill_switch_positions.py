"""The kill switch's two positions on a store only this machine uses: this machine's (a file in the
home) and the store's (its setting) are one there, the stronger is in force, a position stored before
machines had their own still stops assistants, and a file that cannot be read stops everything."""

from __future__ import annotations

import itertools
import stat
from pathlib import Path

import pytest
from corekit import ASSISTANT, OWNER, REMOTE

from memvault.core.maintenance import doctor
from memvault.core.security import kill_switch as kill_switch_module
from memvault.core.security.kill_switch import MACHINE_FILE, Positions, machine_file, stronger, write_machine
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.errors import EnvironmentProblem, KillSwitchEngaged
from memvault.core.vocabulary.model import KillSwitch
from memvault.core.vocabulary.search_request import SearchRequest

ORDER = [KillSwitch.OFF, KillSwitch.REMOTE, KillSwitch.ALL]


@pytest.mark.parametrize(("one", "other"), list(itertools.product(ORDER, ORDER)))
def test_the_stronger_position_is_in_force(one: KillSwitch, other: KillSwitch) -> None:
    expected = ORDER[max(ORDER.index(one), ORDER.index(other))]
    assert stronger(one, other) is expected
    assert Positions(one, other).in_force is expected


def test_a_position_is_written_to_both_and_the_file_is_private(vault: Vault, home: Path) -> None:
    positions = vault.set_kill_switch(OWNER, "on")
    assert (positions.machine, positions.store, positions.held_by) == (
        "remote",
        "remote",
        "this machine and store-wide",
    )
    assert vault.get_setting("kill_switch") == "remote"
    assert machine_file(vault.paths).read_text("utf-8") == "remote\n"
    assert stat.S_IMODE(machine_file(vault.paths).stat().st_mode) == 0o600
    vault.set_setting(OWNER, "kill_switch", "all")  # `memvault config set`, the settings table: the same one position
    assert machine_file(vault.paths).read_text("utf-8") == "all\n"
    assert [p.name for p in home.iterdir() if MACHINE_FILE in p.name] == [MACHINE_FILE]  # no temporary file left


def test_a_position_stored_before_machines_had_their_own_still_stops(vault: Vault) -> None:
    with vault.ctx.transaction() as conn:  # an upgraded home: the store holds a position, no file yet
        conn.settings.write("kill_switch", "all")
    assert not machine_file(vault.paths).exists()
    with pytest.raises(KillSwitchEngaged):
        vault.search(ASSISTANT, SearchRequest.of(query="ferry"))
    assert vault.status(OWNER)["kill_switch"] == "all"
    vault.set_kill_switch(OWNER, "off")  # resumes: on this home the two positions are one
    assert "results" in vault.search(ASSISTANT, SearchRequest.of(query="ferry"))


def test_this_machines_position_counts_at_the_next_call(vault: Vault) -> None:
    """Written by another process (`memvault kill-switch`, the tray): the file alone, no store write."""
    write_machine(vault.paths, KillSwitch.REMOTE)
    with pytest.raises(KillSwitchEngaged, match=r"\(this machine\)"):
        vault.status(REMOTE)
    assert vault.status(ASSISTANT)["kill_switch"] == "remote"
    write_machine(vault.paths, KillSwitch.OFF)
    assert vault.status(REMOTE)["kill_switch"] == "off"


def test_a_file_that_cannot_be_read_stops_everything_and_doctor_says_so(vault: Vault) -> None:
    machine_file(vault.paths).write_text("maybe\n", encoding="utf-8")
    positions = vault.kill_switch()
    assert positions.machine_unreadable and positions.in_force == "all"
    with pytest.raises(KillSwitchEngaged):
        vault.status(ASSISTANT)
    (check,) = [c for c in doctor.run(vault.paths.home, clock=SystemClock())["checks"] if c["name"] == "kill switch"]
    assert not check["ok"] and "unreadable" in check["detail"] and "memvault kill-switch off" in str(check["fix"])
    vault.set_kill_switch(OWNER, "off")
    assert vault.status(ASSISTANT)["kill_switch"] == "off"


def test_a_file_held_open_by_a_reader_is_replaced_on_a_later_try(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows refuses to rename over a file another process has open (a check reading it)."""
    real, refusals = kill_switch_module.os.replace, iter([True, True])

    def replace(source: object, target: object) -> None:
        if next(refusals, False):
            raise PermissionError(13, "in use")
        real(source, target)

    monkeypatch.setattr(kill_switch_module.os, "replace", replace)
    vault.set_kill_switch(OWNER, "all")
    assert Positions.read(vault.paths, "off").machine == KillSwitch.ALL


def test_on_a_local_store_the_store_position_holds_when_the_file_cannot_be_written(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = kill_switch_module.os.replace

    def refuse(source: object, target: object) -> None:
        raise PermissionError(13, "in use")

    monkeypatch.setattr(kill_switch_module.os, "replace", refuse)
    vault.set_kill_switch(OWNER, "all")  # the file stays off; the store's position stops assistants
    with pytest.raises(KillSwitchEngaged):
        vault.status(ASSISTANT)
    monkeypatch.setattr(kill_switch_module.os, "replace", real)
    vault.set_kill_switch(OWNER, "all")
    monkeypatch.setattr(kill_switch_module.os, "replace", refuse)
    with pytest.raises(EnvironmentProblem, match="could not be written"):
        vault.set_kill_switch(OWNER, "off")  # the file still says `all`: turning it off must not claim success
    with pytest.raises(KillSwitchEngaged):
        vault.status(ASSISTANT)
