"""The ranking cache follows the change feed: every write that changes what a search could rank
moves its stamp (in any process), reading does not, and a cached ranking never outlives a write."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from memvault.core.retrieval.ranking_cache import stamp
from memvault.core.store.sqlcipher import store_stamps
from memvault.core.store.sqlcipher import vector_rows as vector_sql
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Scope
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, FeedbackRequest
from memvault.core.vocabulary.search_request import SearchRequest

WRITER = """
import sys
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vault import Vault
with Vault.open(sys.argv[1]) as vault:
    print(vault.add(OWNER, Draft.of(statement="Pernilla bakes Wrenfield rye bread on Fridays", domain="food"))["id"])
"""


def marks(vault: Vault) -> tuple[int, int]:
    with vault.ctx.reading() as conn:
        return vector_sql.store_version(conn.raw), stamp(store_stamps.read(conn.raw))


def test_every_write_the_store_version_sees_moves_the_stamp(vault: Vault) -> None:
    """The stamp (feed cursor + newest vector) sees at least what the store-version triggers see."""
    ids: dict[str, str] = {}

    def add() -> None:
        ids["a"] = vault.add(OWNER, Draft.of(statement="Pernilla bakes Wrenfield rye bread", domain="food"))["id"]

    def correct() -> None:
        ids["b"] = vault.correct(OWNER, CorrectRequest.of(id=ids["a"], statement="Pernilla bakes Wrenfield spelt"))[
            "id"
        ]

    def embed() -> None:  # a vector written after its record's commit, as the pipeline does
        with vault.ctx.transaction() as conn:
            vector_sql.put(conn.raw, "test-model", [(ids["b"], bytes(16))])

    writes: list[tuple[str, Callable[[], object]]] = [
        ("add", add),
        ("correct", correct),
        ("embed", embed),
        ("feedback", lambda: vault.record_feedback(OWNER, FeedbackRequest.of(id=ids["b"], useful=True))),
        ("rescope", lambda: vault.change_scope(OWNER, ids["b"], Scope.REMOTE_ALLOWED)),
        ("archive", lambda: vault.archive(OWNER, ArchiveRequest.of(id=ids["b"]))),
        ("restore", lambda: vault.restore(OWNER, ids["b"])),
        ("setting", lambda: vault.set_setting(OWNER, "tier_hot", 0.7)),
        ("pin", lambda: vault.pin_domain(OWNER, "food")),
        ("rename", lambda: vault.rename_domain(OWNER, "food", "baking")),
        ("refresh", lambda: vault.refresh_domains(OWNER)),
        ("maintain", lambda: vault.maintain_domains(OWNER)),
    ]
    for name, write in writes:
        version, before = marks(vault)
        write()
        moved_version, after = marks(vault)
        if moved_version != version:
            assert after != before, f"{name} moved the store version but not the cache stamp"
    assert marks(vault)[1] > 0
    _, before = marks(vault)
    vault.search(OWNER, SearchRequest.of(query="Wrenfield spelt"))  # usage counters and the log: reading
    vault.list_memories(OWNER)
    assert marks(vault)[1] == before


def test_a_write_in_another_process_reaches_a_cached_search(vault: Vault, home: Path) -> None:
    query = SearchRequest.of(query="Wrenfield rye bread")
    assert vault.search(OWNER, query)["results"] == []
    assert vault.search(OWNER, query)["results"] == []  # now answered from the cache
    written = subprocess.run([sys.executable, "-c", WRITER, str(home)], capture_output=True, timeout=120, check=False)
    assert written.returncode == 0, written.stderr.decode()[-2000:]
    new_id = written.stdout.decode().strip()
    assert new_id in [hit["id"] for hit in vault.search(OWNER, query)["results"]]
