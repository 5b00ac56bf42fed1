"""Cold start of `memvault mcp`: spawn -> initialize -> tools/list answered, median of N runs.

    .venv/bin/python tests/bench/bench_mcp_start.py [--runs 10]

Three ways to start, each a fresh process per run, timed over raw JSON-RPC pipes:
  (a) relay     `memvault mcp` with a running daemon: a byte pipe to the warm server;
  (b) embedded  `memvault mcp --embedded`: the bridge opens the store and builds the server itself;
  (c) floor     a bare MCPServer (mcp SDK) with one tool over stdio: what any Python MCP server pays.
The store is a fresh one made for the run (passphrase-wrapped key, default scrypt cost, as on a
headless machine); nothing of the person's is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchkit import MEMVAULT, initialised_home

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}
FLOOR = """
from mcp.server.mcpserver import MCPServer
server = MCPServer("floor")
@server.tool()
def ping() -> str:
    return "pong"
server.run()
"""


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{platform.node()}: {model}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def one_start(command: list[str], env: dict[str, str]) -> float:
    """Seconds from spawn until the tools/list answer arrived."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INIT).encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    elapsed = time.perf_counter() - started
    assert answer["id"] == 2 and answer["result"]["tools"], answer
    proc.stdin.close()
    proc.wait(30)
    return elapsed


def measure(name: str, command: list[str], env: dict[str, str], runs: int) -> float:
    one_start(command, env)  # warm the file cache; not counted
    times = [one_start(command, env) for _ in range(runs)]
    median = statistics.median(times)
    print(f"  {name:<9} median {median * 1000:7.1f} ms   (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")
    return median


def wait_for_daemon(env: dict[str, str], proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = subprocess.run(
            [MEMVAULT, "--json", "daemon", "--status"], env=env, capture_output=True, check=True
        ).stdout
        info = json.loads(status)
        if info["listening"]:
            return
        if proc.poll() is not None:
            raise SystemExit("the daemon exited")
        time.sleep(0.1)
    raise SystemExit("the daemon did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    work, env = initialised_home("memvault-bench-")
    print(f"memvault mcp cold start, spawn -> initialize -> tools/list, median of {runs}")
    print(f"machine: {machine()}")
    try:
        embedded = measure("embedded", [MEMVAULT, "mcp", "--embedded"], env, runs)
        floor = measure("floor", [sys.executable, "-c", FLOOR], env, runs)
        daemon = subprocess.Popen([MEMVAULT, "daemon", "--headless"], env=env, stderr=subprocess.DEVNULL)
        try:
            wait_for_daemon(env, daemon)
            relay = measure("relay", [MEMVAULT, "mcp"], env, runs)
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(30)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"  floor / relay    = {floor / relay:5.1f}x   (relay is this many times faster than a bare SDK server)")
    print(f"  embedded / relay = {embedded / relay:5.1f}x")
    print(f"  embedded / floor = {embedded / floor:5.1f}x")


if __name__ == "__main__":
    main()
