"""A commit killed with SIGKILL mid-import resumes from its last committed chunk: no chunk twice, none lost.

Both ways in: `memvault import --commit`, and approving a dropped export's proposal in the inbox
(the same chunked commit; approving again resumes it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))

from fake_export import write_export

from memvault.core.importers.request import ImportRequest
from memvault.core.importers.run import Hooks, Stopped
from memvault.core.importers.watched_folder import stage
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Conflict
from memvault.core.vocabulary.model import OWNER

CONVERSATIONS, CHUNK = 240, 4


def _memvault(home: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_EMBEDDINGS": "off"}
    command = [sys.executable, "-m", "memvault.desktop.cli", *args, "--json"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _import(home: Path, path: Path) -> subprocess.Popen[bytes]:
    return _memvault(home, "import", str(path), "--commit", "--chunk-size", str(CHUNK))


def _kill_after_chunks(home: Path, process: subprocess.Popen[bytes], chunks: int) -> int:
    """SIGKILL `process` once `chunks` chunks are committed; the chunks done then."""
    deadline = time.monotonic() + 120
    while _progress(home)[0] < chunks and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done, manifests = _progress(home)
    assert manifests == 1 and chunks <= done < CONVERSATIONS // CHUNK, "kill the import mid-way"
    return done


def _progress(home: Path) -> tuple[int, int]:
    with Vault.open(home) as vault:
        row = vault.ctx.store.raw.execute(
            "SELECT coalesce(max(chunks_done), 0), count(*) FROM import_manifests"
        ).fetchone()
        return int(row[0]), int(row[1])


@pytest.mark.slow
def test_a_sigkilled_import_resumes_from_its_last_chunk(home: Path, tmp_path: Path) -> None:
    export = write_export(tmp_path / "conversations.json", CONVERSATIONS)
    done = _kill_after_chunks(home, _import(home, export), 3)
    with Vault.open(home) as vault:
        conversations = vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0]
    assert conversations == done * CHUNK  # whole chunks only
    resumed = _import(home, export)
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read() if resumed.stderr else ""
    with Vault.open(home) as vault:
        conn = vault.ctx.store.raw
        assert conn.execute("SELECT count(*) FROM conversations").fetchone()[0] == CONVERSATIONS
        norms = [r[0] for r in conn.execute("SELECT norm_key FROM memories WHERE status = 'current'")]
        assert len(norms) == len(set(norms))  # nothing said twice, though half was written before the kill
        (batch,) = [r["batch_id"] for r in vault.imports.batches(OWNER)]
        manifest = vault.imports.batches(OWNER)[0]
        assert manifest["finished_at"] and manifest["chunks_done"] == manifest["chunks_total"] == CONVERSATIONS // CHUNK
        vault.imports.rollback(OWNER, batch)
        assert conn.execute("SELECT count(*) FROM memories WHERE status != 'superseded'").fetchone()[0] == 0


@pytest.mark.slow
def test_an_import_approved_in_the_inbox_commits_in_chunks_and_resumes_after_a_sigkill(
    home: Path, tmp_path: Path
) -> None:
    export = write_export(tmp_path / "conversations.json", CONVERSATIONS)
    with Vault.open(home) as vault:
        proposal = stage(vault.ctx, export, request=ImportRequest(path=str(export), chunk_size=CHUNK))
    assert proposal is not None
    done = _kill_after_chunks(home, _memvault(home, "proposals", "approve", proposal), 2)
    with Vault.open(home) as vault:
        assert vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0] == done * CHUNK
        assert [p["id"] for p in vault.proposals(OWNER)] == [proposal]  # still waiting: not finished
    again = _memvault(home, "proposals", "approve", proposal)
    assert again.wait(timeout=300) == 0, again.stderr.read() if again.stderr else ""
    with Vault.open(home) as vault:
        conn = vault.ctx.store.raw
        assert conn.execute("SELECT count(*) FROM conversations").fetchone()[0] == CONVERSATIONS
        (manifest,) = vault.imports.batches(OWNER)
        assert manifest["chunks_done"] == manifest["chunks_total"] == CONVERSATIONS // CHUNK and manifest["finished_at"]
        assert not [p for p in vault.proposals(OWNER) if p["id"] == proposal]  # closed with the last chunk
        assert [p["status"] for p in vault.proposals(OWNER, status="approved")] == ["approved"]
        norms = [r[0] for r in conn.execute("SELECT norm_key FROM memories WHERE status = 'current'")]
        assert norms and len(norms) == len(set(norms))


def test_a_stopped_commit_ends_after_a_whole_chunk_and_the_next_commit_resumes(vault: Vault, tmp_path: Path) -> None:
    export = write_export(tmp_path / "conversations.json", 12)
    request = ImportRequest(path=str(export), commit=True, chunk_size=CHUNK)
    seen: list[int] = []
    stopped = vault.imports.run(
        OWNER, request, Hooks(progress=lambda done, _all, _n: seen.append(done), stop=lambda: bool(seen))
    )
    assert stopped["chunks"]["done"] == 1 and stopped["chunks"]["total"] == 3 and seen == [CHUNK]
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0] == CHUNK
    resumed = vault.imports.run(OWNER, request)
    assert resumed["resumed"] and resumed["chunks"] == {"done": 3, "total": 3, "resumed_from": 1}
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0] == 12


def test_a_stopped_dry_run_writes_nothing(vault: Vault, tmp_path: Path) -> None:
    export = write_export(tmp_path / "conversations.json", 12)
    seen: list[int] = []
    with pytest.raises(Stopped):
        vault.imports.run(
            OWNER,
            ImportRequest(path=str(export)),
            Hooks(progress=lambda d, _a, _n: seen.append(d), stop=lambda: len(seen) > 3),
        )
    assert seen == [0, 1, 2, 3]
    assert not vault.imports.batches(OWNER)


def test_two_commits_of_one_export_never_both_write_it(vault: Vault, tmp_path: Path) -> None:
    export = write_export(tmp_path / "conversations.json", 8)
    request = ImportRequest(path=str(export), commit=True, chunk_size=CHUNK)
    other: list[str] = []

    def meanwhile() -> bool:  # asked before the first chunk: another commit runs to the end right then
        if not other:
            other.append(str(vault.imports.run(OWNER, request)["batch_id"]))
        return False

    with pytest.raises(Conflict, match="already imported"):
        vault.imports.run(OWNER, request, Hooks(stop=meanwhile))
    assert [b["batch_id"] for b in vault.imports.batches(OWNER)] == other
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM conversations").fetchone()[0] == 8
