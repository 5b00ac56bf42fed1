"""`memvault import`: bring in a person's history (dry run by default), commit, resume, roll back.

The person at the CLI is `OWNER`. A terminal gets a progress bar with counts and an ETA on
stderr while a commit runs; Ctrl-C stops after the last whole chunk, and the same command
resumes from there.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from memvault.core.importers.report import ImportReport, RollbackReport
from memvault.core.importers.request import ImportRequest
from memvault.core.importers.run import Hooks
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.commands.common import add_command, emit, open_vault

BAR = 30
SHOWN = 15  # items of each list in the human report


class ProgressBar:
    """`[#####-----] 120/2000 conversations, 340 added, ETA 0:42` redrawn in place on a terminal."""

    def __init__(self) -> None:
        self.started = time.monotonic()

    def __call__(self, done: int, total: int, counts: dict[str, int]) -> None:
        if not sys.stderr.isatty() or not total:
            return
        elapsed = time.monotonic() - self.started
        eta = int(elapsed / done * (total - done)) if done else 0
        filled = BAR * done // total
        sys.stderr.write(
            f"\r[{'#' * filled}{'-' * (BAR - filled)}] {done}/{total} conversations,"
            f" {counts.get('added', 0)} added, {counts.get('corrected', 0)} corrected,"
            f" ETA {eta // 60}:{eta % 60:02d} "
        )
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _lines(title: str, items: list[dict[str, Any]], total: int) -> list[str]:
    if not total:
        return []
    out = [f"{title} ({total}):"]
    for item in items[:SHOWN]:
        said = item["statement"] if item["statement"] is not None else "(withheld)"
        extra = f"  [{item['reason']}]" if title in {"Exclusions", "Corrections"} else ""
        weak = f" (weak: {item['weak']})" if item.get("weak") and title != "Exclusions" else ""
        out.append(f"  {item['type']:<14} {said}{weak}{extra}")
    if total > SHOWN:
        out.append(f"  ... {total - SHOWN} more (--json shows up to 200 of each)")
    return out


def human(report: ImportReport) -> str:
    inv, counts, est = report["inventory"], report["counts"], report["estimate"]
    head = "Dry run (nothing written)" if report["dry_run"] else f"Imported as batch {report['batch_id']}"
    if report["resumed"]:
        head += f" (resumed after chunk {report['chunks'].get('resumed_from', 0)})"
    lines = [
        f"{head}: {report['format']} export {report['path']}",
        f"Inventory: {inv['conversations']} conversations ({inv['left_out_by_limits']} left out by limits),"
        f" {inv['person_turns']} of {inv['turns']} turns the person's, {inv['first'] or '?'} .. {inv['last'] or '?'}",
        f"Candidates: {report['passes']['extraction']['candidates']} ({report['passes']['extraction']['weak']} weak);"
        f" add {counts['added']}, correct {counts['corrected']}, already known {counts['confirmed']},"
        f" excluded {counts['excluded']}",
        f"Estimate: {est['records']} records, ~{est['bytes'] // 1024} KB, ~{est['context_tokens_per_record']}"
        f" tokens per record in a packet",
    ]
    lines += _lines("Additions", report["additions"], counts["added"])
    lines += _lines("Corrections", report["corrections"], counts["corrected"])
    lines += _lines("Exclusions", report["exclusions"], counts["excluded"])
    flagged = report["sensitivity_flags"]
    if flagged:
        lines.append(f"Sensitivity flags: {report['passes']['sensitivity']}")
    if report["dry_run"]:
        lines.append("Nothing was written. Run again with --commit to import.")
    else:
        lines.append(f"Undo with: memvault import --rollback {report['batch_id']}")
    return "\n".join(lines)


def rolled_back(report: RollbackReport) -> str:
    """What a rollback did (or, in a dry run, would do), and each record it leaves as it is."""
    verb = "would remove" if report["dry_run"] else "removed"
    head = "Dry run (nothing written): rolling back" if report["dry_run"] else "Rolled back"
    lines = [
        f"{head} {report['batch_id']}: {verb} {report['removed']} records and {report['conversations']}"
        f" conversations, {'would put' if report['dry_run'] else 'put'} back {report['restored']} records"
    ]
    if report["kept"]:
        lines.append(f"Kept as they are now ({len(report['kept'])}: changed since the import):")
        lines += [f"  {kept['id']}  {kept['reason']}" for kept in report["kept"][:SHOWN]]
        if len(report["kept"]) > SHOWN:
            lines.append(f"  ... {len(report['kept']) - SHOWN} more (--json lists them all)")
    if report["dry_run"]:
        lines.append(f"Nothing was written. Roll back with: memvault import --rollback {report['batch_id']}")
    return "\n".join(lines)


def _import(args: argparse.Namespace) -> int:
    if args.rollback and (args.commit or args.list or args.path):
        raise SystemExit("memvault import --rollback BATCH: no PATH, --commit or --list with it (--dry-run only)")
    with open_vault(args) as vault:
        if args.rollback:
            undone = vault.imports.rollback(OWNER, args.rollback, dry_run=args.dry_run)
            emit(args, undone, rolled_back)
            return 0
        if args.list:
            rows = vault.imports.batches(OWNER)
            emit(args, rows, lambda r: "\n".join(
                f"{x['batch_id']}  {x['status']:<11} {x['format']:<8} {x['chunks_done']}/{x['chunks_total']} chunks"
                f"  {x['started_at']}  {x['path']}" for x in r))  # fmt: skip
            return 0
        if not args.path:
            raise SystemExit("memvault import: give a PATH (or --rollback BATCH, --list)")
        request = ImportRequest.parse(
            {
                "path": args.path,
                "format": args.format,
                "commit": args.commit,
                "since": args.since,
                "until": args.until,
                "max_conversations": args.max_conversations,
                "max_bytes": args.max_bytes,
                "include_weak": args.include_weak,
                "chunk_size": args.chunk_size,
            }
        )
        report = vault.imports.run(OWNER, request, Hooks(progress=ProgressBar()) if args.commit else None)
        emit(args, report, human)
    return 0


def _consolidate_human(report: dict[str, Any]) -> str:
    done = "Would" if report["dry_run"] else "Did"
    lines = [
        f"{done} merge {sum(1 for g in report['merged'] if g['id'] or report['dry_run'])} group(s) of near duplicates,"
        f" propose {report['proposed']} inferred merge(s) for approval, flag {len(report['disputed'])} conflict(s)"
        f" disputed, lower the activation of {report['lowered']} stale record(s) ({report['records_seen']} seen)."
    ]
    lines += [f"  merge {len(g['members'])}: {g['statement']}" for g in report["merged"][:SHOWN]]
    if report["run_id"]:
        lines.append(f"Undo with: memvault consolidate --undo {report['run_id']}")
    return "\n".join(lines)


def _consolidate(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        if args.undo:
            undone = vault.consolidation.undo(OWNER, args.undo)
            emit(
                args,
                undone,
                lambda d: f"Undid {d['batch_id']}: {d['restored']} records put back, {d['removed']} removed",
            )
            return 0
        report = vault.consolidation.run(OWNER, dry_run=args.dry_run)
        emit(args, report, lambda r: _consolidate_human(dict(r)))
    return 0


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "consolidate", _consolidate, "merge near duplicates, flag conflicts disputed, fade stale records"
    )
    p.add_argument("--dry-run", action="store_true", help="report what would change; change nothing")
    p.add_argument("--undo", metavar="RUN", help="put back everything a consolidation run changed")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    p = add_command(
        subparsers, "import", _import, "import ChatGPT, Claude, Codex or generic history (a dry run unless --commit)"
    )
    p.add_argument(
        "path",
        nargs="?",
        help="the export: a zip, conversations.json, a .jsonl, a .md, or a folder "
        "(an unzipped ChatGPT or Claude export, Codex sessions)",
    )
    p.add_argument("--format", default="auto", help="auto (default), chatgpt, claude, codex, jsonl or markdown")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="report what would happen, write nothing (default)")
    mode.add_argument("--commit", action="store_true", help="import (resumes an interrupted import of the file)")
    mode.add_argument("--list", action="store_true", help="list import batches")
    p.add_argument(
        "--rollback", metavar="BATCH",
        help="undo exactly what an import batch added or changed, keeping what changed since (with --dry-run: say it)",
    )  # fmt: skip
    p.add_argument("--since", help="only conversations started at or after this date")
    p.add_argument("--until", help="only conversations started before this date")
    p.add_argument("--max-conversations", type=int, help="only the most recent N conversations")
    p.add_argument("--max-bytes", type=int, help="refuse an export larger than this")
    p.add_argument("--include-weak", action="store_true", help="also commit weak (hedged, conditional) candidates")
    p.add_argument("--chunk-size", type=int, help="conversations per committed transaction (default 50)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
