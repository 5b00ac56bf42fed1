"""Explicit transactions on a connection of its own (maintenance works outside a Context)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from memvault.core.store.sqlcipher.connection import Connection, until_commit

_MODES = ("DEFERRED", "IMMEDIATE", "EXCLUSIVE")


@contextmanager
def transaction(conn: Connection, mode: str = "IMMEDIATE") -> Iterator[Connection]:
    """BEGIN `mode` … COMMIT, or ROLLBACK when the block raises."""
    if mode not in _MODES:
        raise ValueError(f"unknown transaction mode {mode}")
    conn.execute(f"BEGIN {mode}")
    with until_commit(conn):
        yield conn


def begin_exclusive(conn: Connection) -> None:
    """Hold the store alone until the connection closes (a restore's swap)."""
    conn.execute("BEGIN EXCLUSIVE")
