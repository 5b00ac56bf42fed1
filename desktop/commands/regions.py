"""`memvault domains ...`: the person's regions — list, show, rename, merge, split, pin, tune, discover."""

from __future__ import annotations

import argparse
from typing import Any

from memvault.core.vocabulary.model import OWNER
from memvault.desktop.commands.common import emit, open_vault
from memvault.desktop.commands.memory import command, number, short, table


def _list_text(data: dict[str, Any]) -> str:
    items = data["items"]
    if not items:
        return "no domains yet"
    rows = [
        [
            d["name"] + (" (pinned)" if d["pinned"] else ""),
            str(d["records"]),
            f"{d['priority']:.2f}",
            d["depth"],
            short(", ".join(d["keywords"][:6]), 60),
        ]
        for d in items
    ]
    return table(["domain", "records", "priority", "depth", "keywords"], rows)


def _show_text(d: dict[str, Any]) -> str:
    lines = [
        f"{d['name']}{'  (pinned)' if d['pinned'] else ''}",
        f"  {d['description']}" if d["description"] else "  (no description)",
        f"  records: {d['records']} live, {d['total']} in all ("
        + ", ".join(f"{k} {v}" for k, v in d["by_status"].items())
        + ")",
        f"  keywords: {', '.join(d['keywords']) or '(none)'}"
        + (f"  (yours: {', '.join(d['curated'])})" if d.get("curated") else ""),
        f"  related: {', '.join(d['related']) or '(none)'}",
        f"  priority {d['priority']:.2f}, depth {d['depth']}, token share {d['token_share']:.2f}, "
        f"centroid {'yes' if d['has_centroid'] else 'no'}",
    ]
    return "\n".join(lines)


def _discover_text(plan: dict[str, Any]) -> str:
    head = "proposed" if plan["dry_run"] else "applied"
    if not plan["regions"]:
        return f"no regions {head}: {plan['reason']}"
    lines = [f"{len(plan['regions'])} regions {head} from {plan['records']} records ({plan['method']}):"]
    for region in plan["regions"]:
        tag = "existing" if region["existing"] else "new"
        lines.append(f"  {region['name']} ({tag}, {region['size']} records): {', '.join(region['keywords'][:6])}")
    if plan["flows"]:
        lines.append(f"{plan['moves']} record(s) {'would move' if plan['dry_run'] else 'moved'}:")
        lines += [f"  {flow}: {n}" for flow, n in plan["flows"].items()]
    else:
        lines.append("no record moves")
    if plan["emptied"]:
        lines.append(f"emptied and removed: {', '.join(plan['emptied'])}")
    if plan["dry_run"]:
        lines.append("nothing changed: run `memvault domains discover --apply` to carry this out")
    return "\n".join(lines)


def _list(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.list_domains(OWNER), _list_text)
    return 0


def _show(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.show_domain(OWNER, args.name), _show_text)
    return 0


def _rename(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.rename_domain(OWNER, args.name, args.new_name)
    emit(args, result, lambda r: f"renamed {r['renamed_from']} to {r['name']} ({r['records']} records)")
    return 0


def _merge(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.merge_domains(OWNER, args.sources, args.into)
    emit(args, result, lambda r: f"merged {', '.join(r['merged'])} into {r['into']} ({r['moved']} records moved)")
    return 0


def _split(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.split_domain(OWNER, args.name, args.new_name, keyword=args.keyword, ids=args.ids)
    emit(args, result, lambda r: f"split {r['moved']} records of {r['split_from']} into {r['name']}")
    return 0


def _pin(args: argparse.Namespace, pinned: bool) -> int:
    with open_vault(args) as vault:
        result = vault.pin_domain(OWNER, args.name, pinned)
    emit(args, result, lambda r: f"{r['name']} {'pinned' if r['pinned'] else 'unpinned'}")
    return 0


def _set(args: argparse.Namespace) -> int:
    keywords = [k.strip() for k in args.keywords.split(",") if k.strip()] if args.keywords is not None else None
    with open_vault(args) as vault:
        result = vault.update_domain(
            OWNER,
            args.name,
            description=args.description,
            keywords=keywords,
            priority=number(args.priority, "priority"),
            token_share=number(args.token_share, "token_share"),
            depth=args.depth,
        )
    emit(args, result, _show_text)
    return 0


def _discover(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.discover_domains(OWNER, dry_run=not args.apply)
    emit(args, result, _discover_text)
    return 0


def _refresh(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        result = vault.refresh_domains(OWNER)
    emit(args, result, lambda r: f"{r['refreshed']} domain(s) updated (keywords, description, centroid, related)")
    return 0


def _maintain_text(result: dict[str, Any]) -> str:
    if result["action"] == "none":
        return "domain upkeep is off (memvault config set domain_upkeep auto)"
    if result["action"] == "discovered":
        return "re-discovered the regions:\n" + _discover_text(result)
    return f"{result['domains']} domain(s) refreshed, {result['settled']} record(s) placed by their meaning"


def _maintain(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        emit(args, vault.maintain_domains(OWNER), _maintain_text)
    return 0


def register(subparsers: Any) -> None:
    group = subparsers.add_parser("domains", help="the regions of your memory: list, rename, merge, split, discover")
    actions = group.add_subparsers(dest="domains_command", metavar="ACTION", required=True)
    command(actions, "list", _list, "every domain with its size, priority and keywords")
    p = command(actions, "show", _show, "one domain in full")
    p.add_argument("name")
    p = command(actions, "rename", _rename, "rename a domain (every record follows)")
    p.add_argument("name")
    p.add_argument("new_name")
    p = command(actions, "merge", _merge, "move every record of some domains into another and remove them")
    p.add_argument("sources", nargs="+", help="the domains to merge away")
    p.add_argument("--into", required=True, help="the domain that takes their records (made if absent)")
    p = command(actions, "split", _split, "move part of a domain into a new one")
    p.add_argument("name")
    p.add_argument("new_name")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--keyword", help="move the records matching this word")
    how.add_argument("--ids", nargs="+", help="move these records")
    p = command(actions, "pin", lambda a: _pin(a, True), "keep a domain as it is: discovery never merges it away")
    p.add_argument("name")
    p = command(actions, "unpin", lambda a: _pin(a, False), "let discovery treat a domain like any other")
    p.add_argument("name")
    p = command(actions, "set", _set, "tune a domain: description, keywords, priority, depth, token share")
    p.add_argument("name")
    p.add_argument("--description")
    p.add_argument("--keywords", help="comma-separated")
    p.add_argument("--priority", help="0..1 (default 0.5)")
    p.add_argument("--depth", choices=("shallow", "normal", "deep"))
    p.add_argument("--token-share", dest="token_share", help="0..1: the packet share one domain may take")
    command(
        actions,
        "maintain",
        _maintain,
        "what the daemon runs: re-discover when the store has grown, else refresh and place waiting records",
    )
    command(actions, "refresh", _refresh, "recompute every domain's keywords, description, centroid and relations")
    p = command(actions, "discover", _discover, "find regions in your records (a dry run unless --apply)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="only show the proposed regions and moves (default)")
    mode.add_argument("--apply", action="store_true", help="carry the proposal out")
