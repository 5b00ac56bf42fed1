"""Domain upkeep: discovery of regions in the records, and the daemon's refresh and settling.

The clustering itself lives in core/retrieval/discovery.py; this module is its glue to the
store: a short snapshot, the clustering outside any transaction, then the moves in one short
transaction (each only if the record is still where it was planned from). Discovery and
settling move only records memvault placed (assigned) or left in `general`, never out of a
pinned domain.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

from memvault.core.operations import domains
from memvault.core.retrieval import discovery
from memvault.core.retrieval.placement import SHARED_VIEW
from memvault.core.retrieval.router import RELATIVE, route
from memvault.core.security.access import require_owner
from memvault.core.store.context import Context
from memvault.core.store.seam import Store
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import DiscoveryReport, DiscoveryUpkeep, DomainUpkeep

log = logging.getLogger("memvault.domains")

REDISCOVER_GROWTH = 1.25  # the daemon re-discovers once the store has grown by a quarter


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
        rows = conn.domains.all_domains()
        records = conn.domains.live_records()
        movable = conn.domains.assigned_ids() | {r["id"] for r in records if r["domain"] == discovery.DEFAULT_DOMAIN}
        sizes = {name: sum(c.values()) for name, c in conn.domains.counts_by_status().items()}
        named_by_memvault = conn.domains.discovered_names()
    shared = {r["domain"] for r in records if r["shared"]}
    return _Snapshot(rows, records, movable, sizes, frozenset(named_by_memvault - shared))


def discover(
    ctx: Context, caller: Caller, *, dry_run: bool = True, min_records: int = discovery.MIN_RECORDS
) -> DiscoveryReport:
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
    answer = cast(DiscoveryReport, {**plan.summary(), "dry_run": dry_run})  # summary(): every other key
    if dry_run or not plan.regions:
        return answer
    projected = [{**r, "domain": plan.moves[r["id"]][1] if r["id"] in plan.moves else r["domain"]} for r in records]
    names = sorted({r["name"] for r in rows} - set(plan.emptied) | set(plan.new_domains))
    stats = discovery.domain_stats(projected, names)
    with ctx.transaction() as conn:
        now = ctx.now()
        apply_plan(conn, caller, plan, now)
        write_stats(conn, caller, stats, now)
        conn.events.record(
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


def apply_plan(conn: Store, caller: Caller, plan: discovery.DiscoveryPlan, now: str) -> None:
    existing = {r["name"] for r in conn.domains.all_domains()}
    created = [region.name for region in plan.regions if region.name not in existing]
    for region in plan.regions:
        if region.name not in existing:
            conn.domains.insert(region.name, now, description=region.description, keywords=region.keywords)
            conn.events.record(caller, "domain_created", now, None, domain=region.name, discovered=True)
    pinned_now = {r["name"] for r in conn.domains.all_domains() if r["pinned"]}  # pinned while planning
    by_move: dict[tuple[str, str], list[str]] = {}
    for memory_id, flow in plan.moves.items():
        if flow[0] not in pinned_now:
            by_move.setdefault(flow, []).append(memory_id)
    for (source, target), ids in sorted(by_move.items()):
        domains.move_records(conn, caller, ids, source, target, now, automatic=True)
    # A domain the moves emptied goes (older versions move with their records, so a domain
    # can empty even when the plan did not foresee it).
    for name in sorted(set(plan.emptied) | {source for source, _ in by_move} | set(created)):
        row = conn.domains.fetch(name)
        if row is not None and not row["pinned"] and conn.domains.record_count(name) == 0:
            conn.domains.replace_in_related(name, None, now)
            conn.domains.delete(name)
            conn.events.record(caller, "domain_removed", now, None, domain=name, reason="emptied by discovery")


def write_stats(conn: Store, caller: Caller, stats: dict[str, dict[str, Any]], now: str) -> int:
    """Store recomputed keywords, description, centroid, related and token share.

    What a person set stays: their own keywords always; a pinned domain keeps its derived
    keywords, description and token share too; a description not written by memvault (not
    starting "About ") is kept.
    """
    changed = 0
    for row in conn.domains.all_domains():
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
            conn.domains.update(row["name"], now, **fields)
            changed += 1
    if changed:
        conn.events.record(caller, "domains_refreshed", now, None, domains=changed)
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
        placed_on_write = conn.domains.assigned_ids(on_write_only=True)
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
        rows = conn.domains.all_domains()  # as they are now: pinned or merged away meanwhile
        pinned_now, existing = {r["name"] for r in rows if r["pinned"]}, {r["name"] for r in rows}
        for memory_id, (source, target) in sorted(placements.items()):
            if source not in pinned_now and target in existing:
                moved += domains.move_records(conn, caller, [memory_id], source, target, now, automatic=True)
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


def maintain(
    ctx: Context, caller: Caller, *, min_records: int = discovery.MIN_RECORDS
) -> DomainUpkeep | DiscoveryUpkeep:
    """For the daemon: re-discover once the store has grown enough since the last discovery,
    else refresh the domains' statistics and place the records waiting in `general`. Safe to
    call often. The `domain_upkeep` setting limits it to refreshing (`refresh`) or to nothing
    (`off`)."""
    require_owner(caller, "maintaining domains")
    upkeep = str(ctx.setting("domain_upkeep"))
    if upkeep == "off":
        return {"action": "none", "domains": 0, "settled": 0}
    with ctx.reading() as conn:
        live = conn.domains.live_count()
        last = conn.domains.last_discovery_size()
    grown = live >= min_records and (last is None or live >= last * REDISCOVER_GROWTH)
    if upkeep == "auto" and grown:
        return {"action": "discovered", **discover(ctx, caller, dry_run=False, min_records=min_records)}
    domains_changed = refresh(ctx, caller)
    settled = settle(ctx, caller) if upkeep == "auto" else 0
    return {"action": "refreshed", "domains": domains_changed, "settled": settled}
