"""The kill switch on a shared store: each machine's own position stops that machine alone, the
store-wide position stops every machine, and the stronger of the two is in force. Two homes share one
PostgreSQL store; assistants reach each through the real MCP server and the official client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from clikit import run, run_json

from memvault.core.maintenance import doctor
from memvault.core.security.kill_switch import machine_file
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.errors import Forbidden
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller, Surface
from memvault.desktop.commands.setup import create_store
from tests.mcp_bridge.helpers import call, connect

REMOTE = Caller(principal="phone", surface=Surface.REMOTE)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def homes(tmp_path: Path, postgres_url: str) -> tuple[Path, Path]:
    laptop, desktop = tmp_path / "laptop", tmp_path / "desktop"
    create_store(str(laptop), postgres_url)
    create_store(str(desktop), postgres_url)
    return laptop, desktop


@pytest.fixture
def vaults(homes: tuple[Path, Path]) -> Iterator[tuple[Vault, Vault]]:
    with Vault.open(homes[0]) as laptop, Vault.open(homes[1]) as desktop:
        yield laptop, desktop


@pytest.mark.anyio
async def test_a_machine_position_stops_that_machine_while_the_other_answers(vaults: tuple[Vault, Vault]) -> None:
    laptop, desktop = vaults
    async with (
        connect(laptop, LOCAL_ASSISTANT) as on_laptop,
        connect(desktop, LOCAL_ASSISTANT) as on_desktop,
        connect(laptop, REMOTE) as remote_laptop,
        connect(desktop, REMOTE) as remote_desktop,
    ):
        laptop.set_kill_switch(OWNER, "on")
        assert (await call(remote_laptop, "memory_search", {"query": "canoe"})).code == "kill_switch"
        assert not (await call(on_laptop, "memory_search", {"query": "canoe"})).is_error
        assert (await call(remote_desktop, "memory_status")).data["kill_switch"] == "off"
        laptop.set_kill_switch(OWNER, "all")
        stopped = await call(on_laptop, "memory_status")
        assert stopped.code == "kill_switch" and "this machine" in stopped.data["error"]["message"]
        assert (await call(on_desktop, "memory_status")).data["kill_switch"] == "off"
    assert laptop.get_setting("kill_switch") == "off"  # the store was not touched
    assert machine_file(laptop.paths).read_text("utf-8") == "all\n"
    assert not machine_file(desktop.paths).exists()


@pytest.mark.anyio
async def test_the_store_wide_position_stops_every_machine(vaults: tuple[Vault, Vault]) -> None:
    laptop, desktop = vaults
    async with connect(laptop, LOCAL_ASSISTANT) as on_laptop, connect(desktop, LOCAL_ASSISTANT) as on_desktop:
        assert not (await call(on_desktop, "memory_status")).is_error
        laptop.set_kill_switch(
            OWNER, "all", store_wide=True
        )  # one machine sets it, a running server on the other obeys
        for client in (on_laptop, on_desktop):
            refused = await call(client, "memory_search", {"query": "canoe"})
            assert refused.code == "kill_switch" and "store-wide" in refused.data["error"]["message"]
        desktop.set_kill_switch(OWNER, "off", store_wide=True)
        assert (await call(on_laptop, "memory_status")).data["kill_switch"] == "off"
    assert not machine_file(laptop.paths).exists()  # no machine's own position was set


def test_the_stronger_position_is_in_force(vaults: tuple[Vault, Vault]) -> None:
    laptop, desktop = vaults
    for machine, store, in_force in [
        ("remote", "off", "remote"),
        ("off", "remote", "remote"),
        ("remote", "all", "all"),
        ("all", "remote", "all"),
        ("off", "off", "off"),
    ]:
        laptop.set_kill_switch(OWNER, machine)
        desktop.set_kill_switch(OWNER, store, store_wide=True)
        positions = laptop.kill_switch()
        assert (positions.machine, positions.store, positions.in_force) == (machine, store, in_force)
        assert laptop.status(OWNER)["kill_switch"] == in_force
        assert desktop.status(OWNER)["kill_switch"] == store


def test_only_the_person_changes_either_position(vaults: tuple[Vault, Vault]) -> None:
    laptop, _ = vaults
    for caller in (LOCAL_ASSISTANT, REMOTE):
        for store_wide in (False, True):
            with pytest.raises(Forbidden):
                laptop.set_kill_switch(caller, "all", store_wide=store_wide)
    assert laptop.kill_switch().in_force == "off"


def test_the_cli_sets_either_position_and_says_which_holds(
    homes: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    laptop, desktop = homes
    monkeypatch.setenv("MEMVAULT_HOME", str(laptop))
    assert run(capsys, "kill-switch", "on", "--store-wide")[1:] == ("on\n", "")
    code, out, err = run(capsys, "kill-switch", "off")  # this machine off: the store-wide one still holds
    assert (code, out) == (0, "on\n") and "the store-wide position is on and stronger" in err
    assert run(capsys, "kill-switch", "all")[1] == "all\n"
    assert run(capsys, "kill-switch", "status")[1] == (
        "all\nevery assistant call is stopped (this machine)\nthis machine: all\nstore-wide: on\n"
    )
    assert run_json(capsys, "kill-switch", "status") == {
        "in_force": "all",
        "held_by": "this machine",
        "machine": "all",
        "machine_unreadable": False,
        "store_wide": "remote",
        "shared_store": True,
    }
    monkeypatch.setenv("MEMVAULT_HOME", str(desktop))
    assert run(capsys, "kill-switch", "status")[1].splitlines()[:3] == [
        "on",
        "remote and workspace calls are stopped (store-wide)",
        "this machine: off",
    ]


def test_doctor_reports_both_positions(homes: tuple[Path, Path]) -> None:
    laptop, _ = homes
    with Vault.open(laptop) as vault:
        vault.set_kill_switch(OWNER, "remote")
    report = doctor.run(laptop, clock=SystemClock())
    (check,) = [c for c in report["checks"] if c["name"] == "kill switch"]
    assert check["ok"] and check["detail"] == "kill switch: remote (this machine: remote; store-wide: off)"
