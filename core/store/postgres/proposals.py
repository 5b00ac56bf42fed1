"""The approval inbox: staged changes and their decisions."""

from __future__ import annotations

import json
from typing import Any

from memvault.core.store.postgres.connection import Connection
from memvault.core.store.rows import proposal_from
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
        " created_at) VALUES (%s, %s, 'pending', %s, %s, %s, %s, %s, %s, %s)",
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
        "SELECT id, payload FROM proposals WHERE status = 'pending' AND kind = %s AND norm_key = %s AND principal = %s",
        (kind, norm_key, caller.principal),
    ):
        if json.loads(row["payload"])["draft"].get("domain") == domain:
            return str(row["id"])
    return None


def fetch(conn: Connection, proposal_id: str) -> ProposalRow | None:
    row = conn.execute("SELECT * FROM proposals WHERE id = %s", (proposal_id,)).fetchone()
    return proposal_from(row) if row else None


def list_by_status(conn: Connection, status: str, limit: int) -> list[ProposalRow]:
    rows = conn.execute(
        "SELECT * FROM proposals WHERE status = %s ORDER BY created_at, id LIMIT %s", (status, limit)
    ).fetchall()
    return [proposal_from(row) for row in rows]


def count_pending(conn: Connection, principal: str | None = None) -> int:
    """Pending proposals: all of them, or one principal's own."""
    row = conn.execute(
        "SELECT count(*) AS n FROM proposals WHERE status = 'pending' AND (%s::text IS NULL OR principal = %s)",
        (principal, principal),
    ).fetchone()
    return int(row["n"]) if row else 0


def decide(conn: Connection, proposal_id: str, status: str, now: str, result_id: str | None = None) -> None:
    """Close a proposal. A rejected one keeps no content: the person said no to storing it."""
    conn.execute(
        "UPDATE proposals SET status = %(status)s, decided_at = %(now)s, result_id = %(result)s,"
        " payload = CASE WHEN %(status)s = 'rejected' THEN '{}' ELSE payload END,"
        " norm_key = CASE WHEN %(status)s = 'rejected' THEN NULL ELSE norm_key END,"
        " reason = CASE WHEN %(status)s = 'rejected' THEN NULL ELSE reason END"
        " WHERE id = %(id)s AND status = 'pending'",
        {"status": status, "now": now, "result": result_id, "id": proposal_id},
    )
