"""Settings' "Use a shared store…": the dialog tests a connection and says in words what it found (a bad
address, a database holding records, an empty one), then the app moves a populated store into a real
PostgreSQL with a bar per table, shows what was verified, serves again on the shared store with the
records in its list; and moves it back. The password typed goes to the keyring and is never shown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from memory_keyring import MemoryKeyring
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from shellkit import RECORDS, seed

from memvault.core.maintenance.migrate import TABLE_NAMES, SharedTarget
from memvault.core.runtime.paths import VaultPaths
from memvault.core.store import engines
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.commands.setup import create_store
from memvault.desktop.daemon import DaemonLock
from memvault.desktop.gui import app as app_module
from memvault.desktop.gui.app import App
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.memories import MemoriesView
from memvault.desktop.gui.windows.move_store import MoveStoreDialog, found_text, with_password
from memvault.desktop.gui.windows.settings import SettingsView
from memvault.mcp_bridge import relay

MOVE_TIMEOUT = 120000
PASSWORD = "fictional pa$$word/with:odd@chars"


@pytest.fixture
def ring() -> Iterator[MemoryKeyring]:
    """A keyring for the store's password (the tests' default backend keeps none)."""
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    try:
        yield memory
    finally:
        keyring.set_keyring(previous)


def settings_dialog(qtbot: QtBot, ops: Operations) -> tuple[SettingsView, MoveStoreDialog]:
    view = SettingsView(ops)
    qtbot.addWidget(view)
    qtbot.waitUntil(lambda: view.store.move_button.isVisible() or not view.isVisible(), timeout=10000)
    qtbot.waitUntil(lambda: view.store.engine != "", timeout=10000)
    return view, view.store.open_move()


def tried(qtbot: QtBot, dialog: MoveStoreDialog, url: str, password: str = "") -> str:
    dialog.url.setText(url)
    dialog.password.setText(password)
    dialog.test_button.click()
    qtbot.waitUntil(dialog.test_button.isEnabled, timeout=30000)
    return dialog.status.text()


def test_a_connection_test_says_in_words_what_it_found(
    qtbot: QtBot, ops: Operations, postgres_url: str, tmp_path: Path
) -> None:
    view, dialog = settings_dialog(qtbot, ops)
    assert view.store.move_button.text() == "Use a &shared store…"
    assert not dialog.move_button.isEnabled()  # a move starts after a test found the database usable
    said = tried(qtbot, dialog, "mysql://someone:hunter2@db.example.net/memory")
    assert said.startswith("The connection test failed") and "postgresql://" in said and "hunter2" not in said
    said = tried(qtbot, dialog, "postgresql://memvault@db.example.net/memory")
    assert "only over TLS that verifies the server" in said and "sslmode=verify-full" in said
    said = tried(qtbot, dialog, "postgresql://memvault@127.0.0.1:1/memory", "not shown")
    assert "no usable OS keyring here to keep the store's password" in said and "not shown" not in said
    said = tried(qtbot, dialog, "postgresql://memvault@127.0.0.1:1/memory")
    assert "could not be reached" in said
    assert not dialog.move_button.isEnabled()
    said = tried(qtbot, dialog, postgres_url)
    assert "The database answered, on this computer, where TLS is not needed." in said
    assert "pgvector" in said and "holds no memvault records" in said
    assert "memvault's tables are not in it yet" in said and "The test changed nothing in it." in said
    probe, _, _ = engines.open_shared(postgres_url, migrate=False)
    try:
        assert probe.maintenance.table_names() == set()  # a test makes no table in the database it reads
    finally:
        probe.close()
    assert dialog.move_button.isEnabled()
    dialog.url.setText(postgres_url + "&application_name=other")
    assert not dialog.move_button.isEnabled()  # another address: tested again first
    other = tmp_path / "other-computer"
    create_store(str(other), postgres_url)
    with Vault.open(other) as joined:
        joined.add(OWNER, Draft(statement="The lighthouse keeper's log is in the red binder", domain="work"))
    said = tried(qtbot, dialog, postgres_url)
    assert "already holds a memvault store (1 records" in said and "requires an empty database" in said
    assert "It holds memvault's tables." in said
    assert not dialog.move_button.isEnabled()
    assert ops.vault.engine_name == "sqlcipher"  # a test touches no home


def test_a_password_is_added_as_libpq_reads_it() -> None:
    assert with_password("postgresql://me@db/memory", "") == "postgresql://me@db/memory"
    assert with_password("postgresql://me@db/memory?sslmode=verify-full", "a&b") == (
        "postgresql://me@db/memory?sslmode=verify-full&password=a%26b"
    )
    assert with_password("host=db dbname=memory", "it's") == "host=db dbname=memory password='it\\'s'"


@pytest.fixture
def app(qtbot: QtBot, qapp: QApplication, home: Path) -> Iterator[App]:
    """The app on a seeded store, serving assistants."""
    vault = Vault.open(home)
    seed(vault)
    running = App(qapp, vault)
    qtbot.addWidget(running.window)
    qtbot.waitUntil(lambda: running.serving, timeout=60000)
    yield running
    running.quit()


def statements(app: App) -> set[str]:
    memories = app.window.page("Memories")
    assert isinstance(memories, MemoriesView)
    return {memories.model.row_at(r)["statement"] for r in range(memories.model.rowCount())}


def moved(qtbot: QtBot, app: App, dialog: MoveStoreDialog) -> str:
    seen: list[tuple[str, int, int]] = []
    dialog.move_requested.connect(lambda move: move.progressed.connect(lambda *a: seen.append(a)))
    dialog.move_button.click()
    assert dialog.moving and not dialog.close_button.isEnabled()
    dialog.close()
    assert dialog.isVisible()  # it stays until the move has ended
    qtbot.waitUntil(lambda: not dialog.moving, timeout=MOVE_TIMEOUT)
    assert {table for table, done, total in seen if done == total} == set(TABLE_NAMES)
    assert all(bar.value() == bar.maximum() > 0 for bar in dialog.tables.bars.values())
    assert dialog.overall.value() == len(TABLE_NAMES)
    return dialog.status.text()


def test_the_app_moves_its_store_to_a_shared_store_and_back(
    qtbot: QtBot, app: App, postgres_url: str, ring: MemoryKeyring
) -> None:
    home = app.ops.vault.paths.home
    qtbot.waitUntil(lambda: len(statements(app)) >= len(RECORDS) - 1, timeout=30000)
    before = statements(app)
    app.window.show_page("Settings")
    settings = app.window.page("Settings")
    assert isinstance(settings, SettingsView)
    qtbot.waitUntil(lambda: settings.store.engine == "sqlcipher", timeout=10000)
    settings.store.move_button.click()
    dialog = settings.store.dialog
    assert dialog is not None
    assert "Moving requires" not in tried(qtbot, dialog, postgres_url, PASSWORD)
    said = moved(qtbot, app, dialog)
    assert "Moved and verified:" in said and "counts and checksums of every table match" in said
    assert "This computer now uses the shared store at" in said and "/backups/migrated-" in said
    assert PASSWORD not in said and not dialog.password.text()
    assert app.ops.vault.engine_name == "postgresql" and app.ops.vault.store_location in said
    assert ring.secrets and PASSWORD in ring.secrets.values()  # the password went to the keyring
    assert all(PASSWORD not in f.read_text("utf-8", "replace") for f in home.rglob("*.url"))
    qtbot.waitUntil(lambda: "Shared with your other computers" in settings.store.message.text(), timeout=10000)
    assert PASSWORD not in settings.store.message.text()
    assert settings.store.move_button.text() == "Move back to this &machine…"
    assert app.serving and app.host is not None and app.host.address.socket.exists()
    qtbot.waitUntil(lambda: statements(app) == before, timeout=30000)  # the list, read from the shared store
    assert not app.window.problem.isVisible(), app.window.problem.text()

    dialog.close()
    settings.store.move_button.click()
    back = settings.store.dialog
    assert back is not None and back is not dialog and back.to_here and not back.fields.isVisible()
    said = moved(qtbot, app, back)
    assert "Moved and verified:" in said and "now uses its own encrypted store file" in said
    assert "was left as it is" in said
    assert app.ops.vault.engine_name == "sqlcipher" and VaultPaths.from_env(home).store.is_file()
    qtbot.waitUntil(lambda: "On this computer only" in settings.store.message.text(), timeout=10000)
    qtbot.waitUntil(lambda: statements(app) == before, timeout=30000)
    assert app.serving
    assert not app.window.problem.isVisible(), app.window.problem.text()


def test_a_move_while_another_process_serves_the_store_is_refused_and_changes_nothing(
    qtbot: QtBot, qapp: QApplication, home: Path, postgres_url: str
) -> None:
    address = relay.DaemonAddress.for_home(home)
    address.ensure_folders()
    other = DaemonLock.acquire(address.lock, address.socket)  # as a `memvault daemon` would hold it
    try:
        app = App(qapp, Vault.open(home))
        qtbot.addWidget(app.window)
        qtbot.waitUntil(lambda: app.starting is not None and not app.starting.is_alive(), timeout=60000)
        assert not app.serving
        settings = app.window.page("Settings")
        assert isinstance(settings, SettingsView)
        qtbot.waitUntil(lambda: settings.store.engine == "sqlcipher", timeout=10000)
        dialog = settings.store.open_move()
        tried(qtbot, dialog, postgres_url)
        dialog.move_button.click()
        qtbot.waitUntil(lambda: not dialog.moving, timeout=MOVE_TIMEOUT)
        said = dialog.status.text()
        assert said.startswith("The store was not moved: another memvault process serves this store"), said
        assert "memvault daemon --stop" in said and dialog.move_button.isEnabled()
        assert app.ops.vault.engine_name == "sqlcipher" and VaultPaths.from_env(home).store.is_file()
        app.quit()
    finally:
        other.release()


def test_a_passphrase_store_asks_for_its_passphrase_and_a_wrong_one_stops_nothing(
    qtbot: QtBot, app: App, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = app.ops.vault
    settings = app.window.page("Settings")
    assert isinstance(settings, SettingsView)
    qtbot.waitUntil(lambda: settings.store.engine == "sqlcipher", timeout=10000)
    dialog = settings.store.open_move()
    tried(qtbot, dialog, postgres_url)
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")  # a passphrase store: the app asks for it in a dialog
    for typed, said in (("not the phrase", "wrong passphrase"), (None, "no passphrase was given")):
        monkeypatch.setattr(app_module, "ask_passphrase", lambda *_, answer=typed: answer)
        dialog.move_button.click()
        qtbot.waitUntil(lambda: not dialog.moving, timeout=MOVE_TIMEOUT)
        assert dialog.status.text().startswith("The store was not moved: ") and said in dialog.status.text()
        assert app.ops.vault is vault and app.serving and vault.engine_name == "sqlcipher"  # nothing stopped
        assert dialog.move_button.isEnabled()


def test_a_test_that_finds_the_copy_an_interrupted_move_left_offers_to_finish_it() -> None:
    found: SharedTarget = {
        "store": "postgresql://memvault@127.0.0.1/memory",
        "verified_tls": False,
        "schema_version": 5,
        "latest_schema": 5,
        "rows": {"memories": 3, "events": 9},
        "copy_of_this_store": True,
    }
    said = found_text(found)
    assert "copy of this computer's store that an earlier move made" in said and "without copying again" in said
    assert "requires an empty database" not in said
