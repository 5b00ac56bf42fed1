"""`memvault bench memory` (does memvault earn its overhead?) and `memvault bench shadow` (docs/benchmark.md).

The speed scripts under tests/bench/ are separate: they time operations; this command measures
what memory is worth against what it costs, on a fictional data set in throw-away stores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from memvault.core.bench.report import latest, report_folder
from memvault.core.bench.shadow import shadow_report
from memvault.core.bench.stores import BenchStore
from memvault.core.runtime.paths import VaultPaths
from memvault.core.runtime.settings import setting
from memvault.core.vault import Vault, store_exists
from memvault.core.vocabulary.errors import EnvironmentProblem, NotFound
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.commands.common import add_command, emit, open_vault
from memvault.desktop.self_command import this_memvault

SERVING = "serving MCP at "
START_TIMEOUT_S = 120.0  # a shared 2-core machine: the server imports the SDK and opens the store
UNLIMITED = ("--calls-per-minute", "1000000", "--burst", "100000")  # the benchmark's own throw-away store


def stdio_server(store: BenchStore) -> Any:
    """`memvault mcp --embedded` on a benchmark store, spawned as an assistant would spawn it."""
    from mcp import StdioServerParameters  # noqa: PLC0415 (the SDK loads only when benchmarking)

    command = this_memvault()
    return StdioServerParameters(
        command=command[0], args=[*command[1:], "mcp", "--embedded"], env={**os.environ, **store.env}
    )


@contextmanager
def http_server(store: BenchStore) -> Iterator[str]:
    """`memvault serve --http` on a benchmark store (loopback, a free port, no rate limit); yields its URL."""
    log = store.home.parent / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(
            [*this_memvault(), "serve", "--http", "127.0.0.1:0", *UNLIMITED],
            env={**os.environ, **store.env},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        yield _served_url(log, process)
    finally:
        process.terminate()
        process.wait(timeout=30)


def _served_url(log: Path, process: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if SERVING in text:
            return text.split(SERVING, 1)[1].split()[0]
        if process.poll() is not None:
            raise EnvironmentProblem("the benchmark's HTTP server stopped before serving")
        time.sleep(0.1)
    process.terminate()
    raise EnvironmentProblem("the benchmark's HTTP server did not start in time")


def _memory(args: argparse.Namespace) -> int:
    from memvault.mcp_bridge.bench_run import BenchOptions, run_memory_benchmark  # noqa: PLC0415
    from memvault.mcp_bridge.tools import search  # noqa: PLC0415

    home = VaultPaths.from_env(args.home).home
    with ExitStack() as stack:
        vault: Vault | None = stack.enter_context(open_vault(args)) if store_exists(args.home) else None
        budget = (
            vault.number_setting("bench_native_budget_tokens")
            if vault
            else setting("bench_native_budget_tokens").default
        )
        options = BenchOptions(
            tools=search.TOOLS,
            out_dir=Path(args.out) if args.out else report_folder(home),
            suite=args.suite,
            seed=args.seed,
            native_budget_tokens=int(budget),
            stdio=None if args.in_process else stdio_server,
            http=None if args.in_process else http_server,
            end_to_end=_settings_for_end_to_end(vault) if args.end_to_end else None,
        )
        result = run_memory_benchmark(options)
    emit(args, result, _memory_text)
    return 0


def _settings_for_end_to_end(vault: Vault | None) -> Any:
    if vault is None:
        from memvault.core.vocabulary.errors import StoreUnavailable  # noqa: PLC0415

        raise StoreUnavailable("the end-to-end mode reads its settings from your store: run `memvault init` first")
    # The kill switch it obeys is the one in force: this machine's or the store's, the stronger.
    return lambda name: vault.kill_switch().in_force if name == "kill_switch" else vault.get_setting(name)


def _memory_text(result: dict[str, Any]) -> str:
    lines = [
        "memvault memory benchmark — SYNTHETIC (fictional persona, retrieval level)",
        "",
        result["table"],
        "",
        f"run time {result['run_seconds']:.1f} s; memvault through {result['transport']}, "
        f"remote pass through {result['remote_transport']}",
        *[f"{kind}: {path}" for kind, path in result["files"].items()],
    ]
    for row in result.get("end_to_end") or []:
        lines.append(
            f"end to end, {row['condition']}: accuracy {row['accuracy']}, answering {row['answering']['calls']} calls,"
            f" judging {row['judging']['calls']} calls"
        )
    lines += ["", "What it cannot tell:", *[f"- {line}" for line in result["cannot_tell"]]]
    return "\n".join(lines)


def _last(args: argparse.Namespace) -> int:
    found = latest(Path(args.out) if args.out else report_folder(VaultPaths.from_env(args.home).home))
    if found is None:
        raise NotFound("no memory benchmark report yet: run `memvault bench memory`")
    emit(args, {kind: str(path) for kind, path in found.items()}, lambda _: found["markdown"].read_text())
    return 0


def _shadow(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        report = shadow_report(vault, OWNER, args.hours)
    emit(args, report, _shadow_text)
    return 0


def _shadow_text(report: dict[str, Any]) -> str:
    if not report["queries"]:
        return (
            f"no shadow searches since {report['since']}: let an assistant call memory_search with shadow: true, "
            "then run this again"
        )
    latency = report["latency_ms"]
    lines = [
        f"shadow searches since {report['since']}: {report['queries']} ({report['empty']} found nothing)",
        f"records per search {report['records_per_query']:.1f}, {report['distinct_records']} distinct records",
        f"latency ms: mean {latency['mean']:.1f}, p50 {latency['p50']:.1f}, p95 {latency['p95']:.1f}",
        "most retrieved (id, times, mean score):",
        *[f"  {r['id']}  {r['times']}  {r['mean_score']:.3f}" for r in report["top_records"]],
    ]
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    bench = add_command(subparsers, "bench", lambda a: a.bench_parser.print_help(), "measure what memory is worth")
    bench.set_defaults(bench_parser=bench)
    actions = bench.add_subparsers(dest="bench_command", metavar="ACTION")
    memory = add_command(
        actions,
        "memory",
        _memory,
        "no memory vs a native-memory stand-in vs memvault on a fictional data set: quality per 1,000 context "
        "tokens and per 100 ms (synthetic; report in MEMVAULT_HOME/benchmarks/)",
    )
    memory.add_argument("--suite", choices=("full", "small"), default="full")
    memory.add_argument("--seed", type=int, default=12, help="question order (default 12)")
    memory.add_argument("--out", help="the report folder (default: MEMVAULT_HOME/benchmarks)")
    memory.add_argument("--in-process", action="store_true", help="serve memvault in this process, not over stdio")
    memory.add_argument(
        "--end-to-end",
        action="store_true",
        help="also ask the configured model and judge (bench_end_to_end must be on)",
    )
    last = add_command(actions, "last", _last, "show the newest memory benchmark report (its Markdown)")
    last.add_argument("--out", help="the report folder (default: MEMVAULT_HOME/benchmarks)")
    shadow = add_command(
        actions, "shadow", _shadow, "what memvault would have retrieved for shadow searches (ids, scores, latency)"
    )
    shadow.add_argument("--hours", type=float, default=24.0, help="how far back (default 24)")
