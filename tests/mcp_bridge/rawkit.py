"""Raw lines to a real `memvault mcp`, embedded or relayed to a daemon, and every answer it writes.

`exchange` writes the client's bytes from a thread while the answers are read (a client that wrote
everything before reading would fill both pipes), closes stdin, and collects the answers until the
bridge exits: it answers what it has read before it does, in both modes.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .bridgekit import INIT, MEMVAULT, START_TIMEOUT, env_for, running_daemon

MODES = ("embedded", "relay")
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def line(message: Mapping[str, Any]) -> bytes:
    """One JSON-RPC line as a client writes it (an unpaired surrogate becomes its `\\uXXXX` escape)."""
    return json.dumps(message).encode() + b"\n"


def handshake() -> bytes:
    return line(INIT) + line(INITIALIZED)


@contextlib.contextmanager
def serving(home: Path, mode: str) -> Iterator[None]:
    """Nothing more for the embedded bridge; a running daemon for the relay."""
    if mode == "relay":
        with running_daemon(home):
            yield
    else:
        yield


def exchange(home: Path, data: bytes, *args: str, timeout: float = START_TIMEOUT) -> list[dict[str, Any]]:
    """`data` to a fresh `memvault mcp [args]`; every line it answered, parsed, once it has exited."""
    proc = subprocess.Popen(
        [*MEMVAULT, "mcp", *args],
        env=env_for(home),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stdin, stderr = proc.stdin, proc.stderr
    errors: list[bytes] = []

    def write() -> None:
        with contextlib.suppress(BrokenPipeError):  # a bridge that stopped reading: the answers tell
            stdin.write(data)
        with contextlib.suppress(BrokenPipeError):
            stdin.close()

    threads = [threading.Thread(target=write), threading.Thread(target=lambda: errors.append(stderr.read()))]
    for thread in threads:
        thread.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        out = proc.stdout.read()
        proc.wait()
    finally:
        timer.cancel()
        for thread in threads:
            thread.join(timeout)
    assert proc.returncode == 0, b"".join(errors).decode(errors="replace")[-3000:]
    return [json.loads(answer) for answer in out.splitlines()]


def by_id(answers: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    """The answers by id, each id answered exactly once (null excepted: a list of those under None)."""
    counts = Counter(_key(answer.get("id")) for answer in answers if answer.get("id") is not None)
    assert all(count == 1 for count in counts.values()), {key: n for key, n in counts.items() if n > 1}
    return {_key(answer.get("id")): answer for answer in answers if answer.get("id") is not None}


def _key(request_id: Any) -> Any:
    return (type(request_id).__name__, request_id)


def answer_to(answers: dict[Any, dict[str, Any]], request_id: Any) -> dict[str, Any]:
    return answers[_key(request_id)]


def error_code(answer: Mapping[str, Any]) -> int | None:
    error = answer.get("error")
    return int(error["code"]) if isinstance(error, dict) else None
