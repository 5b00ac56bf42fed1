"""GUI test setup: a real encrypted store in tmp_path loaded with fictional data, and `Operations` on it.

Embeddings are off here (lexical search only) so a test does not pay for the model. As in the app,
reference cycles are collected on the GUI thread only (desktop/gui/collector.py) while a GUI test runs.
A test that needs a shared store asks for `postgres_url`: the store tests' own PostgreSQL (tests/store).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from shellkit import Seeded, seed

from memvault.core.vault import Vault
from memvault.desktop.gui.collector import GuiThreadCollector
from memvault.desktop.gui.operations import Operations
from tests.store.conftest import postgres_server, postgres_url  # noqa: F401 - a shared store for the GUI tests


@pytest.fixture(autouse=True)
def _no_embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


@pytest.fixture(autouse=True)
def _collect_on_the_gui_thread(qapp: object) -> Iterator[GuiThreadCollector]:
    """Made first, finished last, as the app's teardown (App.quit, then App.dispose): once the test's
    workers have stopped, the widgets pytest-qt closed are deleted and the cycles collected, here on
    the GUI thread, instead of during some later test's event loop."""
    collector = GuiThreadCollector()
    yield collector
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    collector.stop()


@pytest.fixture
def memvault_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The venv's `memvault` command findable, as after an install (autostart and clients name it)."""
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")


@pytest.fixture
def seeded(vault: Vault) -> Seeded:
    return seed(vault)


@pytest.fixture
def ops(vault: Vault, seeded: Seeded, qtbot: object) -> Iterator[Operations]:
    """`Operations` as the person on the seeded store; its worker stops before the store closes."""
    operations = Operations(vault)
    yield operations
    operations.shutdown()
