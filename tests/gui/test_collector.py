"""Reference cycles are collected on the GUI thread only: a Qt object Python owns must never be
destroyed by a collection that a worker thread's allocations happened to trigger."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from memvault.desktop.gui.collector import GuiThreadCollector


class _Cyclic(QObject):
    """A parentless QObject in a reference cycle: only the cyclic collector frees it. Its ballast of
    containers is more new garbage than the youngest generation's threshold, so a pass is due."""

    def __init__(self, let_go_on: list[str]) -> None:
        super().__init__()
        self.me = self
        self.let_go_on = let_go_on
        self.ballast = [{} for _ in range(2 * gc.get_threshold()[0])]

    def __del__(self) -> None:
        self.let_go_on.append(threading.current_thread().name)


def _allocate_a_lot() -> None:
    """What a store worker does: enough container allocations to cross every generation's threshold."""
    for _ in range(20):
        kept = [[] for _ in range(100_000)]
        del kept


def test_a_cycle_is_freed_on_the_gui_thread_whatever_thread_allocates(
    qtbot: QtBot, _collect_on_the_gui_thread: GuiThreadCollector
) -> None:
    let_go_on: list[str] = []
    _Cyclic(let_go_on)  # garbage at once: only a collection frees it
    worker = threading.Thread(target=_allocate_a_lot, name="memvault-gui-worker")
    worker.start()
    worker.join()
    assert let_go_on == []  # the worker's allocations collected nothing
    qtbot.waitUntil(lambda: bool(let_go_on), timeout=5000)  # the GUI thread's timer did
    assert let_go_on == [threading.main_thread().name]


def test_stopping_hands_collection_back_to_python(qtbot: QtBot) -> None:
    assert not gc.isenabled()  # the fixture's collector runs
    nested = GuiThreadCollector()
    nested.stop()
    assert not gc.isenabled()  # it was off before this one started: it stays off
    let_go_on: list[str] = []
    _Cyclic(let_go_on)
    GuiThreadCollector().stop()  # a last pass on this thread
    assert let_go_on == [threading.main_thread().name]


def test_what_start_up_made_is_kept_out_of_later_passes_until_stop(qtbot: QtBot) -> None:
    collector = GuiThreadCollector()
    collector.settle()
    assert gc.get_freeze_count() > 0
    collector.stop()
    assert gc.get_freeze_count() == 0
