"""Values the store's repositories hand up, the same from every engine (`core/store/repositories.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, NamedTuple, cast

from memvault.core.vocabulary.model import Explicitness, Memory, MemoryType, Scope, Sensitivity, Status
from memvault.core.vocabulary.results import ProposalRow

# The word index's columns and their weights in bm25: statement, tags, entity names. An engine ranks
# its word matches with these; the in-memory postings (core/retrieval/word_postings.py) rank with them too.
WORD_WEIGHTS = (1.0, 0.6, 0.8)
# `WordIndexRows.postings` writes each occurrence's rowid in 4 bytes: a store with larger rowids is
# ranked by its engine alone.
MAX_POSTED_ROWID = 0xFFFFFFFF


# The index's best `size` matches of a search's words, (rowid, bm25) best first: from elsewhere than
# the engine (the in-memory postings, core/retrieval/word_postings.py) when it holds them.
BestMatches = Callable[[int], list[tuple[int, float]]]


class TermCount(NamedTuple):
    """How many indexed records hold a word-index term (a prefix term: any word starting with it),
    and a prefix term's indexed word when it has one only: then that word matches exactly the
    records the prefix does, with the same bm25, and the engine looks it up for less."""

    docs: int
    only_word: str | None = None


# A word-index term and whether it matches as a prefix; repositories build their own match syntax.
WordTerm = tuple[str, bool]


@dataclass(frozen=True)
class StoreStamps:
    """What a search reads about the store once, at the start of its snapshot: what its caches are
    keyed on, and which of the optional relations hold anything."""

    identity: str  # which store this is: caches shared by a process's stores never mix them up
    writes: int  # moved by every write to searchable state
    cursor: int  # the change feed's newest event id
    vectors: int  # the newest stored vector (vectors are written after their record's commit)
    filled: frozenset[str]  # which of "links", "memory_entities", "feedback" hold any row

    @property
    def domains(self) -> tuple[str, int, int]:
        """What the domain profiles are keyed on (`DomainRows.version`)."""
        return self.identity, self.writes, self.cursor


@dataclass(frozen=True)
class ShadowRow:
    """A retrieval-log row written by a shadow run: ids and scores, never text."""

    time: str
    principal: str
    ids: list[str]
    scores: list[float]
    latency_ms: float


@dataclass(frozen=True)
class ProjectKey:
    """What makes a record part of a project: its `project:NAME` tag (project_id), a `part_of_project`
    link to one of the project's PROJECT records (anchors), or the project's entity (entity_id)."""

    name: str
    project_id: str | None = None
    anchors: tuple[str, ...] = ()
    entity_id: str | None = None


# A record's own columns an update may change (every engine's `MemoryRows.update` refuses others).
UPDATABLE_FIELDS = frozenset(
    {
        "status",
        "valid_until",
        "superseded_by_id",
        "superseded_at",
        "archived_reason",
        "archived_at",
        "status_before_archive",
        "access_scope",
        "authorized_workspace_id",
        "last_confirmed_at",
        "domain",
        "tags",
        "importance",
        "confidence",
    }
)
# The relations `StoreStamps.filled` reports on.
OPTIONAL_TABLES = ("links", "memory_entities", "feedback")

# A record decoded from its columns in `Memory`'s field order: a search decodes ~200 rows, so by
# position, each enum's members looked up in a dict (calling an enum costs a microsecond).
MEMORY_FIELDS = [f.name for f in fields(Memory)]
_ENUMS = {
    "type": MemoryType,
    "status": Status,
    "explicitness": Explicitness,
    "sensitivity": Sensitivity,
    "access_scope": Scope,
}
_DECODED = tuple((MEMORY_FIELDS.index(name), {e.value: e for e in kind}, kind) for name, kind in _ENUMS.items())
_TAGS = MEMORY_FIELDS.index("tags")


def memory_from(values: list[Any]) -> Memory:
    """A record from its column values in `MEMORY_FIELDS` order (the list is decoded in place)."""
    for at, known, kind in _DECODED:
        value = values[at]
        values[at] = known.get(value) or kind(value)  # an unknown value raises as the enum does
    tags = values[_TAGS]
    values[_TAGS] = [] if tags == "[]" else json.loads(tags)
    return Memory(*values)


def proposal_from(row: Any) -> ProposalRow:
    """A proposal row (any mapping of its columns) as the inbox hands it up: its payload decoded, its
    duplicate key left in the store."""
    data = dict(row)
    data["payload"] = json.loads(data["payload"])
    data.pop("norm_key", None)
    return cast(ProposalRow, data)
