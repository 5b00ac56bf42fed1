"""Which engine a vault's store lives on, and where. SQLCipher is the embedded default: one encrypted
file in the vault's home (`VaultPaths.store`). A home that names a shared store (`SHARED_STORE`, the
URL of a PostgreSQL database, without its password) uses the PostgreSQL engine."""

from __future__ import annotations

import os
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import store_credentials
from memvault.core.store.postgres.connection import check_location
from memvault.core.store.postgres.store import ENGINE as POSTGRESQL
from memvault.core.store.seam import Engine, Store
from memvault.core.store.sqlcipher.store import ENGINE as SQLCIPHER

SHARED_STORE = "shared-store.url"


def _pointer(paths: VaultPaths) -> Path:
    return paths.home / SHARED_STORE


def location_of(paths: VaultPaths) -> tuple[Engine, str | Path]:
    """The engine of the store in `paths` and where that engine finds it."""
    pointer = _pointer(paths)
    if pointer.is_file():
        return POSTGRESQL, pointer.read_text("utf-8").strip()
    return SQLCIPHER, paths.store


def engine_of(paths: VaultPaths) -> Engine:
    return location_of(paths)[0]


def file_engine() -> Engine:
    """The engine whose stores are files: a home's own store, and every backup memvault writes."""
    return SQLCIPHER


def is_shared(paths: VaultPaths) -> bool:
    return _pointer(paths).is_file()


def store_exists(paths: VaultPaths) -> bool:
    return _pointer(paths).is_file() or paths.store.exists()


def point_at(paths: VaultPaths, url: str) -> None:
    """Make this home use the shared store at `url`: the URL is kept without its password (which goes
    to the keyring). Refused when the home already has a store of its own."""
    check_location(url)
    if paths.store.exists():
        raise FileExistsError(f"{paths.store} exists: this home has a store of its own")
    kept, password = store_credentials.without_password(url)
    if password:
        store_credentials.keep(kept, password)
    paths.ensure()
    pointer = _pointer(paths)
    descriptor = os.open(pointer, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(kept + "\n")


def open_store(paths: VaultPaths, key: bytes, *, create: bool = False) -> Store:
    engine, location = location_of(paths)
    return engine.open(location, key, create=create)
