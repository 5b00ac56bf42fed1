"""`memory_record_feedback`: was a retrieved record useful?

The feedback row keeps the record's id, the verdict, who said it, the person's note (if
any) and when. The query that led to the record is never stored, not even as a hash
(a short query's hash is easy to guess back): it is validated and dropped. A note that
holds a secret is refused, as any write would be.
"""

from __future__ import annotations

from memvault.core.store.context import Context
from memvault.core.vocabulary.errors import InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller, Status
from memvault.core.vocabulary.requests import FeedbackRequest
from memvault.core.vocabulary.results import Ok
from memvault.core.writer.secrets import find_secrets


def record_feedback(ctx: Context, caller: Caller, request: FeedbackRequest) -> Ok:
    memory_id, useful, note = request.id, request.useful, request.note
    if note and find_secrets(note):
        raise InvalidArgument("note: it looks like it holds a secret; secrets are never stored")
    with ctx.transaction() as conn:
        record = conn.memories.fetch(caller, memory_id)
        if record is None or record.status is Status.ARCHIVED:
            raise NotFound("no such memory")
        now = ctx.now()
        conn.views.add_feedback(record.id, useful, caller.principal, note, now)
        conn.events.record(caller, "feedback", now, record.id, useful=useful, note_given=note is not None)
    return {"ok": True}
