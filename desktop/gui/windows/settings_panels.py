"""The settings page's panels that are actions rather than values: where the store lives (and moving it),
tokens, clients, backups, doctor, and the system (autostart, launcher, reindex)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from memvault.core.maintenance import doctor
from memvault.core.operations.changes import MEMORY_KINDS, ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.results import (
    BackupAnswer,
    BackupRow,
    PrincipalRow,
    ReindexReport,
    RestoreReport,
    TokenCreated,
)
from memvault.desktop import autostart, clients
from memvault.desktop.gui.item_tables import ItemTable
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.progress import run_long

if TYPE_CHECKING:
    from memvault.desktop.gui.windows.move_store import MoveStoreDialog


def _table(columns: tuple[str, ...], name: str) -> ItemTable:
    table = ItemTable(columns, name)
    table.setMinimumHeight(table.fontMetrics().height() * 6)
    table.setMaximumHeight(table.fontMetrics().height() * 12)
    return table


def _button(label: str, slot: Any, tip: str = "") -> QPushButton:
    button = QPushButton(label)
    button.setToolTip(tip)
    button.clicked.connect(slot)
    return button


class _Panel(QGroupBox):
    def __init__(self, ops: Operations, title: str) -> None:
        super().__init__(title)
        self.ops = ops
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.column = QVBoxLayout(self)

    def refused(self, error: MemvaultError) -> None:
        self.message.setText(error.message)


class StorePanel(_Panel):
    """Where the store lives: this computer's encrypted file, or a shared PostgreSQL store; and the way to
    move it to the other (windows/move_store.py; the app carries the move out)."""

    move_requested = Signal(object)  # a StoreMove the dialog asks for

    def __init__(self, ops: Operations) -> None:
        super().__init__(ops, "The store")
        self.engine = ""
        self.dialog: MoveStoreDialog | None = None
        self.move_button = _button("", self.open_move)
        self.move_button.hide()  # until the engine is known
        row = QHBoxLayout()
        row.addWidget(self.move_button)
        row.addStretch(1)
        self.column.addWidget(self.message)
        self.column.addLayout(row)
        ops.changed.connect(self._on_changed)
        self.reload()

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything:  # e.g. the store moved or was restored
            self.reload()

    def reload(self) -> None:
        self.ops.run(lambda v: (v.engine_name, v.store_location), self._show, self.refused)

    def _show(self, where: tuple[str, str]) -> None:
        self.engine, location = where
        if self.engine == "postgresql":
            self.message.setText(
                f"Shared with your other computers: a PostgreSQL store at {location}. "
                "Its operator can read what it holds (docs/postgresql.md)."
            )
            self.move_button.setText("Move back to this &machine…")
            self.move_button.setToolTip("Copy the shared store into an encrypted file on this computer")
        else:
            self.message.setText(f"On this computer only: an encrypted SQLCipher file, {location}.")
            self.move_button.setText("Use a &shared store…")
            self.move_button.setToolTip("Move your memory into a PostgreSQL database your other computers can use")
        self.move_button.show()

    def open_move(self) -> MoveStoreDialog:
        """The move's dialog, for where the store is now (a finished one is replaced)."""
        from memvault.desktop.gui.windows.move_store import MoveStoreDialog  # noqa: PLC0415 - when asked

        shared = self.engine == "postgresql"
        if self.dialog is None or (not self.dialog.moving and self.dialog.to_here != shared):
            if self.dialog is not None:
                self.dialog.deleteLater()
            self.dialog = MoveStoreDialog(self.ops, shared=shared, parent=self.window())
            self.dialog.move_requested.connect(self.move_requested)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog


class TokensPanel(_Panel):
    """Principals and their bearer tokens for loopback HTTP: create (the token is shown once), revoke."""

    def __init__(self, ops: Operations) -> None:
        super().__init__(ops, "Loopback HTTP and tokens")
        intro = QLabel(
            "Remote assistants reach memvault over loopback HTTP (`memvault serve --http 127.0.0.1:8765`) "
            "with a bearer token. memvault keeps only a hash: a new token is shown once."
        )
        intro.setWordWrap(True)
        self.table = _table(("Name", "Reach", "Workspace", "Live tokens", "Revoked"), "Token holders")
        self.name = QLineEdit()
        self.name.setPlaceholderText("a name for who holds the token, e.g. laptop-chat")
        self.name.setAccessibleName("Token holder name")
        self.surface = QComboBox()
        self.surface.addItems(["remote", "workspace"])
        self.surface.setAccessibleName("Reach")
        self.workspace = QLineEdit()
        self.workspace.setPlaceholderText("workspace (for workspace tokens)")
        self.workspace.setAccessibleName("Workspace")
        self.token = QLineEdit()
        self.token.setReadOnly(True)
        self.token.setAccessibleName("New token")
        self.token.setPlaceholderText("a new token appears here once")
        row = QHBoxLayout()
        for widget in (self.name, self.surface, self.workspace):
            row.addWidget(widget)
        row.addWidget(_button("&Create token", self.create_token))
        row.addWidget(_button("Re&voke selected", self.revoke))
        shown = QHBoxLayout()
        shown.addWidget(self.token, 1)
        shown.addWidget(_button("Copy", lambda: QGuiApplication.clipboard().setText(self.token.text())))
        for item in (intro, self.table):
            self.column.addWidget(item)
        self.column.addLayout(row)
        self.column.addLayout(shown)
        self.column.addWidget(self.message)
        self.holders: list[PrincipalRow] = []
        self.reload()

    def reload(self) -> None:
        self.ops.run(lambda v: v.list_principals(self.ops.caller), self._show, self.refused)

    def _show(self, holders: list[PrincipalRow]) -> None:
        self.holders = holders
        rows = [
            (h["name"], h["surface"], h["workspace_id"] or "", str(h["live_tokens"]), h["revoked_at"] or "")
            for h in holders
        ]
        self.table.refill(rows)
        if not rows:
            self.message.setText("No tokens yet: nothing can reach memvault over HTTP.")

    def create_token(self) -> None:
        name, surface = self.name.text().strip(), self.surface.currentText()
        workspace = self.workspace.text().strip() or None
        self.ops.run(
            lambda v: v.create_token(self.ops.caller, name, surface, workspace),
            self._created,
            self.refused,
            writes=True,
        )

    def _created(self, made: TokenCreated) -> None:
        self.token.setText(made["token"])
        self.message.setText(f"Token for {made['principal']}: copy it now; memvault will not show it again.")
        self.reload()

    def revoke(self) -> None:
        rows = set(self.table.selected_rows())
        names = [self.holders[r]["name"] for r in sorted(rows)]
        if not names:
            self.message.setText("Select who to revoke first.")
            return
        self.ops.run(
            lambda v: [v.revoke_principal(self.ops.caller, n) for n in names],
            lambda _: self._revoked(names),
            self.refused,
            writes=True,
        )

    def _revoked(self, names: list[str]) -> None:
        self.message.setText(f"Revoked {', '.join(names)}.")
        self.reload()


class ClientsPanel(_Panel):
    """Register memvault with Codex and Claude (the same code as `memvault install`)."""

    def __init__(self, ops: Operations) -> None:
        super().__init__(ops, "Assistants connected")
        self.state = QLabel()
        self.state.setWordWrap(True)
        row = QHBoxLayout()
        for client in clients.CLIENTS:
            row.addWidget(_button(f"Connect {client.capitalize()}", lambda _=False, c=client: self.connect_client(c)))
        row.addStretch(1)
        self.column.addWidget(self.state)
        self.column.addLayout(row)
        self.column.addWidget(self.message)
        self.reload()

    def reload(self) -> None:
        self.ops.run(lambda _v: clients.registered_clients(), self._show, self.refused)

    def _show(self, registered: list[str]) -> None:
        self.state.setText(
            f"Connected: {', '.join(registered)}." if registered else "No assistant is connected to memvault yet."
        )

    def connect_client(self, client: str) -> None:
        def done(result: clients.InstallResult) -> None:
            changed = ", ".join(str(c.path) for c in result.changes) or "nothing to change"
            self.message.setText("\n".join([f"{client}: {changed}", *result.notes]))
            self.reload()

        self.ops.run(lambda v: clients.install(client, home=v.paths.home), done, self.refused)


NO_BACKUPS = "No backups yet. memvault takes one a day while it runs; or back up now."


class BackupsPanel(_Panel):
    """Backups: take one now, see them, restore one from a file (verified before it replaces anything)."""

    restore_requested = Signal(str)

    def __init__(self, ops: Operations) -> None:
        super().__init__(ops, "Backups")
        self.table = _table(("Taken", "Kind", "Size", "File"), "Backups")
        row = QHBoxLayout()
        row.addWidget(_button("&Back up now", self.backup_now))
        row.addWidget(_button("Restore from a &file…", self.choose_restore, "Verified first; the store is kept"))
        row.addStretch(1)
        self.column.addWidget(self.table)
        self.column.addLayout(row)
        self.column.addWidget(self.message)
        ops.changed.connect(lambda changes: self.reload() if changes.touches(ChangeKind.BACKUP_CHANGED) else None)
        self.reload()

    def reload(self) -> None:
        self.ops.run(lambda v: v.list_backups(self.ops.caller), self._show, self.refused)

    def _show(self, backups: list[BackupRow]) -> None:
        rows = [
            (b["created_at"][:16].replace("T", " "), b["kind"], f"{b['bytes'] / 1e6:.1f} MB", b["path"])
            for b in reversed(backups)
            if b.get("exists", True)
        ]
        self.table.refill(rows)
        if not rows and not self.message.text():  # an empty state, never over what an action just said
            self.message.setText(NO_BACKUPS)

    def backup_now(self) -> None:
        def done(made: BackupAnswer) -> None:
            self.message.setText(f"Backed up to {made['path']} ({made['bytes'] / 1e6:.1f} MB, encrypted).")

        run_long(
            self.ops,
            self,
            "Backing up the store…",
            lambda v: v.backup(self.ops.caller),
            done,
            self.refused,
            writes=True,
        )

    def choose_restore(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Restore memvault from a backup", filter="Backups (*.db);;All (*)")
        if path:
            self.restore_requested.emit(path)

    def restored(self, result: RestoreReport) -> None:
        """Show the verification of a restore the app carried out."""
        lines = [f"{key.replace('_', ' ')}: {value}" for key, value in result.items() if not isinstance(value, dict)]
        self.message.setText("Restored and verified.\n" + "\n".join(lines))


class DoctorPanel(_Panel):
    """The doctor's findings, each with its fix; "Apply fixes" runs the safe ones."""

    def __init__(self, ops: Operations) -> None:
        super().__init__(ops, "Health check (doctor)")
        self.table = _table(("Check", "State", "Finding", "Fix"), "Doctor's findings")
        row = QHBoxLayout()
        row.addWidget(_button("Run &checks", lambda: self.run_checks(fix=False)))
        row.addWidget(_button("Apply safe &fixes", lambda: self.run_checks(fix=True)))
        row.addStretch(1)
        self.column.addWidget(self.table)
        self.column.addLayout(row)
        self.column.addWidget(self.message)
        self.run_checks(fix=False)

    def run_checks(self, *, fix: bool) -> None:
        self.ops.run(lambda v: doctor.run(v.paths.home, fix=fix, clock=v.clock), self._show, self.refused)

    def _show(self, report: doctor.DoctorReport) -> None:
        rows = [(c["name"], "ok" if c["ok"] else "PROBLEM", c["detail"], c["fix"] or "") for c in report["checks"]]
        self.table.refill(rows)
        self.message.setText("All checks pass." if report["ok"] else "Some checks need attention: see Fix.")


class SystemPanel(_Panel):
    """Autostart at login, the applications-menu entry, and rebuilding the search index."""

    def __init__(self, ops: Operations) -> None:
        super().__init__(ops, "This computer")
        self.autostart = QCheckBox("Start memvault (the tray) when I log in")
        self.autostart.setChecked(autostart.is_enabled())
        self.autostart.toggled.connect(self.set_autostart)
        row = QHBoxLayout()
        row.addWidget(_button("Add to the applications &menu", self.add_launcher))
        row.addWidget(_button("Re&index search", self.reindex, "Rebuild the embeddings of every record"))
        row.addStretch(1)
        self.column.addWidget(self.autostart)
        self.column.addLayout(row)
        self.column.addWidget(self.message)

    def set_autostart(self, enabled: bool) -> None:
        def work(_v: Vault) -> str:
            if enabled:
                return f"memvault starts at login ({autostart.enable()})."
            autostart.disable()
            return "memvault no longer starts at login."

        self.ops.run(work, self.message.setText, self.refused)

    def add_launcher(self) -> None:
        self.ops.run(lambda _v: f"Added {autostart.install_launcher()}.", self.message.setText, self.refused)

    def reindex(self) -> None:
        def done(result: ReindexReport) -> None:
            self.message.setText("Search index rebuilt: " + ", ".join(f"{k} {v}" for k, v in result.items()))

        run_long(
            self.ops,
            self,
            "Rebuilding the search index…",
            lambda v: v.reindex(self.ops.caller),
            done,
            self.refused,
            writes=True,
            changes=Changes.of(MEMORY_KINDS),  # vectors: no kind names them; refresh what shows records
        )
