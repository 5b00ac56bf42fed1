"""The contract's views on the command line: related, timeline, project, decisions, unresolved, feedback."""

from __future__ import annotations

import argparse
from typing import Any

from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import (
    DecisionsRequest,
    FeedbackRequest,
    RelatedRequest,
    TimelineRequest,
    UnresolvedRequest,
)
from memvault.desktop.commands.common import emit, open_vault
from memvault.desktop.commands.memory import command, record_rows, short, table, whole

HEADERS = ["id", "type", "domain", "status", "statement"]


def _records_text(items: list[dict[str, Any]], empty: str) -> str:
    return table(HEADERS, record_rows(items)) if items else empty


def _due_rows(items: list[dict[str, Any]]) -> list[list[str]]:
    return [[r["id"], r["type"], (r["due_at"] or "undated")[:10], short(r["statement"], 70)] for r in items]


def _related_text(data: dict[str, Any]) -> str:
    parts = [_records_text(data["nodes"], "nothing linked")]
    if data["edges"]:
        parts.append("links:")
        parts += [f"  {e['from']} --{e['type']} ({e['weight']:.2f})--> {e['to']}" for e in data["edges"]]
    return "\n".join(parts)


def _timeline_text(data: dict[str, Any]) -> str:
    if not data["events"]:
        return "no events"
    rows = [
        [e["time"][:19], e["kind"], e["record"]["id"], e["record"]["status"], short(e["record"]["statement"], 60)]
        for e in data["events"]
    ]
    return table(["time", "kind", "id", "status", "statement"], rows)


def _project_text(data: dict[str, Any]) -> str:
    parts = [f"project {data['project']}"]
    for title, items in (("states", data["states"]), ("decisions", data["decisions"])):
        parts.append(f"{title}:")
        parts.append(_records_text(items, "  (none)"))
    parts.append("unresolved:")
    parts.append(table(["id", "type", "due", "statement"], _due_rows(data["unresolved"])) or "  (none)")
    return "\n".join(parts)


def _related(args: argparse.Namespace) -> int:
    given = {"types": args.types, "depth": whole(args.depth, "depth"), "limit": whole(args.limit, "limit")}
    with open_vault(args) as vault:
        result = vault.related(OWNER, RelatedRequest.of(id=args.id, **given))
    emit(args, result, _related_text)
    return 0


def _timeline(args: argparse.Namespace) -> int:
    given = {
        "subject": args.subject,
        "domain": args.domain,
        "entity": args.entity,
        "start": args.start,
        "end": args.end,
        "limit": whole(args.limit, "limit"),
    }
    with open_vault(args) as vault:
        result = vault.timeline(OWNER, TimelineRequest.parse(given))
    emit(args, result, _timeline_text)
    return 0


def _project(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.project_history(OWNER, args.name), _project_text)
    return 0


def _decisions(args: argparse.Namespace) -> int:
    given = {"project": args.project, "domain": args.domain, "include_history": args.history or None}
    with open_vault(args) as vault:
        result = vault.decisions(OWNER, DecisionsRequest.parse(given))
    emit(args, result, lambda r: _records_text(r["items"], "no decisions"))
    return 0


def _unresolved(args: argparse.Namespace) -> int:
    given = {"project": args.project, "domain": args.domain, "due_before": args.due_before}
    with open_vault(args) as vault:
        result = vault.unresolved(OWNER, UnresolvedRequest.parse(given))
    emit(args, result, lambda r: table(["id", "type", "due", "statement"], _due_rows(r["items"])) or "nothing open")
    return 0


def _feedback(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.record_feedback(
            OWNER, FeedbackRequest.of(id=args.id, useful=args.verdict == "useful", note=args.note)
        )
    emit(args, result, lambda r: "feedback recorded")
    return 0


def register(subparsers: Any) -> None:
    p = command(subparsers, "related", _related, "records linked to one record, with the links")
    p.add_argument("id")
    p.add_argument("--types", nargs="+", help="link types to follow (default: all)")
    p.add_argument("--depth", help="hops, 1 to 3 (default 1)")
    p.add_argument("--limit", help="at most this many records (default 25)")
    p = command(subparsers, "timeline", _timeline, "what was learned, superseded, valid and due, in time order")
    p.add_argument("--subject", help="words the records mention")
    p.add_argument("--domain")
    p.add_argument("--entity", help="a person, place or thing the records name")
    p.add_argument("--start", help="from this time (ISO 8601 or a date)")
    p.add_argument("--end", help="until this time")
    p.add_argument("--limit", help="at most this many events (default 100)")
    p = command(subparsers, "project", _project, "a project's states, decisions and open items")
    p.add_argument("name", help="the project (records tagged project:<name>)")
    p = command(subparsers, "decisions", _decisions, "decisions, newest first")
    p.add_argument("--project")
    p.add_argument("--domain")
    p.add_argument("--history", action="store_true", help="superseded decisions too")
    p = command(subparsers, "unresolved", _unresolved, "open questions and next actions, soonest due first")
    p.add_argument("--project")
    p.add_argument("--domain")
    p.add_argument("--due-before", dest="due_before")
    p = command(subparsers, "feedback", _feedback, "say whether a record was useful")
    p.add_argument("id")
    p.add_argument("verdict", choices=("useful", "not-useful"))
    p.add_argument("--note")
