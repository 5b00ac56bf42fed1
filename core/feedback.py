"""`memory_record_feedback`: was a retrieved record useful?

The feedback row keeps the record's id, the verdict, who said it, the person's note (if
any) and when. The query that led to the record is never stored, not even as a hash
(a short query's hash is easy to guess back): it is validated and dropped. A note that
holds a secret is refused, as any write would be.
"""

from __future__ import annotations

from typing import Any

from memvault.core.context import Context
from memvault.core.drafts import required_text, text
from memvault.core.errors import InvalidArgument, NotFound
from memvault.core.model import Caller, Status
from memvault.core.search_request import MAX_QUERY_CHARS
from memvault.core.store import events, memories
from memvault.core.store import view_queries as view_sql
from memvault.core.writer.secrets import find_secrets

MAX_NOTE_CHARS = 1000


def record_feedback(ctx: Context, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
    unknown = set(args) - {"id", "useful", "query", "note"}
    if unknown:
        raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))}")
    memory_id = required_text(args.get("id"), "id", max_chars=64)
    useful = args.get("useful")
    if not isinstance(useful, bool):
        raise InvalidArgument("useful: expected true or false")
    text(args.get("query"), "query", max_chars=MAX_QUERY_CHARS)  # validated, never kept
    note = text(args.get("note"), "note", max_chars=MAX_NOTE_CHARS)
    if note and find_secrets(note):
        raise InvalidArgument("note: it looks like it holds a secret; secrets are never stored")
    with ctx.transaction() as conn:
        record = memories.fetch(conn, caller, memory_id)
        if record is None or record.status is Status.ARCHIVED:
            raise NotFound("no such memory")
        now = ctx.now()
        view_sql.add_feedback(conn, record.id, useful, caller.principal, note, now)
        events.record(conn, caller, "feedback", now, record.id, useful=useful, note_given=note is not None)
    return {"ok": True}
