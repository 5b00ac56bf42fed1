"""Helpers for the bridge and daemon tests: the real `memvault` command as a subprocess.

`running_daemon` starts `memvault daemon --headless` on a test's store and waits until its
socket answers; `bridge_params` are the official MCP client's parameters to spawn
`memvault mcp` the way Codex or Claude would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.daemon import running_pid
from memvault.mcp_bridge import relay

_SCRIPT = Path(sys.executable).with_name("memvault")
MEMVAULT = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "memvault.desktop.cli"]
START_TIMEOUT = 60.0  # the 2-core CI machine is shared: be patient, a healthy start takes ~2 s


def env_for(home: Path, **extra: str | None) -> dict[str, str]:
    """This process's (test) environment pointed at `home`; a None value removes a variable."""
    env = {**os.environ, "MEMVAULT_HOME": str(home)}
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def bridge_params(home: Path, *args: str, **extra: str | None) -> StdioServerParameters:
    return StdioServerParameters(command=MEMVAULT[0], args=[*MEMVAULT[1:], "mcp", *args], env=env_for(home, **extra))


def address(home: Path) -> relay.DaemonAddress:
    return relay.DaemonAddress.for_home(home.resolve())


def wait_until_answering(home: Path, proc: subprocess.Popen[bytes], timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the daemon exited with {proc.returncode}: {_stderr(proc)}")
        sock = relay.connect(address(home))
        if sock is not None:
            sock.close()
            return
        time.sleep(0.05)
    raise AssertionError("the daemon did not answer in time")


def _stderr(proc: subprocess.Popen[bytes]) -> str:
    assert proc.stderr is not None
    return proc.stderr.read().decode(errors="replace")[-2000:]


def start_daemon(home: Path, **extra: str | None) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [*MEMVAULT, "daemon", "--headless"],
        env=env_for(home, **extra),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_answering(home, proc)
    return proc


def stop_daemon(proc: subprocess.Popen[bytes], timeout: float = 20.0) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the daemon did not stop within 20 s of SIGTERM") from None


@contextmanager
def running_daemon(home: Path, **extra: str | None) -> Iterator[subprocess.Popen[bytes]]:
    proc = start_daemon(home, **extra)
    try:
        yield proc
    finally:
        code = stop_daemon(proc)
        assert code == 0, _stderr(proc)
        assert not address(home).socket.exists()
        assert running_pid(address(home)) is None


def run_cli(home: Path, *args: str, stdin: str = "", timeout: float = 60, **extra: str | None) -> Any:
    return subprocess.run(
        [*MEMVAULT, *args],
        check=False,
        env=env_for(home, **extra),
        input=stdin.encode(),
        capture_output=True,
        timeout=timeout,
    )


def make_domains(home: Path, *domains: str) -> None:
    """Domains exist once the person has a record in them: automatic mode commits only there."""
    with Vault.open(home) as vault:
        for domain in domains:
            vault.add(OWNER, Draft.of(statement=f"The {domain} area exists (fictional seed)", domain=domain))


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "1"}},
}


@dataclass
class RawSession:
    lines: list[bytes]  # every line the bridge wrote on stdout
    returncode: int
    stderr: str


def raw_session(home: Path, messages: list[Mapping[str, Any]], *args: str, **extra: str | None) -> RawSession:
    """Send `messages` to a fresh `memvault [args] mcp`, wait for every request's answer, close stdin, collect."""
    proc = subprocess.Popen(
        [*MEMVAULT, *args, "mcp"],
        env=env_for(home, **extra),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    waiting = {message["id"] for message in messages if "id" in message}
    lines: list[bytes] = []
    timer = threading.Timer(START_TIMEOUT, proc.kill)
    timer.start()
    try:
        for message in messages:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        while waiting and (line := proc.stdout.readline()):
            lines.append(line)
            waiting.discard(json.loads(line).get("id"))
        proc.stdin.close()  # EOF: the bridge must exit by itself
        lines += proc.stdout.readlines()
        returncode = proc.wait()
    finally:
        timer.cancel()
    assert proc.stderr is not None
    return RawSession(lines, returncode, proc.stderr.read().decode(errors="replace"))
