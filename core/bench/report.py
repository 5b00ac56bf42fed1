"""The benchmark's outputs: one JSON document, a Markdown report and the same table for a terminal.

The table puts metrics in rows and conditions in columns. Every report says it is synthetic
and what it cannot tell.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from memvault.core.bench.runner import Measured
from memvault.core.bench.summary import Summary

CANNOT_TELL = (
    "Synthetic: one invented persona, about 80 records and hand-written questions in English. "
    "No claim of a real-world advantage follows from these figures.",
    "Retrieval level only: whether an assistant would answer better with this context is not measured "
    "(that needs the optional end-to-end mode, a model and a judge).",
    "The native-memory condition is a stand-in (a flat saved list, newest first, cut at a fixed token "
    "budget), not any vendor's real memory, whose selection and budget are not public.",
    "Questions that need time arguments (as_of, include_history) are asked with them, as a capable "
    "assistant would; an assistant that never passes them would see lower temporal figures.",
    "Answer labels are matched as text: a context can contain the label and still mislead, or "
    "answer in other words and be counted as missing.",
    "Latency and CPU were measured on this machine under its load at the time; the token counts use "
    "memvault's local tokenizer, not the assistant's.",
)

Row = tuple[str, str, Callable[[Any], str]]


def _num(digits: int) -> Callable[[Any], str]:
    return lambda v: "n/a" if v is None else f"{v:.{digits}f}"


def _count(v: Any) -> str:
    return "n/a" if v is None else f"{v:,}"


def _kb(v: Any) -> str:
    return f"{v / 1024:,.0f} KB" if v else "0"


ROWS: tuple[Row, ...] = (
    ("quality (0..1)", "quality", _num(3)),
    ("quality gained over no memory", "quality_gain", _num(3)),
    ("relevant recall", "relevant_recall", _num(3)),
    ("labelled precision", "labelled_precision", _num(3)),
    ("answer present (labelled recall)", "answer_recall", _num(3)),
    ("constraint compliance", "constraint_compliance", _num(3)),
    ("temporal and conflict handling", "temporal_conflict", _num(3)),
    ("unfinished-project quality", "unfinished_quality", _num(3)),
    ("cross-domain quality", "cross_domain_quality", _num(3)),
    ("irrelevant-hit rate (lines)", "irrelevant_hit_rate", _num(3)),
    ("unknown-answer hit rate", "unknown_hit_rate", _num(3)),
    ("repeated lines (all questions)", "repeated_lines", _count),
    ("privacy leaks to a remote caller (record x question)", "privacy_leaks", _count),
    ("records the remote caller was given per question", "remote_records_per_question", _num(1)),
    ("remote calls refused", "remote_errors", _count),
    ("tokens handed over per question", "tokens_per_question", _num(0)),
    ("records handed over per question", "records_per_question", _num(1)),
    ("calls per question", "calls_per_question", _num(1)),
    ("latency per question, mean (ms)", "latency_ms_mean", _num(1)),
    ("latency per question, p95 (ms)", "latency_ms_p95", _num(1)),
    ("local CPU time (ms, incl. a stdio server's start)", "cpu_ms", _num(0)),
    ("storage", "storage_bytes", _kb),
    ("quality gained per 1,000 context tokens", "gain_per_1k_tokens", _num(3)),
    ("quality gained per 100 ms", "gain_per_100ms", _num(3)),
)


def table_rows(summaries: Sequence[Summary]) -> list[list[str]]:
    header = ["metric", *[s.condition for s in summaries]]
    return [header, *[[label, *[fmt(getattr(s, name)) for s in summaries]] for label, name, fmt in ROWS]]


def terminal_table(summaries: Sequence[Summary]) -> str:
    rows = table_rows(summaries)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(summaries: Sequence[Summary]) -> str:
    rows = table_rows(summaries)
    out = ["| " + " | ".join(rows[0]) + " |", "|---" + "|---:" * (len(rows[0]) - 1) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return "\n".join(out)


def document(measured: Measured, meta: dict[str, Any]) -> dict[str, Any]:
    """The JSON report: everything the Markdown says, plus every question's scores."""
    return {
        "kind": "memvault memory benchmark",
        "synthetic": True,
        **meta,
        "run_seconds": round(measured.run.seconds, 2),
        "question_order": measured.run.questions,
        "condition_order_per_block": measured.run.order,
        "conditions": [s.to_dict() for s in measured.summaries],
        "per_question": {
            name: [asdict(s) | {"kinds": sorted(s.kinds), "quality": s.quality} for s in scores]
            for name, scores in measured.scores.items()
        },
        "leaks": measured.leaked,
        "cannot_tell": list(CANNOT_TELL),
    }


def markdown(measured: Measured, meta: dict[str, Any], plot_name: str | None) -> str:
    data = meta["data_set"]
    parts = [
        "# memvault memory benchmark (synthetic)",
        "",
        f"Fictional persona {data['persona']} (data set version {data['version']}, suite {data['suite']}): "
        f"{data['records']} records, {data['questions']} questions, seed {meta['seed']}, "
        f"memvault reached through {meta['transport']}. Run time {measured.run.seconds:.1f} s. "
        "**These are synthetic results on invented data: they show how the conditions behave on this "
        "set, not what memvault will do for you.**",
        "",
        markdown_table(measured.summaries),
        "",
    ]
    if plot_name:
        parts += [f"![quality against overhead]({plot_name})", ""]
    if meta.get("end_to_end"):
        parts += ["## End to end (answering model and judge)", "", _end_to_end_table(meta["end_to_end"]), ""]
    parts += [
        "## How it was measured",
        "",
        f"- No memory hands over nothing. Native memory: the saved list, newest first, cut at "
        f"{meta['native_budget_tokens']} tokens, the same for every question. memvault: one memory_search "
        "through the MCP server per question.",
        "- Question order is shuffled with the seed and counterbalanced: blocks of questions, the order of "
        "the conditions rotated from block to block. Each condition has its own temporary store.",
        f"- Privacy: every question is asked again as a remote caller ({meta['remote_transport']}); a local-only "
        "record cited, or its private phrase in the text, is a leak. The native stand-in has no access scopes, "
        "so everything in its list reaches any assistant.",
        f"- memvault's latency is warm: the first call (model loading) took {meta['warmup_ms']:.0f} ms and is "
        "not counted.",
        "",
        "## What this benchmark cannot tell",
        "",
        *[f"- {line}" for line in CANNOT_TELL],
        "",
    ]
    return "\n".join(parts)


def _end_to_end_table(rows: Sequence[dict[str, Any]]) -> str:
    out = [
        "| condition | judged correct | answering calls / billed tokens | judge calls / billed tokens |",
        "|---|---:|---:|---:|",
    ]
    for row in rows:
        billed = [row[k]["prompt_tokens"] + row[k]["completion_tokens"] for k in ("answering", "judging")]
        out.append(
            f"| {row['condition']} | {row['correct']}/{row['graded']} | {row['answering']['calls']} / {billed[0]} "
            f"| {row['judging']['calls']} / {billed[1]} |"
        )
    return "\n".join(out)


def report_folder(home: Path) -> Path:
    """Where reports go by default: MEMVAULT_HOME/benchmarks/."""
    return home / "benchmarks"


def latest(folder: Path) -> dict[str, Path] | None:
    """The newest report's files (the desktop shows it), or None when none was written yet."""
    found = sorted(folder.glob("memory-benchmark-*.json")) if folder.is_dir() else []
    if not found:
        return None
    newest = found[-1]
    files = {"json": newest, "markdown": newest.with_suffix(".md"), "plot": newest.with_suffix(".svg")}
    return {kind: path for kind, path in files.items() if path.exists()}


def write(folder: Path, stem: str, doc: dict[str, Any], text: str, svg: str | None) -> dict[str, str]:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    paths = {"json": folder / f"{stem}.json", "markdown": folder / f"{stem}.md"}
    if svg is not None:
        paths["plot"] = folder / f"{stem}.svg"
        paths["plot"].write_text(svg, encoding="utf-8")
    paths["json"].write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    paths["markdown"].write_text(text, encoding="utf-8")
    return {kind: str(path) for kind, path in paths.items()}
