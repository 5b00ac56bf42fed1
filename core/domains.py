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
from dataclasses import dataclass
from typing import Any

from memvault.core.access import require_local, require_owner
from memvault.core.context import Context
from memvault.core.drafts import domain_name, string_list, text, unit_float
from memvault.core.errors import Conflict, InvalidArgument, NotFound
from memvault.core.model import Caller
from memvault.core.retrieval import discovery
from memvault.core.retrieval.placement import SHARED_VIEW
from memvault.core.retrieval.query import fts_query
from memvault.core.retrieval.router import RELATIVE, route
from memvault.core.store import domain_rows as domain_sql
from memvault.core.store import events, settings_table
from memvault.core.store.connection import Connection

log = logging.getLogger("memvault.domains")

DEPTHS = ("shallow", "normal", "deep")
MAX_SPLIT_IDS = 1000
MAX_KEYWORDS = 30
REDISCOVER_GROWTH = 1.25  # the daemon re-discovers once the store has grown by a quarter


def _name(value: Any, field: str = "name") -> str:
    name = domain_name(value, field)
    if name is None:
        raise InvalidArgument(f"{field} is required")
    return name


def _existing(conn: Connection, value: Any, field: str = "name") -> dict[str, Any]:
    name = _name(value, field)
    found = domain_sql.fetch(conn, name)
    if found is None:
        raise NotFound(f"no domain named {name}")
    return found


def _summary(row: dict[str, Any], counts: dict[str, int]) -> dict[str, Any]:
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
def list_domains(ctx: Context, caller: Caller) -> dict[str, Any]:
    require_local(caller, "listing domains")
    with ctx.reading() as conn:
        counts = domain_sql.counts_by_status(conn)
        return {"items": [_summary(row, counts.get(row["name"], {})) for row in domain_sql.all_domains(conn)]}


def show_domain(ctx: Context, caller: Caller, name: Any) -> dict[str, Any]:
    require_local(caller, "reading a domain")
    with ctx.reading() as conn:
        row = _existing(conn, name)
        return _summary(row, domain_sql.counts_by_status(conn).get(row["name"], {}))


# -- changing --------------------------------------------------------------------------------
def rename(ctx: Context, caller: Caller, name: Any, new_name: Any) -> dict[str, Any]:
    require_owner(caller, "renaming a domain")
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        target = _name(new_name, "new_name")
        if target == row["name"]:
            raise InvalidArgument("new_name is the domain's current name")
        if domain_sql.fetch(conn, target) is not None:
            raise Conflict(f"a domain named {target} exists already: merge instead")
        now = ctx.now()
        records = domain_sql.record_count(conn, row["name"])
        domain_sql.rename(conn, row["name"], target, now)
        events.record(conn, caller, "domain_renamed", now, None, domain=row["name"], to=target, records=records)
        _follow_rename_in_settings(conn, caller, row["name"], target, now)
    return {"name": target, "renamed_from": row["name"], "records": records}


def _follow_rename_in_settings(conn: Connection, caller: Caller, old: str, new: str, now: str) -> None:
    """A domain approved for automatic writes stays approved under its new name."""
    approved = settings_table.read(conn, "auto_write_domains")
    if isinstance(approved, list) and old in approved:
        settings_table.write(conn, "auto_write_domains", [new if d == old else d for d in approved])
        events.record(conn, caller, "setting_changed", now, None, name="auto_write_domains")


def _move(conn: Connection, caller: Caller, ids: list[str], source: str, target: str, now: str, **why: Any) -> int:
    """Move records (with their older versions) and write one event per moved record."""
    in_source = set(domain_sql.ids_in(conn, source))
    chain = [i for i in domain_sql.with_history(conn, ids) if i in in_source]
    moved = 0
    for memory_id in chain:
        if domain_sql.move(conn, [memory_id], target, now):
            events.record(conn, caller, "domain_moved", now, memory_id, domain=source, to=target, **why)
            moved += 1
    return moved


def merge(ctx: Context, caller: Caller, sources: Any, into: Any) -> dict[str, Any]:
    """Move every record of `sources` into `into` (created if absent) and remove the sources."""
    require_owner(caller, "merging domains")
    names = [_name(s, "sources") for s in string_list(sources, "sources", max_chars=48)]
    if not names:
        raise InvalidArgument("sources: name at least one domain to merge")
    with ctx.transaction() as conn:
        target = _name(into, "into")
        if target in names:
            raise InvalidArgument("into: a domain cannot be merged into itself")
        rows = [_existing(conn, n, "sources") for n in names]
        pinned = [r["name"] for r in rows if r["pinned"]]
        if pinned:
            raise Conflict(f"pinned domains are never merged away (unpin first): {', '.join(pinned)}")
        now = ctx.now()
        if domain_sql.fetch(conn, target) is None:
            domain_sql.insert(conn, target, now)
            events.record(conn, caller, "domain_created", now, None, domain=target)
        moved = 0
        for row in rows:
            ids = domain_sql.ids_in(conn, row["name"])
            moved += _move(conn, caller, ids, row["name"], target, now, automatic=False)
            domain_sql.replace_in_related(conn, row["name"], target, now)
            domain_sql.delete(conn, row["name"])
            events.record(conn, caller, "domain_merged", now, None, domain=row["name"], into=target, records=len(ids))
        _inherit_keywords(conn, target, rows, now)
    return {"into": target, "merged": names, "moved": moved}


def _inherit_keywords(conn: Connection, target: str, sources: list[dict[str, Any]], now: str) -> None:
    """The merged domain answers to the words its sources answered to (until the next refresh)."""
    row = domain_sql.fetch(conn, target)
    if row is None or row["pinned"]:
        return
    curated = list(row["curated"])
    keywords = list(row["keywords"])
    for source in sources:
        curated += [k for k in source["curated"] if k not in curated]
        keywords += [k for k in source["keywords"] if k not in keywords]
    derived = [k for k in keywords if k not in curated]
    if keywords != row["keywords"] or curated != row["curated"]:
        domain_sql.update(conn, target, now, curated=curated[:MAX_KEYWORDS], keywords=derived[:MAX_KEYWORDS])


def split(
    ctx: Context, caller: Caller, name: Any, new_name: Any, *, keyword: Any = None, ids: Any = None
) -> dict[str, Any]:
    """Move the records of a domain that match `keyword` (or are listed in `ids`) into a new domain."""
    require_owner(caller, "splitting a domain")
    if (keyword is None) == (ids is None):
        raise InvalidArgument("split by exactly one of keyword or ids")
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        target = _name(new_name, "new_name")
        if domain_sql.fetch(conn, target) is not None:
            raise Conflict(f"a domain named {target} exists already")
        chosen = _split_ids(conn, row["name"], keyword, ids)
        if not chosen:
            raise InvalidArgument("nothing in the domain matches: no new domain was made")
        if len(chosen) == domain_sql.record_count(conn, row["name"]):
            raise InvalidArgument("that would move every record: rename the domain instead")
        now = ctx.now()
        domain_sql.insert(conn, target, now, related=[row["name"]])
        moved = _move(conn, caller, chosen, row["name"], target, now, automatic=False)
        events.record(conn, caller, "domain_split", now, None, domain=row["name"], to=target, records=moved)
    return {"name": target, "split_from": row["name"], "moved": moved}


def _split_ids(conn: Connection, domain: str, keyword: Any, ids: Any) -> list[str]:
    if keyword is not None:
        phrase = text(keyword, "keyword", max_chars=100)
        match = fts_query(phrase or "")
        if match is None:
            raise InvalidArgument("keyword: give a word to split by")
        return domain_sql.ids_matching(conn, domain, match)
    wanted = _id_list(ids)
    present = set(domain_sql.ids_in(conn, domain))
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


def set_pinned(ctx: Context, caller: Caller, name: Any, pinned: bool) -> dict[str, Any]:
    require_owner(caller, "pinning a domain")
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        now = ctx.now()
        domain_sql.update(conn, row["name"], now, pinned=int(pinned))
        events.record(conn, caller, "domain_pinned" if pinned else "domain_unpinned", now, None, domain=row["name"])
    return {"name": row["name"], "pinned": pinned}


def update(ctx: Context, caller: Caller, name: Any, **fields: Any) -> dict[str, Any]:
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
    with ctx.transaction() as conn:
        row = _existing(conn, name)
        now = ctx.now()
        domain_sql.update(conn, row["name"], now, **changes)
        events.record(conn, caller, "domain_updated", now, None, domain=row["name"], fields=sorted(changes))
    return show_domain(ctx, caller, row["name"])


# -- discovery -------------------------------------------------------------------------------
@dataclass
class _Snapshot:
    """What discovery needs, read in one short snapshot."""

    rows: list[dict[str, Any]]
    records: list[dict[str, Any]]
    movable: set[str]
    sizes: dict[str, int]
    private_names: frozenset[str]  # named by memvault from records no remote caller sees


def _snapshot(ctx: Context) -> _Snapshot:
    with ctx.reading() as conn:
        rows = domain_sql.all_domains(conn)
        records = domain_sql.live_records(conn)
        movable = domain_sql.assigned_ids(conn) | {r["id"] for r in records if r["domain"] == discovery.DEFAULT_DOMAIN}
        sizes = {name: sum(c.values()) for name, c in domain_sql.counts_by_status(conn).items()}
        named_by_memvault = domain_sql.discovered_names(conn)
    shared = {r["domain"] for r in records if r["shared"]}
    return _Snapshot(rows, records, movable, sizes, frozenset(named_by_memvault - shared))


def discover(
    ctx: Context, caller: Caller, *, dry_run: bool = True, min_records: int = discovery.MIN_RECORDS
) -> dict[str, Any]:
    """Find regions in the records; with `dry_run` only say what would change.

    The clustering runs outside any lock or transaction (it can take seconds on a large
    store); the moves are then applied in one short transaction, each only if the record
    is still in the domain it was planned from.
    """
    require_owner(caller, "discovering domains")
    if not isinstance(dry_run, bool):
        raise InvalidArgument("dry_run: expected true or false")
    snap = _snapshot(ctx)
    rows, records = snap.rows, snap.records
    pinned = {r["name"] for r in rows if r["pinned"]}
    plan = discovery.plan_discovery(
        records, snap.movable, pinned, snap.sizes, min_records=min_records, private_names=snap.private_names
    )
    answer = {**plan.summary(), "dry_run": dry_run}
    if dry_run or not plan.regions:
        return answer
    projected = [{**r, "domain": plan.moves[r["id"]][1] if r["id"] in plan.moves else r["domain"]} for r in records]
    names = sorted({r["name"] for r in rows} - set(plan.emptied) | set(plan.new_domains))
    stats = discovery.domain_stats(projected, names)
    with ctx.transaction() as conn:
        now = ctx.now()
        apply_plan(conn, caller, plan, now)
        write_stats(conn, caller, stats, now)
        events.record(
            conn,
            caller,
            "domains_discovered",
            now,
            None,
            records=plan.records,
            regions=len(plan.regions),
            moves=len(plan.moves),
            created=len(plan.new_domains),
        )
    log.info(
        "discovery: %d regions, %d moves, %d new domains", len(plan.regions), len(plan.moves), len(plan.new_domains)
    )
    return answer


def apply_plan(conn: Connection, caller: Caller, plan: discovery.DiscoveryPlan, now: str) -> None:
    existing = {r["name"] for r in domain_sql.all_domains(conn)}
    created = [region.name for region in plan.regions if region.name not in existing]
    for region in plan.regions:
        if region.name not in existing:
            domain_sql.insert(conn, region.name, now, description=region.description, keywords=region.keywords)
            events.record(conn, caller, "domain_created", now, None, domain=region.name, discovered=True)
    pinned_now = {r["name"] for r in domain_sql.all_domains(conn) if r["pinned"]}  # pinned while planning
    by_move: dict[tuple[str, str], list[str]] = {}
    for memory_id, flow in plan.moves.items():
        if flow[0] not in pinned_now:
            by_move.setdefault(flow, []).append(memory_id)
    for (source, target), ids in sorted(by_move.items()):
        _move(conn, caller, ids, source, target, now, automatic=True)
    # A domain the moves emptied goes (older versions move with their records, so a domain
    # can empty even when the plan did not foresee it).
    for name in sorted(set(plan.emptied) | {source for source, _ in by_move} | set(created)):
        row = domain_sql.fetch(conn, name)
        if row is not None and not row["pinned"] and domain_sql.record_count(conn, name) == 0:
            domain_sql.replace_in_related(conn, name, None, now)
            domain_sql.delete(conn, name)
            events.record(conn, caller, "domain_removed", now, None, domain=name, reason="emptied by discovery")


def write_stats(conn: Connection, caller: Caller, stats: dict[str, dict[str, Any]], now: str) -> int:
    """Store recomputed keywords, description, centroid, related and token share.

    What a person set stays: their own keywords always; a pinned domain keeps its derived
    keywords, description and token share too; a description not written by memvault (not
    starting "About ") is kept.
    """
    changed = 0
    for row in domain_sql.all_domains(conn):
        new = stats.get(row["name"])
        if new is None:
            continue
        fields: dict[str, Any] = {"centroid": new["centroid"], "related": new["related"]}
        derived = [k for k in row["keywords"] if k not in row["curated"]]
        new_derived = [k for k in new["keywords"] if k not in row["curated"]]
        if not row["pinned"] and new_derived != derived:
            fields["keywords"] = new_derived
        if not row["pinned"]:
            fields["token_share"] = new["token_share"]
            if not row["description"] or row["description"].startswith("About "):
                fields["description"] = new["description"]
        if any(row.get(k) != v for k, v in fields.items()):
            domain_sql.update(conn, row["name"], now, **fields)
            changed += 1
    if changed:
        events.record(conn, caller, "domains_refreshed", now, None, domains=changed)
    return changed


def refresh(ctx: Context, caller: Caller) -> int:
    """Recompute every domain's statistics (computed outside the lock, written in one transaction)."""
    require_owner(caller, "refreshing domains")
    snap = _snapshot(ctx)
    stats = discovery.domain_stats(snap.records, [r["name"] for r in snap.rows])
    with ctx.transaction() as conn:
        return write_stats(conn, caller, stats, ctx.now())


SETTLE_WEIGHT = 0.6  # the top domain must carry this share of a record's route...
SETTLE_SCORE = 0.3  # ...with at least this score, for a record in `general` to be placed there


def settle(ctx: Context, caller: Caller) -> int:
    """Place records by their meaning, now that their vectors exist.

    A write without a domain is placed by words alone (its vector comes after the commit):
    one that matched nothing waits in `general`, one that matched a word may sit in the
    wrong domain. Here every record memvault placed (assigned, with a vector, outside pinned
    domains) is routed by its own vector and text, in the view its scope allows (a shared
    record by the shared records only, never into a domain named from private ones), and
    moved when another domain clearly wins. Answers how many records moved.
    """
    require_owner(caller, "placing records")
    snap = _snapshot(ctx)
    pinned = {r["name"] for r in snap.rows if r["pinned"]}
    with ctx.reading() as conn:
        # Records placed at write time (or waiting in general); discovery's own placements are
        # left to discovery, so the two never pull a record back and forth.
        placed_on_write = domain_sql.assigned_ids(conn, on_write_only=True)
    candidates = [
        r
        for r in snap.records
        if (r["id"] in placed_on_write or (r["domain"] == discovery.DEFAULT_DOMAIN and r["id"] in snap.movable))
        and r["vector"]
        and r["domain"] not in pinned
    ]
    if not candidates:
        return 0
    np = discovery.numpy_module()
    placements: dict[str, tuple[str, str]] = {}
    with ctx.reading() as conn:
        for record in candidates:
            view = SHARED_VIEW if record["shared"] else caller
            decision = route(conn, view, record["text"], np.frombuffer(record["vector"], dtype=np.float32))
            target = _settling_target(record, decision.scores, snap.private_names)
            if target:
                placements[record["id"]] = (record["domain"], target)
    if not placements:
        return 0
    moved = 0
    with ctx.transaction() as conn:
        now = ctx.now()
        rows = domain_sql.all_domains(conn)  # as they are now: pinned or merged away meanwhile
        pinned_now, existing = {r["name"] for r in rows if r["pinned"]}, {r["name"] for r in rows}
        for memory_id, (source, target) in sorted(placements.items()):
            if source not in pinned_now and target in existing:
                moved += _move(conn, caller, [memory_id], source, target, now, automatic=True)
    log.info("settled %d records", moved)
    return moved


def _settling_target(record: dict[str, Any], scores: dict[str, float], private_names: frozenset[str]) -> str | None:
    """The domain a record clearly belongs to instead of its own, if any.

    The record's own domain (and `general`) are left out of the contest: the record itself
    feeds their profiles. The winner must score at least SETTLE_SCORE, carry SETTLE_WEIGHT of
    the weight among the rival domains that would be active, and leave the record's own
    domain (when it is not `general`) below the activation threshold beside it.
    """
    own = record["domain"]
    rivals = sorted(((v, k) for k, v in scores.items() if k not in (own, discovery.DEFAULT_DOMAIN)), reverse=True)
    if not rivals or rivals[0][0] < SETTLE_SCORE:
        return None
    best, name = rivals[0]
    share = best / sum(v for v, _ in rivals if v >= RELATIVE * best)
    own_holds = own != discovery.DEFAULT_DOMAIN and scores.get(own, 0.0) >= RELATIVE * best
    if share < SETTLE_WEIGHT or own_holds or (record["shared"] and name in private_names):
        return None
    return name


def maintain(ctx: Context, caller: Caller, *, min_records: int = discovery.MIN_RECORDS) -> dict[str, Any]:
    """For the daemon: re-discover once the store has grown enough since the last discovery,
    else refresh the domains' statistics and place the records waiting in `general`. Safe to
    call often. The `domain_upkeep` setting limits it to refreshing (`refresh`) or to nothing
    (`off`)."""
    require_owner(caller, "maintaining domains")
    upkeep = str(ctx.setting("domain_upkeep"))
    if upkeep == "off":
        return {"action": "none", "domains": 0, "settled": 0}
    with ctx.reading() as conn:
        live = domain_sql.live_count(conn)
        last = domain_sql.last_discovery_size(conn)
    grown = live >= min_records and (last is None or live >= last * REDISCOVER_GROWTH)
    if upkeep == "auto" and grown:
        return {"action": "discovered", **discover(ctx, caller, dry_run=False, min_records=min_records)}
    domains_changed = refresh(ctx, caller)
    settled = settle(ctx, caller) if upkeep == "auto" else 0
    return {"action": "refreshed", "domains": domains_changed, "settled": settled}
