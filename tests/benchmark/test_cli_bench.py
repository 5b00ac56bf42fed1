"""`memvault bench memory` as a person runs it: the table printed, memvault reached through the real
`memvault mcp` stdio server and, for the remote pass, `memvault serve --http` with a remote token."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memvault.core.vault import Vault


def memvault(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "--home", str(home), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_bench_memory_runs_over_stdio_and_prints_the_table(vault: Vault, home: Path) -> None:
    done = memvault(home, "bench", "memory", "--suite", "small")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "SYNTHETIC" in done.stdout and "quality gained per 1,000 context tokens" in done.stdout
    assert "stdio server" in done.stdout and "What it cannot tell" in done.stdout
    assert "remote pass through `memvault serve --http` with a remote token" in done.stdout
    report = json.loads(next((home / "benchmarks").glob("*.json")).read_text())
    memvault_row = next(row for row in report["conditions"] if row["condition"] == "memvault")
    assert memvault_row["privacy_leaks"] == 0 and memvault_row["cpu_ms"] > 0
    assert memvault_row["remote_records_per_question"] > 1 and memvault_row["remote_errors"] == 0
    shown = memvault(home, "bench", "last")
    assert shown.returncode == 0 and shown.stdout.startswith("# memvault memory benchmark (synthetic)")
    assert set(json.loads(memvault(home, "--json", "bench", "last").stdout)) == {"json", "markdown", "plot"}


def test_bench_last_without_a_report_says_how_to_make_one(home: Path) -> None:
    done = memvault(home, "bench", "last")
    assert done.returncode == 1 and "memvault bench memory" in done.stderr


def test_bench_shadow_prints_json(vault: Vault, home: Path) -> None:
    done = memvault(home, "--json", "bench", "shadow")
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["queries"] == 0
