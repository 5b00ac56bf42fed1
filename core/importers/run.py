"""Running an import: the dry run (nothing written) and the commit (one transaction per chunk).

The commit writes a manifest first (in the first chunk's transaction) and moves its
`chunks_done` in the same transaction as each chunk, so a crash, Ctrl-C or a stop leaves whole
chunks only and the next commit of the same file resumes after the last one. The CLI, the
desktop's import dialog and an import approved in the inbox all commit through `commit`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from memvault.core.importers import extract
from memvault.core.importers.conversation import Conversation, Outline
from memvault.core.importers.decide import BatchMemory, Decision, decide
from memvault.core.importers.prepare import Prepared, prepare, text_hash
from memvault.core.importers.readers import Export, read_export
from memvault.core.importers.report import ImportReport, Tally
from memvault.core.importers.request import ImportRequest
from memvault.core.retrieval.placement import assign_domain
from memvault.core.security.access import write_scope
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.errors import Conflict, MemvaultError
from memvault.core.vocabulary.model import Caller, LinkType, new_id
from memvault.core.writer.classify import Embed, local_embeddings, remembered
from memvault.core.writer.gate import secret_rejection
from memvault.core.writer.normalize import normalize_statement
from memvault.core.writer.similarity import parse
from memvault.core.writer.writes import apply_correction, commit_draft, confirm

log = logging.getLogger("memvault.import")

SNIPPET_CHARS = 240
# progress(conversations done, conversations in all, counts so far)
Progress = Callable[[int, int, dict[str, int]], None]
Stop = Callable[[], bool]  # asked between conversations (dry run) or chunks (commit): True stops
# called inside the transaction of an import's last chunk (batch id, time): approval marks its proposal there
Finish = Callable[[Store, str, str], None]


@dataclass(frozen=True)
class Hooks:
    """What a caller may add to a run: progress, a stop (between conversations of a dry run, between
    chunks of a commit), and for a commit the file it must still be (an approved dry run's hash) and
    work inside the last chunk's transaction."""

    progress: Progress | None = None
    stop: Stop | None = None
    expect_hash: str | None = None
    finish: Finish | None = None


class Stopped(MemvaultError):
    """The person stopped a dry run: nothing was written. (No MCP tool passes a stop.)"""

    code = "conflict"


def select(export: Export, request: ImportRequest) -> tuple[list[Outline], int]:
    """The conversations the limits let in, oldest first (later statements correct earlier ones),
    chosen from their outlines: only these are read again, in this order."""
    chosen = [
        c
        for c in export.outlines
        if (request.since is None or (c.started_at or "") >= request.since)
        and (request.until is None or (c.started_at or "") < request.until)
    ]
    chosen.sort(key=lambda c: (c.started_at or "", c.key, c.position))
    if request.max_conversations is not None:
        chosen = chosen[-request.max_conversations :]
    return chosen, len(export.outlines) - len(chosen)


def _prepared(fmt: str, conversation: Conversation, include_weak: bool) -> Iterator[tuple[Prepared, Decision | None]]:
    for item in extract.candidates(conversation):
        prepared = prepare(fmt, item)
        weak = None
        if item.weak and not include_weak:
            weak = Decision("exclude", f"weak candidate ({item.why_weak}): committed only with --include-weak")
        yield prepared, weak


def _report(request: ImportRequest, export: Export, tally: Tally, left_out: int, **extra: object) -> ImportReport:
    report: ImportReport = {
        "dry_run": not request.commit,
        "batch_id": None,
        "resumed": False,
        "path": export.path,
        "format": export.format,
        "source_hash": export.source_hash,
        "inventory": tally.inventory(left_out, export.size_bytes),
        "passes": tally.passes(),
        "additions": tally.lists["additions"],
        "corrections": tally.lists["corrections"],
        "exclusions": tally.lists["exclusions"],
        "sensitivity_flags": tally.lists["sensitivity_flags"],
        "estimate": tally.estimate(),
        "counts": tally.counts(),
        "chunks": {"done": 0, "total": 0},
    }
    report.update(extra)  # type: ignore[typeddict-item]
    return report


def dry_run(ctx: Context, caller: Caller, request: ImportRequest, hooks: Hooks | None = None) -> ImportReport:
    progress, stop = (hooks.progress, hooks.stop) if hooks else (None, None)
    export = read_export(request.path, request.format, request.max_bytes)
    chosen, left_out = select(export, request)
    embed = remembered(local_embeddings(ctx))
    tally, batch = Tally(), BatchMemory()
    seen: dict[str, Decision] = {}  # a sentence said again gets the first one's verdict, judged once
    with ctx.reading() as conn:
        for number, conversation in enumerate(export.conversations(chosen)):
            if stop is not None and stop():
                raise Stopped("the dry run was stopped: nothing was written")
            if progress is not None:
                progress(number, len(chosen), tally.counts())
            tally.saw(conversation)
            found = list(_prepared(export.format, conversation, request.include_weak))
            # a dry run stores nothing of the conversation: screening its candidates at once is enough
            clean = secret_rejection([prepared.draft.statement for prepared, _ in found]) is None
            for prepared, weak in found:
                decision = weak or _repeated(seen, prepared) or decide(conn, caller, embed, prepared, batch, clean)
                seen.setdefault(normalize_statement(prepared.draft.statement), decision)
                tally.judged(prepared, decision)
                if decision.action in ("add", "correct"):
                    batch.remember(prepared.draft.statement)
    if progress is not None:
        progress(len(chosen), len(chosen), tally.counts())
    log.info("import dry run: %d conversation(s), counts %s", tally.conversations, tally.counts())
    return _report(request, export, tally, left_out)


# -- commit ---------------------------------------------------------------------------------------


def _chunks(items: list[Outline], size: int) -> list[list[Outline]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@dataclass
class _Batch:
    """What every chunk of one commit shares."""

    caller: Caller
    embed: Embed | None
    export: Export
    request: ImportRequest
    batch_id: str
    tally: Tally


def _chunk(conn: Store, batch: _Batch, conversations: list[Conversation], now: str) -> None:
    for conversation in conversations:
        _commit_conversation(conn, batch, conversation, now)


def _start(conn: Store, batch: _Batch, chunks_total: int, now: str) -> None:
    """The manifest, in the first chunk's transaction; checked again there, as another commit of the
    same export (the CLI beside an approval in the app) may have started since this one looked."""
    export = batch.export
    _refuse_twice(conn, export.source_hash)
    if conn.imports.unfinished_for(export.source_hash):
        raise Conflict("another import of this export started meanwhile: its commit resumes it")
    conn.imports.create_batch(batch.batch_id, path=export.path, fmt=export.format, source_hash=export.source_hash,
        options=batch.request.options(), chunks_total=chunks_total, now=now,
    )  # fmt: skip


def commit(ctx: Context, caller: Caller, request: ImportRequest, hooks: Hooks | None = None) -> ImportReport:
    hooks = hooks or Hooks()
    export = read_export(request.path, request.format, request.max_bytes, expect_hash=hooks.expect_hash)
    with ctx.reading() as conn:
        batch_id = conn.imports.unfinished_for(export.source_hash)
        manifest = conn.imports.manifest(batch_id) if batch_id else None
        _refuse_twice(conn, export.source_hash)
    if manifest is not None:  # resume with the options the import started with
        request = replace(request, **manifest["options"])
    chosen, left_out = select(export, request)
    chunks = _chunks(chosen, request.chunk_size)
    done = reached = manifest["chunks_done"] if manifest else 0
    batch = _Batch(caller, remembered(local_embeddings(ctx)), export, request, batch_id or new_id("b"), Tally())
    started = time.monotonic()
    reading = export.conversations([outline for chunk in chunks[done:] for outline in chunk])
    for number in range(done, len(chunks)):
        if hooks.stop is not None and hooks.stop():
            break
        conversations = list(islice(reading, len(chunks[number])))  # read before the transaction opens
        with ctx.transaction() as conn:
            _commit_chunk(ctx, conn, batch, conversations, (number, len(chunks)), manifest, hooks.finish)
        reached = number + 1
        if hooks.progress:
            hooks.progress(sum(len(c) for c in chunks[:reached]), len(chosen), batch.tally.counts())
    if not chunks and hooks.finish is not None:  # nothing to import: still decided, in a transaction
        with ctx.transaction() as conn:
            hooks.finish(conn, batch.batch_id, ctx.now())
    log.info("import %s: chunks %d..%d of %d in %.1f s", batch.batch_id, done, reached, len(chunks),
             time.monotonic() - started)  # fmt: skip
    return _report(
        request, export, batch.tally, left_out, batch_id=batch.batch_id, resumed=manifest is not None,
        chunks={"done": reached, "total": len(chunks), "resumed_from": done},
    )  # fmt: skip


def _commit_chunk(
    ctx: Context, conn: Store, batch: _Batch, conversations: list[Conversation], place: tuple[int, int],
    manifest: dict[str, Any] | None, finish: Finish | None,
) -> None:  # fmt: skip
    """One chunk (`place`: its number from 0, and how many there are) and the manifest's move past it,
    in the caller's transaction."""
    number, total = place
    now = ctx.now()
    if number == 0 and manifest is None:
        _start(conn, batch, total, now)
    _chunk(conn, batch, conversations, now)
    totals = _add_counts(manifest["counts"] if manifest else {}, batch.tally.counts())
    last = number + 1 == total
    conn.imports.chunk_done(batch.batch_id, number + 1, totals, now if last else None)
    conn.events.record(batch.caller, "import_chunk", now, None, batch_id=batch.batch_id, chunk=number + 1)
    if last and finish is not None:
        finish(conn, batch.batch_id, now)


def _add_counts(before: dict[str, int], now: dict[str, int]) -> dict[str, int]:
    return {key: before.get(key, 0) + now.get(key, 0) for key in set(before) | set(now)}


def _refuse_twice(conn: Store, source_hash: str) -> None:
    for row in conn.imports.list_manifests(limit=1000):
        if row["status"] == "committed" and row["finished_at"] and _hash_of(conn, row["batch_id"]) == source_hash:
            raise Conflict(f"this export was already imported as batch {row['batch_id']} (roll it back first)")


def _hash_of(conn: Store, batch_id: str) -> str | None:
    manifest = conn.imports.manifest(batch_id)
    return None if manifest is None else str(manifest["source_hash"])


def _commit_conversation(conn: Store, batch: _Batch, conversation: Conversation, now: str) -> None:
    batch.tally.saw(conversation)
    clean = _clean(conversation)
    fmt = batch.export.format
    _store_conversation(conn, fmt, conversation, batch.batch_id, clean, now)
    written: list[tuple[str, frozenset[str]]] = []
    for prepared, weak in _prepared(fmt, conversation, batch.request.include_weak):
        decision = weak or decide(conn, batch.caller, batch.embed, prepared, None, clean)
        batch.tally.judged(prepared, decision)
        memory_id = _apply(conn, batch.caller, prepared, decision, batch.batch_id, now)
        if memory_id:
            batch.tally.links += _link(conn, memory_id, prepared, written, now)


def _clean(conversation: Conversation) -> bool:
    """No secret anywhere in the conversation (title and every turn), by one pass of the detectors."""
    return secret_rejection([conversation.title, *(t.text for t in conversation.turns)]) is None


def _repeated(seen: dict[str, Decision], prepared: Prepared) -> Decision | None:
    """In a dry run, a statement said before in the batch: excluded if the first was new, else as the first."""
    first = seen.get(normalize_statement(prepared.draft.statement))
    if first is not None and first.action in ("add", "correct"):
        return Decision("exclude", "said again earlier in this import")
    return first


def _store_conversation(
    conn: Store, fmt: str, conversation: Conversation, batch_id: str, clean: bool, now: str
) -> None:
    """The conversation as a source: title, a short snippet of the person's words, its words indexed
    (a turn or title holding a secret is left out of all three)."""
    spoken = [t.text for t in conversation.turns if clean or secret_rejection([t.text]) is None]
    first = next((t.text for t in conversation.user_turns if t.text in spoken), "")
    title = conversation.title if clean or secret_rejection([conversation.title]) is None else "untitled"
    row = {
        "id": new_id("c"),
        "source_id": new_id("s"),
        "title": title[:300],
        "started_at": conversation.started_at,
        "snippet": " ".join(first.split())[:SNIPPET_CHARS] or None,
        "batch_id": batch_id,
        "format": fmt,
        "reference": f"{fmt}:{conversation.key}"[:300],
        "content_hash": text_hash("\n".join(t.text for t in conversation.turns)),
        "turns": len(conversation.turns),
    }
    conn.conversations.insert(row, "\n".join(spoken), now)


def _apply(conn: Store, caller: Caller, prepared: Prepared, decision: Decision, batch_id: str, now: str) -> str | None:
    if decision.action == "confirm" and decision.target is not None:
        prior = conn.imports.prior_of(decision.target.id)
        confirm(conn, caller, decision.target.id, now)
        conn.imports.add_done_item(batch_id, "confirmed", target_id=decision.target.id, prior=prior)
        return None
    if decision.action == "correct" and decision.target is not None:
        target = decision.target
        prior = conn.imports.prior_of(target.id)
        start = max(filter(None, (prepared.draft.event_time, target.valid_from)), default=now)
        new_id = apply_correction(
            conn, caller, target, prepared.draft.statement, "import: " + decision.reason, start, now,
            source_reference=prepared.pointer,
        )  # fmt: skip
        conn.imports.tag_batch(new_id, batch_id)
        conn.imports.add_done_item(batch_id, "corrected", memory_id=new_id, target_id=target.id, prior=prior)
        return new_id
    if decision.action != "add":
        return None
    scope, workspace = write_scope(caller, None)
    draft = prepared.draft
    domain = assign_domain(conn, draft.statement, caller, scope)
    if not conn.memories.domain_exists(domain):
        conn.imports.add_item(batch_id, "domain_created", target_id=domain)
    draft = replace(draft, domain=domain, access_scope=scope)
    memory_id = commit_draft(conn, caller, draft, workspace, now, import_batch_id=batch_id)
    conn.imports.add_done_item(batch_id, "added", memory_id=memory_id)
    return memory_id


def _link(conn: Store, memory_id: str, prepared: Prepared, written: list[tuple[str, frozenset[str]]], now: str) -> int:
    """Records of one conversation that name the same thing (a name, a project) relate to each other."""
    names = frozenset(v for v in parse(prepared.draft.statement).values if not any(c.isdigit() for c in v))
    made = 0
    for other, other_names in written:
        if names & other_names:
            conn.memories.add_link(memory_id, other, LinkType.RELATES_TO.value, now, weight=0.5)
            made += 1
    written.append((memory_id, names))
    return made
