"""Purge: a person-confirmed, irreversible removal of a record's content, everywhere memvault keeps it.

Two steps, never bundled with archive:

1. `request` (any caller who may see the record; import batches: local callers)
   files a proposal of kind `purge` and answers `confirmation_required`.
2. `confirm` (the person only) removes the content from the store (the record,
   its FTS and trigram entries, vectors, links, entities no other record uses,
   feedback, usage, retrieval-log rows listing it, proposals carrying its text),
   leaves a content-free tombstone, merges the text indexes, checkpoints and
   truncates the WAL and VACUUMs, then reaches the exports and every known
   backup (see `purge_reach`). The answer reports what was cleaned and what
   memvault cannot reach.

By default a purge takes the named record only; its neighbours in the
supersession chain stay and lose their pointer to it. With `whole_history`
every version before and after it in the chain goes too.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from typing import Any, cast

from memvault.core.maintenance import purge_reach
from memvault.core.security.access import require_local, require_owner
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import required_text
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller, MemoryId, ProposalId
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.results import (
    ProposalRow,
    PurgedStore,
    PurgePreview,
    PurgeRejected,
    PurgeReport,
    PurgeRequested,
    PurgeRequestRow,
    StoreFlush,
    SweepReport,
)
from memvault.core.writer.gate import secret_rejection

log = logging.getLogger("memvault.maintenance")

REASON_CATEGORIES = ("privacy", "incorrect", "sensitive", "obsolete", "legal", "other")
CHECKPOINT_TRIES = 20


def reason_category(reason: str | None) -> str:
    """The tombstone keeps only a category: the first word of the reason when it names one."""
    first = (reason or "").strip().split(maxsplit=1)[0].rstrip(":,.").lower() if (reason or "").strip() else ""
    return first if first in REASON_CATEGORIES else "other"


def request(ctx: Context, caller: Caller, asked: PurgeRequest) -> PurgeRequested:
    reason, whole_history = asked.reason, asked.whole_history
    refused = secret_rejection([reason])  # the reason waits in the inbox with the request
    if refused:
        raise InvalidArgument(refused)
    with ctx.transaction() as conn:
        if asked.id is not None:
            memory_id = asked.id
            if conn.memories.fetch(caller, memory_id) is None:
                raise NotFound("no such memory")
            target: dict[str, Any] = {"memory_id": memory_id}
        else:
            require_local(caller, "purging an import batch")
            batch_id = str(asked.batch_id)
            if not conn.maintenance.batch_exists(batch_id):
                raise NotFound("no such import batch")
            target = {"batch_id": batch_id}
        payload = {**target, "whole_history": whole_history, "reason_category": reason_category(reason)}
        now = ctx.now()
        request_id = conn.proposals.stage(
            caller, "purge", payload, now, target_id=target.get("memory_id"), reason=reason
        )
        conn.events.record(
            caller,
            "purge_requested",
            now,
            target.get("memory_id"),
            request_id=request_id,
            **{k: v for k, v in payload.items() if k != "memory_id"},
        )
    return {"outcome": "confirmation_required", "request_id": ProposalId(request_id)}


def list_requests(ctx: Context, caller: Caller, status: str | None = "pending") -> list[PurgeRequestRow]:
    require_owner(caller, "reading purge requests")
    if status not in (None, "pending", "approved", "rejected"):
        raise InvalidArgument("status: expected pending, approved or rejected")
    with ctx.reading() as conn:
        return cast(list[PurgeRequestRow], conn.maintenance.purge_requests(status))


def _pending_request(conn: Store, request_id: Any) -> ProposalRow:
    request_id = required_text(request_id, "request_id", max_chars=64)
    found = conn.proposals.fetch(request_id)
    if found is None or found["kind"] != "purge":
        raise NotFound("no such purge request")
    if found["status"] != "pending":
        raise Conflict(f"the purge request was already {found['status']}")
    return found


def _targets(conn: Store, payload: dict[str, Any]) -> list[str]:
    if payload.get("batch_id"):
        start = conn.maintenance.batch_members(payload["batch_id"])
    else:
        start = conn.maintenance.existing_ids([payload["memory_id"]])
    if not payload.get("whole_history"):
        return start
    seen, queue = set(start), deque(start)
    while queue:
        for neighbour in conn.maintenance.chain_neighbours(queue.popleft()):
            if neighbour not in seen:
                seen.add(neighbour)
                queue.append(neighbour)
    return sorted(seen)


def preview(ctx: Context, caller: Caller, request_id: str) -> PurgePreview:
    """What confirming `request_id` would remove, for the person to check first."""
    require_owner(caller, "confirming a purge")
    with ctx.reading() as conn:
        found = _pending_request(conn, request_id)
        ids = _targets(conn, found["payload"])
        texts = conn.maintenance.statements_of(ids)
    return {
        "request_id": found["id"],
        "ids": [MemoryId(i) for i in ids],
        "statements": texts,
        "payload": found["payload"],
    }


def reject(ctx: Context, caller: Caller, request_id: str) -> PurgeRejected:
    require_owner(caller, "rejecting a purge request")
    with ctx.transaction() as conn:
        found = _pending_request(conn, request_id)
        now = ctx.now()
        conn.proposals.decide(found["id"], "rejected", now)
        conn.events.record(caller, "rejected", now, found["target_id"], proposal_id=found["id"], kind="purge")
    return {"request_id": found["id"], "outcome": "rejected"}


def confirm(ctx: Context, caller: Caller, request_id: str) -> PurgeReport:
    """Carry out a pending purge request; the answer says what was cleaned and what could not be."""
    require_owner(caller, "confirming a purge")
    with ctx.transaction() as conn:
        found = _pending_request(conn, request_id)
        payload = found["payload"]
        category = str(payload.get("reason_category") or "other")
        ids = _targets(conn, payload)
        texts = list(conn.maintenance.statements_of(ids).values())
        recipients = purge_reach.recipients(conn, ids)
        now = ctx.now()
        counts = conn.maintenance.purge_records(ids, now, category)
        counts["proposals"] = counts.get("proposals", 0) + conn.maintenance.purge_texts(texts)
        if payload.get("batch_id"):
            counts["conversations"] = conn.maintenance.purge_batch_rows(payload["batch_id"])
        closed = {k: v for k, v in payload.items() if k != "reason_category"}
        conn.maintenance.close_purge_request(found["id"], now, category, {**closed, "purged_ids": ids})
        _close_duplicates(conn, ids, found["id"], now, category)
        for memory_id in ids:
            conn.events.record(caller, "purged", now, memory_id, request_id=found["id"], reason_category=category)
        if not ids:
            conn.events.record(caller, "purged", now, None, request_id=found["id"], count=0)
        conn.maintenance.optimize_text_indexes()
    store: PurgedStore = {"removed_rows": {k: v for k, v in counts.items() if v}, **flush(ctx)}
    log.info("purge %s removed %d records", found["id"], len(ids))
    reach = purge_reach.reach_everywhere(ctx, ids, texts, payload.get("batch_id"), category)
    with ctx.lock:  # the backups' new digests went through the WAL: leave it empty again
        store["wal_truncated"] = _checkpoint(ctx) and store["wal_truncated"]
    return {
        "request_id": found["id"],
        "outcome": "purged",
        "purged_ids": [MemoryId(i) for i in ids],
        "tombstones": len(ids),
        "store": store,
        **reach,
        "not_cleaned": purge_reach.not_cleaned(recipients)
        + purge_reach.elsewhere_note(ctx)
        + reach["plaintext_copies"],
    }


def _close_duplicates(conn: Store, ids: list[str], request_id: str, now: str, category: str) -> None:
    """Other pending purge requests for the same records are fulfilled by this one."""
    for other in conn.maintenance.purge_requests("pending"):
        if other["id"] != request_id and other["target_id"] in ids:
            payload = {"memory_id": other["target_id"], "fulfilled_by": request_id}
            conn.maintenance.close_purge_request(other["id"], now, category, payload)


def flush(ctx: Context) -> StoreFlush:
    """Make freed pages leave the files: checkpoint and truncate the WAL, VACUUM, truncate again."""
    with ctx.lock:
        checkpointed = _checkpoint(ctx)
        try:
            ctx.store.maintenance.vacuum()
            vacuumed = True
        except ctx.store.engine.errors as exc:  # another process kept writing past the busy timeout
            if not ctx.store.engine.is_busy(exc):
                raise
            log.warning("VACUUM after a purge was refused (store busy); run memvault purge --sweep later")
            vacuumed = False
        checkpointed = _checkpoint(ctx) and checkpointed
    return {"secure_delete": True, "vacuumed": vacuumed, "wal_truncated": checkpointed}


def _checkpoint(ctx: Context) -> bool:
    for _ in range(CHECKPOINT_TRIES):
        if ctx.store.maintenance.checkpoint_truncate():
            return True
        time.sleep(0.1)  # another process is reading; its snapshot ends soon
    log.warning("the WAL could not be truncated: another process kept reading")
    return False


def sweep(ctx: Context, caller: Caller) -> SweepReport:
    """Apply every tombstone again: to the store, the exports and every known backup.

    Finishes a purge that was interrupted after the store was cleaned (a killed
    process, a backup that was busy), and records backups that are gone.
    """
    require_owner(caller, "sweeping purged records")
    with ctx.reading() as conn:
        ids = [memory_id for memory_id, _, _ in conn.maintenance.tombstone_ids()]
    with ctx.transaction() as conn:
        again = purge_reach.apply_tombstones(conn, ctx.now())
        if again:
            conn.maintenance.optimize_text_indexes()
    store = flush(ctx)
    reach = purge_reach.reach_everywhere(ctx, ids, [], None, "other")
    return {"tombstones": len(ids), "store_records_removed": len(again), "store": store, **reach}


def describe_request(found: dict[str, Any]) -> str:
    payload = found["payload"]
    what = f"record {payload['memory_id']}" if payload.get("memory_id") else f"import batch {payload.get('batch_id')}"
    history = " and its whole history" if payload.get("whole_history") else ""
    return f"{found['id']}: purge {what}{history} ({json.dumps(payload.get('reason_category', 'other'))})"
