"""The detail pane's text: one record, its provenance, version chain, links, entities and events.

Rich text for a QTextBrowser. Every value from the store is escaped; colours come from the
palette (no hard-coded ones), so light and dark themes both read well. Links to other records
use the `memvault:` scheme so the view can open them in place.
"""

from __future__ import annotations

from html import escape
from typing import Any

from memvault.desktop.gui import human_time
from memvault.desktop.gui.models.record_table import plain_words
from memvault.desktop.gui.models.vault_calls import RecordDetail, Row

RECORD_SCHEME = "memvault"

FIELDS = (
    ("Type", "type"),
    ("Domain", "domain"),
    ("Status", "status"),
    ("Access scope", "access_scope"),
    ("Sensitivity", "sensitivity"),
    ("Confidence", "confidence"),
    ("Importance", "importance"),
    ("Explicitness", "explicitness"),
    ("Tags", "tags"),
    ("Revision", "revision"),
    ("Retrieved", "retrieval_count"),
)
# Event time (the world) and learned time (the store) are told apart, as in the timeline.
TIMES = (
    ("Event time", "event_time"),
    ("Valid from", "valid_from"),
    ("Valid until", "valid_until"),
    ("Due", "due_at"),
    ("Learned (store knew it)", "learned_at"),
    ("Observed", "observed_at"),
    ("Last confirmed", "last_confirmed_at"),
    ("Updated", "updated_at"),
)
PROVENANCE = (
    ("Source", "source"),
    ("Source reference", "source_reference"),
    ("Evidence pointer", "evidence"),
    ("Evidence hash", "evidence_hash"),
    ("Written by", "created_by"),
    ("Import batch", "import_batch_id"),
)
# What the evidence hash check found (Provenance.evidence_intact).
INTACT = {
    True: "the evidence still matches it",
    False: "the evidence no longer matches it: changed since it was stored",
    None: "no evidence to check",
}


def _value(value: Any) -> str:
    if value is None or value in ("", []):
        return "—"
    if isinstance(value, list):
        return escape(", ".join(str(v) for v in value))
    if isinstance(value, float):
        return f"{value:.2f}"
    return escape(str(value))


def time_html(value: Any, *, whole: bool = True) -> str:
    """A stored time as "3 days ago", with the exact moment beside it (`whole`) and on hover."""
    when = human_time.parse(value)
    if when is None:
        return _value(value)
    exact, now = human_time.exact(when), human_time.now_utc()
    said = human_time.relative(when, now)
    if whole:  # the date in words beside a relative time; a date alone when it is said as one
        said = f"{said} · {exact.splitlines()[0]}" if human_time.is_near(when, now) else exact.splitlines()[0]
    return f'<span title="{escape(exact)}">{escape(said)}</span>'


def record_link(memory_id: str, text: str) -> str:
    return f'<a href="{RECORD_SCHEME}:{escape(memory_id)}">{escape(text)}</a>'


def _cell(key: str, value: Any) -> str:
    if key == "type":
        return escape(plain_words(value))
    if key.endswith(("_at", "_time", "_from", "_until")):
        return time_html(value)
    return _value(value)


def _table(record: Row, fields: tuple[tuple[str, str], ...]) -> str:
    rows = "".join(
        f"<tr><th align='left'>{label}</th><td>{_cell(key, record.get(key))}</td></tr>" for label, key in fields
    )
    return f"<table cellspacing='2' cellpadding='2'>{rows}</table>"


def _provenance(detail: RecordDetail) -> str:
    found = dict(detail.provenance)
    check = INTACT[detail.provenance["evidence_intact"]]
    if found.get("evidence_hash"):  # sha256: its first 16 hex digits name it well enough on screen
        found["evidence_hash"] = f"sha256 {str(found['evidence_hash'])[:16]}… ({check})"
    return _table(found, PROVENANCE)


def _chain(detail: RecordDetail) -> str:
    newer = detail.memory.get("superseded_by_id")
    items = []
    if newer:
        items.append(f"<li>Newer version: {record_link(str(newer), str(newer))}</li>")
    items.append(f"<li><b>This version</b> (revision {_value(detail.memory.get('revision'))})</li>")
    for old in detail.history:
        span = f"{time_html(old.get('valid_from'), whole=False)} → {time_html(old.get('valid_until'), whole=False)}"
        items.append(f"<li>{record_link(str(old['id']), str(old['statement']))} <i>({span})</i></li>")
    return f"<ul>{''.join(items)}</ul>"


def _links(detail: RecordDetail) -> str:
    if not detail.links:
        return "<p><i>No links from this record.</i></p>"
    items = "".join(
        f"<li>{escape(link['type'])}: {record_link(link['target_id'], link['target_id'])}</li>" for link in detail.links
    )
    return f"<ul>{items}</ul>"


def _events(detail: RecordDetail) -> str:
    if not detail.events:
        return "<p><i>No events recorded.</i></p>"
    items = "".join(
        f"<li>{time_html(event.get('time'), whole=False)}: {_value(event.get('action'))} "
        f"(by {_value(event.get('principal'))})</li>"
        for event in detail.events[-20:]
    )
    return f"<ul>{items}</ul>"


def record_html(detail: RecordDetail, moment: str | None = None, marks: str = "") -> str:
    """The whole record as rich text; `moment` names the as_of/known_at view it was found under; `marks`
    (rich text: badges) goes under the statement."""
    record = detail.memory
    notice = f"<p><i>As it stood {escape(moment)}.</i></p>" if moment else ""
    entities = _value(detail.entities) if detail.entities else "<i>none</i>"
    return (
        f"<h3>{escape(str(record['statement']))}</h3>{marks}{notice}"
        f"<p><small>{escape(str(record['id']))}</small></p>"
        f"{_table(record, FIELDS)}"
        f"<h4>Time</h4>{_table(record, TIMES)}"
        f"<h4>Provenance</h4>{_provenance(detail)}"
        f"<h4>Version chain</h4>{_chain(detail)}"
        f"<h4>Links</h4>{_links(detail)}"
        f"<h4>Entities</h4><p>{entities}</p>"
        f"<h4>Events</h4>{_events(detail)}"
    )
