"""What the command-line benchmarks share: the installed `memvault`, a fresh fictional home, and a fresh
database on a PostgreSQL server (pgserver) for a home on a shared store."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

MEMVAULT = str(Path(sys.executable).with_name("memvault"))


def served_environment() -> None:
    """What a benchmark's servers inherit: a fictional passphrase instead of the keyring, and the
    product's own write mode and embeddings (not whatever the shell that started it had set)."""
    os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    for name in ("MEMVAULT_WRITE_MODE", "MEMVAULT_EMBEDDINGS"):
        os.environ.pop(name, None)


def initialised_home(prefix: str) -> tuple[Path, dict[str, str]]:
    """A temporary folder holding a new passphrase store (`home/`) and a private runtime folder, and
    the environment that points memvault at them."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    env = {
        **os.environ,
        "MEMVAULT_HOME": str(work / "home"),
        "MEMVAULT_PASSPHRASE": "bench passphrase (fictional)",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        "XDG_RUNTIME_DIR": str(work / "runtime"),
    }
    (work / "runtime").mkdir(mode=0o700)
    subprocess.run([MEMVAULT, "init"], env=env, check=True, capture_output=True)
    return work, env


def percentile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (0.95: p95), one of them."""
    ordered = sorted(values)
    return ordered[max(0, round(share * len(ordered)) - 1)]


def new_database(server: str, name: str | None = None) -> str:
    """The URL of a new database (`name`, else a fresh one) on the PostgreSQL server at `server`'s URL."""
    import psycopg  # noqa: PLC0415 - only the benchmarks of a shared store need it

    name = name or f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, query = server.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}?{query}"
