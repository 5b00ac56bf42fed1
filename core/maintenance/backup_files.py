"""A home's backup files, opened for a purge, a check or a restore, whatever engine the home's store is on.

Every backup memvault writes is a SQLCipher file under the home's key (`backup.py`). A home whose store
is a file reaches one by attaching it to the store's connection (`MaintenanceRows.attached`): the purge
statements then name it by its schema. A home on a shared store cannot attach a file to PostgreSQL, so
the file is opened as a store of its own with the file engine, and the same statements run in it, on
"main" (attaching it to a scratch store would not do: SQLCipher attaches with the main file's salt,
and a backup written by `store_copy` has its own). `opened` gives either as a pair (the store the
statements run on, the backup's schema there), so the purge, doctor and the stray-backup check have
one code path for both.

Which backups are this home's: the ones its list names (`BackupRows`, by `home_id`). On a shared store
that list is kept per home, so a machine never takes another machine's files for missing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.store.engines import file_engine
from memvault.core.store.seam import Store
from memvault.core.vocabulary.errors import WrongPassphrase

log = logging.getLogger("memvault.maintenance")

PLAINTEXT_HEADER = b"SQLite format 3\x00"  # what an unencrypted SQLite file starts with


def home_id(paths: VaultPaths) -> str:
    """Which home wrote a backup: the store_id of the home's key file (its backups' `-keys` carry it)."""
    return str(keys.read_key_info(paths.key_file)["store_id"])


def failures(home: Store) -> tuple[type[BaseException], ...]:
    """The errors opening or rewriting a backup may raise: the home store's engine's and the file engine's."""
    return (*home.engine.errors, *file_engine().errors)


def is_busy(home: Store, exc: BaseException) -> bool:
    """Whether an error means "another process holds it" (try later), not "damaged"."""
    return home.engine.is_busy(exc) or file_engine().is_busy(exc)


def is_encrypted(path: Path) -> bool:
    """A written backup never starts as a plaintext SQLite file does (an empty file is not a backup)."""
    with path.open("rb") as handle:
        head = handle.read(len(PLAINTEXT_HEADER))
    return len(head) == len(PLAINTEXT_HEADER) and head != PLAINTEXT_HEADER


@contextmanager
def opened(home: Store, key: bytes, path: Path, *, write: bool = False) -> Iterator[tuple[Store, str] | None]:
    """The backup at `path` for the block: (the store its statements run on, its schema there), or None
    when it does not open with the key (damaged, or not ours). A file another process holds locked
    raises the engine's busy error. Opened on its own, it is read only (its bytes, and so its recorded
    sha256, stay as they are) unless `write` (a purge rewriting it: the caller records its new digest)."""
    if home.engine.name == file_engine().name:  # the home's store is a file too: attach the backup beside it
        with home.maintenance.attached(path) as schema:
            if schema is not None:
                yield home, schema
                return
        # Not attachable under the store's key. SQLCipher reuses the store's key *and salt* for an
        # attached file: an export made from this store shares them, but a backup written while the
        # home was on a shared store (or by another store file) has a salt of its own. It may still
        # open with the key on its own: only then is it not ours.
    with _on_its_own(key, path, write=write) as copy:
        yield (copy, "main") if copy is not None else None


@contextmanager
def _on_its_own(key: bytes, path: Path, *, write: bool) -> Iterator[Store | None]:
    """The backup opened as a store of its own (None: it does not open with the key). Read only unless
    `write`, or unless it cannot be read so (then as before: opened for writing, which switches it to
    WAL); opened for writing, it is left as one file again afterwards (no WAL beside it)."""
    engine = file_engine()
    copy: Store | None = None
    if not write:
        try:
            copy = engine.open(path, key, read_only=True)
        except WrongPassphrase:
            yield None
            return
        except engine.errors as exc:
            if engine.is_busy(exc):
                raise
            log.info("a backup could not be opened read-only (%s): opened for writing", type(exc).__name__)
    if copy is not None:
        try:
            yield copy
        finally:
            copy.close()
        return
    try:
        copy = engine.open(path, key)
    except WrongPassphrase:
        copy = None
    except engine.errors as exc:
        if engine.is_busy(exc):
            raise
        copy = None
    if copy is None:
        yield None
        return
    try:
        yield copy
        _as_one_file(copy)
    finally:
        copy.close()


def _as_one_file(copy: Store) -> None:
    """Leave a backup opened on its own in the journal mode it was written in. Not a verdict on the file
    when it fails (the last connection's close checkpoints it anyway): never a reason to delete it."""
    engine = file_engine()
    try:
        copy.maintenance.checkpoint_truncate()
        copy.maintenance.journal_mode("delete")
    except engine.errors as exc:
        log.info("a backup stays in WAL mode until its next use (%s)", type(exc).__name__)
