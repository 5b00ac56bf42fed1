"""Which engine a vault's store lives on, and where. SQLCipher is the embedded default: one encrypted
file in the vault's home (`VaultPaths.store`). A home that names a shared store (`SHARED_STORE`, the
connection string of a PostgreSQL database, without its password) uses the PostgreSQL engine, which
is imported only then (psycopg costs every process's start otherwise)."""

from __future__ import annotations

import os
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths
from memvault.core.store.seam import Engine, Store
from memvault.core.store.sqlcipher.store import ENGINE as SQLCIPHER
from memvault.core.vocabulary.errors import Conflict

SHARED_STORE = "shared-store.url"


def _pointer(paths: VaultPaths) -> Path:
    return paths.home / SHARED_STORE


def _postgresql() -> Engine:
    from memvault.core.store.postgres.store import ENGINE  # noqa: PLC0415 - only homes on a shared store pay

    return ENGINE


def location_of(paths: VaultPaths) -> tuple[Engine, str | Path]:
    """The engine of the store in `paths` and where that engine finds it."""
    pointer = _pointer(paths)
    if not pointer.is_file():
        return SQLCIPHER, paths.store
    if paths.store.exists():
        raise Conflict(
            f"{paths.home} holds a store file and names a shared store ({SHARED_STORE}): "
            "remove one of the two, memvault will not choose"
        )
    return _postgresql(), pointer.read_text("utf-8").strip()


def engine_of(paths: VaultPaths) -> Engine:
    return location_of(paths)[0]


def file_engine() -> Engine:
    """The engine whose stores are files: a home's own store, and every backup memvault writes."""
    return SQLCIPHER


def is_shared(paths: VaultPaths) -> bool:
    return _pointer(paths).is_file()


def store_exists(paths: VaultPaths) -> bool:
    return _pointer(paths).is_file() or paths.store.exists()


def join(paths: VaultPaths, url: str) -> Store:
    """Make this home use the shared store at `url`, open and at this memvault's schema. Nothing is
    written to the home or the keyring until the store opened and took the schema; then the URL is
    kept without its password, which goes to the keyring."""
    if store_exists(paths):
        raise Conflict(f"{paths.home} has a store already: a shared store is joined from an empty home")
    store, kept, password = open_shared(url)
    try:
        point_at_shared(paths, kept, password)
    except BaseException:
        store.close()
        raise
    return store


def open_shared(url: str, *, migrate: bool = True) -> tuple[Store, str, str | None]:
    """The shared store at `url`, open and (`migrate`) at this memvault's schema, without touching any
    home; with the URL without its password, and the password (None when the URL had none). Not
    `migrate`: the database is only read (nothing is made or upgraded in it)."""
    from memvault.core.store.postgres import credentials  # noqa: PLC0415
    from memvault.core.store.postgres.connection import without_password  # noqa: PLC0415
    from memvault.core.store.postgres.store import ENGINE  # noqa: PLC0415

    kept, password = without_password(url)
    if password:
        credentials.check_keepable()  # before the store is made or filled: it would be kept at the end
    store = ENGINE.open(kept, b"", password=password)
    if not migrate:
        return store, kept, password
    try:
        store.migrations.migrate()
    except BaseException:
        store.close()
        raise
    return store, kept, password


def point_at_shared(paths: VaultPaths, kept: str, password: str | None) -> None:
    """Name the shared store at `kept` (a URL without password) in the home; its password to the keyring."""
    from memvault.core.store.postgres import credentials  # noqa: PLC0415

    if password:
        credentials.keep(kept, password)
    pointer = _pointer(paths)
    staged = pointer.with_name(f"{pointer.name}.tmp")  # renamed into place whole: never a half-written pointer
    try:
        paths.ensure()
        descriptor = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(kept + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(staged, pointer)
    except BaseException:
        staged.unlink(missing_ok=True)
        if password and not pointer.is_file():
            credentials.forget(kept)
        raise


def leave(paths: VaultPaths) -> None:
    """Undo `join` for a home that was not finished: its pointer, and the password kept for it. Nothing
    when the home names no shared store (it may be called again)."""
    from memvault.core.store.postgres import credentials  # noqa: PLC0415

    pointer = _pointer(paths)
    if pointer.is_file():
        credentials.forget(pointer.read_text("utf-8").strip())
        pointer.unlink()


def open_store(paths: VaultPaths, key: bytes, *, create: bool = False) -> Store:
    engine, location = location_of(paths)
    return engine.open(location, key, create=create)
