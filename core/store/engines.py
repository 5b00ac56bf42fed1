"""Which engine a vault's store lives on. One engine so far: SQLCipher, the embedded default, one
encrypted file in the vault's home (`VaultPaths.store`)."""

from __future__ import annotations

from memvault.core.runtime.paths import VaultPaths
from memvault.core.store.seam import Engine
from memvault.core.store.sqlcipher.store import ENGINE as SQLCIPHER


def engine_of(paths: VaultPaths) -> Engine:
    """The engine of the store in `paths` (SQLCipher: the only one)."""
    del paths  # a shared store's location will choose its engine here
    return SQLCIPHER
