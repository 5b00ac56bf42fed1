"""Run the memory benchmark: three conditions, memvault driven through its real MCP server.

Each condition gets its own temporary folder; memvault's holds a fresh encrypted store loaded
with the frozen data set, served either in process or by a `memvault mcp` child over stdio
(what the CLI uses), and asked once more as a remote caller through the same server code to
count privacy leaks. Nothing touches the person's own store except the report folder.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters
from mcp.server.mcpserver import MCPServer

from memvault.core.bench import dataset, plot, report
from memvault.core.bench.conditions import Counter, MemvaultCondition, NativeMemory, NoMemory
from memvault.core.bench.endtoend import EndToEnd, Settings
from memvault.core.bench.runner import Arm, conclude, measure
from memvault.core.bench.stores import BenchStore, folder_bytes, loaded_store, temporary_home
from memvault.core.retrieval.packet import default_counter
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Caller, Surface
from memvault.mcp_bridge.bench_client import HttpTarget, ToolClient
from memvault.mcp_bridge.tool_gate import ToolSpec
from memvault.mcp_bridge.tool_server import build_server

BENCH_REMOTE = Caller(principal="bench-remote", surface=Surface.REMOTE)
LocalServer = Callable[[BenchStore], StdioServerParameters]
HttpServer = Callable[[BenchStore], AbstractContextManager[str]]  # runs `memvault serve --http`, yields its URL
WARM_UP_QUERY = "warm-up: load the model"


@dataclass(frozen=True)
class BenchOptions:
    out_dir: Path
    tools: Sequence[ToolSpec]  # what the memvault arm serves: the search it measures
    suite: str = "full"
    seed: int = 12
    native_budget_tokens: int = 800
    stdio: LocalServer | None = None  # how to spawn `memvault mcp` for a store; None: serve in process
    http: HttpServer | None = None  # the remote pass over loopback HTTP with a token; None: in process
    end_to_end: Settings | None = None  # the person's settings: run the end-to-end mode with them


def run_memory_benchmark(options: BenchOptions) -> dict[str, Any]:
    """Run, write the JSON, Markdown and SVG reports; answer the summary with the files' paths."""
    data = dataset.load(options.suite)
    judged = EndToEnd(options.end_to_end) if options.end_to_end else None  # refused before any work if off
    count = default_counter()
    started = datetime.now(UTC)
    clock = time.perf_counter()
    with ExitStack() as stack:
        homes = [stack.enter_context(temporary_home(name)) for name in ("none", "native", "memvault")]
        native = NativeMemory(data, options.native_budget_tokens, count)
        (homes[1] / "saved-memories.txt").write_text("\n".join(line.text for line in native.lines), encoding="utf-8")
        store = stack.enter_context(loaded_store(data, homes[2]))
        setup_seconds = time.perf_counter() - clock
        memvault, warmup_ms, children_cpu = _memvault_arm(stack, store, count, options)
        arms = [Arm(NoMemory()), Arm(native, remote=native, storage_bytes=folder_bytes(homes[1])), memvault]
        run = measure(data, arms, options.seed)
        stack.close()  # servers stop here: a stdio child's CPU is known once it has exited
        memvault.outside_cpu_ms = children_cpu
        measured = conclude(arms, run)
    e2e = [judged.run(a.condition.name, data.questions, a.handovers).to_dict() for a in arms] if judged else None
    meta = {
        "data_set": {
            "persona": data.persona,
            "version": data.version,
            "suite": options.suite,
            "records": len(data.records),
            "questions": len(data.questions),
        },
        "seed": options.seed,
        "started_at": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "transport": "the `memvault mcp` stdio server" if options.stdio else "the MCP server in process",
        "remote_transport": "`memvault serve --http` with a remote token" if options.http else "in process",
        "native_budget_tokens": options.native_budget_tokens,
        "warmup_ms": warmup_ms,
        "setup_seconds": round(setup_seconds, 2),
        "total_seconds": round(time.perf_counter() - clock, 2),
        "end_to_end": e2e,
    }
    stem = "memory-benchmark-" + started.strftime("%Y%m%dT%H%M%SZ")
    paths = report.write(
        options.out_dir,
        stem,
        report.document(measured, meta),
        report.markdown(measured, meta, f"{stem}.svg"),
        plot.svg(measured.summaries),
    )
    return {
        "synthetic": True,
        **meta,
        "run_seconds": round(measured.run.seconds, 2),
        "conditions": [s.to_dict() for s in measured.summaries],
        "files": paths,
        "table": report.terminal_table(measured.summaries),
        "cannot_tell": list(report.CANNOT_TELL),
    }


def _memvault_arm(
    stack: ExitStack, store: BenchStore, count: Counter, options: BenchOptions
) -> tuple[Arm, float, Callable[[], float]]:
    vault = stack.enter_context(store.open())
    before = _children_cpu_ms()
    server: MCPServer | StdioServerParameters = (
        options.stdio(store) if options.stdio else build_server(vault, LOCAL_ASSISTANT, options.tools)
    )
    local = stack.enter_context(ToolClient(server))
    remote = stack.enter_context(ToolClient(_remote_target(stack, store, vault, options)))
    warmup_ms = _warm_up(local)
    keys = store.keys_by_id()
    arm = Arm(
        MemvaultCondition(local.search, keys, count),
        remote=MemvaultCondition(remote.search, keys, count, name="memvault (remote caller)"),
        storage_bytes=store.size_bytes(),
    )
    return arm, warmup_ms, lambda: _children_cpu_ms() - before


def _remote_target(stack: ExitStack, store: BenchStore, vault: Vault, options: BenchOptions) -> MCPServer | HttpTarget:
    if options.http is None:
        return build_server(vault, BENCH_REMOTE, options.tools)
    token = vault.create_token(OWNER, BENCH_REMOTE.principal, BENCH_REMOTE.surface.value)["token"]
    return HttpTarget(stack.enter_context(options.http(store)), token)


def _warm_up(client: ToolClient) -> float:
    started = time.perf_counter()
    client.search({"query": WARM_UP_QUERY})
    return (time.perf_counter() - started) * 1000


def _children_cpu_ms() -> float:
    """CPU time of this process's ended children (a stdio server). Windows keeps no such total: 0
    there, so the report counts this process's CPU only."""
    if sys.platform == "win32":
        return 0.0
    import resource  # noqa: PLC0415 - POSIX only

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000
