"""The memory commands: add, get, list, search, history, correct, archive, restore, scope, export.

The person at the CLI is `OWNER`: their writes are direct (no approval inbox).
Values are handed to the `Vault` as given; the core validates them, so a bad
value is an `InvalidArgument` (exit 1) and nothing changes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

from memvault.core.vocabulary.drafts import Draft, choice
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER, Scope
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ExportRequest, ListRequest
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.desktop.commands.common import add_command, emit, open_vault

MAX_HISTORY_HOPS = 1000
# `memvault add` option -> memory_add argument (the rest keep their names with '-' as '_').
_ADD_OPTIONS = (
    "type",
    "domain",
    "importance",
    "confidence",
    "explicitness",
    "source",
    "source_reference",
    "evidence",
    "event_time",
    "valid_from",
    "valid_until",
    "due_at",
    "sensitivity",
)


# -- small helpers ---------------------------------------------------------------------------
def command(subparsers: Any, name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
    """A sub-command that also takes `--json` after its name (`memvault list --json`)."""
    parser = add_command(subparsers, name, handler, help_text)
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    return parser


def number(value: str | None, name: str) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        raise InvalidArgument(f"{name}: expected a number") from None


def whole(value: str | None, name: str) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise InvalidArgument(f"{name}: expected a whole number") from None


def short(text: str | None, width: int) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain-text table; the last column takes what it needs."""
    if not rows:
        return ""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers[:-1])]
    lines = ["  ".join([*(h.ljust(w) for h, w in zip(headers, widths, strict=False)), headers[-1]])]
    for row in rows:
        lines.append("  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]]))
    return "\n".join(lines)


def record_rows(records: list[dict[str, Any]], *, width: int = 70) -> list[list[str]]:
    return [[r["id"], r["type"], r["domain"], r["status"], short(r["statement"], width)] for r in records]


def record_text(record: dict[str, Any]) -> str:
    """One record, every field that has a value."""
    lines = [f"{record['id']}  {record['type']}  {record['domain']}  ({record['status']}, rev {record['revision']})"]
    lines.append(f"  {record['statement']}")
    skip = {"id", "type", "domain", "status", "revision", "statement"}
    for name, value in record.items():
        if name in skip or value in (None, [], ""):
            continue
        shown = ", ".join(value) if isinstance(value, list) else value
        lines.append(f"  {name.replace('_', ' ')}: {shown}")
    return "\n".join(lines)


def _links(values: list[str] | None) -> list[dict[str, str]] | None:
    if not values:
        return None
    links = []
    for value in values:
        kind, sep, target = value.partition(":")
        if not sep or not kind.strip() or not target.strip():
            raise InvalidArgument("--link: expected TYPE:ID, e.g. relates_to:m1a2b3c4d5e6")
        links.append({"type": kind.strip(), "target_id": target.strip()})
    return links


def _statement(value: str) -> str:
    if value != "-":
        return value
    read = sys.stdin.read()
    if not read.strip():
        raise InvalidArgument("statement: nothing was read from stdin")
    return read.strip()


# -- add -------------------------------------------------------------------------------------
def add_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The memory_add arguments that were given on the command line."""
    given: dict[str, Any] = {name: getattr(args, name) for name in _ADD_OPTIONS}
    given["importance"] = number(args.importance, "importance")
    given["confidence"] = number(args.confidence, "confidence")
    given["tags"] = args.tags
    given["entities"] = args.entities
    given["access_scope"] = args.scope
    given["links"] = _links(args.links)
    given["statement"] = _statement(args.statement)
    return {k: v for k, v in given.items() if v is not None}


def _add(args: argparse.Namespace) -> int:
    arguments = add_arguments(args)
    with open_vault(args) as vault:
        result = vault.add(OWNER, Draft.parse(arguments))
    return report_write(args, result)


def report_write(args: argparse.Namespace, result: Mapping[str, object]) -> int:
    """Print a write's answer; a refusal goes to stderr and exits 1."""
    outcome = str(result["outcome"])
    if outcome == "rejected":
        if args.json:
            emit(args, result)
        print(f"memvault: rejected: {result['reason']}", file=sys.stderr)
        return 1
    messages = {
        "added": lambda r: f"added {r['id']}" + (f" ({r['reason']})" if r.get("reason") else ""),
        "duplicate": lambda r: f"already known: {r['id']} (confirmed again, nothing new stored)",
        "staged": lambda r: (
            f"staged for approval: proposal {r['proposal_id']}" + (f" ({r['reason']})" if r.get("reason") else "")
        ),
        "superseded": lambda r: f"corrected: {r['id']} supersedes {r['supersedes_id']}",
        "archived": lambda r: f"archived {r['id']}",
        "restored": lambda r: f"restored {r['id']}",
    }
    emit(args, result, messages.get(outcome, lambda r: f"{outcome} {r.get('id') or ''}".strip()))
    return 0


# -- reading ---------------------------------------------------------------------------------
def _get_text(data: dict[str, Any]) -> str:
    parts = [record_text(data["memory"])]
    if data["entities"]:
        parts.append("entities: " + ", ".join(data["entities"]))
    if data["links"]:
        parts.append("links: " + ", ".join(f"{link['type']} → {link['target_id']}" for link in data["links"]))
    if data["history"]:
        parts.append("earlier versions (newest first):")
        parts += [f"  {r['id']}  {r['valid_from'] or ''}  {short(r['statement'], 80)}" for r in data["history"]]
    return "\n".join(parts)


def _get(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.get(OWNER, args.id), _get_text)
    return 0


def _list_text(data: dict[str, Any]) -> str:
    if not data["items"]:
        return "no records"
    text = table(["id", "type", "domain", "status", "statement"], record_rows(data["items"]))
    if data["next_cursor"]:
        text += f"\nmore: --cursor {data['next_cursor']}"
    return text


def _list(args: argparse.Namespace) -> int:
    arguments = {
        "domain": args.domain,
        "type": args.type,
        "status": args.status,
        "limit": whole(args.limit, "limit"),
        "cursor": args.cursor,
    }
    with open_vault(args) as vault:
        data = vault.list_memories(OWNER, ListRequest.parse({k: v for k, v in arguments.items() if v is not None}))
    emit(args, data, _list_text)
    return 0


def _search_text(data: dict[str, Any]) -> str:
    if data["skipped"]:
        return f"skipped: {data['reason']}"
    if not data["results"]:
        return "nothing found"
    budget = data["budget"]
    rows = [[f"{r['score']:.3f}", r["id"], r["type"], r["domain"], short(r["statement"], 60)] for r in data["results"]]
    return "\n".join(
        [
            data["packet"],
            "",
            table(["score", "id", "type", "domain", "statement"], rows),
            f"{budget['records']} records, ~{budget['tokens']} tokens, {budget['latency_ms']} ms"
            + (" (truncated to the budget)" if budget["truncated"] else ""),
        ]
    )


def search_arguments(args: argparse.Namespace) -> dict[str, Any]:
    arguments = {
        "query": args.query,
        "limit": whole(args.limit, "limit"),
        "domains": args.domains,
        "types": args.types,
        "as_of": args.as_of,
        "known_at": args.known_at,
        "include_history": True if args.history else None,
        "depth": args.depth,
        "max_tokens": whole(args.max_tokens, "max_tokens"),
    }
    return {k: v for k, v in arguments.items() if v is not None}


def _search(args: argparse.Namespace) -> int:
    arguments = search_arguments(args)
    with open_vault(args) as vault:
        emit(args, vault.search(OWNER, SearchRequest.parse(arguments)), _search_text)
    return 0


def _history_text(data: dict[str, Any]) -> str:
    lines = ["versions (newest first):"]
    for r in data["versions"]:
        validity = f"{(r['valid_from'] or '')[:10]} → {(r['valid_until'] or 'now')[:10]}"
        lines.append(f"  {r['id']}  {r['status']:<10}  {validity}  {short(r['statement'], 70)}")
    lines.append("events:")
    for event in data["events"]:
        details = ", ".join(f"{k}={v}" for k, v in sorted(event["details"].items()))
        lines.append(
            f"  {event['time']}  {event['action']:<10} {event['memory_id']}  by {event['principal']}  {details}"
        )
    return "\n".join(lines)


def _history(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        data = vault.get(OWNER, args.id)
        for _ in range(MAX_HISTORY_HOPS):  # from any version, start at the newest one
            newer = data["memory"]["superseded_by_id"]
            if not newer:
                break
            data = vault.get(OWNER, newer)
        versions = [data["memory"], *data["history"]]
        events = [event for version in versions for event in vault.events_for(OWNER, version["id"])]
    events.sort(key=lambda e: e["id"])
    emit(args, {"versions": versions, "events": events}, _history_text)
    return 0


# -- changes ---------------------------------------------------------------------------------
def _correct(args: argparse.Namespace) -> int:
    arguments = {
        "id": args.id,
        "statement": _statement(args.statement),
        "reason": args.reason,
        "valid_from": args.valid_from,
        "expected_revision": whole(args.expected_revision, "expected_revision"),
    }
    with open_vault(args) as vault:
        result = vault.correct(OWNER, CorrectRequest.parse({k: v for k, v in arguments.items() if v is not None}))
    return report_write(args, result)


def _archive(args: argparse.Namespace) -> int:
    arguments = {"id": args.id, "reason": args.reason, "expected_revision": whole(args.expected_revision, "revision")}
    with open_vault(args) as vault:
        result = vault.archive(OWNER, ArchiveRequest.parse({k: v for k, v in arguments.items() if v is not None}))
    return report_write(args, result)


def _restore(args: argparse.Namespace) -> int:
    if os.path.isfile(args.id) or os.sep in args.id or args.id.endswith(".db"):  # `memvault restore BACKUP`
        from memvault.desktop.commands.maintenance import restore_store  # noqa: PLC0415

        return restore_store(args, args.id)
    with open_vault(args) as vault:
        result = vault.restore(OWNER, args.id)
    return report_write(args, result)


def _scope(args: argparse.Namespace) -> int:
    scope = choice(Scope, args.scope, "scope")
    with open_vault(args) as vault:
        record = vault.change_scope(OWNER, args.id, scope, args.workspace)
    emit(args, record, lambda r: f"{r['id']} is now {r['access_scope']} (revision {r['revision']})")
    return 0


def _export(args: argparse.Namespace) -> int:
    arguments: dict[str, Any] = {"include_history": bool(args.history)}
    if args.domain:
        arguments["domain"] = args.domain
    with open_vault(args) as vault:
        data = vault.export_markdown(OWNER, ExportRequest.parse(arguments))
    emit(
        args,
        data,
        lambda d: "\n".join(
            [*d["files"], f"{d['records']} records in {len(d['files'])} files (plaintext: keep private)"]
        ),
    )
    return 0


# -- wiring ----------------------------------------------------------------------------------
def _add_parser(subparsers: Any) -> None:
    p = command(subparsers, "add", _add, "remember a statement (`-` reads it from stdin)")
    p.add_argument("statement", help="what to remember, or - to read it from stdin")
    p.add_argument("--type", help="FACT (default), PREFERENCE, DECISION, CONSTRAINT, NEXT_ACTION, ...")
    p.add_argument("--domain", help="the domain (default: assigned from the statement)")
    p.add_argument("--tag", dest="tags", action="append", help="a tag (repeatable); project:NAME files it")
    p.add_argument("--importance", help="0..1 (default 0.5)")
    p.add_argument("--confidence", help="0..1 (default 0.8)")
    p.add_argument("--explicitness", help="explicit (default), inferred or consolidated")
    p.add_argument("--source", help="where it came from (free text)")
    p.add_argument("--source-reference", help="a pointer to the source")
    p.add_argument("--evidence", help="a short quote or note backing it")
    p.add_argument("--event-time", help="when it happened (ISO 8601 or a date)")
    p.add_argument("--valid-from", help="true from (default: the event time, else now)")
    p.add_argument("--valid-until", help="true until")
    p.add_argument("--due-at", help="when a NEXT_ACTION, GOAL or OPEN_QUESTION is due")
    p.add_argument("--scope", help="local_only (default), remote_allowed or workspace_allowed")
    p.add_argument("--sensitivity", help="normal (default), personal or sensitive")
    p.add_argument("--entity", dest="entities", action="append", help="a person, place or thing (repeatable)")
    p.add_argument("--link", dest="links", action="append", metavar="TYPE:ID", help="a link (repeatable)")


def _read_parsers(subparsers: Any) -> None:
    p = command(subparsers, "get", _get, "show one record with its links, entities and earlier versions")
    p.add_argument("id")
    p = command(subparsers, "list", _list, "list records, newest first")
    p.add_argument("--domain")
    p.add_argument("--type")
    p.add_argument("--status", help="current (default), superseded, archived, historical, partial, disputed")
    p.add_argument("--limit", help="1..200 (default 50)")
    p.add_argument("--cursor", help="the cursor the previous page printed")
    p = command(subparsers, "search", _search, "find what memory holds for a request (packet and table)")
    p.add_argument("query")
    p.add_argument("--limit", help="1..50 (default 8)")
    p.add_argument("--domain", dest="domains", action="append", help="only this domain (repeatable)")
    p.add_argument("--type", dest="types", action="append", help="only this type (repeatable)")
    p.add_argument("--as-of", help="valid time: as things stood then")
    p.add_argument("--known-at", help="knowledge time: as the store knew it then")
    p.add_argument("--history", action="store_true", help="include superseded and historical records")
    p.add_argument("--depth", help="auto (default), shallow, normal or deep")
    p.add_argument("--max-tokens", help="the packet's token budget")
    p = command(subparsers, "history", _history, "a record's versions (newest first) and its events")
    p.add_argument("id")


def _change_parsers(subparsers: Any) -> None:
    p = command(subparsers, "correct", _correct, "correct a record: a new version supersedes it")
    p.add_argument("id")
    p.add_argument("statement", help="the corrected statement, or - to read it from stdin")
    p.add_argument("--reason")
    p.add_argument("--valid-from", help="when the correction became true (default now)")
    p.add_argument("--expected-revision", help="refuse if the record has moved on")
    p = command(subparsers, "archive", _archive, "archive a record (reversible; hidden from search)")
    p.add_argument("id")
    p.add_argument("--reason")
    p.add_argument("--expected-revision", help="refuse if the record has moved on")
    p = command(subparsers, "restore", _restore, "bring an archived record back, or the store from a backup")
    p.add_argument("id", help="a record id, or the path of a backup file")
    p.add_argument(
        "--replace",
        action="store_true",
        help="let a backup of another store replace a store that holds records (it is kept first)",
    )
    p = command(subparsers, "scope", _scope, "change who may read a record (and its earlier versions)")
    p.add_argument("id")
    p.add_argument("scope", help="local_only, remote_allowed or workspace_allowed")
    p.add_argument("--workspace", help="the workspace a workspace_allowed record belongs to")
    p = command(subparsers, "export", _export, "write readable Markdown views into the export folder")
    p.add_argument("--domain")
    p.add_argument("--history", action="store_true", help="include superseded versions")


def register(subparsers: Any) -> None:
    _add_parser(subparsers)
    _read_parsers(subparsers)
    _change_parsers(subparsers)
