"""SQL for domains (regions): their rows, what they hold, and moving records between them.

Domain management is the person's (local) business; the reads used on the search
path (`version`, `visible_counts`, `domains_in_use`) apply the caller's visibility.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from memvault.core.store.shared_sql import LIVE
from memvault.core.store.sqlcipher import store_stamps
from memvault.core.store.sqlcipher.connection import Connection
from memvault.core.store.sqlcipher.match import any_word
from memvault.core.store.sqlcipher.visibility import visible_clause
from memvault.core.vocabulary.model import LIVE_STATUSES, Caller

DOMAIN_COLUMNS = (
    "name, description, keywords, related, priority, depth, token_share, centroid, pinned, created_at, updated_at"
)
_EDITABLE = frozenset(
    {"description", "keywords", "curated", "related", "priority", "depth", "token_share", "centroid", "pinned"}
)


def version(conn: Connection) -> tuple[str, int, int]:
    """A cheap stamp of the store's state, safe as a cache key across stores in one process: the
    store's identity, its write counter and the latest event id (`store_stamps`)."""
    return store_stamps.read(conn).domains


# The keywords column holds the person's own keywords (marked with a leading "=") and the
# keywords memvault derived from the records. Decoded rows carry `keywords` (all of them,
# the person's first, unmarked) and `curated` (the person's alone).
CURATED = "="


def _decode(row: Any) -> dict[str, Any]:
    data = dict(row)
    stored = [str(k) for k in json.loads(data["keywords"] or "[]")]
    curated = [k[len(CURATED) :] for k in stored if k.startswith(CURATED)]
    derived = [k for k in stored if not k.startswith(CURATED) and k not in curated]
    data["keywords"] = curated + derived
    data["curated"] = curated
    data["related"] = json.loads(data["related"] or "[]")
    data["pinned"] = bool(data["pinned"])
    return data


def _keywords_column(conn: Connection, name: str, fields: dict[str, Any]) -> str:
    """The keywords column after a change of the derived keywords (`keywords`), the person's
    (`curated`), or both; whichever is not given is kept."""
    current = fetch(conn, name)
    curated = list(fields.pop("curated", None) or []) if "curated" in fields else (current or {}).get("curated", [])
    if "keywords" in fields:
        derived = list(fields.pop("keywords") or [])
    else:
        derived = [k for k in (current or {}).get("keywords", []) if k not in (current or {}).get("curated", [])]
    return json.dumps([CURATED + k for k in curated] + [k for k in derived if k not in curated])


def all_domains(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(f"SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY name").fetchall()
    return [_decode(row) for row in rows]


def fetch(conn: Connection, name: str) -> dict[str, Any] | None:
    row = conn.execute(f"SELECT {DOMAIN_COLUMNS} FROM domains WHERE name = ?", (name,)).fetchone()
    return _decode(row) if row else None


def visible_counts(conn: Connection, caller: Caller) -> dict[str, int]:
    """Live records per domain that this caller may see (domains with none are absent).

    A local caller sees every record: one status at a time, the (status, domain) index hands the
    domains over in order and the counting needs no temporary b-tree (9 instead of 33 ms at 100k
    records, paid by the router after every write)."""
    if caller.is_local:
        counts: dict[str, int] = {}
        for status in LIVE_STATUSES:
            query = "SELECT m.domain, count(*) FROM memories m WHERE m.status = ? GROUP BY m.domain"
            for domain, n in conn.execute(query, (status.value,)):
                counts[domain] = counts.get(domain, 0) + int(n)
        return counts
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT m.domain, count(*) FROM memories m WHERE {LIVE} AND {clause} GROUP BY m.domain", params
    ).fetchall()
    return {row[0]: int(row[1]) for row in rows}


def domains_in_use(conn: Connection, caller: Caller) -> set[str]:
    """The domains (of the domains table) holding a live record this caller may see.

    A local caller sees every record: one look-up per domain in the (status, domain) index
    instead of counting every live record (~0.1 instead of 7-9 ms at 100k records, paid by the
    router after every write). Other callers: their visible records' domains, as counted."""
    if caller.is_local:
        rows = conn.execute(
            f"SELECT d.name FROM domains d WHERE EXISTS (SELECT 1 FROM memories m WHERE {LIVE} AND m.domain = d.name)"
        )
        return {row[0] for row in rows}
    return set(visible_counts(conn, caller))


def counts_by_status(conn: Connection) -> dict[str, dict[str, int]]:
    """Every record per domain and status (the person's view; no visibility filter)."""
    result: dict[str, dict[str, int]] = {}
    for row in conn.execute("SELECT domain, status, count(*) FROM memories GROUP BY domain, status"):
        result.setdefault(row[0], {})[row[1]] = int(row[2])
    return result


def _seen_by(viewer: Caller | None) -> tuple[str, list[object]]:
    """No limit for the person's full view; the viewer's visibility otherwise."""
    return ("1", []) if viewer is None else visible_clause(viewer)


def statements(conn: Connection, domain: str, limit: int = 200, *, viewer: Caller | None = None) -> list[str]:
    """The most recent live statements of a domain within a view (for term profiles; never leaves core)."""
    clause, params = _seen_by(viewer)
    rows = conn.execute(
        f"SELECT m.statement, m.tags FROM memories m WHERE m.domain = ? AND {LIVE} AND {clause}"
        " ORDER BY m.learned_at DESC LIMIT ?",
        (domain, *params, limit),
    ).fetchall()
    return [row[0] + " " + _tag_words(row[1]) for row in rows]


def _tag_words(tags_json: str) -> str:
    """Tags as words; `project:Atlas` gives `Atlas` (the prefix says nothing about a region)."""
    return " ".join(tag.split(":", 1)[-1] for tag in json.loads(tags_json))


def live_records(conn: Connection) -> list[dict[str, Any]]:
    """Every live record's id, domain, text, vector (None without one) and whether a remote
    caller could see it (`shared`: any scope but local_only; a workspace or a bound principal
    sees its domain's name too), oldest first."""
    rows = conn.execute(
        "SELECT m.id, m.domain, m.statement, m.tags, v.vector,"
        " m.access_scope != 'local_only' FROM memories m"
        f" LEFT JOIN memory_vectors v ON v.memory_id = m.id WHERE {LIVE} ORDER BY m.learned_at, m.id"
    ).fetchall()
    return [
        {
            "id": row[0],
            "domain": row[1],
            "text": row[2] + " " + _tag_words(row[3]),
            "vector": row[4],
            "shared": bool(row[5]),
        }
        for row in rows
    ]


def domain_vectors(conn: Connection, domain: str, *, viewer: Caller | None = None) -> list[bytes]:
    clause, params = _seen_by(viewer)
    rows = conn.execute(
        "SELECT v.vector FROM memories m JOIN memory_vectors v ON v.memory_id = m.id"
        f" WHERE m.domain = ? AND {LIVE} AND {clause}",
        (domain, *params),
    ).fetchall()
    return [row[0] for row in rows]


def insert(conn: Connection, name: str, now: str, **fields: Any) -> None:
    conn.execute("INSERT INTO domains (name, created_at, updated_at) VALUES (?, ?, ?)", (name, now, now))
    if fields:
        update(conn, name, now, **fields)


def update(conn: Connection, name: str, now: str, **fields: Any) -> None:
    """Change a domain's row; `keywords` are the derived keywords, `curated` the person's."""
    if not fields or not set(fields) <= _EDITABLE:
        raise ValueError(f"not editable: {sorted(set(fields) - _EDITABLE)}")
    if "keywords" in fields or "curated" in fields:
        fields["keywords"] = _keywords_column(conn, name, fields)
    values = [json.dumps(v) if k == "related" else v for k, v in fields.items()]
    assignments = ", ".join(f"{k} = ?" for k in fields)
    conn.execute(f"UPDATE domains SET {assignments}, updated_at = ? WHERE name = ?", [*values, now, name])


def rename(conn: Connection, old: str, new: str, now: str) -> None:
    """Rename in place: memories follow through ON UPDATE CASCADE; related lists are rewritten."""
    conn.execute("UPDATE domains SET name = ?, updated_at = ? WHERE name = ?", (new, now, old))
    # the records' own rows changed (their domain): their revisions grow, as with any change
    conn.execute("UPDATE memories SET revision = revision + 1, updated_at = ? WHERE domain = ?", (now, new))
    replace_in_related(conn, old, new, now)


def replace_in_related(conn: Connection, old: str, new: str | None, now: str) -> None:
    for row in conn.execute("SELECT name, related FROM domains").fetchall():
        related = json.loads(row[1] or "[]")
        if old not in related:
            continue
        changed = [r for r in related if r != old]
        if new and new != row[0] and new not in changed:
            changed.append(new)
        update(conn, row[0], now, related=changed)


def delete(conn: Connection, name: str) -> None:
    conn.execute("DELETE FROM domains WHERE name = ?", (name,))


def record_count(conn: Connection, domain: str) -> int:
    return int(conn.execute("SELECT count(*) FROM memories WHERE domain = ?", (domain,)).fetchone()[0])


def ids_in(conn: Connection, domain: str) -> list[str]:
    return [row[0] for row in conn.execute("SELECT id FROM memories WHERE domain = ? ORDER BY id", (domain,))]


def ids_matching(conn: Connection, domain: str, words: Sequence[str]) -> list[str]:
    """Records of a domain (any status) whose statement, tags or entities hold any of the words."""
    rows = conn.execute(
        "SELECT m.id FROM memory_fts f JOIN memories m ON m.rowid = f.rowid"
        " WHERE memory_fts MATCH ? AND m.domain = ? ORDER BY m.id",
        (any_word(words), domain),
    ).fetchall()
    return [row[0] for row in rows]


def with_history(conn: Connection, ids: Sequence[str]) -> list[str]:
    """The given records plus every older version they supersede (so a chain moves together)."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"WITH RECURSIVE chain(id) AS (SELECT id FROM memories WHERE id IN ({marks})"
        " UNION SELECT m.supersedes_id FROM memories m JOIN chain c ON m.id = c.id"
        " WHERE m.supersedes_id IS NOT NULL) SELECT id FROM chain ORDER BY id",
        list(ids),
    ).fetchall()
    return [row[0] for row in rows]


def move(conn: Connection, ids: Iterable[str], domain: str, now: str) -> int:
    """Put records in another domain; each moved record's revision grows. Returns how many moved."""
    moved = 0
    for memory_id in ids:
        cursor = conn.execute(
            "UPDATE memories SET domain = ?, revision = revision + 1, updated_at = ? WHERE id = ? AND domain != ?",
            (domain, now, memory_id, domain),
        )
        moved += cursor.rowcount
    return moved


def assigned_ids(conn: Connection, *, on_write_only: bool = False) -> set[str]:
    """Records whose domain memvault chose (not the person): their last domain event says so.

    With `on_write_only`, only those still where the write put them (no move since).
    """
    rows = conn.execute(
        "SELECT e.memory_id, e.action, e.details FROM events e"
        " WHERE e.action IN ('domain_assigned', 'domain_moved') AND e.memory_id IS NOT NULL ORDER BY e.id"
    ).fetchall()
    chosen: set[str] = set()
    for memory_id, action, details in rows:
        automatic = action == "domain_assigned" or (not on_write_only and bool(json.loads(details).get("automatic")))
        if automatic:
            chosen.add(memory_id)
        else:
            chosen.discard(memory_id)
    return chosen


def live_count(conn: Connection) -> int:
    return int(conn.execute(f"SELECT count(*) FROM memories m WHERE {LIVE}").fetchone()[0])


def last_discovery_size(conn: Connection) -> int | None:
    """How many live records the last applied discovery saw (None: never ran)."""
    row = conn.execute(
        "SELECT details FROM events WHERE action = 'domains_discovered' ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return int(json.loads(row[0]).get("records", 0)) if row else None


def live_count_in(conn: Connection, names: Sequence[str], *, viewer: Caller | None = None) -> int:
    clause, params = _seen_by(viewer)
    marks = ",".join("?" * len(names))
    row = conn.execute(
        f"SELECT count(*) FROM memories m WHERE {LIVE} AND m.domain IN ({marks}) AND {clause}", [*names, *params]
    ).fetchone()
    return int(row[0])


def live_counts(conn: Connection, *, viewer: Caller | None = None) -> dict[str, int]:
    """Live records per domain within a view (for cache drift checks, never shown)."""
    clause, params = _seen_by(viewer)
    rows = conn.execute(
        f"SELECT m.domain, count(*) FROM memories m WHERE {LIVE} AND {clause} GROUP BY m.domain", params
    ).fetchall()
    return {row[0]: int(row[1]) for row in rows}


NEIGHBOUR_OVERFETCH = 4


def live_texts(conn: Connection, caller: Caller, ids: Sequence[str]) -> dict[str, tuple[str, str]]:
    """id -> (domain, statement with tag words) of the live records among `ids` the caller may see."""
    if not ids:
        return {}
    clause, params = visible_clause(caller)
    rows = conn.execute(
        "SELECT m.id, m.domain, m.statement, m.tags FROM memories m INDEXED BY sqlite_autoindex_memories_1"
        f" WHERE m.id IN ({','.join('?' * len(ids))}) AND {LIVE} AND {clause}",
        [*ids, *params],
    ).fetchall()
    return {row[0]: (row[1], row[2] + " " + _tag_words(row[3])) for row in rows}


def neighbours(conn: Connection, caller: Caller, words: Sequence[str], limit: int) -> list[tuple[str, str]]:
    """(domain, statement with tag words) of the live records best matching any of the words, best first,
    among those the caller may see.

    A local caller sees every record: the index ranks its matches alone and only the best few are
    read and filtered (joining every match first read a record per match: 215 ms at 100k records
    for a write's placement). Should too few of them be live, or for callers who do not see
    everything (whose cost must not depend on what they cannot see), the full join."""
    query = any_word(words)
    if caller.is_local:
        ranked = conn.execute(
            "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts) LIMIT ?",
            (query, limit * NEIGHBOUR_OVERFETCH),
        ).fetchall()
        order = {int(row[0]): at for at, row in enumerate(ranked)}
        rows = conn.execute(
            f"SELECT m.rowid, m.domain, m.statement, m.tags FROM memories m NOT INDEXED"
            f" WHERE m.rowid IN ({','.join('?' * len(order))}) AND {LIVE}",
            list(order),
        ).fetchall()
        if len(rows) >= limit or len(ranked) < limit * NEIGHBOUR_OVERFETCH:
            best = sorted(rows, key=lambda row: order[int(row[0])])[:limit]
            return [(row[1], row[2] + " " + _tag_words(row[3])) for row in best]
    clause, params = visible_clause(caller)
    rows = conn.execute(
        "SELECT m.domain, m.statement, m.tags FROM memory_fts f JOIN memories m ON m.rowid = f.rowid"
        f" WHERE memory_fts MATCH ? AND {LIVE} AND {clause} ORDER BY bm25(memory_fts) LIMIT ?",
        (query, *params, limit),
    ).fetchall()
    return [(row[0], row[1] + " " + _tag_words(row[2])) for row in rows]


def discovered_names(conn: Connection) -> set[str]:
    """Domains discovery created (and named) that still exist under that name."""
    rows = conn.execute(
        "SELECT DISTINCT json_extract(e.details, '$.domain') FROM events e"
        " JOIN domains d ON d.name = json_extract(e.details, '$.domain')"
        " WHERE e.action = 'domain_created' AND json_extract(e.details, '$.discovered')"
    ).fetchall()
    return {row[0] for row in rows}
