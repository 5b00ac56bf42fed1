"""The words stage's fast path for local callers: the index ranks its matches alone, a few more than
asked for first, more only when the filters leave too few, the full join last. Every way gives the
first `limit` live matches in bm25 order, ties by rowid, as one ranked list filtered afterwards would."""

from __future__ import annotations

import pytest

from memvault.core.store.sqlcipher import search as sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest
from memvault.core.vocabulary.search_request import SearchRequest

LIMIT = 4  # a first look of 5 matches, a larger one of 16
TERMS = [("tulip", False)]


def _live_in_bm25_order(vault: Vault) -> list[str]:
    """The reference: every match ranked by bm25 then rowid, then filtered (archived left out)."""
    rows = vault.ctx.store.raw.execute(
        "SELECT m.id, m.status FROM memory_fts JOIN memories m ON m.rowid = memory_fts.rowid"
        " WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts, 1.0, 0.6, 0.8), m.rowid",
        ('"tulip"',),
    ).fetchall()
    return [str(r[0]) for r in rows if r[1] != "archived"]


def _found(vault: Vault) -> list[str]:
    with vault.ctx.reading() as conn:
        return [m.id for m, _ in sql.lexical_candidates(conn.raw, OWNER, TERMS, SearchRequest.of(query="tulip"), LIMIT)]


def _fill(vault: Vault, archived: int) -> None:
    """Twenty-four matches, worse and worse (longer texts); the best `archived` of them archived.
    Pairs of texts as long (one word apart) rank alike: their order is the rowid's."""
    ids = []
    for n in range(24):
        filler = " ".join(["garden"] * (n // 2))
        draft = Draft.of(statement=f"tulip bed{n} {filler}".strip(), domain=f"d{n}")
        result = vault.add(OWNER, draft)
        assert result["outcome"] == "added", result
        ids.append(result["id"])
    for memory_id in ids[:archived]:
        vault.archive(OWNER, ArchiveRequest.of(id=memory_id))


# None archived: the first look is enough; 3: the first look leaves 2, the larger one is asked for;
# 9: the larger look leaves 7; 19: it leaves none, the full join answers.
@pytest.mark.parametrize("archived", [0, 3, 9, 19])
def test_local_matches_are_the_first_live_ones_in_bm25_order(vault: Vault, archived: int) -> None:
    _fill(vault, archived)
    expected = _live_in_bm25_order(vault)[:LIMIT]
    assert len(expected) == LIMIT
    assert _found(vault) == expected
