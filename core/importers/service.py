"""`Vault.imports`: the import sub-API (dry run, commit, rollback, the list, conversation search).

Everything here is for local callers only. The person (CLI, desktop) commits and rolls back
directly; an assistant may run dry runs, and commits only in automatic write mode (an import
is many writes at once: in review-before-write mode the person commits it).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypedDict

from memvault.core.importers import rollback as undo
from memvault.core.importers import run
from memvault.core.importers.conversation import FORMATS
from memvault.core.importers.readers import DEFAULT_MAX_BYTES, read_export
from memvault.core.importers.report import ExportSummary, ImportReport, RollbackReport
from memvault.core.importers.request import ImportRequest
from memvault.core.importers.watched_folder import InboxPass, InboxWatcher, OnDrop, stage_files
from memvault.core.retrieval.query import query_terms
from memvault.core.retrieval.seam import Retriever
from memvault.core.security.access import check_kill_switch, require_local, require_owner
from memvault.core.store.context import Context
from memvault.core.vocabulary.drafts import int_in, optional_time, required_text
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument, ReadOnlyMode
from memvault.core.vocabulary.model import Caller, WriteMode

MAX_CONVERSATION_HITS = 50


class ConversationHits(TypedDict):
    items: list[dict[str, Any]]


class Imports:
    def __init__(self, ctx: Context, retriever: Retriever) -> None:
        self.ctx = ctx
        self.retriever = retriever

    def _guard(self, caller: Caller, operation: str, *, writes: bool = False) -> None:
        check_kill_switch(self.ctx.kill_switch(), caller)
        require_local(caller, operation)
        if writes and not caller.owner:
            mode = WriteMode(self.ctx.setting("write_mode"))
            if mode is WriteMode.RETRIEVAL_ONLY:
                raise ReadOnlyMode("memvault is in retrieval-only mode: assistants cannot write")
            if mode is not WriteMode.AUTOMATIC:
                raise Forbidden(f"{operation} waits for the person: `memvault import PATH --commit` (or --rollback)")

    def inbox_watcher(self, on_drop: OnDrop | None = None) -> InboxWatcher:
        """A watcher of this store's imports/inbox folder: dropped exports wait, read as a dry run, in
        the approval inbox. With `on_drop` it only reports the files dropped (the daemon hands them to
        `stage_inbox` in its upkeep process)."""
        return InboxWatcher(self.ctx, on_drop)

    def stage_inbox(self, caller: Caller, paths: Iterable[str | Path] | None = None) -> InboxPass:
        """Dry-run the given files of the inbox folder (None: all of them) into the approval inbox;
        one already staged is not read again. The owner's housekeeping only."""
        require_owner(caller, "staging the imports inbox")
        return stage_files(self.ctx, caller, None if paths is None else [Path(p) for p in paths])

    def run(self, caller: Caller, request: ImportRequest, hooks: run.Hooks | None = None) -> ImportReport:
        """A dry run (the default) or, with `request.commit`, the import itself (resumable; a stop
        ends it after a whole chunk, and the same commit again resumes there)."""
        self._guard(caller, "importing", writes=request.commit)
        if not request.commit:
            return run.dry_run(self.ctx, caller, request, hooks)
        report = run.commit(self.ctx, caller, request, hooks)
        self.retriever.after_write(self.ctx)  # embed what was added
        return report

    def inspect(
        self, caller: Caller, path: str, fmt: str = "auto", max_bytes: int = DEFAULT_MAX_BYTES
    ) -> ExportSummary:
        """The export's format (told apart when `fmt` is auto), conversations, size and dates; a file
        that is not an export is refused naming the file and the place. Reads only."""
        self._guard(caller, "reading an export")
        export = read_export(required_text(path, "path", max_chars=4096), fmt, max_bytes)
        times = sorted(c.started_at for c in export.outlines if c.started_at)
        return {
            "path": export.path, "format": export.format, "conversations": len(export.outlines),
            "bytes": export.size_bytes, "first": times[0] if times else None, "last": times[-1] if times else None,
        }  # fmt: skip

    def rollback(self, caller: Caller, batch_id: str, *, dry_run: bool = False) -> RollbackReport:
        """Undo one batch exactly, keeping what changed since (each such record is listed with why);
        `dry_run` reports the same and writes nothing."""
        self._guard(caller, "rolling back an import", writes=not dry_run)
        return undo.rollback(self.ctx, caller, batch_id, dry_run=dry_run)

    def batches(self, caller: Caller, limit: int = 50) -> list[dict[str, Any]]:
        self._guard(caller, "listing imports")
        with self.ctx.reading() as conn:
            return conn.imports.list_manifests(limit)

    def search_conversations(
        self, caller: Caller, *, query: str, limit: int = 10, start: str | None = None, end: str | None = None,
        source: str | None = None,
    ) -> ConversationHits:  # fmt: skip
        """memory_search_conversations: conversations matching the words, with a short snippet each."""
        self._guard(caller, "memory_search_conversations")
        text = required_text(query, "query", max_chars=1000)
        limit = int_in(limit, "limit", 10, 1, MAX_CONVERSATION_HITS)
        start, end = optional_time(start, "start"), optional_time(end, "end")
        if source is not None and source not in FORMATS:
            raise InvalidArgument(f"source: expected one of {', '.join(FORMATS)}")
        words = query_terms(text)
        if not words:
            return {"items": []}
        with self.ctx.reading() as conn:
            rows = conn.conversations.search(words, limit=limit, start=start, end=end, fmt=source)
        return {"items": rows}
