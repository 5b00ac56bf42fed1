"""Benchmark an import's memory: the peak RSS of a dry run does not grow with the export's size.

    nice -n 10 python tests/bench/bench_import_memory.py [--mb 300] [--cases one,limited,whole]

A script, not a test. It writes fictional ChatGPT exports (fake_export.py, with long assistant
turns so a few thousand conversations make the size) into a temp folder, zipped as ChatGPT ships
them: one of a single conversation, and one of about `--mb` MB of conversations.json. Each dry run
runs in a child process on a fresh encrypted store; the parent reads the child's peak RSS from
`os.wait4` (resource usage of that child alone) and prints it with the wall-clock time.

Cases: `one` (the one-conversation export), `limited` (the large one with --max-conversations 100,
as the red team ran it), `whole` (the large one, every conversation: several windows re-read),
`daemon` (a `memvault daemon` on a fresh store answers `memory_search` over its socket every
100 ms; the large zip is copied into imports/inbox; the latency of those calls before and while the
dropped export is dry-run, p50/p95/max, and the daemon's own peak RSS).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from fake_export import conversation

FILLER = ("The shed plan lists larch boards, a corrugated roof and a gravel base. " * 40).strip()


def _padded(rng: random.Random, index: int, turn_bytes: int) -> dict[str, Any]:
    """A fake conversation whose assistant turns are long (pasted-like text the extractor skips)."""
    item = conversation(rng, index, 1735689600.0)
    for node in item["mapping"].values():
        message = node.get("message")
        if message and message["author"]["role"] == "assistant":
            repeat = max(1, turn_bytes // len(FILLER))
            message["content"]["parts"] = [message["content"]["parts"][0] + " " + " ".join([FILLER] * repeat)]
    return item


def write_zip(folder: Path, name: str, megabytes: float, turn_bytes: int) -> tuple[Path, int, int]:
    """A zip holding conversations.json of about `megabytes` MB, written without holding it in memory."""
    rng = random.Random(7)
    member = folder / f"{name}-conversations.json"
    count = 0
    with member.open("w") as out:
        out.write("[")
        while count == 0 or out.tell() < megabytes * 1e6:
            out.write(("," if count else "") + json.dumps(_padded(rng, count, turn_bytes)))
            count += 1
        out.write("]")
    size = member.stat().st_size
    target = folder / f"{name}.zip"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.write(member, "conversations.json")
        archive.writestr("user.json", '{"id": "user-fictional"}')
    member.unlink()
    return target, size, count


def child(export: str, limit: int | None) -> None:
    """The measured process: a fresh store, one dry run, the report's counts on stdout."""
    os.environ.setdefault("MEMVAULT_PASSPHRASE", "bench passphrase (fictional)")
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    os.environ["MEMVAULT_EMBEDDINGS"] = "off"
    from memvault.core.importers.request import ImportRequest  # noqa: PLC0415
    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.core.vocabulary.model import OWNER  # noqa: PLC0415

    home = Path(tempfile.mkdtemp(prefix="memvault-bench-memory-"))
    try:
        with Vault.open(home / "store", create=True, scrypt_n=2**12) as vault:
            started = time.perf_counter()
            args: dict[str, Any] = {"path": export}
            if limit:
                args["max_conversations"] = limit
            report = vault.imports.run(OWNER, ImportRequest.parse(args))
            seconds = time.perf_counter() - started
        print(json.dumps({"seconds": seconds, "counts": report["counts"], "left_out":
                          report["inventory"]["left_out_by_limits"]}))  # fmt: skip
    finally:
        shutil.rmtree(home, ignore_errors=True)


def measure(export: Path, limit: int | None) -> tuple[float, dict[str, Any]]:
    """Peak RSS (MB) of a child running one dry run, and what it printed."""
    command = [sys.executable, __file__, "--child", str(export), *(["--limit", str(limit)] if limit else [])]
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"the dry run failed ({process.returncode})")
    peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return peak, json.loads(out)


PASSPHRASE = "bench passphrase (fictional)"
INBOX_DONE = re.compile(r"inbox: big\.zip (?:staged|already staged|not staged)")


def _daemon_env(home: Path) -> dict[str, str]:
    return {**os.environ, "MEMVAULT_HOME": str(home), "MEMVAULT_PASSPHRASE": PASSPHRASE,
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "MEMVAULT_EMBEDDINGS": "off"}  # fmt: skip


class _Session:
    """A raw MCP session over the daemon's socket: one `memory_search` at a time, timed."""

    def __init__(self, home: Path) -> None:
        from memvault.mcp_bridge import relay  # noqa: PLC0415

        sock = relay.connect(relay.DaemonAddress.for_home(home.resolve()))
        assert sock is not None
        sock.settimeout(600)
        self.sock, self.reader, self.next_id = sock, sock.makefile("rb"), 1
        self._ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "bench", "version": "1"}})  # fmt: skip
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode() + b"\n")

    def _ask(self, method: str, params: dict[str, Any]) -> None:
        wanted, self.next_id = self.next_id, self.next_id + 1
        line = {"jsonrpc": "2.0", "id": wanted, "method": method, "params": params}
        self.sock.sendall(json.dumps(line).encode() + b"\n")
        while json.loads(self.reader.readline()).get("id") != wanted:
            pass

    def search(self) -> float:
        started = time.perf_counter()
        self._ask("tools/call", {"name": "memory_search", "arguments": {"query": "which roof for the shed"}})
        return (time.perf_counter() - started) * 1000


def _peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _figures(name: str, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    p50 = statistics.median(ordered)
    return f"{name}: {len(ordered)} calls, p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms"


def daemon_case(big: Path, root: Path) -> None:
    """Calls through the daemon while an export dropped into its inbox is dry-run."""
    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
    from memvault.core.vocabulary.model import OWNER  # noqa: PLC0415

    home = root / "daemon-home"
    os.environ.update({k: v for k, v in _daemon_env(home).items() if k != "MEMVAULT_HOME"})
    with Vault.open(home, create=True, scrypt_n=2**12) as vault:
        for n in range(40):
            vault.add(OWNER, Draft.of(statement=f"Fictional note {n}: the shed roof uses corrugated metal sheet {n}."))
    command = [sys.executable, "-m", "memvault.desktop.cli", "daemon", "--headless"]
    daemon = subprocess.Popen(command, env=_daemon_env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = home / "logs" / "daemon.log"
    try:
        while not (log.exists() and "upkeep done" in log.read_text()):  # start-up work out of the way
            time.sleep(0.2)
        session = _Session(home)
        before = [session.search() for _ in range(30) if time.sleep(0.1) is None]
        resident = _peak_mb(daemon.pid)
        shutil.copy(big, home / "imports" / "inbox" / "big.zip")
        started, during = time.monotonic(), []
        while not INBOX_DONE.search(log.read_text()):
            during.append(session.search())
            time.sleep(0.1)
        seconds = time.monotonic() - started
        print(_figures("before the drop", before))
        print(_figures(f"while the dropped export was read ({seconds:.0f} s)", during))
        child = re.findall(r"inbox pass done \(process \d+, peak (\d+) MB\)", log.read_text())
        print(f"daemon peak RSS {resident:.0f} MB before the drop, {_peak_mb(daemon.pid):.0f} MB after;"
              f" inbox process peak {child[-1] if child else '?'} MB")  # fmt: skip
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=300.0, help="size of the large conversations.json")
    parser.add_argument("--turn-kb", type=int, default=40, help="length of each assistant turn")
    parser.add_argument("--cases", default="one,limited,whole,daemon")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--limit", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.limit)
        return
    root = Path(tempfile.mkdtemp(prefix="memvault-bench-import-memory-"))
    try:
        one, one_size, _ = write_zip(root, "one", 0, args.turn_kb * 1000)
        big, big_size, count = write_zip(root, "big", args.mb, args.turn_kb * 1000)
        print(f"exports: one conversation ({one_size / 1e6:.2f} MB); {count} conversations, "
              f"{big_size / 1e6:.0f} MB of conversations.json in a {big.stat().st_size / 1e6:.1f} MB zip")  # fmt: skip
        print("| case | conversations read | peak RSS | time |\n|---|---|---|---|")
        cases = {"one": (one, None), "limited": (big, 100), "whole": (big, None)}
        for name in args.cases.split(","):
            if name == "daemon":
                daemon_case(big, root)
                continue
            export, limit = cases[name]
            peak, out = measure(export, limit)
            print(f"| {name} | {out['counts']['conversations']} ({out['left_out']} left out) | {peak:.0f} MB |"
                  f" {out['seconds']:.1f} s |", flush=True)  # fmt: skip
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
