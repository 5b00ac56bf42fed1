"""A real MCP client session against an installed memvault, for packaging/smoke.sh.

    smoke_client.py session QUERY EXPECTED_TEXT -- COMMAND [ARGS...]
        spawn COMMAND with this environment; initialize, list the tools, memory_status,
        memory_search QUERY (a hit containing EXPECTED_TEXT, cited by [id] in the packet),
        memory_add (an assistant's write: staged for review or added)
    smoke_client.py codex CONFIG_TOML (ready | not_ready)
        start [mcp_servers.memvault] from Codex's config file as Codex does (its command,
        args, env, env_vars and its short list of passed variables) and ask memory_status

Prints one JSON line of what it saw and exits 1 when an expectation fails. Uses only the
MCP SDK (a dependency of memvault) and the standard library: no memvault code, so the
installed command is judged from outside.
"""

from __future__ import annotations

import json
import os
import sys
import time
import tomllib
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CONTRACT_TOOLS = {
    "memory_search",
    "memory_get",
    "memory_list",
    "memory_status",
    "memory_add",
    "memory_correct",
    "memory_archive",
    "memory_restore",
    "memory_export_markdown",
}
CODEX_PASSED = ("HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ")
TIMEOUT = 120


def fail(message: str, seen: dict[str, Any]) -> None:
    print(json.dumps({"ok": False, "failed": message, **seen}))
    sys.exit(1)


def text_of(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.content[0].text)
    return data


async def session(params: StdioServerParameters, query: str, expected: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    started = time.perf_counter()
    with anyio.fail_after(TIMEOUT):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            init = await client.initialize()
            seen["handshake_s"] = round(time.perf_counter() - started, 2)
            seen["server"] = init.server_info.name
            tools = {tool.name for tool in (await client.list_tools()).tools}
            seen["tools"] = len(tools)
            if CONTRACT_TOOLS - tools:
                fail(f"missing tools: {sorted(CONTRACT_TOOLS - tools)}", seen)
            status = (await client.call_tool("memory_status", {})).structured_content or {}
            seen["records"] = status.get("counts", {}).get("current")
            found = text_of(await client.call_tool("memory_search", {"query": query}))
            hits = [hit for hit in found.get("results", []) if expected in hit["statement"]]
            if not hits or f"[{hits[0]['id']}]" not in found.get("packet", ""):
                fail("the search did not return the expected record, cited by [id]", seen)
            seen["cited"] = hits[0]["id"]
            added = text_of(await client.call_tool("memory_add", {"statement": "The smoke test ran (fictional)"}))
            seen["add"] = added.get("outcome")
            if seen["add"] not in ("staged", "added"):
                fail("memory_add was neither staged nor added", seen)
    seen["total_s"] = round(time.perf_counter() - started, 2)
    return seen


async def codex_status(config: str, expect: str) -> dict[str, Any]:
    with open(config, "rb") as handle:
        entry = tomllib.load(handle)["mcp_servers"]["memvault"]
    names = [*CODEX_PASSED, *entry.get("env_vars", [])]
    env = {name: os.environ[name] for name in names if name in os.environ} | entry.get("env", {})
    params = StdioServerParameters(command=entry["command"], args=entry.get("args", []), env=env)
    seen: dict[str, Any] = {"passed": sorted(env)}
    started = time.perf_counter()
    with anyio.fail_after(TIMEOUT):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            status = (await client.call_tool("memory_status", {})).structured_content or {}
            search = await client.call_tool("memory_search", {"query": "anything"})
    seen["seconds"] = round(time.perf_counter() - started, 2)
    ready = status.get("ready", True) and not search.is_error
    seen["ready"] = ready
    if not ready:
        seen["not_ready"] = status.get("not_ready")
        if text_of(search)["error"]["code"] != "not_ready":
            fail("a tool failed with something other than not_ready", seen)
    if ready != (expect == "ready"):
        fail(f"expected {expect}", seen)
    return seen


def main(argv: list[str]) -> int:
    if argv[:1] == ["session"] and "--" in argv:
        split = argv.index("--")
        query, expected = argv[1:split]
        command, *args = argv[split + 1 :]
        params = StdioServerParameters(command=command, args=args, env=dict(os.environ))
        seen = anyio.run(session, params, query, expected)
    elif argv[:1] == ["codex"] and len(argv) == 3:
        seen = anyio.run(codex_status, argv[1], argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps({"ok": True, **seen}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
