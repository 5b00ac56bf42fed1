"""The event log: append-only by trigger, one event per state change, never any memory text."""

from __future__ import annotations

import json
import logging

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, Adder, actions, events

from memvault.core.store.sqlcipher.connection import DatabaseError
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.core.vocabulary.search_request import SearchRequest

STATEMENTS = {
    "first": "Marisol prefers the Zephyrine notebook for sketching",
    "corrected": "Marisol now prefers the Thistlewick notebook for sketching",
    "proposed": "Marisol waters the Lorrimore ferns on Sundays",
    "rejected": "Marisol collects Quenderby postcards from harbour towns",
}
DISTINCT_WORDS = ("Marisol", "Zephyrine", "Thistlewick", "Lorrimore", "Quenderby", "sketching", "postcards")


def test_events_cannot_be_updated(vault: Vault, add: Adder) -> None:
    add(STATEMENTS["first"], domain="hobbies")
    before = events(vault)
    with pytest.raises(DatabaseError, match="append-only"):
        vault.ctx.store.raw.execute("UPDATE events SET action = 'tampered'")
    with pytest.raises(DatabaseError, match="append-only"):
        vault.ctx.store.raw.execute("UPDATE events SET details = '{}' WHERE id = ?", (before[0]["id"],))
    assert events(vault) == before


def test_events_cannot_be_deleted(vault: Vault, add: Adder) -> None:
    add(STATEMENTS["first"], domain="hobbies")
    before = events(vault)
    with pytest.raises(DatabaseError, match="append-only"):
        vault.ctx.store.raw.execute("DELETE FROM events")
    assert events(vault) == before


class NewEvents:
    """The actions written since the previous check."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.seen = len(actions(vault))

    def __call__(self, expected: list[str]) -> None:
        now = actions(self.vault)
        assert now[self.seen :] == expected
        self.seen = len(now)


def test_every_state_change_writes_an_event(vault: Vault) -> None:
    step = NewEvents(vault)
    step([])
    first = vault.add(OWNER, Draft.of(statement=STATEMENTS["first"], domain="hobbies"))["id"]
    step(["added"])
    assert vault.add(OWNER, Draft.of(statement=STATEMENTS["first"].upper(), domain="hobbies"))["outcome"] == "duplicate"
    step(["confirmed"])
    new = vault.correct(
        OWNER, CorrectRequest.of(id=first, statement=STATEMENTS["corrected"], reason="changed her mind")
    )["id"]
    step(["added", "superseded"])
    vault.archive(OWNER, ArchiveRequest.of(id=new, reason="no longer relevant"))
    step(["archived"])
    vault.restore(OWNER, new)
    step(["restored"])
    staged = vault.add(ASSISTANT, Draft.of(statement=STATEMENTS["proposed"], domain="hobbies"))
    step(["proposed"])
    vault.approve(OWNER, staged["proposal_id"])
    step(["added", "approved"])
    other = vault.add(ASSISTANT, Draft.of(statement=STATEMENTS["rejected"], domain="hobbies"))
    step(["proposed"])
    vault.reject(OWNER, other["proposal_id"], reason="not worth keeping")
    step(["rejected"])
    vault.set_setting(OWNER, "write_mode", "retrieval-only")
    step(["setting_changed"])
    vault.set_kill_switch(OWNER, "remote")
    step(["setting_changed"])
    vault.set_kill_switch(OWNER, "off")
    vault.set_setting(OWNER, "write_mode", "review-before-write")
    step(["setting_changed", "setting_changed"])
    staged_archive = vault.archive(ASSISTANT, ArchiveRequest.of(id=new, reason="assistant thinks it is stale"))
    step(["proposed"])
    vault.approve(OWNER, staged_archive["proposal_id"])
    step(["archived", "approved"])


def test_events_name_who_and_which_record(vault: Vault) -> None:
    staged = vault.add(ASSISTANT, Draft.of(statement=STATEMENTS["proposed"], domain="hobbies"))
    approved = vault.approve(OWNER, staged["proposal_id"])
    log = events(vault)
    proposed, added, decided = log[-3:]
    assert (proposed["action"], proposed["principal"], proposed["surface"]) == ("proposed", "local", "local")
    assert (added["action"], added["principal"], added["memory_id"]) == ("added", "local", approved["id"])
    assert (decided["action"], decided["principal"], decided["memory_id"]) == ("approved", "owner", approved["id"])
    assert json.loads(decided["details"])["proposal_id"] == staged["proposal_id"]
    assert [e["action"] for e in vault.events_for(OWNER, approved["id"])] == ["added", "approved"]


def test_no_event_and_no_retrieval_log_contains_memory_text(vault: Vault) -> None:
    first = vault.add(
        OWNER, Draft.of(statement=STATEMENTS["first"], domain="hobbies", evidence="Marisol said so at lunch")
    )
    vault.add(OWNER, Draft.of(statement=STATEMENTS["first"], domain="hobbies"))
    vault.correct(
        OWNER, CorrectRequest.of(id=first["id"], statement=STATEMENTS["corrected"], reason="Marisol corrected it")
    )
    staged = vault.add(
        ASSISTANT, Draft.of(statement=STATEMENTS["proposed"], domain="hobbies", access_scope="remote_allowed")
    )
    vault.approve(OWNER, staged["proposal_id"])
    vault.reject(
        OWNER, vault.add(ASSISTANT, Draft.of(statement=STATEMENTS["rejected"]))["proposal_id"], reason="Quenderby no"
    )
    vault.add(REMOTE, Draft.of(statement="Marisol visits the Lorrimore gardens in May"))
    vault.search(OWNER, SearchRequest.of(query="Marisol Zephyrine notebook"))
    vault.search(REMOTE, SearchRequest.of(query="Lorrimore ferns"))
    rows = [json.dumps(e) for e in events(vault)]
    rows += [json.dumps(dict(r)) for r in vault.ctx.store.raw.execute("SELECT * FROM retrieval_log")]
    assert len(rows) >= 10
    for row in rows:
        for word in DISTINCT_WORDS:
            assert word.lower() not in row.lower(), f"{word!r} leaked into {row[:80]}"


def test_logs_never_carry_memory_text_or_queries(vault: Vault, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    first = vault.add(OWNER, Draft.of(statement=STATEMENTS["first"], domain="hobbies", evidence="Marisol said so"))[
        "id"
    ]
    vault.add(OWNER, Draft.of(statement=STATEMENTS["first"], domain="hobbies"))
    vault.correct(OWNER, CorrectRequest.of(id=first, statement=STATEMENTS["corrected"], reason="Marisol corrected it"))
    vault.add(ASSISTANT, Draft.of(statement=STATEMENTS["proposed"]))
    vault.add(OWNER, Draft.of(statement="My Quenderby password is Tr0ub4dor&3"))
    vault.search(OWNER, SearchRequest.of(query="Marisol Zephyrine Thistlewick notebook"))
    vault.search(REMOTE, SearchRequest.of(query="Lorrimore ferns Quenderby"))
    text = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records).lower()
    for word in (*DISTINCT_WORDS, "Tr0ub4dor"):
        assert word.lower() not in text
