"""Domains: the discovered regions with their sizes and keywords; rename, merge, split, pin.

Each action names its inputs in the fields above the buttons; the store refuses what it must
(a pinned domain is not merged away, a taken name is refused) and the refusal is shown as said.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memvault.core.operations.changes import MEMORY_KINDS, ChangeKind
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.results import DiscoveryReport, DomainSummary
from memvault.desktop.gui.item_tables import ItemTable
from memvault.desktop.gui.operations import Changes, Operations
from memvault.desktop.gui.progress import run_long

COLUMNS = ("Domain", "Records", "Keywords", "Pinned", "Description")
EMPTY = "No domains yet: memvault discovers them as memories arrive (or name one when you add a record)."


def _cells(domain: DomainSummary) -> tuple[str, str, str, str, str]:
    keywords = ", ".join(domain["keywords"][:8]) or "—"
    return (
        domain["name"],
        str(domain["records"]),
        keywords,
        "yes" if domain["pinned"] else "",
        domain["description"] or "",
    )


class DomainsView(QWidget):
    def __init__(self, ops: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.domains: list[DomainSummary] = []
        self.table = ItemTable(COLUMNS, "Domains", right_aligned=(1,))
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("a new or target domain name, e.g. garden")
        self.name_edit.setAccessibleName("Domain name")
        self.keyword_edit = QLineEdit()
        self.keyword_edit.setPlaceholderText("records whose text holds this word move (split)")
        self.keyword_edit.setAccessibleName("Split keyword")
        self.message = QLabel(EMPTY)
        self.message.setWordWrap(True)
        self._layout()
        ops.changed.connect(self._on_changed)
        self.reload()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow("&Name:", self.name_edit)
        form.addRow("&Keyword:", self.keyword_edit)
        buttons = QHBoxLayout()
        for label, slot, tip in (
            ("Re&name", self.rename, "Give the selected domain the name above"),
            ("&Merge", self.merge, "Move every record of the selected domains into the domain named above"),
            ("&Split", self.split, "Move the selected domain's records holding the keyword into a new domain"),
            ("&Pin / unpin", self.toggle_pin, "A pinned domain keeps its records: upkeep never moves them"),
            ("&Discover", self.discover, "Look for new regions among the records (a dry run: nothing moves)"),
        ):
            button = QPushButton(label)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        column = QVBoxLayout(self)
        column.addWidget(self.table, 1)
        column.addLayout(form)
        column.addLayout(buttons)
        column.addWidget(self.message)

    def _on_changed(self, changes: Changes) -> None:
        if changes.touches(*MEMORY_KINDS, ChangeKind.DOMAIN_CHANGED):
            self.reload()

    def reload(self) -> None:
        self.ops.run(lambda v: v.list_domains(self.ops.caller)["items"], self._populate, self._refused)

    def _populate(self, domains: list[DomainSummary]) -> None:
        self.domains = domains
        self.table.refill([_cells(domain) for domain in domains])
        if not domains:
            self.message.setText(EMPTY)
        elif self.message.text() == EMPTY:
            self.message.clear()

    def selected_names(self) -> list[str]:
        return [self.domains[row]["name"] for row in self.table.selected_rows() if row < len(self.domains)]

    def _change(self, work: Any, said: str) -> None:
        caller = self.ops.caller
        self.ops.run(
            lambda v: work(v, caller),
            lambda _: self.message.setText(said),
            self._refused,
            writes=True,
        )

    def _one_selected(self) -> str | None:
        names = self.selected_names()
        if len(names) != 1:
            self.message.setText("Select one domain first.")
            return None
        return names[0]

    def rename(self) -> None:
        name, new = self._one_selected(), self.name_edit.text().strip()
        if name:
            self._change(lambda v, c: v.rename_domain(c, name, new), f"Renamed {name} to {new}.")

    def merge(self) -> None:
        names, into = self.selected_names(), self.name_edit.text().strip()
        if not names:
            self.message.setText("Select the domains to merge first.")
            return
        self._change(lambda v, c: v.merge_domains(c, names, into), f"Merged {', '.join(names)} into {into}.")

    def split(self) -> None:
        name, new, word = self._one_selected(), self.name_edit.text().strip(), self.keyword_edit.text().strip()
        if name:
            self._change(lambda v, c: v.split_domain(c, name, new, keyword=word), f"Split {new} out of {name}.")

    def toggle_pin(self) -> None:
        name = self._one_selected()
        if name:
            pinned = not next(d["pinned"] for d in self.domains if d["name"] == name)
            said = f"{'Pinned' if pinned else 'Unpinned'} {name}."
            self._change(lambda v, c: v.pin_domain(c, name, pinned), said)

    def discover(self) -> None:
        caller = self.ops.caller

        def found(result: DiscoveryReport) -> None:
            said = f"Discovery found {len(result['regions'])} possible region(s); nothing was moved."
            self.message.setText(f"{said} {result.get('reason') or ''}".strip())

        run_long(self.ops, self, "Looking for regions…", lambda v: _discover(v, caller), found, cancellable=True)

    def _refused(self, error: MemvaultError) -> None:
        self.message.setText(error.message)


def _discover(vault: Vault, caller: Any) -> DiscoveryReport:
    return vault.discover_domains(caller, dry_run=True)
