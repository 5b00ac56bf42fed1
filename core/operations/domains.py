"""Managing domains (regions): list, show, rename, merge, split, pin, tune, discover.

Domains are the person's: every change needs the person (`require_owner`); reading
them needs a local caller. Each change runs in one transaction and writes events
(one for the domain, one per record that moves). Records keep their ids, history and
links through every operation; renaming is one UPDATE (memories follow by ON UPDATE
CASCADE).

A record's domain is *explicit* when a person or writer named it, and *assigned* when
memvault chose it (`domain_assigned` event on write, or a move by discovery). Discovery
moves only assigned records and records in `general`; a person's merge or split makes
the moved records explicit. Pinned domains keep their records and are never merged away.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from memvault.core.retrieval.query import query_terms
from memvault.core.security.access import require_local, require_owner
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.drafts import domain_name, string_list, text, unit_float
from memvault.core.vocabulary.errors import Conflict, InvalidArgument, NotFound
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import DomainChange, DomainList, DomainSummary
from memvault.core.writer.gate import secret_rejection

log = logging.getLogger("memvault.domains")

DEPTHS = ("shallow", "normal", "deep")
MAX_SPLIT_IDS = 1000
MAX_KEYWORDS = 30


def _name(value: Any, field: str = "name") -> str:
    name = domain_name(value, field)
    if name is None:
        raise InvalidArgument(f"{field} is required")
    return name


def _screened(texts: Sequence[str]) -> None:
    """A domain's name, description and keywords are stored and shown like a record: no secrets."""
    refused = secret_rejection(texts)
    if refused:
        raise InvalidArgument(refused)


def _new_name(value: Any, field: str) -> str:
    name = _name(value, field)
    _screened([name])
    return name


def _existing(conn: Store, value: Any, field: str = "name") -> dict[str, Any]:
    name = _name(value, field)
    found = conn.domains.fetch(name)
    if found is None:
        raise NotFound(f"no domain named {name}")
    return found


def _summary(row: dict[str, Any], counts: dict[str, int]) -> DomainSummary:
    live = sum(counts.get(s, 0) for s in ("current", "partial", "disputed"))
    return {
        "name": row["name"],
        "description": row["description"],
        "keywords": row["keywords"],
        "curated": row["curated"],
        "related": row["related"],
        "priority": row["priority"],
        "depth": row["depth"],
        "token_share": row["token_share"],
        "pinned": row["pinned"],
        "has_centroid": row["centroid"] is not None,
        "records": live,
        "total": sum(counts.values()),
        "by_status": dict(sorted(counts.items())),
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


# -- reading ---------------------------------------------------------------------------------
def list_domains(ctx: Context, caller: Caller) -> DomainList:
    require_local(caller, "listing domains")
    with ctx.reading() as conn:
        counts = conn.domains.counts_by_status()
        return {"items": [_summary(row, counts.get(row["name"], {})) for row in conn.domains.all_domains()]}


def show_domain(ctx: Context, caller: Caller, name: str) -> DomainSummary:
    require_local(caller, "reading a domain")
    with ctx.reading() as conn:
        row = _existing(conn, name)
        return _summary(row, conn.domains.counts_by_status().get(row["name"], {}))


# -- changing --------------------------------------------------------------------------------
def rename(ctx: Context, caller: Caller, name: str, new_name: str) -> DomainChange:
    require_owner(caller, "renaming a domain")
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        target = _new_name(new_name, "new_name")
        if target == row["name"]:
            raise InvalidArgument("new_name is the domain's current name")
        if conn.domains.fetch(target) is not None:
            raise Conflict(f"a domain named {target} exists already: merge instead")
        now = ctx.now()
        records = conn.domains.record_count(row["name"])
        conn.domains.rename(row["name"], target, now)
        conn.events.record(caller, "domain_renamed", now, None, domain=row["name"], to=target, records=records)
        _follow_rename_in_settings(conn, caller, row["name"], target, now)
    return {"name": target, "renamed_from": row["name"], "records": records}


def _follow_rename_in_settings(conn: Store, caller: Caller, old: str, new: str, now: str) -> None:
    """A domain approved for automatic writes stays approved under its new name."""
    approved = conn.settings.read("auto_write_domains")
    if isinstance(approved, list) and old in approved:
        conn.settings.write("auto_write_domains", [new if d == old else d for d in approved])
        conn.events.record(caller, "setting_changed", now, None, name="auto_write_domains")


def move_records(conn: Store, caller: Caller, ids: list[str], source: str, target: str, now: str, **why: Any) -> int:
    """Move records (with their older versions) and write one event per moved record."""
    in_source = set(conn.domains.ids_in(source))
    chain = [i for i in conn.domains.with_history(ids) if i in in_source]
    moved = 0
    for memory_id in chain:
        if conn.domains.move([memory_id], target, now):
            conn.events.record(caller, "domain_moved", now, memory_id, domain=source, to=target, **why)
            moved += 1
    return moved


def merge(ctx: Context, caller: Caller, sources: Sequence[str], into: str) -> DomainChange:
    """Move every record of `sources` into `into` (created if absent) and remove the sources."""
    require_owner(caller, "merging domains")
    names = [_name(s, "sources") for s in string_list(sources, "sources", max_chars=48)]
    if not names:
        raise InvalidArgument("sources: name at least one domain to merge")
    with ctx.transaction() as conn:
        target = _new_name(into, "into")
        if target in names:
            raise InvalidArgument("into: a domain cannot be merged into itself")
        rows = [_existing(conn, n, "sources") for n in names]
        pinned = [r["name"] for r in rows if r["pinned"]]
        if pinned:
            raise Conflict(f"pinned domains are never merged away (unpin first): {', '.join(pinned)}")
        now = ctx.now()
        if conn.domains.fetch(target) is None:
            conn.domains.insert(target, now)
            conn.events.record(caller, "domain_created", now, None, domain=target)
        moved = 0
        for row in rows:
            ids = conn.domains.ids_in(row["name"])
            moved += move_records(conn, caller, ids, row["name"], target, now, automatic=False)
            conn.domains.replace_in_related(row["name"], target, now)
            conn.domains.delete(row["name"])
            conn.events.record(caller, "domain_merged", now, None, domain=row["name"], into=target, records=len(ids))
        _inherit_keywords(conn, target, rows, now)
    return {"into": target, "merged": names, "moved": moved}


def _inherit_keywords(conn: Store, target: str, sources: list[dict[str, Any]], now: str) -> None:
    """The merged domain answers to the words its sources answered to (until the next refresh)."""
    row = conn.domains.fetch(target)
    if row is None or row["pinned"]:
        return
    curated = list(row["curated"])
    keywords = list(row["keywords"])
    for source in sources:
        curated += [k for k in source["curated"] if k not in curated]
        keywords += [k for k in source["keywords"] if k not in keywords]
    derived = [k for k in keywords if k not in curated]
    if keywords != row["keywords"] or curated != row["curated"]:
        conn.domains.update(target, now, curated=curated[:MAX_KEYWORDS], keywords=derived[:MAX_KEYWORDS])


def split(
    ctx: Context,
    caller: Caller,
    name: str,
    new_name: str,
    *,
    keyword: str | None = None,
    ids: Sequence[str] | None = None,
) -> DomainChange:
    """Move the records of a domain that match `keyword` (or are listed in `ids`) into a new domain."""
    require_owner(caller, "splitting a domain")
    if (keyword is None) == (ids is None):
        raise InvalidArgument("split by exactly one of keyword or ids")
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        target = _new_name(new_name, "new_name")
        if conn.domains.fetch(target) is not None:
            raise Conflict(f"a domain named {target} exists already")
        chosen = _split_ids(conn, row["name"], keyword, ids)
        if not chosen:
            raise InvalidArgument("nothing in the domain matches: no new domain was made")
        if len(chosen) == conn.domains.record_count(row["name"]):
            raise InvalidArgument("that would move every record: rename the domain instead")
        now = ctx.now()
        conn.domains.insert(target, now, related=[row["name"]])
        moved = move_records(conn, caller, chosen, row["name"], target, now, automatic=False)
        conn.events.record(caller, "domain_split", now, None, domain=row["name"], to=target, records=moved)
    return {"name": target, "split_from": row["name"], "moved": moved}


def _split_ids(conn: Store, domain: str, keyword: Any, ids: Any) -> list[str]:
    if keyword is not None:
        phrase = text(keyword, "keyword", max_chars=100)
        words = query_terms(phrase or "")
        if not words:
            raise InvalidArgument("keyword: give a word to split by")
        return conn.domains.ids_matching(domain, words)
    wanted = _id_list(ids)
    present = set(conn.domains.ids_in(domain))
    missing = [i for i in wanted if i not in present]
    if missing:
        raise NotFound(f"{len(missing)} of the ids are not records of {domain}")
    return wanted


def _id_list(ids: Any) -> list[str]:
    if isinstance(ids, str) or not isinstance(ids, list | tuple) or not 0 < len(ids) <= MAX_SPLIT_IDS:
        raise InvalidArgument(f"ids: expected a list of 1 to {MAX_SPLIT_IDS} ids")
    found: list[str] = []
    for item in ids:
        if not isinstance(item, str) or not 0 < len(item.strip()) <= 64:
            raise InvalidArgument("ids: each id is a short text")
        if item.strip() not in found:
            found.append(item.strip())
    return found


def set_pinned(ctx: Context, caller: Caller, name: str, pinned: bool) -> DomainChange:
    require_owner(caller, "pinning a domain")
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        now = ctx.now()
        conn.domains.update(row["name"], now, pinned=int(pinned))
        conn.events.record(caller, "domain_pinned" if pinned else "domain_unpinned", now, None, domain=row["name"])
    return {"name": row["name"], "pinned": pinned}


def update(ctx: Context, caller: Caller, name: str, **fields: object) -> DomainSummary:
    """Tune a domain: description, keywords, priority (0..1), depth, token_share (0..1)."""
    require_owner(caller, "changing a domain")
    unknown = set(fields) - {"description", "keywords", "priority", "depth", "token_share"}
    if unknown:
        raise InvalidArgument(f"unknown argument(s): {', '.join(sorted(unknown))}")
    changes: dict[str, Any] = {}
    if fields.get("description") is not None:
        changes["description"] = text(fields["description"], "description", max_chars=300) or ""
    if fields.get("keywords") is not None:
        # The person's keywords: kept through every refresh, and used for every caller's routing.
        words = [k.lstrip("=").strip() for k in string_list(fields["keywords"], "keywords", max_chars=48)]
        changes["curated"] = [k for k in dict.fromkeys(words) if k]
    for unit in ("priority", "token_share"):
        if fields.get(unit) is not None:
            changes[unit] = unit_float(fields[unit], unit, 0.5)
    if fields.get("depth") is not None:
        if fields["depth"] not in DEPTHS:
            raise InvalidArgument(f"depth: expected one of {', '.join(DEPTHS)}")
        changes["depth"] = fields["depth"]
    if not changes:
        raise InvalidArgument("nothing to change")
    _screened([changes.get("description", ""), *changes.get("curated", [])])
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        now = ctx.now()
        conn.domains.update(row["name"], now, **changes)
        conn.events.record(caller, "domain_updated", now, None, domain=row["name"], fields=sorted(changes))
    return show_domain(ctx, caller, row["name"])
