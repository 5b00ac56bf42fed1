"""The logical tables of a store, the same on every engine: what moves when a store moves to another
engine (`TransferRows`, `core/maintenance/migrate.py`), in an order that lets each row's references
exist before it, and the order-independent digest both sides compute of what they hold.

Derived index data is not here: each engine rebuilds its own (FTS5 tables; a tsvector and a trigram
table) from the rows. Nor are `backups` (files of one machine, which a store shared by several cannot
tell apart; a store file's backups stay with it) and the stores' counters (`store_version`,
`vector_removals`: the target's own move as it is written). One exception: an imported
conversation's words. Its body is never stored, only its words in the engine's index, so they cross
as a column of their own (`WORDS`), the indexed body's words in order, and are compared as the set
of words they hold (two engines split a text into words a little differently: 'foo-bar' is one word
and two parts to PostgreSQL, two words to FTS5).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

ROWID = "rowid"  # an engine's row number the in-memory indexes key on: kept
WORDS = "words"  # a conversation's indexed body words, in order, separated by spaces


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    order: tuple[str, ...]  # a unique key: rows are read in this order


def _table(name: str, columns: str, order: str | None = None) -> Table:
    names = tuple(columns.split())
    return Table(name, names, tuple(order.split()) if order else names[:1])


_MEMORY_COLUMNS = (
    "rowid id domain type statement norm_key status confidence importance explicitness sensitivity access_scope"
    " authorized_principal_id authorized_workspace_id tags source source_reference evidence evidence_hash source_id"
    " project_id import_batch_id created_by event_time learned_at observed_at valid_from valid_until"
    " last_confirmed_at created_at updated_at supersedes_id superseded_by_id superseded_at archived_reason"
    " archived_at status_before_archive revision due_at"
)

TABLES = (
    _table("sources", "id kind title reference integrity_hash created_at"),
    _table("import_batches", "id format created_at status counts"),
    _table(
        "conversations",
        "rowid id source_id title started_at snippet import_batch_id format reference content_hash turns words",
    ),
    _table(
        "domains", "name description keywords related priority depth token_share centroid pinned created_at updated_at"
    ),
    _table("projects", "id name norm_name created_at"),
    _table("memories", _MEMORY_COLUMNS),
    _table("memory_usage", "memory_id retrieval_count last_retrieved_at"),
    _table("entities", "id name norm_name kind created_at"),
    _table("memory_entities", "memory_id entity_id", "memory_id entity_id"),
    _table("links", "from_id to_id type weight created_at", "from_id to_id type"),
    _table("project_states", "id project_id memory_id recorded_at"),
    _table("decisions", "memory_id project_id decided_at"),
    _table("unresolved_items", "memory_id project_id kind due_at resolved_at"),
    _table(
        "proposals",
        "id kind status target_id norm_key payload principal surface reason result_id created_at decided_at",
    ),
    _table("events", "id time principal surface action memory_id details"),
    _table("feedback", "id memory_id useful principal note time"),
    _table("retrieval_log", "id time principal ids scores latency_ms shadow"),
    _table("principals", "name surface workspace_id created_at revoked_at"),
    _table("tokens", "token_hash principal created_at revoked_at"),
    _table("settings", "name value"),
    _table("tombstones", "memory_id purged_at reason_category"),
    _table("memory_vectors", "rowid memory_id model vector"),
    _table(
        "import_manifests",
        "batch_id path format source_hash options chunks_total chunks_done started_at finished_at rolled_back_at",
    ),
    _table("import_items", "batch_id seq action memory_id target_id prior", "batch_id seq"),
    _table("oauth_clients", "client_id client_name secret_hash metadata created_at"),
    _table(
        "oauth_requests",
        "id page_hash client_id scopes granted redirect_uri redirect_explicit code_challenge state resource"
        " created_at expires_at status decided_at",
    ),
    _table(
        "oauth_connections", "id client_id request_id scopes resource created_at refreshed_at revoked_at revoked_reason"
    ),
    _table("oauth_codes", "code_hash request_id expires_at used_at connection_id"),
    _table("oauth_tokens", "token_hash connection_id kind scopes created_at expires_at used_at revoked_at"),
)
BY_NAME = {table.name: table for table in TABLES}


def table(name: str) -> Table:
    """A logical table by name; anything else is refused (names reach SQL text in the engines)."""
    found = BY_NAME.get(name)
    if found is None:
        raise ValueError(f"not a logical table of a store: {name!r}")
    return found


_WORD = re.compile(r"\w+")


def _canonical(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"bytes": bytes(value).hex()}
    return value


def row_digest(table: Table, row: Sequence[Any]) -> int:
    values = [_canonical(value) for value in row]
    if WORDS in table.columns:
        at = table.columns.index(WORDS)
        values[at] = sorted(set(_WORD.findall(values[at] or "")))
    encoded = json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.sha256(encoded).digest(), "big")


@dataclass
class Tally:
    """What one side holds of a table: its rows and a digest that does not depend on their order
    (the sum of each row's sha256, modulo 2**256)."""

    rows: int = 0
    digest: int = 0

    def add(self, table: Table, rows: Iterable[Sequence[Any]]) -> None:
        for row in rows:
            self.rows += 1
            self.digest = (self.digest + row_digest(table, row)) % (1 << 256)


# What a restore keeps from the store it replaces, whatever the backup says (`MaintenanceRows.revocations`):
# a row's key and the columns that, once set, revoke or spend it. A principal or token revoked, an OAuth
# connection revoked, an OAuth token revoked or a refresh token spent stays so.
REVOCATIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("principals", "name", ("revoked_at",)),
    ("tokens", "token_hash", ("revoked_at",)),
    ("oauth_connections", "id", ("revoked_at", "revoked_reason")),
    ("oauth_tokens", "token_hash", ("revoked_at", "used_at")),
    ("oauth_codes", "code_hash", ("used_at",)),
)
