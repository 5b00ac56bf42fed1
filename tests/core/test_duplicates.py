"""The duplicate rule: NFKC, case folding, collapsed white space and no trailing punctuation,
in the same domain and type. A duplicate stores nothing new and moves `last_confirmed_at`."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, Adder, count, dump
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.writer.normalize import normalize_statement

BASE = "The first floor bathroom tap drips at night"

VARIANTS = {
    "case": "THE FIRST FLOOR BATHROOM TAP DRIPS AT NIGHT",
    "NFKC ligatures": "The \ufb01rst \ufb02oor bathroom tap drips at night",
    "NFKC fullwidth": "\uff34\uff48\uff45 first floor bathroom tap drips at night",
    "white space": "  The first\tfloor\n bathroom   tap drips\u00a0at night  ",
    "trailing punctuation": "The first floor bathroom tap drips at night!!! ...",
    "ellipsis": "The first floor bathroom tap drips at night\u2026",
    "everything": "\u3000THE \ufb01RST  FLOOR bathroom TAP drips at night?!",
}


@pytest.mark.parametrize("kind", sorted(VARIANTS))
def test_a_normalised_equal_statement_is_a_duplicate(
    clocked_vault: Vault, cadd: Adder, clock: FixedClock, kind: str
) -> None:
    original = cadd(BASE, domain="home")
    clock.advance(days=3)
    before_rows = count(clocked_vault, "memories")
    answer = clocked_vault.add(OWNER, Draft.of(statement=VARIANTS[kind], domain="home"))
    assert answer["outcome"] == "duplicate"
    assert answer["id"] == answer["duplicate_of"] == original
    assert count(clocked_vault, "memories") == before_rows
    assert count(clocked_vault, "proposals") == 0
    record = clocked_vault.get(OWNER, original)["memory"]
    assert record["last_confirmed_at"] == "2026-03-04T09:30:00.000Z"
    assert record["statement"] == BASE  # the stored wording is not replaced
    assert record["learned_at"] == "2026-03-01T09:30:00.000Z"


def test_an_assistants_duplicate_is_answered_not_staged(vault: Vault, add: Adder) -> None:
    original = add(BASE, domain="home")
    answer = vault.add(ASSISTANT, Draft.of(statement=BASE.upper() + ".", domain="home"))
    assert (answer["outcome"], answer["duplicate_of"], answer["proposal_id"]) == ("duplicate", original, None)
    assert vault.proposals(OWNER) == []


@pytest.mark.parametrize(
    "fields",
    [{"domain": "plumbing"}, {"domain": "home", "type": "NEXT_ACTION"}, {"domain": "home", "type": "DISCOVERY"}],
)
def test_another_domain_or_type_is_not_a_duplicate(vault: Vault, add: Adder, fields: dict[str, str]) -> None:
    add(BASE, domain="home")
    assert vault.add(OWNER, Draft.of(statement=BASE, **fields))["outcome"] == "added"


def test_different_words_are_not_duplicates(vault: Vault, add: Adder) -> None:
    add(BASE, domain="home")
    assert (
        vault.add(OWNER, Draft.of(statement="The first floor bathroom tap drips at noon", domain="home"))["outcome"]
        == "added"
    )
    assert (
        vault.add(OWNER, Draft.of(statement="The first-floor bathroom tap drips at night", domain="home"))["outcome"]
        == "added"
    )


def test_superseded_and_archived_statements_are_not_duplicates(vault: Vault, add: Adder) -> None:
    old = add(BASE, domain="home")
    vault.correct(OWNER, CorrectRequest.of(id=old, statement="The first floor bathroom tap was fixed in March"))
    assert vault.add(OWNER, Draft.of(statement=BASE, domain="home"))["outcome"] == "added"
    gone = add("The loft hatch sticks in winter", domain="home")
    vault.archive(OWNER, ArchiveRequest.of(id=gone))
    assert vault.add(OWNER, Draft.of(statement="The loft hatch sticks in winter", domain="home"))["outcome"] == "added"


def test_a_duplicate_changes_only_the_confirmation(clocked_vault: Vault, cadd: Adder, clock: FixedClock) -> None:
    original = cadd(BASE, domain="home")
    record_before = clocked_vault.get(OWNER, original)["memory"]
    before = dump(clocked_vault)
    clock.advance(hours=5)
    clocked_vault.add(OWNER, Draft.of(statement=BASE.lower(), domain="home"))
    after = dump(clocked_vault)
    changed = {name for name in before if before[name] != after[name]}
    assert changed <= {"memories", "events", "sqlite_sequence", "store_version"}
    record_after = clocked_vault.get(OWNER, original)["memory"]
    moved = {key for key in record_before if record_before[key] != record_after[key]}
    assert moved == {"last_confirmed_at", "updated_at", "revision"}
    assert len(after["memories"]) == len(before["memories"])
    assert len(after["events"]) == len(before["events"]) + 1
    assert clocked_vault.events_for(OWNER, original)[-1]["action"] == "confirmed"


# -- the rule as a property -------------------------------------------------------------------

_FULLWIDTH_OFFSET = 0xFEE0
_words = st.lists(
    st.text(
        alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\u00e9\u00fc", min_size=1, max_size=8
    ),
    min_size=1,
    max_size=8,
)
_spaces = st.sampled_from([" ", "  ", "\t", "\n", " \n\t ", "\u00a0", "\u3000"])
_tail = st.text(alphabet=".,;:!?\u2026\u3002 ", max_size=4)


@st.composite
def _variant(draw: st.DrawFn, words: list[str]) -> str:
    """The same words, re-spaced, re-cased (ASCII), partly in fullwidth forms, with trailing punctuation."""
    out = []
    for word in words:
        chars = []
        for original in word:
            ch = original.swapcase() if original.isascii() and draw(st.booleans()) else original
            if ch.isascii() and ch.isalnum() and draw(st.integers(0, 3)) == 0:
                ch = chr(ord(ch) + _FULLWIDTH_OFFSET)
            chars.append(ch)
        out.append("".join(chars))
    sep = draw(_spaces)
    return draw(_spaces) + sep.join(out) + draw(_tail)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), words=_words)
def test_the_normalisation_ignores_case_width_spacing_and_trailing_punctuation(
    data: st.DataObject, words: list[str]
) -> None:
    plain = " ".join(words)
    assert normalize_statement(data.draw(_variant(words))) == normalize_statement(plain)


@settings(max_examples=200, deadline=None)
@given(a=_words, b=_words)
def test_different_words_normalise_differently(a: list[str], b: list[str]) -> None:
    if [w.casefold() for w in a] != [w.casefold() for w in b]:
        assert normalize_statement(" ".join(a)) != normalize_statement(" ".join(b))


@pytest.fixture(scope="module")
def original(module_vault: Vault) -> str:
    return str(module_vault.add(OWNER, Draft.of(statement=BASE, domain="home"))["id"])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_variant_is_a_duplicate_in_the_store(module_vault: Vault, original: str, data: st.DataObject) -> None:
    variant = data.draw(_variant(BASE.split()))
    answer = module_vault.add(OWNER, Draft.of(statement=variant, domain="home"))
    assert (answer["outcome"], answer["duplicate_of"]) == ("duplicate", original)
    assert count(module_vault, "memories") == 1
