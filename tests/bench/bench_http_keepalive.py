"""Remote calls over one kept-alive HTTP connection against fresh connections (`memvault serve --http`).

    .venv/bin/python tests/bench/bench_http_keepalive.py [--calls 200] [--tool memory_status]

A script, not a test. It makes a fresh store in a temp folder, starts `memvault serve --http
127.0.0.1:0` on it (loopback only), makes a token, opens one MCP session, and then times the same
tool call (`--tool`, default `memory_status`; the rate limit is raised out of the way) `--calls`
times each way:

  keep-alive   one `http.client.HTTPConnection`, every call on it (what any HTTP client library does)
  raw socket   one TCP socket with TCP_NODELAY, each request written in one `sendall`, the answer read
               up to its last chunk (rules out anything the client library does)
  fresh        a new `HTTPConnection` per call, closed after its answer (the ~5 ms reference)

and prints p50 / p95 / max in ms for each. A kept-alive call that waits for a delayed ACK shows as a
p50 near 40 ms (Linux's minimum delayed-ACK time) where a fresh connection answers in a few ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import signal
import socket
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchkit import MEMVAULT, initialised_home

ACCEPT = "application/json, text/event-stream"


def start_server(env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], int]:
    limits = ["--calls-per-minute", "1000000", "--burst", "1000000"]
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [MEMVAULT, "serve", "--http", "127.0.0.1:0", *limits], env=env, stdout=subprocess.DEVNULL, stderr=err
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        text = log.read_text()
        if "serving MCP at " in text:
            url = text.split("serving MCP at ", 1)[1].split()[0]
            return proc, int(url.rsplit(":", 1)[1].split("/", 1)[0])
        if proc.poll() is not None:
            raise SystemExit(f"memvault serve exited: {text[-2000:]}")
        time.sleep(0.1)
    raise SystemExit("memvault serve did not start in 60 s")


class Session:
    """The headers of one MCP session (opened with initialize + initialized), and the body of one call."""

    def __init__(self, port: int, token: str, tool: str) -> None:
        self.port = port
        self.headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT, "Content-Type": "application/json"}
        self.tool = tool
        self.number = 1
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "b", "version": "1"},
            },
        }
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/mcp", json.dumps(init), self.headers)
        answer = connection.getresponse()
        answer.read()
        session = answer.getheader("mcp-session-id")
        assert answer.status == 200 and session, answer.status
        self.headers = {**self.headers, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        connection.request(
            "POST", "/mcp", json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), self.headers
        )
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 202, answer.status
        connection.close()

    def body(self) -> bytes:
        self.number += 1
        call = {
            "jsonrpc": "2.0",
            "id": self.number,
            "method": "tools/call",
            "params": {"name": self.tool, "arguments": {}},
        }
        return json.dumps(call).encode()

    def call_on(self, connection: http.client.HTTPConnection) -> None:
        connection.request("POST", "/mcp", self.body(), self.headers)
        answer = connection.getresponse()
        data = answer.read()
        assert answer.status == 200 and b'"isError":false' in data.replace(b" ", b""), (answer.status, data[:200])

    def raw_request(self) -> bytes:
        body = self.body()
        lines = ["POST /mcp HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in self.headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def timed(calls: int, one: Callable[[], None]) -> list[float]:
    for _ in range(5):  # warm: not counted
        one()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        one()
        times.append((time.perf_counter() - started) * 1000)
    return times


def raw_reader(session: Session) -> Callable[[], None]:
    sock = socket.create_connection(("127.0.0.1", session.port), timeout=30)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def one() -> None:
        sock.sendall(session.raw_request())
        received = b""
        while True:  # chunked (an SSE stream) or sized: read until the answer is whole
            data = sock.recv(65536)
            assert data, "the server closed the connection"
            received += data
            head, _, body = received.partition(b"\r\n\r\n")
            if not _:
                continue
            if b"transfer-encoding: chunked" in head.lower():
                if body.endswith(b"0\r\n\r\n"):
                    return
            else:
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                if len(body) >= length:
                    return

    return one


def report(name: str, times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    p50, p95 = statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]
    print(f"  {name:<11} p50 {p50:6.2f} ms   p95 {p95:6.2f} ms   max {ordered[-1]:6.2f} ms   ({len(times)} calls)")
    return {"p50": p50, "p95": p95}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--tool", default="memory_status")
    args = parser.parse_args()
    calls = max(10, min(args.calls, 5000))
    work, env = initialised_home("memvault-bench-http-")
    made = subprocess.run(
        [MEMVAULT, "token", "create", "--principal", "bench", "--surface", "remote"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    token = made.stdout.strip()
    proc, port = start_server(env, work / "serve.log")
    try:
        session = Session(port, token, args.tool)
        print(f"{args.tool} over loopback HTTP, {calls} calls each way")
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        report("keep-alive", timed(calls, lambda: session.call_on(kept)))
        kept.close()
        report("raw socket", timed(calls, raw_reader(session)))

        def fresh() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            session.call_on(connection)
            connection.close()

        report("fresh", timed(calls, fresh))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
