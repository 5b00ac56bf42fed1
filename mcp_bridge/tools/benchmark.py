"""memory_benchmark (local only): does memvault earn its overhead? (docs/benchmark.md)

Runs the three retrieval-level conditions on the shipped fictional data set, each in its own
temporary store, memvault through this same MCP server code in process, and writes the
JSON, Markdown and SVG reports into MEMVAULT_HOME/benchmarks/. The person's own records are
never read. The end-to-end mode (a model and a judge) is the CLI's, never this tool's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from memvault.core.bench.report import report_folder
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge.bench_run import BenchOptions, run_memory_benchmark
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating
from memvault.mcp_bridge.tools import search
from memvault.mcp_bridge.tools.schemas import BOOL, NUM, STR, array, obj

BENCHMARK = obj(
    {
        "synthetic": BOOL,
        "run_seconds": NUM,
        "conditions": array({"type": "object"}),
        "files": obj({"json": STR, "markdown": STR, "plot": STR}),
        "table": STR,
        "cannot_tell": array(STR),
    },
    ("synthetic", "conditions", "files", "cannot_tell"),
)


def memory_benchmark(
    vault: Vault,
    caller: Caller,
    suite: Annotated[
        Literal["full", "small"], Field(description="full: every question; small: two questions of each kind")
    ] = "full",
) -> dict[str, Any]:
    options = BenchOptions(
        tools=search.TOOLS,
        out_dir=report_folder(vault.paths.home),
        suite=suite,
        native_budget_tokens=int(vault.number_setting("bench_native_budget_tokens")),
    )
    return run_memory_benchmark(options)


TOOLS = [
    ToolSpec(
        name="memory_benchmark",
        title="Benchmark memory",
        fn=memory_benchmark,
        description="Measure, on a fictional data set in throw-away stores, what memvault's context gains over no "
        "memory and over a flat saved-memory list, per 1,000 context tokens and per 100 ms; writes a report "
        "(JSON, Markdown, plot) into memvault's benchmarks folder. Synthetic figures. Local callers only.",
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=BENCHMARK,
        local_only=True,
    )
]
