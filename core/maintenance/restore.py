"""Restore the store from a backup: verify first, keep the current store, then swap atomically.

1. The candidate is copied beside the store (a private file) and that copy is
   verified: it opens with this store's key, passes PRAGMA integrity_check,
   has memvault's tables and a schema this memvault understands. A random
   file, a plaintext SQLite file, a store under another key or a newer schema
   is refused and nothing else is touched.
2. The current store is kept as a `pre-restore` backup (an encrypted export;
   if it cannot be opened, its bytes are moved into backups/ as they are).
3. The current store's WAL is checkpointed and the store switched out of WAL
   mode under an exclusive lock (refused while another process holds it), then
   the verified copy is renamed over it (fsync, rename, fsync the folder);
   stale -wal/-shm files are moved aside first, never replayed into the new file.
   Before that, while it is still a private copy, the verified copy is
   migrated to this memvault's schema, learns the backups the old store knew
   of, and every record the old store's tombstones name is purged again; a
   tombstone written meanwhile is applied under the exclusive lock, before
   the rename. The restored store is never live with a purged record in it.
A kill at any point leaves either the old store or the fully settled restored one in place.
Into an empty home (no store, no key file: a new machine) the key comes from the
backup's `-keys` sidecar, unwrapped with the recovery key or the passphrase
(`core/security/key_backup.py`); the home gets its own key file once the backup verified.

A backup of another store (it does not open with this home's key, and its `-keys` lies
beside it) replaces the store here only when that store holds no records — the empty one
`memvault init` or the first-run wizard made on a new machine — or when the person says
`replace`. The replaced store is kept first, whole and under its own key, in
`backups/replaced-<stamp>/` (with its key file and the backups it had made), and the home's key
file is rewritten for the restored store: this machine's keyring, or this machine's passphrase.
Every secret is settled, and every refusal made, before anything on disk changes; a refusal
leaves no folder or file behind.

A home on a shared (PostgreSQL) store has no file to swap: the verified backup's rows replace the
store's in one transaction under the store-wide write lock (`_into_shared`), after the store as it is
went into a `pre-restore` backup inside that same transaction; every machine sees the result at the
commit, and nothing at all when it fails. As for a store file, another store's backup replaces a shared
store that holds records only with `replace`; the store's security state (the stronger store-wide kill
switch, every revocation) is kept, as its tombstones are.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypedDict

from memvault.core.maintenance import backup_files, purge_reach
from memvault.core.maintenance.backup import STAMP_FORMAT, write_file
from memvault.core.maintenance.files import (
    copy_private,
    create_private,
    fsync_dir,
    fsync_file,
    remove_with_sides,
    sha256_of,
    side_files,
    unused_name,
)
from memvault.core.maintenance.store_copy import copy_store
from memvault.core.runtime import change_signal
from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import key_backup, keys
from memvault.core.security.kill_switch import stronger
from memvault.core.store.engines import file_engine, is_shared, open_store
from memvault.core.store.seam import Engine, Store
from memvault.core.vocabulary.clock import Clock, format_time
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, StoreTooNew, StoreUnavailable, WrongPassphrase
from memvault.core.vocabulary.model import OWNER, KillSwitch
from memvault.core.vocabulary.results import RestoreReport

log = logging.getLogger("memvault.maintenance")
STAGED_PREFIX = "memvault.db.restore-"
REPLACED_PREFIX = "replaced-"
# What makes a store more than the empty one `memvault init` made (settings, principals, tokens and
# backups are set-up, not records); in the words a person reads.
RECORD_TABLES = {
    "memories": ("record", "records"),
    "proposals": ("proposal", "proposals"),
    "tombstones": ("tombstone of a purged record", "tombstones of purged records"),
    "conversations": ("imported conversation", "imported conversations"),
    "import_batches": ("import batch", "import batches"),
    "domains": ("domain", "domains"),
}


class ReplacedStore(TypedDict):
    """The other store a backup replaced, and where it is kept."""

    held: dict[str, int] | None  # what it held, by RECORD_TABLES key ({}: nothing; None: it did not open)
    kept_in: str  # the folder with it, its key file and the backups it had made
    key_backend: str  # how this home keeps the restored store's key now: "keyring" or "passphrase"


class RestoreOutcome(RestoreReport):
    replaced_other_store: ReplacedStore | None  # None: the backup was of this very store (or the home was empty)


class _OtherKey(InvalidArgument):
    """The file does not open with the key tried (another store's backup, or not a store at all)."""


def verify(engine: Engine, path: Path, key: bytes) -> dict[str, Any]:
    """Check a file is a sound memvault store under `key` that this memvault can open.

    Opens the file for writing (journal mode changes): call it on a private copy.
    """
    try:
        conn = engine.open(path, key)
    except WrongPassphrase:
        raise _OtherKey("not a memvault backup of this store: it does not open with this store's key") from None
    try:
        problems = conn.maintenance.integrity()
        if problems:
            raise InvalidArgument(f"the backup is damaged (integrity check: {problems[0][:120]})")
        if not conn.maintenance.is_store():
            raise InvalidArgument("the file opens with this key but is not a memvault store")
        version = conn.maintenance.schema_version() or 0
        if version > engine.latest_schema:
            raise StoreTooNew(
                f"the backup has schema {version}, newer than this memvault understands ({engine.latest_schema})"
            )
        records = conn.tombstones.record_count()
        conn.maintenance.journal_mode("delete")
    except engine.errors as exc:
        raise InvalidArgument(f"the backup is damaged ({exc})") from None
    finally:
        conn.close()
    return {"schema_version": version, "records": records}


def _stage(paths: VaultPaths, source: Path) -> Path:
    staged = paths.home / f"{STAGED_PREFIX}{secrets.token_hex(4)}.tmp"
    copy_private(source, staged)
    return staged


def hold_alone(paths: VaultPaths, key: bytes, doing: str = "restore") -> Store | None:
    """Open the current store file alone: WAL checkpointed and switched off; None if it cannot be opened.
    Refused (`doing` again later) while another process has it open."""
    if not paths.store.exists():
        return None
    engine = file_engine()
    try:
        holder = engine.open(paths.store, key)
    except WrongPassphrase:
        return None
    except engine.errors:
        return None
    try:
        holder.maintenance.checkpoint_truncate()
        alone = holder.maintenance.journal_mode("delete") == "delete"  # else: still in WAL mode, held
    except engine.errors as exc:
        if not engine.is_busy(exc):
            holder.close()
            return None  # damaged: it will be kept aside as it is
        alone = False
    if not alone:
        holder.close()
        raise StoreUnavailable(
            f"another memvault process has the store open (the app or the daemon): close it and {doing} again"
        )
    return holder


def take_alone(holder: Store, doing: str = "restore") -> None:
    """The exclusive lock on a store `hold_alone` opened: no other process reads or writes it until the
    holder's transaction ends. Refused (`doing` again later) when another process opened it meanwhile."""
    try:
        holder.begin_exclusive()
    except holder.engine.errors as exc:
        if not holder.engine.is_busy(exc):
            raise
        raise StoreUnavailable(
            f"another memvault process opened the store meanwhile: close it and {doing} again"
        ) from None


def _keep_current(
    paths: VaultPaths, holder: Store | None, now: str, stamp: str, folder: Path | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any], Store | None]:
    """Back up the current store (into `folder`, backups/ by default) before it is replaced.

    Returns that backup, what the store knew (backups, tombstones), and the holder to swap
    with (None when the store turned out damaged and was moved aside as it is).
    """
    paths.ensure()
    folder = folder or paths.backups
    target = unused_name(folder, f"memvault-{stamp}-pre-restore", ".db")
    nothing: dict[str, Any] = {"backups": [], "tombstones": []}
    if holder is None:
        return (_move_damaged(paths, target, now) if paths.store.exists() else None), nothing, None
    create_private(target)
    try:
        known = {
            "backups": holder.backups.known(paths.home, backup_files.home_id(paths), include_removed=True),
            "tombstones": holder.maintenance.tombstone_ids(),
        }
        holder.maintenance.export_into(target)
        fsync_file(target)
        key_backup.write_beside(target, paths.key_file)
    except holder.engine.errors as exc:
        remove_with_sides(target)
        if holder.engine.is_busy(exc):
            raise
        holder.close()  # it opens, but is damaged further in: keep its pages as they are instead
        return _move_damaged(paths, target, now), nothing, None
    except BaseException:
        remove_with_sides(target)
        raise
    return _row(target, "pre-restore", now), known, holder


def _move_damaged(paths: VaultPaths, target: Path, now: str) -> dict[str, Any]:
    """A store that cannot be opened is kept as it is (it is encrypted), with its WAL beside it."""
    damaged = target.with_name(target.stem + "-unopened.db")
    for side in side_files(paths.store):
        os.replace(side, Path(f"{damaged}{side.name[len(paths.store.name) :]}"))
    os.replace(paths.store, damaged)
    return _row(damaged, "pre-restore", now)


def _row(path: Path, kind: str, now: str) -> dict[str, Any]:
    return {
        "path": str(path),
        "created_at": now,
        "bytes": path.stat().st_size,
        "sha256": sha256_of(path),
        "kind": kind,
        "removed_at": None,
    }


def _swap(
    paths: VaultPaths,
    holder: Store | None,
    staged: Path,
    key: bytes,
    known: dict[str, Any],
    new_key_file: dict[str, Any] | None = None,
) -> None:
    """Rename the settled copy over the store while no other process can use the old one.

    `new_key_file` (another store's backup replaces this one) is written just before the rename,
    under the lock; if the rename fails the old key file is put back. A kill between the two leaves
    the new key file with the old store: the same restore, run again, finishes (the old store, which
    no longer opens with the home's key, is then moved into backups/ as it is; its export is already
    in replaced-…/).
    """
    if holder is not None:
        take_alone(holder)
        late = [] if new_key_file else sorted(set(holder.maintenance.tombstone_ids()) - set(known["tombstones"]))
        if late:  # a purge finished after the old store was read: it reaches the copy too
            with _opened(file_engine(), staged, key) as conn:
                _purge_again(conn, late, late[-1][1])
    undo = _rewrite_key_file(paths, new_key_file, key) if new_key_file else None
    try:
        for stale in side_files(paths.store):  # never let an old WAL be replayed into the new file
            os.replace(stale, stale.with_name(stale.name + ".stale"))
        os.replace(staged, paths.store)
    except BaseException:
        if undo is not None:
            undo()
        raise
    fsync_dir(paths.home)
    for stale in paths.home.glob(f"{paths.store.name}-*.stale"):
        stale.unlink(missing_ok=True)


@contextlib.contextmanager
def _opened(engine: Engine, staged: Path, key: bytes) -> Iterator[Store]:
    """The private copy, left as one file (no WAL beside it) for the rename."""
    conn = engine.open(staged, key)
    try:
        yield conn
        conn.maintenance.checkpoint_truncate()
        conn.maintenance.journal_mode("delete")
    finally:
        conn.close()


def _purge_again(conn: Store, tombstones: list[tuple[str, str, str]], now: str) -> list[str]:
    with conn.transaction():
        conn.maintenance.add_tombstones(tombstones)
        repurged = purge_reach.apply_tombstones(conn, now)
    if repurged:
        conn.maintenance.optimize_text_indexes()
        conn.maintenance.vacuum()
    return repurged


def _settle(
    paths: VaultPaths, staged: Path, key: bytes, known: dict[str, Any], done: dict[str, Any]
) -> tuple[list[str], int]:
    """Make the private copy what the restored store must be before it goes live."""
    pre = done["pre"]
    with _opened(file_engine(), staged, key) as conn:
        conn.migrations.migrate()
        with conn.transaction():
            conn.backups.merge(paths.home, backup_files.home_id(paths), [*known["backups"], *([pre] if pre else [])])
        repurged = _purge_again(conn, known["tombstones"], done["now"])
        with conn.transaction():
            conn.events.record(
                OWNER,
                "restored_from_backup",
                done["now"],
                None,
                repurged=len(repurged),
                kept_as=done.get("kept_as") or (pre["path"] if pre else None),
                source_name=done["source"].name,
            )
        return repurged, conn.changes.cursor()


def clean_stale(paths: VaultPaths) -> list[str]:
    """Staged copies a killed restore left behind (they are encrypted; still, no clutter)."""
    removed = []
    for staged in paths.home.glob(f"{STAGED_PREFIX}*.tmp"):
        removed += remove_with_sides(staged)
    return removed


def _rewrite_key_file(paths: VaultPaths, content: dict[str, Any], key: bytes) -> Callable[[], None]:
    """Write the home's key file for the restored store; returns how to put the old one back."""
    old = paths.key_file.read_bytes() if paths.key_file.exists() else None
    added = key_backup.put(paths.key_file, content, key)

    def undo() -> None:
        if old is None:
            paths.key_file.unlink(missing_ok=True)
        else:
            tmp = paths.key_file.with_suffix(".restore-undo")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(old)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, paths.key_file)
        if added:
            key_backup.forget_keyring_entry(str(content["store_id"]))

    return undo


def _empty_home_secrets(
    chosen: Path, secret: str | None, new_passphrase: str | None
) -> tuple[dict[str, Any], bytes, bool, str | None]:
    """Into an empty home: the backup's key (and whether its recovery key opened it), and the new
    passphrase for this machine when one is needed — all before anything is made."""
    carried = key_backup.read_beside(chosen)
    key, by_recovery_key = key_backup.unlock_backup(chosen, carried, given=secret)
    if key_backup.needs_new_passphrase(carried, by_recovery_key=by_recovery_key):
        new_passphrase = key_backup.new_passphrase_for_this_machine(new_passphrase)
    return carried, key, by_recovery_key, new_passphrase


def _this_home_key(paths: VaultPaths, secret: str | None) -> tuple[dict[str, Any], bytes, str | None]:
    """This home's key file, its key, and this machine's passphrase when the key is wrapped under one."""
    info = keys.read_key_info(paths.key_file)
    if info["backend"] == "keyring":
        return info, keys.load_key(paths.key_file), None
    phrase = key_backup.this_machines_passphrase(paths.home, secret)
    return info, keys.unwrap_passphrase(info, phrase), phrase


def _missing_folders(home: Path, paths: VaultPaths) -> list[Path]:
    """The folders `paths.ensure()` would create now, outermost first (a refusal removes them again)."""
    missing: list[Path] = []
    folder = home
    while not folder.exists() and folder != folder.parent:
        missing.insert(0, folder)
        folder = folder.parent
    missing += [f for f in (paths.exports, paths.backups, paths.logs, paths.imports) if not f.exists()]
    return missing


def _remove_empty(folders: list[Path]) -> None:
    for folder in reversed(folders):
        with contextlib.suppress(OSError):  # not empty: something else is in it now; leave it
            folder.rmdir()


def _held(paths: VaultPaths, key: bytes) -> dict[str, int] | None:
    """What the current store holds beyond what `memvault init` makes ({}: nothing; None: it does not open)."""
    if not paths.store.exists():
        return {}
    engine = file_engine()
    try:
        conn = engine.open(paths.store, key)
    except WrongPassphrase:
        return None
    except engine.errors:
        return None
    try:
        names = conn.maintenance.table_names()
        counts = {"memories": conn.tombstones.record_count()}
        counts.update({t: len(conn.maintenance.table_rows(t)) for t in RECORD_TABLES if t != "memories" and t in names})
    except engine.errors:
        return None
    finally:
        conn.close()
    return {table: n for table, n in counts.items() if n}


def held_text(held: dict[str, int]) -> str:
    """'3 records, 1 proposal' for what a store holds (see `_held`)."""
    return ", ".join(f"{n} {RECORD_TABLES[table][n != 1]}" for table, n in held.items())


def _refuse_to_replace(paths: VaultPaths, chosen: Path, held: dict[str, int] | None, home_given: bool) -> Conflict:
    home = f" --home {shlex.quote(str(paths.home))}" if home_given else ""
    backup = shlex.quote(str(chosen))
    what = (
        f"holds {held_text(held)}"
        if held is not None
        else "does not open with its own key (damaged?), so memvault cannot tell whether it holds records"
    )
    return Conflict(
        f"{chosen.name} is not a backup of this store (it does not open with this store's key; the "
        f"{key_backup.sidecar(chosen).name} beside it is another store's), and the store in {paths.home} {what}. "
        "memvault does not replace a store that holds records unless told to. "
        f"To replace it (it is kept first, whole and under its own key, in {paths.backups}/{REPLACED_PREFIX}…/), "
        f"run: memvault{home} restore {backup} --replace — or restore the backup into a folder of its own: "
        f"memvault --home NEW_FOLDER restore {backup}. Nothing was changed."
    )


def _replaced_folder(paths: VaultPaths, stamp: str) -> Path:
    folder = unused_name(paths.backups, f"{REPLACED_PREFIX}{stamp}")
    folder.mkdir(mode=0o700)
    return folder


def _set_aside_its_backups(paths: VaultPaths, key: bytes, folder: Path, source: Path) -> list[str]:
    """Move the backups in backups/ that do not open with the restored store's key (the replaced store's
    own) beside it: left there, doctor and purge would take them for broken files and delete them."""
    candidates = [p for p in sorted(paths.backups.glob("memvault-*.db")) if p != source]
    moved: list[str] = []
    if not candidates:
        return moved
    conn = file_engine().open(paths.store, key)
    try:
        for path in candidates:
            try:
                with backup_files.opened(conn, key, path) as copy:
                    ours = copy is not None
            except conn.engine.errors:  # held by another process: leave it
                continue
            if not ours:
                for part in [path, *side_files(path)]:
                    os.replace(part, folder / part.name)
                moved.append(str(folder / path.name))
    finally:
        conn.close()
    if moved:
        fsync_dir(paths.backups)
    return moved


def _put_back(kept: Path, store: Path) -> None:
    """Undo `_move_damaged` after a failed restore: the store (and its WAL) back in its place."""
    for side in side_files(kept):
        suffix = side.name[len(kept.name) :]
        if suffix != key_backup.SUFFIX:
            os.replace(side, Path(f"{store}{suffix}"))
    os.replace(kept, store)


def _carry_out(
    paths: VaultPaths, staged: Path, key: bytes, holder_key: bytes, done: dict[str, Any]
) -> tuple[dict[str, Any] | None, list[str], int]:
    """Keep the current store, settle the copy, swap. Returns the kept backup, the ids purged again, the cursor.

    `done` carries "now", "stamp", "source" and, for another store's backup, "folder" (where the replaced
    store is kept) and "key_file" (the home's new key file content).
    """
    other = done.get("folder") is not None
    holder = hold_alone(paths, holder_key)
    pre: dict[str, Any] | None = None
    try:
        pre, known, holder = _keep_current(paths, holder, done["now"], done["stamp"], done.get("folder"))
        try:
            if other:  # its backups and tombstones are another store's: the restored store keeps its own
                known = {"backups": [], "tombstones": []}
                done["kept_as"] = pre["path"] if pre else None
            settled = {**done, "pre": None if other else pre}
            repurged, cursor = _settle(paths, staged, key, known, settled)
            _swap(paths, holder, staged, key, known, done.get("key_file"))
        except BaseException:
            if pre is not None and holder is not None:
                remove_with_sides(Path(pre["path"]))
            elif pre is not None and not paths.store.exists():
                _put_back(Path(pre["path"]), paths.store)
            raise
    finally:
        if holder is not None:
            holder.close()
    return pre, repurged, cursor


def _another_stores_backup(
    paths: VaultPaths,
    staged: Path,
    chosen: Path,
    done: dict[str, Any],
    this_home: tuple[dict[str, Any], bytes, str | None],
    *,
    replace: bool,
    backup_secret: str | None,
    home_given: bool,
) -> tuple[bytes, dict[str, Any], ReplacedStore]:
    """A backup that does not open with this home's key: another store's, when its `-keys` lies beside it.

    Refused (nothing changed) unless the store here holds no records or `replace` was asked for; then
    the backup's key is unlocked, the copy verified with it, the home's new key file prepared and the
    folder that keeps the replaced store made. Returns the key, the verification, and what was replaced.
    """
    info, home_key, phrase = this_home
    sidecar = key_backup.sidecar(chosen)
    carried = _keys_beside(
        chosen,
        "not a memvault backup of this store: it does not open with this store's key",
        "a backup of another store",
    )
    if str(carried["store_id"]) == str(info.get("store_id")):
        raise InvalidArgument(
            f"{chosen.name} is a backup of this store (so says {sidecar.name}) but does not open with its key: "
            "it is damaged; nothing was changed"
        )
    held = _held(paths, home_key)
    if not replace and (held is None or held):
        raise _refuse_to_replace(paths, chosen, held, home_given)
    key, _ = key_backup.unlock_backup(chosen, carried, given=backup_secret, this_machine=phrase)
    try:
        checked = verify(file_engine(), staged, key)
    except _OtherKey:
        raise InvalidArgument(
            f"{chosen.name} does not open with the key {sidecar.name} carries: the two files do not belong "
            "together, or the backup is damaged; nothing was changed"
        ) from None
    done["key_file"] = key_backup.for_this_home(info, carried, key, phrase)
    done["folder"] = _replaced_folder(paths, done["stamp"])
    copy_private(paths.key_file, done["folder"] / paths.key_file.name)
    replaced: ReplacedStore = {"held": held, "kept_in": str(done["folder"]), "key_backend": done["key_file"]["backend"]}
    return key, checked, replaced


def _chosen(paths: VaultPaths, source: str | os.PathLike[str]) -> Path:
    """The backup file to restore into `paths`' home, or a clear refusal."""
    chosen = Path(source).expanduser().resolve()
    if not chosen.is_file():
        raise InvalidArgument(f"{chosen} is not a file")
    if chosen == paths.store:
        raise InvalidArgument("that is the store itself")
    return chosen


def restore_backup(
    source: str | os.PathLike[str],
    home: str | os.PathLike[str] | None = None,
    *,
    clock: Clock,
    secret: str | None = None,
    new_passphrase: str | None = None,
    backup_secret: str | None = None,
    replace: bool = False,
) -> RestoreOutcome:
    """Replace the store in `home` by a verified backup.

    `secret`: this store's passphrase (into an empty home: the backup's passphrase or recovery key).
    `backup_secret`: the passphrase or recovery key of a backup of another store. `new_passphrase`:
    wraps the key on a machine without a keyring after a recovery key opened it. Left None, each comes
    from the environment, the terminal, or a line on stdin. `replace`: a backup of another store may
    replace a store that holds records (it is kept first); without it only an empty store is replaced.
    The same holds for a shared store, which a backup replaces for every machine using it: a backup this
    home, or another home of that store, wrote restores into it; another store's backup replaces it only
    while it holds no records, or with `replace`.
    """
    paths = VaultPaths.from_env(home)
    chosen = _chosen(paths, source)
    if is_shared(paths):
        return _into_shared(
            paths,
            chosen,
            clock=clock,
            secret=secret,
            backup_secret=backup_secret,
            replace=replace,
            home_given=home is not None,
        )
    empty_home = not paths.key_file.exists() and not paths.store.exists()
    carried: dict[str, Any] = {}
    if empty_home:  # a new machine: every secret is settled before anything is made
        carried, key, by_recovery_key, new_passphrase = _empty_home_secrets(
            chosen, backup_secret if backup_secret is not None else secret, new_passphrase
        )
        this_home: tuple[dict[str, Any], bytes, str | None] = ({}, key, None)
    else:
        this_home = _this_home_key(paths, secret)
    created = _missing_folders(paths.home, paths)
    paths.ensure()
    clean_stale(paths)
    done: dict[str, Any] = {
        "now": format_time(clock.now()),
        "stamp": clock.now().strftime(STAMP_FORMAT),
        "source": chosen,
    }
    replaced: ReplacedStore | None = None
    added_keyring_entry = False
    staged = _stage(paths, chosen)
    try:
        key = this_home[1]
        try:
            checked = verify(file_engine(), staged, key)
        except _OtherKey:
            if empty_home:
                raise InvalidArgument(
                    f"{chosen.name} does not open with the key {key_backup.sidecar(chosen).name} carries: the "
                    "two files do not belong together, or the backup is damaged; nothing was changed"
                ) from None
            key, checked, replaced = _another_stores_backup(
                paths,
                staged,
                chosen,
                done,
                this_home,
                replace=replace,
                backup_secret=backup_secret,
                home_given=home is not None,
            )
        if empty_home:  # the home gets a key file of its own, only for a backup that opened
            added_keyring_entry = key_backup.install(
                paths.key_file, carried, key, by_recovery_key=by_recovery_key, new_passphrase=new_passphrase
            )
        pre, repurged, cursor = _carry_out(paths, staged, key, this_home[1], done)
    except BaseException:
        remove_with_sides(staged)
        if empty_home:
            key_backup.take_back(paths.key_file, str(carried["store_id"]) if added_keyring_entry else None)
        if done.get("folder") is not None:
            (done["folder"] / paths.key_file.name).unlink(missing_ok=True)
            _remove_empty([done["folder"]])
        _remove_empty(created)
        raise
    if replaced is not None:
        failures: tuple[type[Exception], ...] = (OSError, *file_engine().errors)
        try:
            _set_aside_its_backups(paths, key, Path(replaced["kept_in"]), chosen)
        except failures as exc:  # the restore is done; `memvault doctor` names what is left
            log.warning("the replaced store's backups could not all be moved beside it (%s)", type(exc).__name__)
    change_signal.notify(paths, cursor)  # listeners reload (their cursor may be ahead)
    log.info("store restored from a backup (%d records, %d purged again)", checked["records"], len(repurged))
    return {
        "restored_from": str(chosen),
        "records": checked["records"] - len(repurged),
        "schema_version": max(checked["schema_version"], file_engine().latest_schema),
        "previous_store_kept_as": pre["path"] if pre else None,
        "purged_again": len(repurged),
        "replaced_other_store": replaced,
    }


def _keys_beside(chosen: Path, refusal: str, beside: str) -> dict[str, Any]:
    """The `-keys` file beside a backup this home's key does not open, or InvalidArgument saying so."""
    sidecar = key_backup.sidecar(chosen)
    if not sidecar.exists():
        raise InvalidArgument(f"{refusal} (and no {sidecar.name} lies beside it, as one does beside {beside})")
    return key_backup.read_beside(chosen)


# -- into a shared store ---------------------------------------------------------------------------
def _another_homes_key(chosen: Path, backup_secret: str | None, phrase: str | None) -> tuple[bytes, str]:
    """The key of a backup another home wrote (another machine on the same shared store, this home
    before it was made anew, or another store's), from the `-keys` beside it: its passphrase or recovery
    key unwraps it. With the store_id of the home that wrote it."""
    carried = _keys_beside(
        chosen, "not a memvault backup this home can open: it does not open with this home's key", "every backup"
    )
    key, _ = key_backup.unlock_backup(chosen, carried, given=backup_secret, this_machine=phrase)
    return key, str(carried["store_id"])


def _keep_shared(paths: VaultPaths, store: Store, key: bytes, now: str, stamp: str) -> dict[str, Any]:
    """The shared store as it is, written to a `pre-restore` backup of this home, inside the restore's
    transaction (so it holds exactly what the restore replaces) and recorded there."""
    paths.ensure()
    target = unused_name(paths.backups, f"memvault-{stamp}-pre-restore", ".db")
    write_file(store, key, target, paths.key_file)
    row = _row(target, "pre-restore", now)
    store.backups.record(
        paths.home, backup_files.home_id(paths), target, now, row["bytes"], row["sha256"], "pre-restore"
    )
    return row


def _verified_for_shared(
    staged: Path, chosen: Path, home_key: bytes, backup_secret: str | None, phrase: str | None
) -> tuple[bytes, dict[str, Any], str | None]:
    """The key the staged copy opens with (this home's, or another home's from the `-keys` beside the
    backup), its verification, and which other home wrote it (None: this home)."""
    try:
        return home_key, verify(file_engine(), staged, home_key), None
    except _OtherKey:
        key, writer = _another_homes_key(chosen, backup_secret, phrase)
    try:
        return key, verify(file_engine(), staged, key), writer
    except _OtherKey:
        raise InvalidArgument(
            f"{chosen.name} does not open with the key {key_backup.sidecar(chosen).name} carries: the "
            "two files do not belong together, or the backup is damaged; nothing was changed"
        ) from None


def _replace_rows(
    paths: VaultPaths, store: Store, backup: Store, home_key: bytes, done: dict[str, Any]
) -> tuple[list[str], int]:
    """In the caller's transaction on the shared store: keep it (`done["pre"]`), empty it, copy the
    backup's rows in (verified), purge again what its tombstones name, keep its security state (the
    stronger store-wide kill switch, every revocation it holds), and record the restore.
    Returns the ids purged again and the change feed's cursor."""
    now = done["now"]
    _may_replace_shared(paths, store, done)
    done["pre"] = _keep_shared(paths, store, home_key, now, done["stamp"])
    tombstones = store.maintenance.tombstone_ids()
    revoked = store.maintenance.revocations()
    switch = _store_wide_switch(store)
    before = store.changes.cursor()
    store.maintenance.clear_for_restore()
    with backup.read_snapshot():
        copy_store(backup, store)
    store.maintenance.add_tombstones(tombstones)
    store.maintenance.revoke_again(revoked)
    restored_switch = _store_wide_switch(store)
    if stronger(switch, restored_switch) is not restored_switch:
        store.settings.write("kill_switch", switch.value)
    repurged = purge_reach.apply_tombstones(store, now)
    if repurged:
        store.maintenance.optimize_text_indexes()
    store.maintenance.continue_events_after(before)
    store.events.record(
        OWNER,
        "restored_from_backup",
        now,
        None,
        repurged=len(repurged),
        kept_as=done["pre"]["path"],
        source_name=done["source"].name,
    )
    return repurged, store.changes.cursor()


def _may_replace_shared(paths: VaultPaths, store: Store, done: dict[str, Any]) -> None:
    """Refuse (nothing changed yet) a backup of another store over a shared store that holds records,
    unless `replace` was asked for. A backup is of this store when this home wrote it, or a home that
    recorded backups in this store did (another machine on it, or this home before it was made anew)."""
    writer = done.get("writer")
    if done.get("replace") or writer is None or store.backups.known(paths.home, writer, include_removed=True):
        return
    names = store.maintenance.table_names()
    held = {"memories": store.tombstones.record_count()}
    held.update({t: len(store.maintenance.table_rows(t)) for t in RECORD_TABLES if t != "memories" and t in names})
    held = {table: n for table, n in held.items() if n}
    if not held:
        return
    chosen = done["source"]
    home = f" --home {shlex.quote(str(paths.home))}" if done.get("home_given") else ""
    backup = shlex.quote(str(chosen))
    raise Conflict(
        f"{chosen.name} is a backup of another store (the home its {key_backup.sidecar(chosen).name} names "
        f"never made a backup of this shared store), and the shared store holds {held_text(held)}: it would "
        "be replaced for every machine using it. memvault does not replace a store that holds records unless "
        f"told to. To replace it (it is kept first, in a pre-restore backup in {paths.backups}/), run: "
        f"memvault{home} restore {backup} --replace — or restore the backup into a folder of its own: "
        f"memvault --home NEW_FOLDER restore {backup}. Nothing was changed."
    )


def _store_wide_switch(store: Store) -> KillSwitch:
    """The store-wide kill switch position the store holds (one it cannot read counts as `all`)."""
    stored = store.settings.read("kill_switch")
    try:
        return KillSwitch.OFF if stored is None else KillSwitch(str(stored))
    except ValueError:
        return KillSwitch.ALL


def _vacuum_after(store: Store) -> None:
    """VACUUM the tables the records purged again left (the restore is committed: a refusal only waits)."""
    try:
        store.maintenance.vacuum()
    except store.engine.errors as exc:
        log.warning("VACUUM after a restore was refused (%s); run memvault purge --sweep later", type(exc).__name__)


def _into_shared(
    paths: VaultPaths,
    chosen: Path,
    *,
    clock: Clock,
    secret: str | None,
    backup_secret: str | None,
    replace: bool,
    home_given: bool,
) -> RestoreOutcome:
    """Restore a backup file into the shared store this home uses.

    The backup is verified first on a private copy (opens with the key, integrity, memvault's tables,
    a schema this memvault understands) and brought to this memvault's schema. Then, in one transaction
    holding the store-wide write lock: the store as it is goes into a `pre-restore` backup; every
    logical table is emptied and the backup's rows are copied in (`store_copy`, counts and checksums
    read back before the commit); every tombstone the store had is applied again (a restore never
    brings back what was purged); the change feed goes on past every cursor any machine holds, with a
    `restored_from_backup` event, which every listening machine hears at the commit. The store's security
    state is not rolled back: the stronger of the two store-wide kill switch positions stays, and every
    revocation the store held is applied again. Another store's backup over a shared store that holds
    records is refused, before anything changes, unless `replace` (`_may_replace_shared`). A failure
    before the COMMIT rolls it all back: the
    store is as it was, and the safety copy is deleted. A failing COMMIT may still have happened (a
    connection lost after the server committed): the safety copy is kept then, and the error raised."""
    _, home_key, phrase = _this_home_key(paths, secret)
    paths.ensure()
    clean_stale(paths)
    done: dict[str, Any] = {
        "now": format_time(clock.now()),
        "stamp": clock.now().strftime(STAMP_FORMAT),
        "source": chosen,
        "pre": None,
        "replace": replace,
        "home_given": home_given,
    }
    staged = _stage(paths, chosen)
    try:
        key, checked, done["writer"] = _verified_for_shared(staged, chosen, home_key, backup_secret, phrase)
        with _opened(file_engine(), staged, key) as backup:
            backup.migrations.migrate()  # the private copy, at this memvault's schema: its tables as read
            store = open_store(paths, home_key)
            try:
                store.migrations.migrate()
                with store.transaction():
                    repurged, cursor = _replace_rows(paths, store, backup, home_key, done)
                    done["commit_sent"] = True  # what fails from here on is the COMMIT: it may have happened
                done["committed"] = True
                version = store.maintenance.schema_version() or 0
                if repurged:
                    _vacuum_after(store)
            finally:
                store.close()
    except BaseException:
        if done["pre"] is not None and done.get("commit_sent") and not done.get("committed"):
            # The server may have committed before the connection dropped: then the store was replaced
            # and this file is the only copy of what it held. Kept (`doctor --fix` records it if its row
            # did not commit).
            log.warning(
                "the restore's COMMIT failed and may have happened: the store as it was is kept in %s",
                done["pre"]["path"],
            )
        elif done["pre"] is not None and not done.get("committed"):  # the store is unchanged: so is its home
            remove_with_sides(Path(done["pre"]["path"]))
        raise
    finally:
        remove_with_sides(staged)
    change_signal.notify(paths, cursor)  # this machine's listeners; other machines hear the commit
    log.info("shared store restored from a backup (%d records, %d purged again)", checked["records"], len(repurged))
    return {
        "restored_from": str(chosen),
        "records": checked["records"] - len(repurged),
        "schema_version": version,
        "previous_store_kept_as": done["pre"]["path"],
        "purged_again": len(repurged),
        "replaced_other_store": None,
    }
