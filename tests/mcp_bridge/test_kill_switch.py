"""The kill switch: remote and workspace calls stop when it is on, local MCP calls too when it is `all`,
and a change made by `memvault kill-switch` in another process reaches a running server at its next call."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.mcp_bridge.server import tool_specs
from tests.mcp_bridge.conftest import REMOTE, WORKSPACE_A, Seeded
from tests.mcp_bridge.helpers import call, connect

pytestmark = pytest.mark.anyio


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMVAULT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def some_arguments(name: str, seeded: Seeded) -> dict[str, Any]:
    return {
        "memory_search": {"query": "tomatoes"},
        "memory_get": {"id": seeded.remote},
        "memory_add": {"statement": "Lindqvist garden: mulch the roses"},
        "memory_correct": {"id": seeded.remote, "statement": "Lindqvist garden: tomatoes go north"},
        "memory_archive": {"id": seeded.remote},
        "memory_restore": {"id": seeded.archived_remote},
    }.get(name, {})


@pytest.mark.parametrize("caller", [REMOTE, WORKSPACE_A], ids=lambda c: c.principal)
async def test_on_stops_every_remote_call_even_malformed_ones(vault: Vault, seeded: Seeded, caller: Any) -> None:
    vault.set_kill_switch(OWNER, "on")
    async with connect(vault, caller) as client:
        for spec in tool_specs():
            assert (await call(client, spec.name, some_arguments(spec.name, seeded))).code == "kill_switch"
            assert (await call(client, spec.name, {"bogus": [1, 2]})).code == "kill_switch"
    async with connect(vault, LOCAL_ASSISTANT) as client:
        assert not (await call(client, "memory_search", {"query": "tomatoes"})).is_error


async def test_all_stops_local_assistants_too_and_off_resumes(vault: Vault, seeded: Seeded) -> None:
    vault.set_kill_switch(OWNER, "all")
    async with connect(vault, LOCAL_ASSISTANT) as client:
        stopped = await call(client, "memory_status")
        vault.set_kill_switch(OWNER, "off")
        resumed = await call(client, "memory_status")
    assert stopped.code == "kill_switch" and not resumed.is_error


async def test_a_change_from_another_process_reaches_the_running_server(home: Path, seeded: Seeded) -> None:
    with Vault.open(home) as server_vault:
        async with connect(server_vault, REMOTE) as remote, connect(server_vault, LOCAL_ASSISTANT) as local:
            assert not (await call(remote, "memory_status")).is_error
            flipped = cli(home, "kill-switch", "on")
            assert flipped.returncode == 0 and flipped.stdout == "on\n", flipped.stderr
            assert (await call(remote, "memory_status")).code == "kill_switch"
            assert not (await call(local, "memory_status")).is_error
            assert cli(home, "kill-switch", "all").stdout == "all\n"
            assert (await call(local, "memory_status")).code == "kill_switch"
            assert cli(home, "kill-switch", "off").stdout == "off\n"
            assert not (await call(remote, "memory_status")).is_error
            assert not (await call(local, "memory_status")).is_error
    assert cli(home, "kill-switch", "status").stdout.splitlines()[0] == "off"
