"""What consolidation finds among live records, with the writer's own judgement (core/writer/similarity).

Records are compared with their lexical neighbours (the search's lexical stage) and, where both
have a stored vector, by cosine. Only records of the same type, access scope, bindings and
sensitivity are ever merged or set against each other: a merge must not change who sees what.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memvault.core.retrieval.embeddings import MODEL_ID
from memvault.core.retrieval.hybrid import Gathered, gather_lexical
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import HOUSEKEEPER, Memory
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer.similarity import Relation, relate

POOL = 20


@dataclass
class Findings:
    groups: list[list[Memory]] = field(default_factory=list)  # near duplicates, oldest first
    conflicts: list[tuple[Memory, Memory]] = field(default_factory=list)  # (older, newer), both still current
    seen: int = 0
    judged: int = 0  # records compared with their older neighbours


def _kin(a: Memory, b: Memory) -> bool:
    return (a.type, a.access_scope, a.authorized_principal_id, a.authorized_workspace_id, a.sensitivity) == (
        b.type,
        b.access_scope,
        b.authorized_principal_id,
        b.authorized_workspace_id,
        b.sensitivity,
    )


def _order(record: Memory) -> tuple[str, str]:
    return (record.learned_at or "", record.id)


def _cosine(vectors: dict[str, bytes], a: str, b: str) -> float | None:
    if a not in vectors or b not in vectors:
        return None
    import numpy as np  # noqa: PLC0415 - only when vectors exist

    return float(np.frombuffer(vectors[a], dtype="<f4") @ np.frombuffer(vectors[b], dtype="<f4"))


def _changed_since(record: Memory, since: str | None) -> bool:
    return since is None or max(record.learned_at or "", record.updated_at or "") >= since


def find(conn: Store, limit: int, since: str | None = None) -> Findings:
    """Near-duplicate groups and open conflicts among at most `limit` live records (oldest first).

    Each pair is judged once, the newer record against the older. With `since` (the last run),
    only records learned or changed since then are judged: older pairs were judged by that run.
    """
    records = conn.memories.live_oldest_first(HOUSEKEEPER, limit)
    by_id: dict[str, Memory] = {r.id: r for r in records}
    vectors = conn.vectors.vectors_of(MODEL_ID, list(by_id))
    parent: dict[str, str] = {}
    found = Findings(seen=len(records))

    def root(memory_id: str) -> str:
        while parent.get(memory_id, memory_id) != memory_id:
            memory_id = parent[memory_id]
        return memory_id

    for record in records:
        if not _changed_since(record, since):
            continue
        found.judged += 1
        gathered = Gathered()
        gather_lexical(conn, HOUSEKEEPER, SearchRequest(query=record.statement, limit=POOL), POOL, gathered)
        for other_id in gathered.found:
            other = by_id.get(other_id)
            if other is None or _order(other) >= _order(record) or not _kin(record, other):
                continue  # each pair once: the newer record judged against the older
            judged = relate(record.statement, other.statement, _cosine(vectors, record.id, other.id))
            if judged.relation is Relation.SAME:
                parent[root(record.id)] = root(other.id)
            elif judged.relation is Relation.CONFLICT and record.status.value == other.status.value == "current":
                found.conflicts.append((other, record))
    groups: dict[str, list[Memory]] = {}
    for record in records:
        groups.setdefault(root(record.id), []).append(record)
    found.groups = [g for g in groups.values() if len(g) > 1]
    return found
