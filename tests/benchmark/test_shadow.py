"""`memvault bench shadow`: what shadow searches would have retrieved, from the local log, with no text."""

from __future__ import annotations

import json

import pytest

from memvault.core.bench.shadow import shadow_report
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.search_request import SearchRequest

STATEMENTS = (
    "The Quillmere kiln fires stoneware at 1240 degrees (fictional)",
    "Glazes for the Quillmere kiln are mixed on Sundays (fictional)",
)


def test_the_report_counts_shadow_searches_only_and_shows_no_text(clocked_vault: Vault, clock: FixedClock) -> None:
    vault = clocked_vault
    ids = [vault.add(OWNER, Draft.of(statement=s, domain="pottery"))["id"] for s in STATEMENTS]
    clock.advance(hours=1)
    for query in ("kiln temperature", "glaze day", "kiln glaze"):
        assert vault.search(LOCAL_ASSISTANT, SearchRequest.of(query=query, shadow=True))["shadow"] is True
    vault.search(LOCAL_ASSISTANT, SearchRequest.of(query="kiln temperature"))  # a normal search is not shadow
    report = shadow_report(vault, OWNER, hours=24)
    assert report["queries"] == 3
    assert {r["id"] for r in report["top_records"]} <= set(ids) and report["distinct_records"] >= 1
    assert report["latency_ms"]["p95"] >= report["latency_ms"]["p50"] >= 0
    text = json.dumps(report)
    assert "Quillmere" not in text and "kiln" not in text
    clock.advance(hours=30)
    assert shadow_report(vault, OWNER, hours=24)["queries"] == 0


def test_only_the_person_reads_it(vault: Vault) -> None:
    with pytest.raises(Forbidden):
        shadow_report(vault, LOCAL_ASSISTANT)
    with pytest.raises(InvalidArgument):
        shadow_report(vault, OWNER, hours=0)
