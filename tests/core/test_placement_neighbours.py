"""A write's placement asks for its nearest lexical neighbours: for a local caller the word index ranks
alone and only the best few records are read (the full join read one record per match); the answer
is the same, also when the best matches are not live."""

from __future__ import annotations

from corekit import OWNER, REMOTE, Adder

from memvault.core.retrieval.query import query_terms
from memvault.core.store.sqlcipher import domain_rows
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest


def _match(text: str) -> list[str]:
    words = query_terms(text)
    assert words
    return words


def test_archived_best_matches_give_way_to_the_live_neighbours(vault: Vault, add: Adder) -> None:
    # More archived matches than the index's first look (limit x overfetch), each a better match.
    for n in range(45):
        old = add(f"Orchid orchid watering schedule, old note {n}", domain="attic")
        vault.archive(OWNER, ArchiveRequest.of(id=old))
    add("I water the orchid on Sundays", domain="home")
    add("The orchid pot is by the window", domain="plants")
    found = domain_rows.neighbours(vault.ctx.store.raw, LOCAL_ASSISTANT, _match("orchid watering"), 10)
    assert sorted(domain for domain, _ in found) == ["home", "plants"]


def test_the_best_live_neighbours_come_first_as_the_full_join_ranks_them(vault: Vault, add: Adder) -> None:
    for n in range(30):
        add(f"Ferry timetable note {n}: the ferry leaves at {n % 12 + 1} o'clock", domain=f"d{n % 7}")
    add("The ferry ferry ferry timetable changed", domain="travel", access_scope="remote_allowed")
    match = _match("ferry timetable")
    local = domain_rows.neighbours(vault.ctx.store.raw, LOCAL_ASSISTANT, match, 10)
    remote = domain_rows.neighbours(vault.ctx.store.raw, REMOTE, match, 10)  # the full join, what a remote caller sees
    assert len(local) == 10 and local[0][0] == "travel"
    assert remote == [("travel", "The ferry ferry ferry timetable changed ")]


def test_a_local_callers_live_counts_per_domain_count_every_live_record(vault: Vault, add: Adder) -> None:
    ids = [add(f"Fictional count note {n}", domain=f"d{n % 3}") for n in range(12)]
    vault.archive(OWNER, ArchiveRequest.of(id=ids[0]))
    vault.correct(OWNER, CorrectRequest.of(id=ids[1], statement="Fictional count note one, corrected"))
    rows = vault.ctx.store.raw.execute(
        "SELECT domain, count(*) FROM memories WHERE status IN ('current', 'partial', 'disputed') GROUP BY domain"
    ).fetchall()
    assert domain_rows.visible_counts(vault.ctx.store.raw, LOCAL_ASSISTANT) == {r[0]: r[1] for r in rows}
    assert sum(domain_rows.visible_counts(vault.ctx.store.raw, LOCAL_ASSISTANT).values()) == 11


def test_the_domains_in_use_are_those_holding_a_live_record_the_caller_sees(vault: Vault, add: Adder) -> None:
    kept = add("Fictional note about the allotment", domain="garden")
    gone = add("Fictional note about the old car", domain="car")
    add("Fictional note the remote caller may read", domain="shared", access_scope="remote_allowed")
    conn = vault.ctx.store.raw
    assert domain_rows.domains_in_use(conn, LOCAL_ASSISTANT) == {"garden", "car", "shared"}
    vault.archive(OWNER, ArchiveRequest.of(id=gone))  # the car domain's last live record
    assert domain_rows.domains_in_use(conn, LOCAL_ASSISTANT) == {"garden", "shared"}
    assert domain_rows.domains_in_use(conn, REMOTE) == {"shared"}
    vault.correct(OWNER, CorrectRequest.of(id=kept, statement="Fictional note about the allotment, corrected"))
    assert domain_rows.domains_in_use(conn, LOCAL_ASSISTANT) == {"garden", "shared"}  # its new version is live
