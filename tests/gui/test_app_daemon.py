"""The app is the daemon: a real `memvault mcp` subprocess relays to it; the tray's kill switch stops
that bridge at its next call, and a write the bridge makes appears in the open window."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from pytestqt.qtbot import QtBot

from memvault.core.vault import Vault
from memvault.desktop.gui.daemon_host import DaemonHost
from memvault.desktop.gui.live import LiveFeed
from memvault.desktop.gui.main_window import MainWindow
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray
from memvault.desktop.gui.windows.inbox import InboxView
from tests.mcp_bridge.bridgekit import bridge_params

STEP_TIMEOUT = 60.0


class Bridge:
    """One MCP session with `memvault mcp` in a thread; the test hands it calls one at a time."""

    def __init__(self, home: Path, log: Path) -> None:
        self.home, self.log = home, log
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.answers: list[Any] = []
        self.wake = threading.Event()
        self.answered = threading.Event()
        self.thread = threading.Thread(target=lambda: anyio.run(self._session), daemon=True)

    async def _session(self) -> None:
        with self.log.open("w") as err:
            async with (
                stdio_client(bridge_params(self.home, MEMVAULT_PASSPHRASE=None), errlog=err) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                while True:
                    await anyio.to_thread.run_sync(self.wake.wait)
                    self.wake.clear()
                    if not self.calls:
                        return
                    name, arguments = self.calls.pop(0)
                    result = await session.call_tool(name, arguments)
                    self.answers.append(json.loads(result.content[0].text))  # type: ignore[union-attr]
                    self.answered.set()

    def call(self, qtbot: QtBot, name: str, arguments: dict[str, Any] | None = None) -> Any:
        self.answered.clear()
        self.calls.append((name, arguments or {}))
        self.wake.set()
        qtbot.waitUntil(self.answered.is_set, timeout=int(STEP_TIMEOUT * 1000))
        return self.answers[-1]

    def close(self) -> None:
        self.wake.set()
        self.thread.join(STEP_TIMEOUT)


@pytest.fixture
def hosted(vault: Vault, ops: Operations) -> Iterator[DaemonHost]:
    host = DaemonHost(vault)
    assert host.start() is None
    yield host
    host.stop()
    assert not host.address.socket.exists()


@pytest.fixture
def bridge(home: Path, tmp_path: Path, hosted: DaemonHost) -> Iterator[Bridge]:
    opened = Bridge(home, tmp_path / "bridge-stderr.txt")
    opened.thread.start()
    yield opened
    opened.close()


def test_the_tray_kill_switch_stops_a_running_bridge_at_its_next_call(
    qtbot: QtBot, ops: Operations, vault: Vault, bridge: Bridge, home: Path
) -> None:
    tray = Tray(ops)
    assert "pending_proposals" in bridge.call(qtbot, "memory_status")
    tray.kill_actions["all"].trigger()
    qtbot.waitUntil(lambda: vault.get_setting("kill_switch") == "all", timeout=10000)
    stopped = bridge.call(qtbot, "memory_search", {"query": "tea"})
    assert stopped["error"]["code"] == "kill_switch"
    tray.kill_actions["off"].trigger()
    qtbot.waitUntil(lambda: vault.get_setting("kill_switch") == "off", timeout=10000)
    assert "error" not in bridge.call(qtbot, "memory_search", {"query": "tea"})
    assert "relaying to the daemon" in (home / "logs" / "mcp.log").read_text()


def test_a_write_through_memvault_mcp_appears_in_the_open_window(
    qtbot: QtBot, ops: Operations, vault: Vault, bridge: Bridge
) -> None:
    window = MainWindow(ops, Tray(ops))
    qtbot.addWidget(window)
    live = LiveFeed(ops, window)
    window.show()
    inbox = window.page("Inbox")
    assert isinstance(inbox, InboxView)
    qtbot.waitUntil(lambda: len(inbox.items) == 4, timeout=10000)
    staged = bridge.call(qtbot, "memory_add", {"statement": "Mara's sister visits in June", "domain": "family"})
    assert staged["outcome"] == "staged"
    qtbot.waitUntil(lambda: staged["proposal_id"] in {item.id for item in inbox.items}, timeout=2000)
    qtbot.waitUntil(lambda: window.tray.pending == 5, timeout=2000)
    live.stop()
