"""Runs every memvault command once, in one process, for test_footprint.py (its environment is set by the test).

Long-running commands (daemon, serve, mcp) run as child processes and are stopped once they answer.
"""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

from memvault.desktop.cli import main

CLI = [sys.executable, "-m", "memvault.desktop.cli"]


def run(*argv: str, stdin: str = "") -> str:
    sys.stdin = io.StringIO(stdin)
    out = io.StringIO()
    real = sys.stdout
    sys.stdout = out
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusal: the sequence must name commands right
        code = 100 + int(exc.code or 0)
    finally:
        sys.stdout = real
    print(f"{code} {' '.join(a for a in argv[:3] if not a.startswith('--'))}", file=sys.stderr)
    return out.getvalue().strip()


def until_said(process: subprocess.Popen[bytes], log: Path, words: str) -> None:
    deadline = time.monotonic() + 120
    while words not in log.read_text() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)


def long_running(scratch: Path) -> None:
    mcp = subprocess.run([*CLI, "mcp"], input=b"", capture_output=True, timeout=180, check=False)
    print(f"{mcp.returncode} mcp", file=sys.stderr)
    for argv, words in ((["daemon", "--headless"], "serving"), (["serve", "--http", "127.0.0.1:0"], "serving MCP")):
        log = scratch / f"{argv[0]}.log"
        with log.open("wb") as err:
            process = subprocess.Popen([*CLI, "-v", *argv], stdout=subprocess.DEVNULL, stderr=err)
        until_said(process, log, words)
        if argv[0] == "daemon":
            run("daemon", "--status")
            subprocess.run([*CLI, "mcp"], input=b"", capture_output=True, timeout=180, check=False)
        process.terminate()
        process.wait(timeout=60)


def main_sequence(scratch: Path) -> None:
    run("init")
    first = run("--json", "add", "The greenhouse door sticks in damp weather", "--domain", "garden")
    record = first.split('"id": "')[1].split('"')[0]
    run("add", "Tomatoes go in the south bed", "--domain", "garden")
    for argv in (
        ["get", record],
        ["list"],
        ["search", "greenhouse door"],
        ["history", record],
        ["status"],
        ["related", record],
        ["timeline"],
        ["project", "garden"],
        ["decisions"],
        ["unresolved"],
        ["feedback", record, "useful"],
        ["proposals", "list"],
        ["config", "get"],
        ["domains", "list"],
        ["kill-switch", "status"],
        ["reindex"],
        ["export"],
        ["doctor"],
    ):
        run(*argv)
    run("correct", record, "The greenhouse door sticks when it rains")
    run("archive", record)
    run("restore", record)
    run("token", "create", "--principal", "footprint", "--surface", "remote")
    backup = run("backup")
    request = run("purge", record, "--reason", "test")
    run("purge", "--confirm", request, stdin="yes\n")
    run("purge", "--sweep")
    run("restore", backup.splitlines()[-1] if backup else "missing", stdin="yes\n")
    long_running(scratch)
    run("demo")


if __name__ == "__main__":
    main_sequence(Path(sys.argv[1]))
