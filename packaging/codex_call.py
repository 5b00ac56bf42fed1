"""Call a memvault tool through a real Codex: `codex app-server`, which spawns the servers in config.toml.

    codex_call.py CODEX TOOL ARGUMENTS_JSON (ok | not_ready)

Speaks the app server's JSON-RPC over stdio the way Codex's own front ends do: initialize,
start a thread (Codex spawns memvault from its registration, with its own environment), then
`mcpServer/tool/call`. No model and no network are needed. Prints one JSON line (timings, the
answer's error code if any) and exits 1 when the answer is not what was expected.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

TIMEOUT = 120.0


class AppServer:
    def __init__(self, codex: str) -> None:
        self.proc = subprocess.Popen(
            [codex, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"codex app-server closed while answering {method}")
            message = json.loads(line)
            if message.get("id") == self.next_id and ("result" in message or "error" in message):
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result
        raise SystemExit(f"{method}: no answer in {TIMEOUT:.0f} s")

    def notify(self, method: str) -> None:
        self._send({"jsonrpc": "2.0", "method": method})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def main(codex: str, tool: str, arguments: str, expect: str) -> int:
    started = time.perf_counter()
    server = AppServer(codex)
    try:
        server.request("initialize", {"clientInfo": {"name": "memvault-smoke", "version": "1"}})
        server.notify("initialized")
        thread = server.request("thread/start", {"cwd": os.getcwd()})["thread"]["id"]
        spawned = time.perf_counter()
        call = {"server": "memvault", "threadId": thread, "tool": tool, "arguments": json.loads(arguments)}
        answer = server.request("mcpServer/tool/call", call)
    finally:
        server.close()
    body = json.loads(answer["content"][0]["text"])
    code = body["error"]["code"] if answer.get("isError") else None
    seen = {"thread_s": round(spawned - started, 2), "call_s": round(time.perf_counter() - spawned, 2), "error": code}
    if tool == "memory_search" and code is None:
        seen["cited"] = [hit["id"] for hit in body["results"] if f"[{hit['id']}]" in body["packet"]]
    ok = (code is None and seen.get("cited") != []) if expect == "ok" else (code == "not_ready")
    print(json.dumps({"ok": ok, **seen}))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
