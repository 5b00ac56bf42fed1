"""Undo an import batch (or a consolidation run): exactly what it added or changed, content back as before.

Records it added are removed the way a purge removes them (every index, vector, link and
proposal; a content-free tombstone remains, so known backups are swept too); records it
confirmed or superseded get their earlier state back; conversations it brought in and
domains it opened (now empty) go. One transaction: all of it or nothing.
"""

from __future__ import annotations

from memvault.core.importers.report import RollbackReport
from memvault.core.store import conversation_rows, events, import_rows
from memvault.core.store.context import Context
from memvault.core.store.maintenance import purge_records
from memvault.core.vocabulary.drafts import required_text
from memvault.core.vocabulary.errors import Conflict, NotFound
from memvault.core.vocabulary.model import Caller


def rollback(ctx: Context, caller: Caller, batch_id: str) -> RollbackReport:
    batch_id = required_text(batch_id, "batch_id", max_chars=64)
    with ctx.transaction() as conn:
        manifest = import_rows.manifest(conn, batch_id)
        if manifest is None:
            raise NotFound("no such import batch")
        if manifest["status"] == "rolled_back":
            raise Conflict("the import batch was already rolled back")
        now = ctx.now()
        items = import_rows.items(conn, batch_id)  # newest first: undo in reverse order
        restored = 0
        for item in items:
            if item["action"] == "linked":
                import_rows.drop_link(conn, item["memory_id"], item["target_id"], item["prior"]["type"])
            elif item["action"] in ("corrected", "confirmed", "changed") and item["prior"]:
                import_rows.put_back(conn, item["target_id"], item["prior"], now)
                events.record(conn, caller, "import_undone", now, item["target_id"], batch_id=batch_id)
                restored += 1
        added = [i["memory_id"] for i in items if i["action"] in ("added", "corrected") and i["memory_id"]]
        purge_records(conn, added, now, "import_rollback")
        for item in items:
            if item["action"] == "domain_created":
                import_rows.drop_unused_domain(conn, item["target_id"])
        conversations = conversation_rows.delete_batch(conn, batch_id)
        import_rows.mark_rolled_back(conn, batch_id, now)
        events.record(conn, caller, "import_rolled_back", now, None, batch_id=batch_id, removed=len(added))
    return {"batch_id": batch_id, "removed": len(added), "restored": restored, "conversations": conversations}
