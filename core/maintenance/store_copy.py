"""Copy every logical table of one store into another, whatever their engines, and prove the copy.

Rows cross in batches through each engine's `TransferRows` (ids, row numbers and the change feed's
event ids kept); the target rebuilds its own derived indexes. Then every table is read back from the
target and its row count and order-independent digest (`core/store/transfer_tables.py`) compared with
what was read from the source. The caller holds each store in one transaction: a copy that fails,
or does not match, is rolled back whole.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memvault.core.store.engines import file_engine
from memvault.core.store.seam import Store
from memvault.core.store.transfer_tables import TABLES, Tally
from memvault.core.vocabulary.errors import Conflict, StoreUnavailable

# (table, rows done, rows total): called after each batch, and once for an empty table.
Progress = Callable[[str, int, int], None]
BATCH = 500


def quiet(table: str, done: int, total: int) -> None:
    """Progress nobody watches."""


def held_rows(store: Store) -> dict[str, int]:
    """The tables of `store` that hold rows, and how many."""
    return {spec.name: n for spec in TABLES if (n := store.transfer.count(spec.name))}


def refuse_filled(target: Store, what: str) -> None:
    """Nothing is copied over records: `what` names the target for the refusal."""
    held = held_rows(target)
    if held:
        tables = ", ".join(f"{name} ({n})" for name, n in sorted(held.items())[:4])
        raise Conflict(f"{what} already holds memvault records ({tables}); nothing was changed")


def copy_store(source: Store, target: Store, progress: Progress = quiet) -> dict[str, int]:
    """Every logical table of `source` into the empty `target`, verified; the rows copied, by table."""
    return {name: tally.rows for name, tally in copy_tallied(source, target, progress).items()}


def copy_tallied(source: Store, target: Store, progress: Progress = quiet) -> dict[str, Tally]:
    """`copy_store`, answering with each table's tally (rows and digest) as read from the source."""
    copied: dict[str, Tally] = {}
    for spec in TABLES:
        total = source.transfer.count(spec.name)
        tally = copied[spec.name] = Tally()
        if not total:
            progress(spec.name, 0, 0)
        for rows in source.transfer.batches(spec.name, BATCH):
            target.transfer.put(spec.name, rows)
            tally.add(spec, rows)
            progress(spec.name, tally.rows, max(total, tally.rows))
    target.transfer.finish()
    _verify(target, copied)
    return copied


def copy_into_file(source: Store, target: Path, key: bytes, progress: Progress = quiet) -> dict[str, int]:
    """Every logical table of `source`, read in one snapshot, into a new store file at `target` (absent,
    or empty) encrypted with `key`; verified, and left as one file (no WAL beside it)."""
    copy = file_engine().open(target, key, create=True)
    try:
        copy.migrations.migrate()
        with source.read_snapshot(), copy.transaction():
            rows = copy_store(source, copy, progress)
        copy.maintenance.checkpoint_truncate()
        copy.maintenance.journal_mode("delete")
    finally:
        copy.close()
    return rows


def _verify(target: Store, copied: dict[str, Tally]) -> None:
    for spec in TABLES:
        found = Tally()
        for rows in target.transfer.batches(spec.name, BATCH):
            found.add(spec, rows)
        if found != copied[spec.name]:
            raise StoreUnavailable(
                f"the copy of {spec.name} does not match its source ({found.rows} rows read back, "
                f"{copied[spec.name].rows} copied, or their contents differ); the copy was undone"
            )
