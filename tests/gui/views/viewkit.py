"""Helpers for the memory, timeline and graph view tests: fictional records in a real store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import CorrectRequest
from memvault.desktop.gui.operations import Operations

View = TypeVar("View", bound=QWidget)


def shown(qtbot: QtBot, view: View, size: tuple[int, int], ready: Callable[[View], bool]) -> View:
    """The view on screen at `size`, once `ready(view)` holds (its first answer arrived)."""
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitUntil(lambda: ready(view), timeout=10000)
    return view


@contextmanager
def running(vault: Vault) -> Iterator[Operations]:
    """Operations on the vault, its worker stopped before the vault closes."""
    ops = Operations(vault)
    try:
        yield ops
    finally:
        ops.shutdown()


def add(vault: Vault, statement: str, **fields: object) -> str:
    """Add a record as the person; its id."""
    return str(vault.add(OWNER, Draft.of(statement=statement, **fields))["id"])


def correct(vault: Vault, memory_id: str, statement: str) -> str:
    """Correct a record as the person (as another window would); the new version's id."""
    return str(vault.correct(OWNER, CorrectRequest.of(id=memory_id, statement=statement))["id"])


BUDGET_EVIDENCE = "joinery quote of 2025-01-28, page 2"


def seed(vault: Vault) -> dict[str, str]:
    """A small fictional life: a kitchen project, a bicycle, a canoe trip; ids by key."""

    def keep(key: str, statement: str, **fields: object) -> None:
        ids[key] = add(vault, statement, **fields)

    ids: dict[str, str] = {}
    keep("kitchen", "Kitchen renovation: new cabinets and an induction hob", type="PROJECT", domain="home",
        tags=["project:Kitchen"], entities=["Ada Lindqvist"], valid_from="2025-01-10")  # fmt: skip
    keep("budget", "Kitchen budget is capped at 18,000 euros", type="CONSTRAINT", domain="home",
        tags=["project:Kitchen"], links=[{"type": "part_of_project", "target_id": ids["kitchen"]}],
        valid_from="2025-02-01", access_scope="remote_allowed", evidence=BUDGET_EVIDENCE)  # fmt: skip
    keep("bicycle", "The blue bicycle is kept in the garden shed", type="FACT", domain="home",
        entities=["garden shed"], valid_from="2024-06-01")  # fmt: skip
    keep("canoe", "Prefers a canoe trip on the river over a beach holiday", type="PREFERENCE", domain="travel",
        links=[{"type": "relates_to", "target_id": ids["bicycle"]}], valid_from="2023-05-01")  # fmt: skip
    return ids
