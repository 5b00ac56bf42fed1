"""The frozen fictional data set: one persona's records and the questions asked about them.

It ships in `resources/bench/` (records.jsonl, questions.jsonl). Records are named by a
stable `key` that the loader writes into `source_reference`, so answers from any condition
map back to keys whatever ids a store gave them. A question names the keys it needs
(`relevant`), those that must not be served as current (`stale`), and a short `answer`
label that a useful context contains.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from memvault.core.vocabulary.errors import InvalidArgument

KINDS = frozenset(
    {
        "current",
        "temporal",
        "historical",
        "conflict",
        "constraint",
        "unfinished",
        "cross_domain",
        "private",
        "unknown",
        "repetition",
    }
)


@dataclass(frozen=True)
class BenchRecord:
    key: str
    fields: dict[str, Any]  # the memory_add fields (domain, type, statement, valid_from...)
    local_only: bool = False
    canary: str | None = None  # a phrase of a local-only record that must never reach a remote caller
    distractor: bool = False
    restates: str | None = None  # the key this record repeats in other words
    corrects: str | None = None  # the key this record supersedes

    @property
    def statement(self) -> str:
        return str(self.fields["statement"])

    @property
    def group(self) -> str:
        """Records saying the same thing share a group (the first one's key)."""
        return self.restates or self.key


@dataclass(frozen=True)
class Question:
    id: str
    query: str
    kinds: frozenset[str]
    relevant: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    answer: str | None = None
    search: dict[str, Any] = field(default_factory=dict)  # extra memory_search arguments an assistant would give

    @property
    def unknown(self) -> bool:
        return "unknown" in self.kinds


@dataclass(frozen=True)
class DataSet:
    persona: str
    version: int
    records: tuple[BenchRecord, ...]  # in save order
    questions: tuple[Question, ...]

    def record(self, key: str) -> BenchRecord:
        return self._by_key[key]

    @property
    def _by_key(self) -> dict[str, BenchRecord]:
        return {r.key: r for r in self.records}

    def sliced(self, questions: int) -> DataSet:
        """The same records with the first `questions` questions of each kind (small runs, tests)."""
        chosen: list[Question] = []
        for kind in sorted(KINDS):
            chosen += [q for q in self.questions if kind in q.kinds and q not in chosen][:questions]
        return DataSet(self.persona, self.version, self.records, tuple(q for q in self.questions if q in chosen))

    def shuffled(self, seed: int) -> list[Question]:
        order = list(self.questions)
        random.Random(seed).shuffle(order)  # noqa: S311 (a reproducible order, not a secret)
        return order


def load(suite: str = "full") -> DataSet:
    """The shipped data set; suite `small` keeps two questions of each kind."""
    folder = resources.files("memvault.resources").joinpath("bench")
    data = parse(
        folder.joinpath("records.jsonl").read_text(encoding="utf-8"),
        folder.joinpath("questions.jsonl").read_text(encoding="utf-8"),
    )
    if suite == "full":
        return data
    if suite == "small":
        return data.sliced(2)
    raise InvalidArgument("suite: expected full or small")


def parse(records_text: str, questions_text: str) -> DataSet:
    about, records = _records(_lines(records_text))
    questions = tuple(_question(line) for line in _lines(questions_text))
    _check(records, questions)
    return DataSet(str(about.get("persona", "")), int(about.get("version", 0)), records, questions)


def _lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _records(lines: list[dict[str, Any]]) -> tuple[dict[str, Any], tuple[BenchRecord, ...]]:
    about: dict[str, Any] = {}
    records = []
    by_key: dict[str, BenchRecord] = {}
    for line in lines:
        if line.get("op") == "about":
            about = line
            continue
        record = _record(line, by_key)
        by_key[record.key] = record
        records.append(record)
    return about, tuple(records)


def _record(line: dict[str, Any], by_key: dict[str, BenchRecord]) -> BenchRecord:
    meta = {"key", "op", "of", "scope", "canary", "role", "restates", "reason"}
    fields = {k: v for k, v in line.items() if k not in meta}
    corrects = line.get("of") if line.get("op") == "correct" else None
    if corrects is not None:
        old = by_key[corrects]  # a correction keeps the corrected record's domain, type and scope
        fields = {**old.fields, **fields, "reason": line.get("reason"), "links": []}
        local_only = old.local_only
    else:
        local_only = line.get("scope") == "local_only"
        fields["access_scope"] = "local_only" if local_only else "remote_allowed"
    return BenchRecord(
        key=line["key"],
        fields=fields,
        local_only=local_only,
        canary=line.get("canary"),
        distractor=line.get("role") == "distractor",
        restates=line.get("restates"),
        corrects=corrects,
    )


def _question(line: dict[str, Any]) -> Question:
    return Question(
        id=line["id"],
        query=line["query"],
        kinds=frozenset(line["kinds"]),
        relevant=tuple(line.get("relevant", ())),
        stale=tuple(line.get("stale", ())),
        answer=line.get("answer"),
        search=dict(line.get("search", {})),
    )


def _check(records: tuple[BenchRecord, ...], questions: tuple[Question, ...]) -> None:
    keys = [r.key for r in records]
    if len(set(keys)) != len(keys):
        raise InvalidArgument("bench data set: duplicate record keys")
    for q in questions:
        unknown = set(q.relevant + q.stale) - set(keys)
        if unknown or not q.kinds <= KINDS or (not q.unknown and not q.relevant):
            raise InvalidArgument(f"bench data set: question {q.id} is malformed")
