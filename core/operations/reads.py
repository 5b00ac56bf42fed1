"""Reading memories: one record with its history, pages of records, and the store's counts."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any, cast

from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.errors import InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller, Memory, MemoryId, Status
from memvault.core.vocabulary.requests import ListRequest
from memvault.core.vocabulary.results import Counts, LinkRef, Provenance, RecordPage, RecordView


def history_of(conn: Store, caller: Caller, record: Memory) -> list[Memory]:
    """Older versions of a record, newest first, following `supersedes` back (visible ones only)."""
    older: list[Memory] = []
    seen = {record.id}
    cursor = record.supersedes_id
    while cursor and cursor not in seen:
        seen.add(cursor)
        previous = conn.memories.fetch(caller, cursor)
        if previous is None:
            break
        older.append(previous)
        cursor = previous.supersedes_id
    return older


def get(ctx: Context, caller: Caller, memory_id: MemoryId) -> RecordView:
    with ctx.reading() as conn:
        record = conn.memories.fetch(caller, memory_id)
        if record is None:
            raise NotFound("no such memory")
        return {
            "memory": record.to_dict(),
            "history": [older.to_dict() for older in history_of(conn, caller, record)],
            "links": [
                LinkRef(type=link["type"], target_id=link["target_id"])
                for link in conn.memories.links_from(caller, record.id)
                if link["direction"] == "out"
            ],
            "entities": conn.memories.entity_names(record.id),
        }


def provenance(ctx: Context, caller: Caller, memory_id: MemoryId) -> Provenance:
    with ctx.reading() as conn:
        record = conn.memories.fetch(caller, memory_id)
        extra = conn.memories.provenance_row(memory_id) if record is not None else None
    if record is None or extra is None:
        raise NotFound("no such memory")
    stored_hash = extra["evidence_hash"]
    intact = None
    if record.evidence is not None and stored_hash is not None:
        intact = hashlib.sha256(record.evidence.encode()).hexdigest() == stored_hash
    return {
        "memory_id": record.id,
        "source": record.source,
        "source_reference": record.source_reference,
        "evidence": record.evidence,
        "evidence_hash": stored_hash,
        "evidence_intact": intact,
        "created_by": extra["created_by"],
        "import_batch_id": extra["import_batch_id"],
        "learned_at": record.learned_at,
        "event_time": record.event_time,
    }


MAX_CURSOR_CHARS = 200  # a timestamp and an id, base64: far less


def _encode_cursor(record: Memory) -> str:
    return base64.urlsafe_b64encode(json.dumps([record.created_at, record.id]).encode()).decode()


def _decode_cursor(cursor: Any) -> tuple[str, str]:
    refused = InvalidArgument("cursor: not a cursor this store gave out")
    if not isinstance(cursor, str) or len(cursor) > MAX_CURSOR_CHARS:
        raise refused
    try:
        created_at, memory_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, TypeError, RecursionError):  # RecursionError: JSON nested thousands deep
        raise refused from None
    if not isinstance(created_at, str) or not isinstance(memory_id, str):
        raise refused
    return created_at, memory_id


def list_memories(ctx: Context, caller: Caller, request: ListRequest) -> RecordPage:
    limit = request.limit
    with ctx.reading() as conn:
        page = conn.memories.page(
            caller,
            domain=request.domain,
            type_=request.type.value if request.type else None,
            status=request.status.value,
            before=_decode_cursor(request.cursor) if request.cursor else None,
            limit=limit + 1,
        )
    more = len(page) > limit
    page = page[:limit]
    return {"items": [r.to_dict() for r in page], "next_cursor": _encode_cursor(page[-1]) if more else None}


def counts(conn: Store, caller: Caller) -> Counts:
    by_status, by_domain = conn.memories.counts(caller)
    every_status = {status.value: by_status.get(status.value, 0) for status in Status}
    return cast(Counts, {**every_status, "total": sum(every_status.values()), "by_domain": by_domain})


def pending_count(conn: Store, caller: Caller) -> int:
    """Local callers see the whole inbox; others only what they proposed themselves."""
    return conn.proposals.count_pending(None if caller.is_local else caller.principal)
