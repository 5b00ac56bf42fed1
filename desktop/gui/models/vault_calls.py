"""Every Vault call the memory, timeline and graph views make, in one place.

Each function runs on the `Operations` worker (never on the GUI thread) and returns plain values
the views show. Keeping the calls here means one file adapts when the Vault's signatures change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller, Scope
from memvault.core.vocabulary.requests import (
    ArchiveRequest,
    CorrectRequest,
    ListRequest,
    PurgeRequest,
    RelatedRequest,
    TimelineRequest,
)
from memvault.core.vocabulary.results import Provenance, RecordView, SearchAnswer
from memvault.core.vocabulary.search_request import SearchRequest

Row = dict[str, Any]  # a record as the contract returns it (a search hit adds score, why, tier)

SEARCH_LIMIT = 50  # the contract's maximum for one search
LIST_PAGE = 200  # the contract's maximum for one page of memory_list
TIMELINE_LIMIT = 500  # the contract's maximum of timeline events
PROJECT_TAG = "project:"  # the documented tag that files a record under a project (docs/cli.md)


@dataclass(frozen=True)
class RecordQuery:
    """What the Memories view asks for: words (search) or none (a list), filters and past moments."""

    text: str = ""
    domain: str | None = None
    type: str | None = None
    status: str = "current"
    as_of: str | None = None
    known_at: str | None = None


@dataclass(frozen=True)
class RecordPage:
    rows: list[Row]
    searched: bool
    next_cursor: str | None = None
    skipped_reason: str | None = None


@dataclass(frozen=True)
class RecordDetail:
    memory: Row
    history: list[Row]
    links: list[dict[str, str]]
    entities: list[str]
    events: list[dict[str, Any]]
    provenance: Provenance


@dataclass
class GraphData:
    """Nodes keyed "m:<id>" (records), "e:<name>" (entities), "p:<name>" (projects; one node per name, `_Names`);
    typed edges between keys."""

    labels: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # key -> "record" | "entity" | "project"
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (from key, to key, link type)
    truncated: bool = False


def find_records(vault: Vault, caller: Caller, query: RecordQuery, cursor: str | None = None) -> RecordPage:
    """Words: the same retrieval as memory_search, as browsing (no usage counted: looking through one's
    own memory is not an assistant's retrieval and must not move records between tiers). No words: a
    page of memory_list."""
    if query.text.strip():
        answer = vault.search(
            caller,
            SearchRequest.of(
                query=query.text,
                limit=SEARCH_LIMIT,
                depth="deep",
                domains=[query.domain] if query.domain else None,
                types=[query.type] if query.type else None,
                as_of=query.as_of,
                known_at=query.known_at,
                include_history=query.status != "current",
            ).browsing(),
        )
        if "results" not in answer:  # a shadow answer; never asked for here
            return RecordPage(rows=[], searched=True)
        found = cast("SearchAnswer", answer)
        reason = found["reason"] if found["skipped"] else None
        return RecordPage(rows=[dict(hit) for hit in found["results"]], searched=True, skipped_reason=reason)
    listed = vault.list_memories(
        caller,
        ListRequest.of(domain=query.domain, type=query.type, status=query.status, limit=LIST_PAGE, cursor=cursor),
    )
    return RecordPage(rows=[dict(r) for r in listed["items"]], searched=False, next_cursor=listed["next_cursor"])


def record_detail(vault: Vault, caller: Caller, memory_id: str) -> RecordDetail:
    got = vault.get(caller, memory_id)
    return RecordDetail(
        memory=dict(got["memory"]),
        history=[dict(r) for r in got["history"]],
        links=[{"type": link["type"], "target_id": link["target_id"]} for link in got["links"]],
        entities=list(got["entities"]),
        events=[dict(event) for event in vault.events_for(caller, memory_id)],
        provenance=vault.provenance(caller, memory_id),
    )


def domain_names(vault: Vault, caller: Caller) -> list[str]:
    return sorted(str(item["name"]) for item in vault.list_domains(caller)["items"])


def correct_record(vault: Vault, caller: Caller, memory_id: str, statement: str, reason: str, revision: int) -> Row:
    """The correction's answer, with the new version's sensitivity and access scope (the writer judges the
    new statement: a correction can make a record sensitive, and the pane says so)."""
    request = CorrectRequest.of(id=memory_id, statement=statement, reason=reason or None, expected_revision=revision)
    answer: Row = dict(vault.correct(caller, request))
    if answer.get("id"):
        written = vault.get(caller, answer["id"])["memory"]
        answer |= {"sensitivity": written["sensitivity"], "access_scope": written["access_scope"]}
    return answer


def archive_record(vault: Vault, caller: Caller, memory_id: str, reason: str, revision: int) -> Row:
    request = ArchiveRequest.of(id=memory_id, reason=reason or None, expected_revision=revision)
    return dict(vault.archive(caller, request))


def restore_record(vault: Vault, caller: Caller, memory_id: str) -> Row:
    return dict(vault.restore(caller, memory_id))


def change_scope(vault: Vault, caller: Caller, memory_id: str, scope: str, workspace_id: str | None) -> Row:
    record = vault.change_scope(caller, memory_id, Scope(scope), workspace_id)
    return {"outcome": "scope_changed", "id": record["id"]}


def request_purge(vault: Vault, caller: Caller, memory_id: str, reason: str) -> Row:
    return dict(vault.request_purge(caller, PurgeRequest.of(id=memory_id, reason=reason or None)))


def timeline_events(
    vault: Vault, caller: Caller, *, domain: str | None, entity: str | None, subject: str | None
) -> list[dict[str, Any]]:
    request = TimelineRequest.of(limit=TIMELINE_LIMIT, domain=domain, entity=entity, subject=subject)
    return [dict(event) for event in vault.timeline(caller, request)["events"]]


def folded(name: str) -> str:
    """A name as nodes are merged by: case and spacing ignored ("Fernbook", "fernbook", "Fernbook ")."""
    return " ".join(name.split()).casefold()


def project_names(record: Any) -> list[str]:
    return [
        tag[len(PROJECT_TAG) :].strip()
        for tag in record["tags"]
        if tag.lower().startswith(PROJECT_TAG) and tag[len(PROJECT_TAG) :].strip()
    ]


class _Names:
    """One node per name across the records drawn: a name that is a project anywhere is that project's node
    (an entity "Fernbook" and the project "Fernbook" are one), and a node keeps the first spelling met."""

    def __init__(self, views: list[RecordView]) -> None:
        self.keys = {folded(name): "p:" + name for got in views for name in project_names(got["memory"])}

    def join(self, data: GraphData, record_key: str, name: str, link_type: str, joined: set[str]) -> None:
        key = self.keys.setdefault(folded(name), "e:" + name)
        data.labels.setdefault(key, name)
        data.kinds.setdefault(key, "project" if key.startswith("p:") else "entity")
        if key not in joined:  # one edge per node, though a record name it twice
            joined.add(key)
            data.edges.append((record_key, key, link_type))


def _add_record(data: GraphData, got: RecordView, names: _Names) -> None:
    record = got["memory"]
    key = "m:" + record["id"]
    data.labels[key] = record["statement"]
    data.kinds[key] = "record"
    joined: set[str] = set()
    for name in project_names(record):  # first: "part of project" says more than "mentions"
        names.join(data, key, name, "part_of_project", joined)
    for name in got["entities"]:
        names.join(data, key, name, "mentions", joined)


def _record_ids(
    vault: Vault, caller: Caller, *, centre: str | None, depth: int, domain: str | None, limit: int
) -> tuple[list[str], bool]:
    """The records to draw: the neighbourhood of a centre record, else the newest current records."""
    if centre:
        request = RelatedRequest.of(id=centre, depth=depth, limit=min(limit, 200))
        nodes = vault.related(caller, request)["nodes"]
        return [str(n["id"]) for n in nodes], len(nodes) >= min(limit, 200)
    ids: list[str] = []
    cursor: str | None = None
    while len(ids) < limit:
        page = vault.list_memories(caller, ListRequest.of(domain=domain, limit=LIST_PAGE, cursor=cursor))
        ids += [str(item["id"]) for item in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            return ids[:limit], False
    return ids[:limit], True


def graph_data(
    vault: Vault, caller: Caller, *, centre: str | None, depth: int, domain: str | None, limit: int
) -> GraphData:
    """Records with their entities and projects, and the typed links among the records drawn."""
    ids, truncated = _record_ids(vault, caller, centre=centre, depth=depth, domain=domain, limit=limit)
    data = GraphData(truncated=truncated)
    views = [vault.get(caller, memory_id) for memory_id in ids]
    names = _Names(views)
    links: list[tuple[str, str, str]] = []
    for got in views:
        _add_record(data, got, names)
        links += [("m:" + got["memory"]["id"], "m:" + link["target_id"], link["type"]) for link in got["links"]]
    data.edges += [edge for edge in links if edge[1] in data.kinds]
    return data


def project_events(vault: Vault, caller: Caller, project: str) -> list[dict[str, Any]]:
    """A project's states, decisions and open items as timeline events (learned moments)."""
    history = vault.project_history(caller, project)
    records = {r["id"]: r for part in ("states", "decisions", "unresolved") for r in history[part]}
    return [{"time": r["learned_at"], "kind": "learned", "record": r} for r in records.values() if r.get("learned_at")]
