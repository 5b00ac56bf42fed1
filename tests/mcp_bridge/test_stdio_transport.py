"""The embedded bridge's own stdio transport (`stdio_transport`), driven as a raw subprocess.

The event loop reads the client's pipe and writes the answers itself: lines that arrive in pieces
are read whole, a client that reads late must still get every answer whole (the loop waits on a full
pipe instead of blocking or splitting lines); requests read from a plain file (no pipe to wait on,
and the input ends at once) are all answered before the bridge exits, a line the SDK would drop
included; and a client that stops reading ends the session (nothing can reach it any more).
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from .bridgekit import INIT, MEMVAULT, env_for

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
PIPE_BYTES = 64 * 1024  # Linux's default pipe capacity


def bridge(home: Path, stdin: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*MEMVAULT, "mcp", "--embedded"],
        env=env_for(home),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def lines_of(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(message).encode() + b"\n" for message in messages)


def tools_list(request_id: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}


def test_a_client_that_reads_late_gets_every_answer_whole(home: Path) -> None:
    proc = bridge(home, subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines_of(INIT, INITIALIZED, *(tools_list(i) for i in range(2, 12))))
    proc.stdin.flush()
    time.sleep(3)  # nobody reads: the answers fill the pipe and the bridge must wait, not block or cut
    proc.stdin.write(lines_of({"jsonrpc": "2.0", "id": 99, "method": "ping"}))
    proc.stdin.flush()
    lines = [proc.stdout.readline() for _ in range(12)]
    proc.stdin.close()  # only after the answers: a session ends with its client's stdin
    assert proc.wait(timeout=120) == 0
    assert sum(map(len, lines)) > PIPE_BYTES  # the wait on a full pipe really happened
    answers = [json.loads(line) for line in lines]
    assert [a["id"] for a in answers] == [1, *range(2, 12), 99]
    listed = {tuple(t["name"] for t in a["result"]["tools"]) for a in answers[1:-1]}
    assert len(listed) == 1 and "memory_search" in listed.pop()
    assert answers[-1]["result"] == {}


def test_lines_that_arrive_in_pieces_are_read_whole(home: Path) -> None:
    proc = bridge(home, subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    data = lines_of(INIT, INITIALIZED, tools_list(2), {"jsonrpc": "2.0", "id": 3, "method": "ping"})
    cut = data.index(b'"tools/list"')  # one read ends inside a line, the next holds its end and more
    for piece in (data[:5], data[5:cut], data[cut:]):
        proc.stdin.write(piece)
        proc.stdin.flush()
        time.sleep(0.3)
    answers = [json.loads(proc.stdout.readline()) for _ in range(3)]
    proc.stdin.close()
    assert proc.wait(timeout=120) == 0
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert "memory_search" in {t["name"] for t in answers[1]["result"]["tools"]}


def test_requests_from_a_plain_file_are_all_answered_before_the_bridge_exits(home: Path, tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(
        lines_of(INIT, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "ping"})
        + b"{nope\n"  # the guard answers what the SDK would drop, here too
        + lines_of({"jsonrpc": "2.0", "id": 3, "method": "ping"})
    )
    with requests.open("rb") as stdin:
        proc = bridge(home, stdin)
        out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    answers = {a["id"]: a for a in map(json.loads, out.splitlines())}  # answers need not keep the order
    assert set(answers) == {1, 2, None, 3}
    assert answers[2]["result"] == answers[3]["result"] == {}
    assert answers[None]["error"]["code"] == -32700


def test_a_client_that_stops_reading_ends_the_session(home: Path) -> None:
    proc = bridge(home, subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines_of(INIT))
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.stdout.close()  # the client's end of the answers is gone; its input stays open
    proc.stdin.write(lines_of(INITIALIZED, *(tools_list(i) for i in range(2, 6))))
    proc.stdin.flush()
    assert proc.wait(timeout=60) == 0  # nothing can reach the client: the bridge ends by itself
    proc.stdin.close()
