"""SQL for the approval inbox."""

from __future__ import annotations

import json
from typing import Any

from memvault.core.store.rows import proposal_from
from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.vocabulary.model import Caller, new_id
from memvault.core.vocabulary.results import ProposalRow


def stage(
    conn: Connection,
    caller: Caller,
    kind: str,
    payload: dict[str, Any],
    now: str,
    *,
    target_id: str | None = None,
    norm_key: str | None = None,
    reason: str | None = None,
) -> str:
    proposal_id = new_id("pr")
    conn.execute(
        "INSERT INTO proposals (id, kind, status, target_id, norm_key, payload, principal, surface, reason,"
        " created_at) VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)",
        (
            proposal_id,
            kind,
            target_id,
            norm_key,
            json.dumps(payload),
            caller.principal,
            caller.surface.value,
            reason,
            now,
        ),
    )
    return proposal_id


def pending_same(conn: Connection, caller: Caller, kind: str, norm_key: str, domain: str | None) -> str | None:
    """The caller's own pending proposal that would write the same statement (no duplicates in the inbox)."""
    for row in conn.execute(
        "SELECT id, payload FROM proposals WHERE status = 'pending' AND kind = ? AND norm_key = ? AND principal = ?",
        (kind, norm_key, caller.principal),
    ):
        if json.loads(row["payload"])["draft"].get("domain") == domain:
            return str(row["id"])
    return None


def fetch(conn: Connection, proposal_id: str) -> ProposalRow | None:
    row = conn.execute("SELECT * FROM proposals WHERE id = ?", (proposal_id,)).fetchone()
    return proposal_from(row) if row else None


def list_by_status(conn: Connection, status: str, limit: int) -> list[ProposalRow]:
    rows = conn.execute(
        "SELECT * FROM proposals WHERE status = ? ORDER BY created_at, id LIMIT ?", (status, limit)
    ).fetchall()
    return [proposal_from(row) for row in rows]


def count_pending(conn: Connection, principal: str | None = None) -> int:
    """Pending proposals: all of them, or one principal's own."""
    if principal is None:
        return int(conn.execute("SELECT count(*) FROM proposals WHERE status = 'pending'").fetchone()[0])
    row = conn.execute("SELECT count(*) FROM proposals WHERE status = 'pending' AND principal = ?", (principal,))
    return int(row.fetchone()[0])


def decide(conn: Connection, proposal_id: str, status: str, now: str, result_id: str | None = None) -> None:
    """Close a proposal. A rejected one keeps no content: the person said no to storing it."""
    conn.execute(
        "UPDATE proposals SET status = ?, decided_at = ?, result_id = ?,"
        " payload = CASE WHEN ? = 'rejected' THEN '{}' ELSE payload END,"
        " norm_key = CASE WHEN ? = 'rejected' THEN NULL ELSE norm_key END,"
        " reason = CASE WHEN ? = 'rejected' THEN NULL ELSE reason END"
        " WHERE id = ? AND status = 'pending'",
        (status, now, result_id, status, status, status, proposal_id),
    )
