"""An import's review report as HTML for the import dialog: every section the CLI prints, readable.

Pure functions over the report `Vault.imports.run` answers (core/importers/report.py); every value
is escaped. Statements withheld as secrets stay withheld. No colours: the palette (light or dark)
colours the text.
"""

from __future__ import annotations

from html import escape
from typing import Any

from memvault.core.importers.report import ExportSummary, ImportReport

SHOWN = 60  # rows of each list; the counts above them cover everything
FORMAT_NAMES = {
    "chatgpt": "ChatGPT data export",
    "claude": "Claude data export",
    "codex": "Codex CLI sessions",
    "jsonl": "memvault JSONL",
    "markdown": "memvault Markdown",
}
WEAK = "weak candidate"


def format_name(fmt: str) -> str:
    return FORMAT_NAMES.get(fmt, fmt)


def _day(value: str | None) -> str:
    return value[:10] if value else "undated"


def size_text(size: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def summary_text(found: ExportSummary) -> str:
    """One line on the chosen file: what it is and what it holds."""
    return (
        f"{format_name(found['format'])} (detected): {found['conversations']:,} conversations, "
        f"{size_text(found['bytes'])}, {_day(found['first'])} to {_day(found['last'])}"
    )


def _said(item: dict[str, Any]) -> str:
    statement = item.get("statement")
    return "<i>(withheld: it holds a secret)</i>" if statement is None else escape(str(statement))


def _marks(item: dict[str, Any]) -> str:
    marks = []
    if item.get("weak"):
        marks.append(f"weak ({escape(str(item['weak']))})")
    if item.get("sensitivity") not in (None, "normal"):
        marks.append(escape(str(item["sensitivity"])))
    return f" <small>[{', '.join(marks)}]</small>" if marks else ""


def _table(items: list[dict[str, Any]], total: int, columns: tuple[str, ...]) -> str:
    if not total:
        return "<p>None.</p>"
    head = "".join(f"<th align=left>{escape(c)}</th>" for c in columns)
    rows = []
    shown = items[:SHOWN]
    for item in shown:
        cells = {
            "Statement": _said(item) + _marks(item),
            "Type": escape(str(item.get("type", "")).lower().replace("_", " ")),
            "Why": escape(str(item.get("reason", ""))),
            "Replaces": escape(str(item.get("replaces") or "what an earlier conversation of this import said")),
            "Said": escape(_day(item.get("time"))),
            "Flag": escape(str(item.get("sensitivity", ""))),
        }
        rows.append("<tr>" + "".join(f"<td valign=top>{cells[c]}</td>" for c in columns) + "</tr>")
    more = f"<p>… and {total - len(shown):,} more.</p>" if total > len(shown) else ""
    return f"<table cellpadding=3 cellspacing=0 width=100%><tr>{head}</tr>{''.join(rows)}</table>{more}"


def _section(title: str, total: int, body: str) -> str:
    return f"<h3>{escape(title)} ({total:,})</h3>{body}"


def _weak_excluded(report: ImportReport) -> int:
    by_reason = report["passes"]["dedup"]["exclusions_by_reason"]
    return sum(int(n) for reason, n in by_reason.items() if reason.startswith(WEAK))


def _heading(report: ImportReport) -> str:
    if report["dry_run"]:
        return "<h2>Dry run: nothing was written</h2>"
    chunks = report["chunks"]
    if chunks.get("done", 0) < chunks.get("total", 0):
        return (
            f"<h2>Stopped after chunk {chunks['done']} of {chunks['total']} (batch "
            f"{escape(str(report['batch_id']))})</h2><p>Every chunk written is whole. Commit again to resume.</p>"
        )
    return f"<h2>Imported as batch {escape(str(report['batch_id']))}</h2>"


def _overview(report: ImportReport) -> str:
    inv, counts, est = report["inventory"], report["counts"], report["estimate"]
    extraction = report["passes"]["extraction"]
    rows = (
        ("File", f"{escape(report['path'])} ({escape(format_name(report['format']))})"),
        (
            "Conversations",
            f"{inv['conversations']:,} read, {inv['left_out_by_limits']:,} left out by the limits; "
            f"{_day(inv['first'])} to {_day(inv['last'])}",
        ),
        ("Turns", f"{inv['person_turns']:,} of {inv['turns']:,} are yours"),
        ("Candidates", f"{extraction['candidates']:,} found in your turns, {extraction['weak']:,} of them weak"),
        (
            "Outcome",
            f"<b>add {counts['added']:,}</b>, <b>correct {counts['corrected']:,}</b>, already known "
            f"{counts['confirmed']:,}, excluded {counts['excluded']:,} ({_weak_excluded(report):,} of them weak)",
        ),
        (
            "Estimated impact",
            f"{est['records']:,} records, about {size_text(int(est['bytes']))} in the store; about "
            f"{est['context_tokens_per_record']} tokens per record in an assistant's context "
            f"({est['context_tokens_total']:,} tokens for all of them)",
        ),
    )
    body = "".join(f"<tr><th align=left valign=top>{label}</th><td>{value}</td></tr>" for label, value in rows)
    return f"<table cellpadding=3>{body}</table>"


def report_html(report: ImportReport) -> str:
    """The whole review report: overview, additions, corrections, exclusions, weak, sensitivity."""
    counts, additions, exclusions = report["counts"], report["additions"], report["exclusions"]
    weak_excluded = _weak_excluded(report)
    weak = [e for e in exclusions if str(e.get("reason", "")).startswith(WEAK)] + [
        a for a in additions if a.get("weak")
    ]
    weak_total = weak_excluded + sum(1 for a in additions if a.get("weak"))
    other = [e for e in exclusions if not str(e.get("reason", "")).startswith(WEAK)]
    flagged = report["sensitivity_flags"]
    return "".join(
        (
            _heading(report),
            _overview(report),
            _section("Additions", counts["added"], _table(additions, counts["added"], ("Statement", "Type", "Said"))),
            _section(
                "Corrections",
                counts["corrected"],
                _table(report["corrections"], counts["corrected"], ("Statement", "Why", "Replaces")),
            ),
            _section(
                "Exclusions",
                counts["excluded"] - weak_excluded,
                _table(other, counts["excluded"] - weak_excluded, ("Statement", "Why")),
            ),
            _section(
                "Weak candidates",
                weak_total,
                "<p>Hedged, conditional or long sentences: committed only with <i>Include weak candidates</i>. "
                "An assistant reading the conversation does better with memory_propose.</p>"
                + _table(weak, weak_total, ("Statement", "Why")),
            ),
            _section("Sensitivity flags", len(flagged), _table(flagged, len(flagged), ("Statement", "Flag", "Type"))),
        )
    )
