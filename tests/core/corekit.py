"""Helpers for the core tests: callers of every surface and a dump of the whole store.

`dump` reads every real table (virtual FTS tables through their shadow tables), so a
test can prove that a refused call changed nothing at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller, Surface

REMOTE = Caller(principal="chatgpt-tunnel", surface=Surface.REMOTE)
OTHER_REMOTE = Caller(principal="other-remote", surface=Surface.REMOTE)
WORKSPACE_A = Caller(principal="team-bot", surface=Surface.WORKSPACE, workspace_id="ws-alpha")
WORKSPACE_B = Caller(principal="team-bot-b", surface=Surface.WORKSPACE, workspace_id="ws-beta")
ASSISTANT = LOCAL_ASSISTANT
# `add(statement, caller=OWNER, **fields) -> id` (fixtures in conftest.py)
Adder = Callable[..., str]

__all__ = ["ASSISTANT", "OTHER_REMOTE", "OWNER", "REMOTE", "WORKSPACE_A", "WORKSPACE_B", "count", "dump"]


def dump(vault: Vault) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every real table (sorted), to compare before and after a call."""
    conn = vault.ctx.store.raw
    tables = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'"
        )
    ]
    assert "memories" in tables and "events" in tables and "memory_fts_data" in tables
    return {name: sorted((tuple(row) for row in conn.execute(f'SELECT * FROM "{name}"')), key=repr) for name in tables}


def count(vault: Vault, table: str) -> int:
    return int(vault.ctx.store.raw.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def events(vault: Vault) -> list[dict[str, Any]]:
    rows = vault.ctx.store.raw.execute("SELECT * FROM events ORDER BY id").fetchall()
    return [dict(row) for row in rows]


def actions(vault: Vault) -> list[str]:
    return [event["action"] for event in events(vault)]


# The session template's scrypt cost (tests/conftest.py): cheap, but the real code path.
SCRYPT_N = 2**12
