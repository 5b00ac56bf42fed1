"""Two statements that differ only in a name: another thing of the same kind when the name stands
beside a word of its kind and the statement goes on about it; a change when the name is the value."""

from __future__ import annotations

import pytest

from memvault.core.writer.similarity import Relation, names_another, relate

ANOTHER = [
    ("I need to send the Marten report by Friday.", "I need to send the Juniper report by Friday."),
    ("My sister Ylva lives in Bergen.", "My sister Maja lives in Bergen."),
    ("The Heron project is in beta now.", "The Osprey project is in beta now."),
    ("We decided to use Kotlin for the Juniper project.", "We decided to use Kotlin for the Marten project."),
]
CHANGED = [
    ("My sister Ylva lives in Bergen.", "My sister Ylva lives in Tromsø."),
    ("We decided to use PostgreSQL for the ledger service.", "We decided to use SQLite for the ledger service."),
    ("The report is due Friday.", "The report is due Monday."),
    ("I use the Vim editor.", "I use the Emacs editor."),
    ("We meet the Smith family at the Lisbon office.", "We meet the Smith family at the Porto office."),
    ("I drive the VW now.", "I drive the Kia now."),
]


@pytest.mark.parametrize(("record", "candidate"), ANOTHER)
def test_a_name_beside_its_kind_makes_another_fact(record: str, candidate: str) -> None:
    assert names_another(candidate, record)
    assert relate(candidate, record, 0.7).relation is Relation.UNRELATED


@pytest.mark.parametrize(("record", "candidate"), CHANGED)
def test_a_name_or_day_where_the_value_stands_is_a_change(record: str, candidate: str) -> None:
    assert not names_another(candidate, record)
    assert relate(candidate, record, 0.7).relation is Relation.CONFLICT


@pytest.mark.parametrize(("a", "b"), [("", ""), ("Same words here.", "Same words here."), ("Osprey", "Osprey ships")])
def test_no_difference_or_a_prefix_is_no_other_thing(a: str, b: str) -> None:
    assert not names_another(a, b)
