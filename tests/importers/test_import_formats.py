"""Each importer on its fictional fixture, on a real encrypted store: dry run, commit, rollback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from importkit import SOURCES, chatgpt_zip, content, copy_fixture, digest

from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, Forbidden, NotFound
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller, Surface
from memvault.core.vocabulary.search_request import SearchRequest


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def run(vault: Vault, path: Path, **args: object) -> dict[str, object]:
    return dict(vault.imports.run(OWNER, ImportRequest.parse({"path": str(path), **args})))


@pytest.mark.parametrize(("name", "fmt", "said"), SOURCES)
def test_a_dry_run_reports_and_changes_nothing(
    vault: Vault, tmp_path: Path, name: str, fmt: str, said: list[str]
) -> None:
    path = copy_fixture(name, tmp_path)
    before, original = content(vault), digest(path)
    events_before = vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0]
    report = run(vault, path)
    assert report["dry_run"] is True and report["format"] == fmt and report["batch_id"] is None
    statements = [a["statement"] for a in report["additions"]]  # type: ignore[union-attr]
    assert set(said) <= set(statements)
    assert report["inventory"]["conversations"] >= 1  # type: ignore[index]
    assert report["estimate"]["records"] == len(statements)  # type: ignore[index]
    assert content(vault) == before
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0] == events_before
    assert digest(path) == original


@pytest.mark.parametrize(("name", "fmt", "said"), SOURCES)
def test_commit_then_rollback_leaves_the_content_as_before(
    vault: Vault, tmp_path: Path, name: str, fmt: str, said: list[str]
) -> None:
    existing = vault.add(OWNER, Draft.of(statement="The cabin's wifi router is in the attic."))["id"]
    path = copy_fixture(name, tmp_path)
    before, original = content(vault), digest(path)
    report = run(vault, path, commit=True)
    batch = str(report["batch_id"])
    assert report["counts"]["added"] >= len(said)  # type: ignore[index]
    rows = vault.ctx.store.raw.execute(
        "SELECT statement, source, source_reference, evidence, evidence_hash FROM memories WHERE import_batch_id = ?",
        (batch,),
    ).fetchall()
    assert set(said) <= {r["statement"] for r in rows}
    for row in rows:  # provenance: a pointer and a hash, never the conversation
        assert row["source"] == f"import:{fmt}" and row["source_reference"].startswith(f"{fmt}:")
        assert "sha256:" in row["evidence"] and row["evidence_hash"]
    assert vault.search(OWNER, SearchRequest.of(query=said[0]))["results"]
    assert digest(path) == original
    undone = vault.imports.rollback(OWNER, batch)
    assert undone["removed"] == len(rows)
    assert content(vault) == before
    assert not vault.search(OWNER, SearchRequest.of(query=said[0]))["results"]
    assert vault.get(OWNER, existing)["memory"]["status"] == "current"
    with pytest.raises(Conflict):
        vault.imports.rollback(OWNER, batch)


def test_the_chatgpt_zip_follows_the_current_branch(vault: Vault, tmp_path: Path) -> None:
    report = run(vault, chatgpt_zip(tmp_path))
    assert report["format"] == "chatgpt"
    # 5 + 3 turns: the root, the system message and the regenerated draft off the current branch are left out
    assert report["inventory"]["turns"] == 8  # type: ignore[index]
    statements = {a["statement"] for a in report["additions"]}  # type: ignore[union-attr]
    assert "We decided to build the shed from larch boards." in statements
    secret = [e for e in report["exclusions"] if "secret" in e["reason"]]  # type: ignore[union-attr]
    assert secret and secret[0]["statement"] is None  # the gate refused it and the report does not echo it


def test_chatter_and_requests_are_not_candidates(vault: Vault, tmp_path: Path) -> None:
    report = run(vault, copy_fixture("chatgpt_conversations.json", tmp_path))
    said = " ".join(str(a["statement"]) for a in report["additions"])  # type: ignore[union-attr]
    for chatter in ("Sounds good", "Thanks a lot", "grumpy", "Can you suggest"):
        assert chatter not in said


def test_the_store_decides_duplicates_and_corrections(vault: Vault, tmp_path: Path) -> None:
    known = vault.add(OWNER, Draft.of(statement="I prefer corrugated metal for the roof.", type="PREFERENCE"))["id"]
    older = vault.add(OWNER, Draft.of(statement="My budget is 900 euros for the whole shed.", valid_from="2025-06-01"))[
        "id"
    ]
    report = run(vault, copy_fixture("chatgpt_conversations.json", tmp_path), commit=True)
    assert report["counts"]["confirmed"] == 1 and report["counts"]["corrected"] == 1  # type: ignore[index]
    assert vault.get(OWNER, older)["memory"]["status"] == "superseded"
    before_rollback = vault.get(OWNER, known)["memory"]
    assert before_rollback["last_confirmed_at"] is not None
    vault.imports.rollback(OWNER, str(report["batch_id"]))
    assert vault.get(OWNER, older)["memory"]["status"] == "current"
    assert vault.get(OWNER, older)["memory"]["valid_until"] is None


def test_a_batch_never_says_the_same_twice(vault: Vault, tmp_path: Path) -> None:
    path = tmp_path / "twice.jsonl"
    path.write_text(
        '{"conversation": "a", "role": "user", "text": "I prefer tea over coffee.", "time": "2026-01-01T08:00:00Z"}\n'
        '{"conversation": "b", "role": "user", "text": "I prefer tea over coffee.", "time": "2026-01-02T08:00:00Z"}\n'
    )
    dry = run(vault, path)
    assert dry["counts"]["added"] == 1 and dry["counts"]["excluded"] == 1  # type: ignore[index]
    done = run(vault, path, commit=True)
    assert done["counts"]["added"] == 1 and done["counts"]["confirmed"] == 1  # type: ignore[index]


def test_limits_choose_the_conversations(vault: Vault, tmp_path: Path) -> None:
    path = copy_fixture("claude_conversations.json", tmp_path)
    newest = run(vault, path, max_conversations=1)
    assert newest["inventory"]["conversations"] == 1 and newest["inventory"]["left_out_by_limits"] == 1  # type: ignore[index]
    dated = run(vault, path, since="2026-01-15", until="2026-02-01")
    assert {a["conversation"] for a in dated["additions"]} == {"Dinner ideas"}  # type: ignore[union-attr]
    with pytest.raises(Exception, match="over the limit"):
        run(vault, path, max_bytes=100)


def test_an_export_is_imported_once(vault: Vault, tmp_path: Path) -> None:
    path = copy_fixture("generic.md", tmp_path)
    run(vault, path, commit=True)
    with pytest.raises(Conflict, match="already imported"):
        run(vault, path, commit=True)


def test_conversations_are_searchable_by_the_local_caller_only(vault: Vault, tmp_path: Path) -> None:
    run(vault, copy_fixture("claude_conversations.json", tmp_path), commit=True)
    run(vault, copy_fixture("generic.md", tmp_path), commit=True)
    hits = vault.imports.search_conversations(LOCAL_ASSISTANT, query="peanuts shellfish")["items"]
    assert [h["title"] for h in hits] == ["Dinner ideas"]
    assert hits[0]["snippet"] and len(hits[0]["snippet"]) <= 240 and hits[0]["source"] == "claude"
    assert vault.imports.search_conversations(OWNER, query="peanuts", source="markdown")["items"] == []
    assert vault.imports.search_conversations(OWNER, query="sea novels", start="2026-01-16")["items"]
    assert vault.imports.search_conversations(OWNER, query="sea novels", end="2026-01-16")["items"] == []
    with pytest.raises(Forbidden):
        vault.imports.search_conversations(Caller("tunnel", Surface.REMOTE), query="peanuts")


def test_an_assistant_commits_only_in_automatic_mode(vault: Vault, tmp_path: Path) -> None:
    path = copy_fixture("generic.md", tmp_path)
    assert vault.imports.run(LOCAL_ASSISTANT, ImportRequest.parse({"path": str(path)}))["dry_run"]
    with pytest.raises(Forbidden):
        vault.imports.run(LOCAL_ASSISTANT, ImportRequest.parse({"path": str(path), "commit": True}))
    with pytest.raises(NotFound):
        vault.imports.rollback(OWNER, "bnope")
