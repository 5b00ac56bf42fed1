"""Bad input raises InvalidArgument (or NotFound for unknown ids) and changes nothing at all.

Each case runs against a store holding a few records and compares a dump of every
table before and after the call.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from corekit import OWNER, dump

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument, MemvaultError, NotFound
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ExportRequest, ListRequest
from memvault.core.vocabulary.search_request import SearchRequest

MB = 1_000_000
OK = "The library returns box is by the side door"
Op = Callable[[Vault, dict[str, str]], Any]


def _add(**fields: Any) -> Op:
    return lambda v, ids: v.add(OWNER, Draft.of(**{"statement": OK, "domain": "town", **fields}))


def _correct(**fields: Any) -> Op:
    return lambda v, ids: v.correct(
        OWNER, CorrectRequest.of(**{"id": ids["live"], "statement": "The returns box moved inside", **fields})
    )


def _archive(**fields: Any) -> Op:
    return lambda v, ids: v.archive(OWNER, ArchiveRequest.of(**{"id": ids["live"], **fields}))


def _search(**fields: Any) -> Op:
    return lambda v, ids: v.search(OWNER, SearchRequest.of(**{"query": "library returns", **fields}))


def _list(**fields: Any) -> Op:
    return lambda v, ids: v.list_memories(OWNER, ListRequest.of(**fields))


def _forged_cursor(payload: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).decode()


INVALID: dict[str, Op] = {
    # memory_add: types, enums, sizes, dates, links, unknown names
    "add statement not text": _add(statement=123),
    "add statement missing": lambda v, ids: v.add(OWNER, Draft.of(domain="town")),
    "add statement empty": _add(statement=""),
    "add statement of 1 MB": _add(statement="a" * MB),
    "add statement with NUL": _add(statement="The box\x00is by the door"),
    "add unknown type": _add(type="FACTOID"),
    "add type not text": _add(type=7),
    "add domain with punctuation": _add(domain="town!!"),
    "add domain too long": _add(domain="d" * 100),
    "add domain not text": _add(domain=["town"]),
    "add tags not a list": _add(tags="library"),
    "add tags not text": _add(tags=[1, 2]),
    "add too many tags": _add(tags=[f"t{i}" for i in range(51)]),
    "add importance above 1": _add(importance=2),
    "add importance as text": _add(importance="high"),
    "add importance as bool": _add(importance=True),
    "add confidence negative": _add(confidence=-0.1),
    "add confidence NaN": _add(confidence=float("nan")),
    "add confidence infinite": _add(confidence=float("inf")),
    "add unknown explicitness": _add(explicitness="very"),
    "add unknown sensitivity": _add(sensitivity="secret"),
    "add unknown access scope": _add(access_scope="everyone"),
    "add event_time words": _add(event_time="yesterday"),
    "add valid_from impossible date": _add(valid_from="2026-02-30"),
    "add valid_until month 13": _add(valid_until="2026-13-01"),
    "add due_at as number": _add(due_at=20260301),
    "add valid_from without zone": _add(valid_from="2026-03-01T10:00:00"),
    "add valid_until before valid_from": _add(valid_from="2026-03-01", valid_until="2026-02-01"),
    "add evidence too long": _add(evidence="e" * 5000),
    "add entities not a list": _add(entities="Ada"),
    "add links not a list": _add(links="m1"),
    "add supersedes link": lambda v, ids: v.add(
        OWNER, Draft.of(statement=OK, links=[{"type": "supersedes", "target_id": ids["live"]}])
    ),
    "add link without target": _add(links=[{"type": "relates_to"}]),
    "add link of unknown type": lambda v, ids: v.add(
        OWNER, Draft.of(statement=OK, links=[{"type": "loves", "target_id": ids["live"]}])
    ),
    "add link with extra keys": lambda v, ids: v.add(
        OWNER, Draft.of(statement=OK, links=[{"type": "relates_to", "target_id": ids["live"], "why": "x"}])
    ),
    "add unknown argument": _add(colour="blue"),
    # memory_get
    "get id not text": lambda v, ids: v.get(OWNER, 123),  # type: ignore[arg-type]
    "get id missing": lambda v, ids: v.get(OWNER, None),  # type: ignore[arg-type]
    "get id too long": lambda v, ids: v.get(OWNER, "m" * 100),
    # memory_list
    "list unknown status": _list(status="gone"),
    "list unknown type": _list(type="THING"),
    "list limit zero": _list(limit=0),
    "list limit too big": _list(limit=500),
    "list limit as text": _list(limit="10"),
    "list garbage cursor": _list(cursor="garbage!!"),
    "list forged cursor": _list(cursor=_forged_cursor({"not": "a pair"})),
    "list unknown argument": _list(sort="asc"),
    # memory_search
    "search empty query": _search(query=""),
    "search no query": lambda v, ids: v.search(OWNER, SearchRequest.of()),
    "search query not text": _search(query=["library"]),
    "search query of 1 MB": _search(query="library " * (MB // 8)),
    "search limit zero": _search(limit=0),
    "search limit too big": _search(limit=51),
    "search domains not a list": _search(domains="town"),
    "search unknown type": _search(types=["NOPE"]),
    "search unknown depth": _search(depth="abyss"),
    "search include_history as text": _search(include_history="yes"),
    "search max_tokens zero": _search(max_tokens=0),
    "search as_of words": _search(as_of="soon"),
    "search known_at impossible": _search(known_at="2026-02-31"),
    "search unknown argument": _search(fuzzy=True),
    # memory_correct / archive / restore
    "correct id missing": lambda v, ids: v.correct(OWNER, CorrectRequest.of(statement="The returns box moved inside")),
    "correct statement missing": lambda v, ids: v.correct(OWNER, CorrectRequest.of(id=ids["live"])),
    "correct statement of 1 MB": _correct(statement="b" * MB),
    "correct reason not text": _correct(reason=5),
    "correct valid_from words": _correct(valid_from="next week"),
    "correct revision as text": _correct(expected_revision="1"),
    "correct revision negative": _correct(expected_revision=-1),
    "correct unknown argument": _correct(domain="elsewhere"),
    "archive id missing": lambda v, ids: v.archive(OWNER, ArchiveRequest.of()),
    "archive reason not text": _archive(reason=["old"]),
    "archive revision as bool": _archive(expected_revision=True),
    "archive unknown argument": _archive(purge=True),
    "restore id missing": lambda v, ids: v.restore(OWNER, None),  # type: ignore[arg-type]
    "restore id not text": lambda v, ids: v.restore(OWNER, 5),  # type: ignore[arg-type]
    # export and settings
    "export bad domain": lambda v, ids: v.export_markdown(OWNER, ExportRequest.of(domain="../etc")),
    "export include_history as text": lambda v, ids: v.export_markdown(OWNER, ExportRequest.of(include_history="yes")),
    "export unknown argument": lambda v, ids: v.export_markdown(OWNER, ExportRequest.of(path="/tmp/x")),
    "setting unknown": lambda v, ids: v.set_setting(OWNER, "colour", "blue"),
    "setting bad choice": lambda v, ids: v.set_setting(OWNER, "kill_switch", "maybe"),
    "setting out of range": lambda v, ids: v.set_setting(OWNER, "auto_write_min_confidence", 2),
    "setting bad list item": lambda v, ids: v.set_setting(OWNER, "auto_write_scopes", ["everyone"]),
    "setting wrong type": lambda v, ids: v.set_setting(OWNER, "auto_write_domains", 5),
    "inbox bad status": lambda v, ids: v.proposals(OWNER, status="maybe"),
}

NOT_FOUND: dict[str, Op] = {
    "get unknown id": lambda v, ids: v.get(OWNER, "m000000000000"),
    "correct unknown id": lambda v, ids: v.correct(
        OWNER, CorrectRequest.of(id="m000000000000", statement="The recycling goes out on Thursdays")
    ),
    "archive unknown id": lambda v, ids: v.archive(OWNER, ArchiveRequest.of(id="m000000000000")),
    "restore unknown id": lambda v, ids: v.restore(OWNER, "m000000000000"),
    "add link to unknown id": _add(
        statement="The returns box has a new lock", links=[{"type": "relates_to", "target_id": "m000000000000"}]
    ),
    "approve unknown proposal": lambda v, ids: v.approve(OWNER, "pr000000000000"),
    "reject unknown proposal": lambda v, ids: v.reject(OWNER, "pr000000000000"),
    "events of unknown id": lambda v, ids: v.events_for(OWNER, "m000000000000"),
}


def _seed(vault: Vault) -> dict[str, str]:
    live = vault.add(OWNER, Draft.of(statement=OK, domain="town", tags=["library"]))["id"]
    archived = vault.add(OWNER, Draft.of(statement="The old returns box was by the car park", domain="town"))["id"]
    vault.archive(OWNER, ArchiveRequest.of(id=archived))
    vault.add(OWNER, Draft.of(statement="The library café closes at four", domain="town"))
    return {"live": live, "archived": archived}


@pytest.fixture(scope="module")
def shared(module_vault: Vault) -> tuple[Vault, dict[str, str]]:
    """One seeded store for every refusal below: each case proves it changed nothing."""
    return module_vault, _seed(module_vault)


@pytest.fixture
def seeded(vault: Vault) -> dict[str, str]:
    return _seed(vault)


def _refused(vault: Vault, seeded: dict[str, str], op: Op, expected: type[MemvaultError]) -> MemvaultError:
    before = dump(vault)
    with pytest.raises(expected) as raised:
        op(vault, seeded)
    assert dump(vault) == before
    assert len(raised.value.message) < 1000  # a clear message, not an echo of the input
    return raised.value


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_input_is_refused_and_changes_nothing(shared: tuple[Vault, dict[str, str]], case: str) -> None:
    error = _refused(*shared, INVALID[case], InvalidArgument)
    assert error.code == "invalid_argument"


@pytest.mark.parametrize("case", sorted(NOT_FOUND))
def test_unknown_ids_are_not_found_and_change_nothing(shared: tuple[Vault, dict[str, str]], case: str) -> None:
    error = _refused(*shared, NOT_FOUND[case], NotFound)
    assert error.code == "not_found"


def test_unknown_argument_names_are_named_in_the_message(vault: Vault, seeded: dict[str, str]) -> None:
    error = _refused(vault, seeded, _add(colour="blue", shade="dark"), InvalidArgument)
    assert "colour" in error.message and "shade" in error.message


def test_the_store_still_works_after_refusals(vault: Vault, seeded: dict[str, str]) -> None:
    for op in INVALID.values():
        with pytest.raises(MemvaultError):
            op(vault, seeded)
    assert (
        vault.add(OWNER, Draft.of(statement="The library has a new returns slot", domain="town"))["outcome"] == "added"
    )
    assert vault.get(OWNER, seeded["live"])["memory"]["revision"] == 1
