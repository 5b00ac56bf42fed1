"""A commit killed with SIGKILL mid-import resumes from its last committed chunk: no chunk twice, none lost."""

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

from memvault.core.model import OWNER
from memvault.core.vault import Vault

CONVERSATIONS, CHUNK = 240, 4


def _import(home: Path, path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_EMBEDDINGS": "off"}
    args = [sys.executable, "-m", "memvault.desktop.cli", "import", str(path), "--commit", "--chunk-size", str(CHUNK)]
    return subprocess.Popen([*args, "--json"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _progress(home: Path) -> tuple[int, int]:
    with Vault.open(home) as vault:
        row = vault.ctx.conn.execute("SELECT coalesce(max(chunks_done), 0), count(*) FROM import_manifests").fetchone()
        return int(row[0]), int(row[1])


@pytest.mark.slow
def test_a_sigkilled_import_resumes_from_its_last_chunk(home: Path, tmp_path: Path) -> None:
    export = write_export(tmp_path / "conversations.json", CONVERSATIONS)
    process = _import(home, export)
    deadline = time.monotonic() + 120
    while _progress(home)[0] < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done, manifests = _progress(home)
    assert manifests == 1 and 3 <= done < CONVERSATIONS // CHUNK, "kill the import mid-way"
    with Vault.open(home) as vault:
        conversations = vault.ctx.conn.execute("SELECT count(*) FROM conversations").fetchone()[0]
    assert conversations == done * CHUNK  # whole chunks only
    resumed = _import(home, export)
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read() if resumed.stderr else ""
    with Vault.open(home) as vault:
        conn = vault.ctx.conn
        assert conn.execute("SELECT count(*) FROM conversations").fetchone()[0] == CONVERSATIONS
        norms = [r[0] for r in conn.execute("SELECT norm_key FROM memories WHERE status = 'current'")]
        assert len(norms) == len(set(norms))  # nothing said twice, though half was written before the kill
        (batch,) = [r["batch_id"] for r in vault.imports.batches(OWNER)]
        manifest = vault.imports.batches(OWNER)[0]
        assert manifest["finished_at"] and manifest["chunks_done"] == manifest["chunks_total"] == CONVERSATIONS // CHUNK
        vault.imports.rollback(OWNER, batch)
        assert conn.execute("SELECT count(*) FROM memories WHERE status != 'superseded'").fetchone()[0] == 0
