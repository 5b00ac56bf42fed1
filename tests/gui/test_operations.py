"""Operations: work runs off the GUI thread, answers come back on it, writes announce what changed."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest
from PySide6.QtCore import QThread, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from shellkit import Seeded

from memvault.core.operations.changes import MEMORY_KINDS, ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError, NotFound
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest
from memvault.desktop.gui.operations import Changes, Operations


def test_work_runs_off_the_gui_thread_and_answers_on_it(qtbot: QtBot, ops: Operations, seeded: Seeded) -> None:
    seen: dict[str, object] = {}

    def work(vault: Vault) -> str:
        seen["worker"] = QThread.currentThread() is not QApplication.instance().thread()  # type: ignore[union-attr]
        return str(vault.get(OWNER, seeded.records["tea"])["memory"]["statement"])

    with qtbot.waitCallback() as answered:
        ops.run(work, answered)
    assert answered.args == ["Mara prefers tea over coffee in the morning"]
    assert seen["worker"] is True


def test_a_write_announces_what_it_touched_and_lands_in_the_store(
    qtbot: QtBot, ops: Operations, vault: Vault, seeded: Seeded
) -> None:
    memory_id = seeded.records["glaze"]
    with qtbot.waitSignal(ops.changed, timeout=5000) as announced:
        ops.run(lambda v: v.archive(OWNER, ArchiveRequest.parse({"id": memory_id})), lambda _: None, writes=True)
    assert announced.args[0] == Changes.of([ChangeKind.MEMORY_ARCHIVED], [memory_id])  # as the change feed names it
    assert vault.get(OWNER, memory_id)["memory"]["status"] == "archived"


def test_a_write_that_names_no_record_announces_its_kind(qtbot: QtBot, ops: Operations) -> None:
    with qtbot.waitSignal(ops.changed, timeout=5000) as announced:
        ops.run(lambda v: v.set_setting(OWNER, "write_mode", "retrieval-only"), lambda _: None, writes=True)
    changes = announced.args[0]
    assert changes.touches(ChangeKind.SETTING_CHANGED) and not changes.touches(*MEMORY_KINDS)
    assert not changes.everything


def test_a_refused_call_reaches_failed_and_announces_nothing(qtbot: QtBot, ops: Operations) -> None:
    announced: list[Changes] = []
    ops.changed.connect(announced.append)
    with qtbot.waitCallback() as failed:
        ops.run(lambda v: v.get(OWNER, "m000000000000"), lambda _: None, failed, writes=True)
    assert isinstance(failed.args[0], NotFound)
    assert isinstance(failed.args[0], MemvaultError)
    assert announced == []


def test_a_bug_is_reported_without_its_message(qtbot: QtBot, ops: Operations) -> None:
    def broken(_: Vault) -> None:
        raise ValueError("Mara's secret text")

    with qtbot.waitSignal(ops.failed_unexpectedly, timeout=5000) as reported:
        ops.run(broken, lambda _: None)
    assert "ValueError" in reported.args[0]
    assert "secret" not in reported.args[0]


def test_the_event_loop_keeps_turning_during_a_long_operation(qtbot: QtBot, ops: Operations) -> None:
    release = threading.Event()
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()

    def long_backup(vault: Vault) -> str:
        release.wait(5)
        return str(vault.backup(OWNER)["path"])

    done: list[str] = []
    ops.run(long_backup, done.append, writes=True)
    qtbot.wait(400)  # the GUI thread is free while the worker waits
    assert ops.busy and len(ticks) >= 8
    release.set()
    qtbot.waitUntil(lambda: bool(done), timeout=10000)
    timer.stop()
    assert Path(done[0]).is_file()


def test_a_view_whose_work_is_in_flight_is_let_go_on_the_gui_thread(
    qtbot: QtBot, ops: Operations, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A widget destroyed on the worker thread leaves its timers behind (a segfault at the next tick):
    the worker must never hold the last reference to a callback."""
    let_go_on: list[str] = []

    class View:
        def done(self, _: object) -> None:
            pass

        def __del__(self) -> None:
            let_go_on.append(threading.current_thread().name)

    submitted: list[Future[object]] = []
    submit = ops._pool.submit
    monkeypatch.setattr(ops._pool, "submit", lambda *a: submitted.append(submit(*a)) or submitted[-1])
    gate = threading.Event()
    view = View()
    ops.run(lambda _: gate.wait(10), view.done)
    # The worker lingers after delivering (a descheduled thread on a busy machine) ...
    submitted[0].add_done_callback(lambda _: time.sleep(0.5))
    del view, submitted[:]
    gate.set()
    qtbot.waitUntil(lambda: not ops.busy, timeout=5000)  # ... so the GUI thread is done with it first
    qtbot.waitUntil(lambda: bool(let_go_on), timeout=5000)
    assert let_go_on == [threading.main_thread().name]
