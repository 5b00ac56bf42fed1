"""The frozen data set: complete, consistent, and holding every kind of question the issue asks for."""

from __future__ import annotations

import pytest

from memvault.core.bench import dataset
from memvault.core.bench.dataset import KINDS, parse
from memvault.core.vocabulary.errors import InvalidArgument


def test_the_shipped_set_holds_every_kind_and_every_trap() -> None:
    data = dataset.load()
    assert data.persona and data.version == 1
    assert {kind for q in data.questions for kind in q.kinds} == KINDS
    assert sum(r.local_only for r in data.records) >= 5 and all(r.canary for r in data.records if r.local_only)
    assert sum(r.distractor for r in data.records) >= 5
    assert sum(r.corrects is not None for r in data.records) >= 5
    assert any(r.restates for r in data.records)
    assert all(q.relevant for q in data.questions if not q.unknown)


def test_the_small_suite_is_a_slice_with_every_kind() -> None:
    full, small = dataset.load(), dataset.load("small")
    assert {q.id for q in small.questions} < {q.id for q in full.questions} and small.records == full.records
    assert {kind for q in small.questions for kind in q.kinds} == KINDS


def test_the_order_is_fixed_by_the_seed() -> None:
    data = dataset.load("small")
    assert [q.id for q in data.shuffled(3)] == [q.id for q in data.shuffled(3)]
    assert [q.id for q in data.shuffled(3)] != [q.id for q in data.shuffled(4)]


def test_a_question_naming_an_unknown_record_is_refused() -> None:
    records = '{"key": "a", "domain": "d", "type": "FACT", "statement": "A fictional fact."}\n'
    with pytest.raises(InvalidArgument):
        parse(records, '{"id": "q", "query": "?", "kinds": ["current"], "relevant": ["b"]}\n')
    with pytest.raises(InvalidArgument):
        dataset.load("huge")
