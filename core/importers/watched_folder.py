"""The watched folder `MEMVAULT_HOME/imports/inbox`: a dropped export gets a dry run whose report
waits in the approval inbox; approving it commits the import in chunks, resumably, through the
same `run.commit` as `memvault import --commit`.

`InboxWatcher` watches the folder (watchdog's inotify observer reports a file once it is closed
after writing or moved in; files created right after a new sub-folder can be missed, so a new
folder is looked at again). Given `on_drop`, it only says which file arrived and stages nothing:
the daemon passes such files to its upkeep process (`stage_files`), so the reading and dry run
of a large export never hold the daemon's store, memory or interpreter while sessions wait.
Without it (tests, a single process) it stages in its own threads.

Only regular files inside the folder are offered: a link leading out of it, a device, a FIFO or
a socket is left alone. An unzipped ChatGPT or Claude export dropped as a folder is staged by its
conversations.json; the files beside it (users.json, projects.json, user.json, chat.html, ...) are
not exports and are not offered. A file already staged (known by its sha256) is not read again. A file
that is not an export is logged (its name and the error's code, never its content) and left.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypedDict

from watchdog.events import DirCreatedEvent, FileClosedEvent, FileMovedEvent, FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from memvault.core.importers import files, run
from memvault.core.importers.layout import COMPANIONS
from memvault.core.importers.report import ImportReport
from memvault.core.importers.request import ImportRequest
from memvault.core.store.context import Context
from memvault.core.vocabulary.errors import MemvaultError
from memvault.core.vocabulary.model import HOUSEKEEPER, Caller
from memvault.core.vocabulary.results import ProposalRow

log = logging.getLogger("memvault.import.inbox")

SUFFIXES = (".zip", ".json", ".jsonl", ".md", ".markdown")
# told of each dropped file (None: look at the whole folder, e.g. for files dropped while nothing watched)
OnDrop = Callable[[Path | None], None]


class InboxPass(TypedDict):
    """What one look at the inbox did (counts only)."""

    staged: int
    already: int  # staged before (the same bytes)
    refused: int  # not an export, malformed, too large


def inbox_folder(ctx: Context) -> Path:
    folder = ctx.paths.imports / "inbox"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def stage(ctx: Context, path: Path, caller: Caller = HOUSEKEEPER, request: ImportRequest | None = None) -> str | None:
    """Dry-run `path` (with `request`'s limits and chunk size) and put its report in the approval inbox;
    the proposal's id (None: already staged)."""
    request = request or ImportRequest(path=str(path))
    with ctx.reading() as conn:  # known by its bytes: not read again
        if conn.imports.staged_import(files.digest([(b"", path)])):
            return None
    report = run.dry_run(ctx, caller, request)
    counts = report["counts"]
    summary = (
        f"import {path.name} ({report['format']}): add {counts['added']}, correct {counts['corrected']},"
        f" already known {counts['confirmed']}, excluded {counts['excluded']}; approve to commit"
    )
    payload = {
        "path": str(path), "format": report["format"], "source_hash": report["source_hash"], "counts": counts,
        "options": request.options(),
    }  # fmt: skip
    with ctx.transaction() as conn:
        if conn.imports.staged_import(report["source_hash"]):
            return None
        now = ctx.now()
        proposal_id = conn.proposals.stage(caller, "import", payload, now, norm_key=report["source_hash"],
                                      reason=summary)  # fmt: skip
        conn.events.record(caller, "proposed", now, None, proposal_id=proposal_id, kind="import")
    return proposal_id


def commit_approved(ctx: Context, proposer: Caller, proposal: ProposalRow, finish: run.Finish) -> ImportReport:
    """Approval of a staged import (called by the approval inbox): the commit of `memvault import
    --commit` with the options of the dry run the person read, refused when the file changed since.
    `finish` closes the proposal inside the last chunk's transaction; until then approving again
    resumes. The batch is listed by `memvault import --list` and undone by `--rollback`."""
    payload = proposal["payload"]
    options = {k: v for k, v in dict(payload.get("options") or {}).items() if k in ImportRequest.__dataclass_fields__}
    request = ImportRequest(path=str(payload["path"]), format=str(payload["format"]), commit=True, **options)
    return run.commit(ctx, proposer, request, run.Hooks(expect_hash=str(payload["source_hash"]), finish=finish))


def offered(folder: Path, path: Path) -> bool:
    """A file the inbox takes: an export's suffix, not hidden, a regular file inside the folder, and
    not one of the files beside an unzipped export's conversations.json (users.json, chat.html...)."""
    name = path.name.lower()
    return (
        path.suffix.lower() in SUFFIXES
        and not name.startswith(".")
        and name not in COMPANIONS
        and files.within(folder, path)
    )


def stage_files(ctx: Context, caller: Caller, paths: Iterable[Path] | None = None) -> InboxPass:
    """Stage the given dropped files (None: every file in the inbox), one after another."""
    folder = inbox_folder(ctx)
    chosen = sorted(folder.rglob("*")) if paths is None else [Path(p) for p in paths]
    done: InboxPass = {"staged": 0, "already": 0, "refused": 0}
    for path in chosen:
        if not offered(folder, path):
            continue
        try:
            staged = stage(ctx, path, caller)
        except MemvaultError as exc:  # not an export, malformed, too large: said once in the log
            log.warning("inbox: %s not staged (%s)", path.name, exc.code)
            done["refused"] += 1
            continue
        log.info("inbox: %s %s", path.name, f"staged as {staged}" if staged else "already staged")
        done["staged" if staged else "already"] += 1
    return done


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: InboxWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if isinstance(event, DirCreatedEvent):
            self.watcher.scan(Path(str(event.src_path)))
        elif isinstance(event, FileClosedEvent):
            self.watcher.offer(Path(str(event.src_path)))
        elif isinstance(event, FileMovedEvent):
            self.watcher.offer(Path(str(event.dest_path)))


class InboxWatcher:
    """Watches the inbox folder of one open store (thread-safe through the context's lock)."""

    def __init__(self, ctx: Context, on_drop: OnDrop | None = None) -> None:
        self.ctx = ctx
        self.folder = inbox_folder(ctx)
        self.on_drop = on_drop
        self.observer: Any = None
        self.stopped = threading.Event()

    def offer(self, path: Path) -> None:
        if self.stopped.is_set() or not offered(self.folder, path):
            return
        if self.on_drop is not None:
            self.on_drop(path)
        else:
            stage_files(self.ctx, HOUSEKEEPER, [path])

    def scan(self, folder: Path | None = None) -> None:
        for path in sorted((folder or self.folder).rglob("*")):
            self.offer(path)

    def start(self) -> None:
        self.observer = Observer()
        self.observer.schedule(_Handler(self), str(self.folder), recursive=True)
        self.observer.start()
        # files dropped while nothing watched
        if self.on_drop is not None:
            self.on_drop(None)
        else:  # offered beside the caller's start, not before it
            threading.Thread(target=self.scan, name="memvault-inbox-scan", daemon=True).start()

    def stop(self) -> None:
        self.stopped.set()
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=5)
            self.observer = None
