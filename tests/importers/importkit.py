"""Helpers for the import tests: the fictional fixtures, and the store's content without bookkeeping."""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from pathlib import Path
from typing import Any

from memvault.core.vault import Vault

FIXTURES = Path(__file__).parent / "fixtures"
CODEX_SESSIONS = "codex/sessions"
# (fixture path under fixtures/, format, statements the person said that must be found)
SOURCES = [
    ("chatgpt_conversations.json", "chatgpt", ["I prefer corrugated metal for the roof."]),
    ("claude_conversations.json", "claude", ["I'm allergic to peanuts."]),
    (CODEX_SESSIONS, "codex", ["We decided to use SQLite for the ledger service tests."]),
    ("generic.jsonl", "jsonl", ["I prefer the river path over the main road."]),
    ("generic.md", "markdown", ["I love slow novels about the sea."]),
]
# Tables that only record what happened (events are append-only; an import leaves its manifest;
# usage counters and the retrieval log move with every search; FTS shadow tables are layout,
# compared through search instead).
BOOKKEEPING = (
    "events", "import_batches", "import_manifests", "import_items", "tombstones", "store_version", "sqlite_sequence",
    "retrieval_log", "memory_usage",
)  # fmt: skip


def copy_fixture(name: str, into: Path) -> Path:
    source = FIXTURES / name
    target = into / Path(name).name
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copy(source, target)
    return target


def chatgpt_zip(into: Path) -> Path:
    """The export as ChatGPT ships it: a zip with conversations.json (and other files) inside."""
    target = into / "chatgpt-export.zip"
    with zipfile.ZipFile(target, "w") as archive:
        archive.write(FIXTURES / "chatgpt_conversations.json", "conversations.json")
        archive.writestr("user.json", '{"id": "user-fictional"}')
    return target


def digest(path: Path) -> str:
    files = sorted(path.rglob("*")) if path.is_dir() else [path]
    sha = hashlib.sha256()
    for file in files:
        if file.is_file():
            sha.update(file.read_bytes())
    return sha.hexdigest()


def content(vault: Vault) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every real table that holds content (bookkeeping and FTS shadow tables aside)."""
    conn = vault.ctx.store.raw
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'"
        )
    ]
    kept = [n for n in names if n not in BOOKKEEPING and not n.endswith(("_data", "_idx", "_docsize", "_config"))]
    return {n: _rows(vault, n) for n in kept}


def _rows(vault: Vault, table: str) -> list[tuple[Any, ...]]:
    """A table's rows; a record's revision and updated_at say that its row changed, not what it says."""
    cursor = vault.ctx.store.raw.execute(f'SELECT * FROM "{table}"')
    names = [d[0] for d in cursor.description]
    keep = [i for i, name in enumerate(names) if table != "memories" or name not in ("revision", "updated_at")]
    return sorted((tuple(row[i] for i in keep) for row in cursor), key=repr)
