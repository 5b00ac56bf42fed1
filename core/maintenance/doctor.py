"""`memvault doctor`: is the store sound, private and reachable? Each problem names its fix.

The doctor opens the store read-mostly with its own connection (no migration, no
write) so it can also look at a store the Vault would refuse. Client
registrations are a desktop concern: the CLI adds them to this report.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from memvault.core.maintenance import backup_files, purge_reach, stray_backups
from memvault.core.maintenance.files import side_files, size_of
from memvault.core.maintenance.restore import STAGED_PREFIX
from memvault.core.runtime.paths import VaultPaths
from memvault.core.runtime.settings import setting
from memvault.core.security import keys
from memvault.core.security.kill_switch import Positions, machine_file
from memvault.core.store.engines import location_of, open_store, store_exists
from memvault.core.store.seam import Store
from memvault.core.vocabulary.clock import Clock, format_time
from memvault.core.vocabulary.errors import MemvaultError

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None


class CheckRow(TypedDict):
    name: str
    ok: bool
    detail: str
    fix: str | None


class DoctorReport(TypedDict):
    ok: bool
    home: str
    checks: list[CheckRow]
    disk: dict[str, int]  # bytes: store, wal, backups, exports


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _private_paths(paths: VaultPaths) -> list[tuple[Path, int]]:
    folders = (paths.home, paths.exports, paths.backups, paths.logs, paths.imports, paths.home / "run")
    wanted = [(folder, PRIVATE_DIR) for folder in folders]
    wanted += [(paths.store, PRIVATE_FILE), (paths.key_file, PRIVATE_FILE)]
    wanted += [(side, PRIVATE_FILE) for side in side_files(paths.store)]
    for folder in (paths.backups, paths.exports, paths.logs):
        if folder.is_dir():
            wanted += [(p, PRIVATE_FILE) for p in sorted(folder.rglob("*")) if p.is_file()]
    return [(p, mode) for p, mode in wanted if p.exists()]


def check_permissions(paths: VaultPaths, *, fix: bool = False) -> Check:
    loose = [(p, mode) for p, mode in _private_paths(paths) if _mode(p) & ~mode & 0o777]
    if loose and fix:
        for path, mode in loose:
            os.chmod(path, mode)
        return Check("permissions", True, f"tightened {len(loose)}: " + ", ".join(str(p) for p, _ in loose))
    if loose:
        listed = ", ".join(f"{p} ({oct(_mode(p))})" for p, _ in loose[:5])
        return Check(
            "permissions",
            False,
            f"readable by others: {listed}" + (" ..." if len(loose) > 5 else ""),
            "memvault doctor --fix  (or chmod 600 on files, 700 on folders)",
        )
    return Check("permissions", True, "store, key and folders are private (0600 / 0700)")


def check_stale(paths: VaultPaths, *, fix: bool = False) -> Check:
    stale = [*paths.home.glob(f"{STAGED_PREFIX}*"), *paths.home.glob(f"{paths.store.name}-*.stale")]
    if stale and fix:
        for path in stale:
            path.unlink(missing_ok=True)
        return Check("leftovers", True, f"removed {len(stale)} files an interrupted restore left")
    if stale:
        return Check("leftovers", False, f"{len(stale)} files an interrupted restore left", "memvault doctor --fix")
    return Check("leftovers", True, "no files left by an interrupted restore")


def _key_check(paths: VaultPaths) -> tuple[Check, bytes | None]:
    try:
        info = keys.describe(paths.key_file)
    except MemvaultError as exc:
        return Check("key", False, exc.message, "restore the key file from where you keep a copy"), None
    where = f"key file {paths.key_file}; key backend {info.backend} ({info.detail})"
    try:
        key = keys.load_key(paths.key_file)
    except MemvaultError as exc:
        fix = "set MEMVAULT_PASSPHRASE or run on a terminal" if info.backend == "passphrase" else "unlock the keyring"
        return Check("key", False, f"{where}: {exc.message}", fix), None
    return Check("key", True, where), key


def _store_checks(conn: Store, key: bytes, paths: VaultPaths, *, fix: bool, now: str) -> list[Check]:
    found = []
    problems = conn.maintenance.integrity()
    found.append(
        Check("integrity", True, "SQLite integrity check: ok")
        if not problems
        else Check("integrity", False, f"{len(problems)} problems: {problems[0][:120]}", "memvault restore BACKUP")
    )
    version = conn.maintenance.schema_version() or 0
    latest = conn.engine.latest_schema
    if version > latest:
        found.append(
            Check(
                "schema",
                False,
                f"schema {version} is newer than this memvault ({latest})",
                "upgrade memvault",
            )
        )
    else:
        later = "" if version == latest else f" (schema {latest} is applied on next open)"
        found.append(Check("schema", True, f"schema {version}{later}"))
    found.append(_kill_switch_check(conn, paths))
    found.append(_tombstones_check(conn, key, paths, fix=fix, now=now))
    found.append(_backups_check(conn, key, paths))
    found.append(_unrecorded_check(conn, key, paths, fix=fix, now=now))
    return found


def _kill_switch_check(conn: Store, paths: VaultPaths) -> Check:
    positions = Positions.read(paths, setting("kill_switch").value(conn.settings.read("kill_switch")))
    machine = "unreadable, counted as all" if positions.machine_unreadable else positions.machine.value
    detail = f"kill switch: {positions.in_force.value} (this machine: {machine}; store-wide: {positions.store.value})"
    if positions.machine_unreadable:
        fix = f"memvault kill-switch off  (or on, all: rewrites {machine_file(paths)})"
        return Check("kill switch", False, detail, fix)
    return Check("kill switch", True, detail)


def _unrecorded_check(conn: Store, key: bytes, paths: VaultPaths, *, fix: bool, now: str) -> Check:
    """Backup files nobody recorded: a backup or restore was killed before it could record them. Another
    home's backups put in backups/ are reported, never deleted."""
    strays = stray_backups.unrecorded(conn, paths)
    if not strays:
        return Check("unrecorded backups", True, "every backup file is recorded")
    carried = [str(p) for p in strays if stray_backups.from_elsewhere(paths, p)]
    if not fix:
        ours = [p for p in strays if str(p) not in carried]
        if not ours:
            return _carried_check("", carried)
        return Check(
            "unrecorded backups",
            False,
            f"{len(ours)} backup files are not recorded: {ours[0]}",
            "memvault doctor --fix  (records the sound ones, deletes the broken ones)",
        )
    done = stray_backups.adopt(conn, key, paths, now)
    detail = f"recorded {done.kept} sound backup files, deleted {done.dropped} broken ones"
    if done.busy:
        return Check(
            "unrecorded backups", False, f"{detail}; {len(done.busy)} held by another process", "run it again later"
        )
    if done.carried:
        return _carried_check(f"{detail}; ", done.carried)
    return Check("unrecorded backups", True, detail)


def _carried_check(before: str, carried: list[str]) -> Check:
    """Backups of another memvault home found in backups/: left there, with what to do with them."""
    more = f" ({len(carried) - 1} more like it)" if len(carried) > 1 else ""
    return Check(
        "unrecorded backups",
        False,
        f"{before}{stray_backups.carried_advice(carried[0])}{more}",
        "memvault restore <file>, or move the file out of backups/ (it is left in place)",
    )


def _backups_check(conn: Store, key: bytes, paths: VaultPaths) -> Check:
    """This home's backups: gone, damaged, or still holding a record the store's tombstones name."""
    rows = conn.backups.known(paths.home, backup_files.home_id(paths))
    purged = [memory_id for memory_id, _, _ in conn.maintenance.tombstone_ids()]
    missing = [r["path"] for r in rows if not Path(r["path"]).is_file()]
    holding: list[str] = []
    broken: list[str] = []
    for row in rows:
        if row["path"] in missing:
            continue
        sound = stray_backups.sound(conn, key, Path(row["path"]))
        if not sound:
            if sound is False:
                broken.append(row["path"])
            continue
        with backup_files.opened(conn, key, Path(row["path"])) as opened:
            if opened is None:  # it stopped opening since `sound` looked
                broken.append(row["path"])
            elif purged and opened[0].maintenance.existing_ids(purged, opened[1]):
                holding.append(row["path"])
    if holding or broken:
        detail = f"{len(holding)} backups still hold purged records, {len(broken)} do not open or are damaged"
        return Check("backups", False, detail, "memvault purge --sweep  (rewrites them; deletes the damaged)")
    if missing:
        return Check(
            "backups", False, f"{len(missing)} recorded backups are gone: {missing[0]}", "memvault purge --sweep"
        )
    newest = max((r["created_at"] for r in rows), default=None)
    return Check("backups", True, f"{len(rows)} backups, newest {newest or 'never'}")


def _tombstones_check(conn: Store, key: bytes, paths: VaultPaths, *, fix: bool, now: str) -> Check:
    """Every tombstone, the store's and each backup's, holds in the store: no purged record is back."""
    known = {memory_id for memory_id, _, _ in conn.maintenance.tombstone_ids()}
    forgotten: dict[str, tuple[str, str, str]] = {}
    for row in conn.backups.known(paths.home, backup_files.home_id(paths), include_removed=False):
        if Path(row["path"]).is_file() and stray_backups.sound(conn, key, Path(row["path"])):
            with backup_files.opened(conn, key, Path(row["path"])) as opened:
                if opened is not None:
                    held = opened[0].maintenance.table_rows("tombstones", opened[1])
                    forgotten.update(
                        (str(t[0]), (str(t[0]), str(t[1]), str(t[2]))) for t in held if str(t[0]) not in known
                    )
    back = conn.maintenance.tombstoned_present()
    tombstones = len(known)
    if not forgotten and not back:
        return Check("tombstones", True, f"{tombstones} tombstones, none of their records is in the store")
    if not fix:
        detail = f"{len(back)} purged records are in the store again, {len(forgotten)} purges only a backup knows"
        return Check("tombstones", False, detail, "memvault doctor --fix  (purges them again), then purge --sweep")
    with conn.transaction():
        conn.maintenance.add_tombstones(forgotten.values())
        again = purge_reach.apply_tombstones(conn, now)
    return Check("tombstones", True, f"purged {len(again)} records again; run `memvault purge --sweep` next")


def disk_use(paths: VaultPaths) -> dict[str, int]:
    return {
        "store": size_of(paths.store),
        "wal": size_of(Path(f"{paths.store}-wal")),
        "backups": size_of(paths.backups),
        "exports": size_of(paths.exports),
    }


def run(home: str | os.PathLike[str] | None = None, *, clock: Clock, fix: bool = False) -> DoctorReport:
    paths = VaultPaths.from_env(home)
    checks: list[Check] = []
    if not store_exists(paths):
        checks.append(Check("store", False, f"no store in {paths.home}", "memvault init  (or memvault restore BACKUP)"))
    if paths.home.exists():
        checks += [check_permissions(paths, fix=fix), check_stale(paths, fix=fix)]
    if store_exists(paths):
        key_check, key = _key_check(paths)
        checks.append(key_check)
        if key is not None:
            checks += _open_and_check(paths, key, fix=fix, now=format_time(clock.now()))
    exports = [p for p in paths.exports.rglob("*") if p.is_file()] if paths.exports.is_dir() else []
    if exports:
        checks.append(Check("exports", True, f"{len(exports)} plaintext export files in {paths.exports}"))
    return {
        "ok": all(c.ok for c in checks),
        "home": str(paths.home),
        "checks": [CheckRow(name=c.name, ok=c.ok, detail=c.detail, fix=c.fix) for c in checks],
        "disk": disk_use(paths),
    }


def _open_and_check(paths: VaultPaths, key: bytes, *, fix: bool, now: str) -> list[Check]:
    engine, location = location_of(paths)
    try:
        conn = open_store(paths, key)
    except MemvaultError as exc:
        return [Check("store", False, exc.message, "memvault restore BACKUP")]
    opened = f"{paths.store} opens and is encrypted" if engine.name == "sqlcipher" else f"{location} opens"
    try:
        return [
            Check("store", True, f"{opened} ({engine.name})"),
            *_store_checks(conn, key, paths, fix=fix, now=now),
        ]
    except backup_files.failures(conn) as exc:
        return [Check("store", False, f"the store is damaged ({exc})", "memvault restore BACKUP")]
    finally:
        conn.close()
