"""Domains (regions) on PostgreSQL: their rows, what they hold, and moving records between them (the
SQLCipher engine's `domain_rows.py` in PostgreSQL's SQL).

Domain management is the person's (local) business; the reads used on the search path (`version`,
`visible_counts`, `domains_in_use`, `live_texts`, `neighbours`) apply the caller's visibility.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from memvault.core.store.postgres import store_stamps
from memvault.core.store.postgres.connection import Connection
from memvault.core.store.postgres.visibility import visible_clause
from memvault.core.store.postgres.words import any_term, folded
from memvault.core.store.shared_sql import LIVE
from memvault.core.vocabulary.model import Caller

DOMAIN_COLUMNS = (
    "name, description, keywords, related, priority, depth, token_share, centroid, pinned, created_at, updated_at"
)
_EDITABLE = frozenset(
    {"description", "keywords", "curated", "related", "priority", "depth", "token_share", "centroid", "pinned"}
)
# bm25(memory_fts) without weights counts every column alike: so does this ranking (D, C, B, A).
EVEN_WEIGHTS = "{1, 1, 1, 1}"


def version(conn: Connection) -> tuple[str, int, int]:
    """A cheap stamp of the store's state, safe as a cache key across stores in one process: the
    store's identity, its write counter and the latest event id (`store_stamps`)."""
    return store_stamps.read(conn).domains


# The keywords column holds the person's own keywords (marked with a leading "=") and the
# keywords memvault derived from the records. Decoded rows carry `keywords` (all of them,
# the person's first, unmarked) and `curated` (the person's alone).
CURATED = "="


def _decode(row: dict[str, Any]) -> dict[str, Any]:
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


def _any_word(words: Sequence[str]) -> str:
    """A tsquery of records holding any of the words (folded as the index folds them)."""
    return any_term((folded(word), False) for word in words)


def _tag_words(tags_json: str) -> str:
    """Tags as words; `project:Atlas` gives `Atlas` (the prefix says nothing about a region)."""
    return " ".join(tag.split(":", 1)[-1] for tag in json.loads(tags_json))


def _seen_by(viewer: Caller | None) -> tuple[str, list[object]]:
    """No limit for the person's full view; the viewer's visibility otherwise."""
    return ("TRUE", []) if viewer is None else visible_clause(viewer)


def all_domains(conn: Connection) -> list[dict[str, Any]]:
    # byte order, as SQLite sorts text (the database's collation may ignore case and punctuation)
    rows = conn.execute(f'SELECT {DOMAIN_COLUMNS} FROM domains ORDER BY name COLLATE "C"').fetchall()
    return [_decode(row) for row in rows]


def fetch(conn: Connection, name: str) -> dict[str, Any] | None:
    row = conn.execute(f"SELECT {DOMAIN_COLUMNS} FROM domains WHERE name = %s", (name,)).fetchone()
    return _decode(row) if row else None


def visible_counts(conn: Connection, caller: Caller) -> dict[str, int]:
    """Live records per domain that this caller may see (domains with none are absent)."""
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT m.domain, count(*) AS n FROM memories m WHERE {LIVE} AND {clause} GROUP BY m.domain", params
    ).fetchall()
    return {row["domain"]: int(row["n"]) for row in rows}


def domains_in_use(conn: Connection, caller: Caller) -> set[str]:
    """The domains (of the domains table) holding a live record this caller may see: for a local
    caller one look-up per domain in the (status, domain) index; for others their visible records'
    domains, as counted."""
    if caller.is_local:
        rows = conn.execute(
            f"SELECT d.name FROM domains d WHERE EXISTS (SELECT 1 FROM memories m WHERE {LIVE} AND m.domain = d.name)"
        )
        return {row["name"] for row in rows}
    return set(visible_counts(conn, caller))


def counts_by_status(conn: Connection) -> dict[str, dict[str, int]]:
    """Every record per domain and status (the person's view; no visibility filter)."""
    result: dict[str, dict[str, int]] = {}
    for row in conn.execute("SELECT domain, status, count(*) AS n FROM memories GROUP BY domain, status"):
        result.setdefault(row["domain"], {})[row["status"]] = int(row["n"])
    return result


def statements(conn: Connection, domain: str, limit: int = 200, *, viewer: Caller | None = None) -> list[str]:
    """The most recent live statements of a domain within a view (for term profiles; never leaves core)."""
    clause, params = _seen_by(viewer)
    rows = conn.execute(
        f"SELECT m.statement, m.tags FROM memories m WHERE m.domain = %s AND {LIVE} AND {clause}"
        " ORDER BY m.learned_at DESC LIMIT %s",
        (domain, *params, limit),
    ).fetchall()
    return [row["statement"] + " " + _tag_words(row["tags"]) for row in rows]


def live_records(conn: Connection) -> list[dict[str, Any]]:
    """Every live record's id, domain, text, vector (None without one) and whether a remote
    caller could see it (`shared`: any scope but local_only; a workspace or a bound principal
    sees its domain's name too), oldest first."""
    rows = conn.execute(
        "SELECT m.id, m.domain, m.statement, m.tags, v.vector, m.access_scope != 'local_only' AS shared"
        f" FROM memories m LEFT JOIN memory_vectors v ON v.memory_id = m.id WHERE {LIVE} ORDER BY m.learned_at, m.id"
    ).fetchall()
    return [
        {
            "id": row["id"],
            "domain": row["domain"],
            "text": row["statement"] + " " + _tag_words(row["tags"]),
            "vector": None if row["vector"] is None else bytes(row["vector"]),
            "shared": bool(row["shared"]),
        }
        for row in rows
    ]


def domain_vectors(conn: Connection, domain: str, *, viewer: Caller | None = None) -> list[bytes]:
    clause, params = _seen_by(viewer)
    rows = conn.execute(
        "SELECT v.vector FROM memories m JOIN memory_vectors v ON v.memory_id = m.id"
        f" WHERE m.domain = %s AND {LIVE} AND {clause}",
        (domain, *params),
    ).fetchall()
    return [bytes(row["vector"]) for row in rows]


def insert(conn: Connection, name: str, now: str, **fields: Any) -> None:
    conn.execute("INSERT INTO domains (name, created_at, updated_at) VALUES (%s, %s, %s)", (name, now, now))
    if fields:
        update(conn, name, now, **fields)


def _column_value(name: str, value: Any) -> Any:
    if name == "related":
        return json.dumps(value)
    if name == "pinned" and isinstance(value, bool):
        return int(value)  # an INTEGER column: SQLite takes a bool as 0 or 1, PostgreSQL wants the number
    return value


def update(conn: Connection, name: str, now: str, **fields: Any) -> None:
    """Change a domain's row; `keywords` are the derived keywords, `curated` the person's."""
    if not fields or not set(fields) <= _EDITABLE:
        raise ValueError(f"not editable: {sorted(set(fields) - _EDITABLE)}")
    if "keywords" in fields or "curated" in fields:
        fields["keywords"] = _keywords_column(conn, name, fields)
    values = [_column_value(k, v) for k, v in fields.items()]
    assignments = ", ".join(f"{k} = %s" for k in fields)
    conn.execute(f"UPDATE domains SET {assignments}, updated_at = %s WHERE name = %s", [*values, now, name])


def rename(conn: Connection, old: str, new: str, now: str) -> None:
    """Rename in place: memories follow through ON UPDATE CASCADE; related lists are rewritten."""
    conn.execute("UPDATE domains SET name = %s, updated_at = %s WHERE name = %s", (new, now, old))
    # the records' own rows changed (their domain): their revisions grow, as with any change
    conn.execute("UPDATE memories SET revision = revision + 1, updated_at = %s WHERE domain = %s", (now, new))
    replace_in_related(conn, old, new, now)


def replace_in_related(conn: Connection, old: str, new: str | None, now: str) -> None:
    for row in conn.execute("SELECT name, related FROM domains").fetchall():
        related = json.loads(row["related"] or "[]")
        if old not in related:
            continue
        changed = [r for r in related if r != old]
        if new and new != row["name"] and new not in changed:
            changed.append(new)
        update(conn, row["name"], now, related=changed)


def delete(conn: Connection, name: str) -> None:
    conn.execute("DELETE FROM domains WHERE name = %s", (name,))


def record_count(conn: Connection, domain: str) -> int:
    row = conn.execute("SELECT count(*) AS n FROM memories WHERE domain = %s", (domain,)).fetchone()
    return int(row["n"]) if row else 0


def ids_in(conn: Connection, domain: str) -> list[str]:
    return [row["id"] for row in conn.execute("SELECT id FROM memories WHERE domain = %s ORDER BY id", (domain,))]


def ids_matching(conn: Connection, domain: str, words: Sequence[str]) -> list[str]:
    """Records of a domain (any status) whose statement, tags or entities hold any of the words."""
    if not words:
        return []
    rows = conn.execute(
        "SELECT m.id FROM memories m WHERE m.words @@ to_tsquery('simple', %s) AND m.domain = %s ORDER BY m.id",
        (_any_word(words), domain),
    ).fetchall()
    return [row["id"] for row in rows]


def with_history(conn: Connection, ids: Sequence[str]) -> list[str]:
    """The given records plus every older version they supersede (so a chain moves together)."""
    if not ids:
        return []
    rows = conn.execute(
        "WITH RECURSIVE chain(id) AS (SELECT id FROM memories WHERE id = ANY(%s)"
        " UNION SELECT m.supersedes_id FROM memories m JOIN chain c ON m.id = c.id"
        " WHERE m.supersedes_id IS NOT NULL) SELECT id FROM chain ORDER BY id",
        (list(ids),),
    ).fetchall()
    return [row["id"] for row in rows]


def move(conn: Connection, ids: Iterable[str], domain: str, now: str) -> int:
    """Put records in another domain; each moved record's revision grows. Returns how many moved."""
    moved = 0
    for memory_id in ids:
        cursor = conn.execute(
            "UPDATE memories SET domain = %s, revision = revision + 1, updated_at = %s WHERE id = %s AND domain != %s",
            (domain, now, memory_id, domain),
        )
        moved += max(cursor.rowcount, 0)
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
    for row in rows:
        automatic = row["action"] == "domain_assigned" or (
            not on_write_only and bool(json.loads(row["details"]).get("automatic"))
        )
        if automatic:
            chosen.add(row["memory_id"])
        else:
            chosen.discard(row["memory_id"])
    return chosen


def live_count(conn: Connection) -> int:
    row = conn.execute(f"SELECT count(*) AS n FROM memories m WHERE {LIVE}").fetchone()
    return int(row["n"]) if row else 0


def last_discovery_size(conn: Connection) -> int | None:
    """How many live records the last applied discovery saw (None: never ran)."""
    row = conn.execute(
        "SELECT details FROM events WHERE action = 'domains_discovered' ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return int(json.loads(row["details"]).get("records", 0)) if row else None


def live_count_in(conn: Connection, names: Sequence[str], *, viewer: Caller | None = None) -> int:
    clause, params = _seen_by(viewer)
    row = conn.execute(
        f"SELECT count(*) AS n FROM memories m WHERE {LIVE} AND m.domain = ANY(%s) AND {clause}",
        [list(names), *params],
    ).fetchone()
    return int(row["n"]) if row else 0


def live_counts(conn: Connection, *, viewer: Caller | None = None) -> dict[str, int]:
    """Live records per domain within a view (for cache drift checks, never shown)."""
    clause, params = _seen_by(viewer)
    rows = conn.execute(
        f"SELECT m.domain, count(*) AS n FROM memories m WHERE {LIVE} AND {clause} GROUP BY m.domain", params
    ).fetchall()
    return {row["domain"]: int(row["n"]) for row in rows}


def live_texts(conn: Connection, caller: Caller, ids: Sequence[str]) -> dict[str, tuple[str, str]]:
    """id -> (domain, statement with tag words) of the live records among `ids` the caller may see."""
    if not ids:
        return {}
    clause, params = visible_clause(caller)
    rows = conn.execute(
        f"SELECT m.id, m.domain, m.statement, m.tags FROM memories m WHERE m.id = ANY(%s) AND {LIVE} AND {clause}",
        [list(ids), *params],
    ).fetchall()
    return {row["id"]: (row["domain"], row["statement"] + " " + _tag_words(row["tags"])) for row in rows}


def neighbours(conn: Connection, caller: Caller, words: Sequence[str], limit: int) -> list[tuple[str, str]]:
    """(domain, statement with tag words) of the live records best matching any of the words, best first,
    among those the caller may see. One statement for every caller: the words are in the record's own
    row, so ranking the visible live matches reads nothing more (SQLite's FTS5 needed a join per match)."""
    if not words:
        return []
    clause, params = visible_clause(caller)
    rows = conn.execute(
        "SELECT m.domain, m.statement, m.tags FROM memories m, to_tsquery('simple', %s) AS q"
        f" WHERE m.words @@ q AND {LIVE} AND {clause}"
        " ORDER BY ts_rank_cd(%s::real[], m.words, q) DESC, m.rowid LIMIT %s",
        [_any_word(words), *params, EVEN_WEIGHTS, limit],
    ).fetchall()
    return [(row["domain"], row["statement"] + " " + _tag_words(row["tags"])) for row in rows]


def discovered_names(conn: Connection) -> set[str]:
    """Domains discovery created (and named) that still exist under that name. `discovered` counts as
    SQLite's json_extract makes it count: JSON true, or a number other than zero."""
    rows = conn.execute(
        "SELECT DISTINCT e.details::json ->> 'domain' AS name FROM events e"
        " JOIN domains d ON d.name = e.details::json ->> 'domain'"
        " WHERE e.action = 'domain_created' AND CASE json_typeof(e.details::json -> 'discovered')"
        " WHEN 'boolean' THEN (e.details::json ->> 'discovered') = 'true'"
        " WHEN 'number' THEN (e.details::json ->> 'discovered')::numeric <> 0 ELSE FALSE END"
    ).fetchall()
    return {row["name"] for row in rows}
