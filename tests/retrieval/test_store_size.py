"""Quality does not fall with store size: an old, never-asked-for current fact is still found
among thousands of newer records that share its words."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, MemoryType, Scope
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer.writes import commit_draft

FILLERS = 3000
WORDS = "spare key shed allotment boiler garden bike door lamp notebook drawer hallway cellar".split()


def _fill(vault: Vault, count: int) -> None:
    """Newer records sharing the fact's words, written in one transaction (fast, as an import would)."""
    rng = random.Random(5)
    with vault.ctx.transaction() as conn:
        now = vault.ctx.now()
        for n in range(count):
            a, b, c = rng.sample(WORDS, 3)
            draft = Draft(statement=f"Note {n}: moved the {a} near the {b}, check the {c} later", domain="home",
                          type=MemoryType.FACT, importance=0.5, access_scope=Scope.LOCAL_ONLY)  # fmt: skip
            commit_draft(conn, OWNER, draft, None, now)


def test_an_old_fact_nobody_asked_for_is_found_in_a_large_store(clocked_vault: Vault, clock: FixedClock) -> None:
    clocked_vault.set_setting(OWNER, "embeddings", "off")  # words alone: the tiers, not meaning, are at issue
    clock.set(datetime(2023, 1, 10, tzinfo=UTC))
    fact = clocked_vault.add(OWNER, Draft.of(statement="The spare key for the allotment shed hangs behind the boiler",
                                             domain="home", importance=0.2))["id"]  # fmt: skip
    clock.set(datetime(2026, 3, 1, tzinfo=UTC))
    _fill(clocked_vault, FILLERS)
    for depth in ("normal", "auto", "shallow"):
        answer = clocked_vault.search(
            OWNER, SearchRequest.of(query="where does the spare key for the allotment shed hang", depth=depth)
        )
        ids = [r["id"] for r in answer["results"]]
        assert ids and ids[0] == fact, depth  # first, though idle for three years and never retrieved
        assert answer["results"][0]["tier"] in ("warm", "hot")
