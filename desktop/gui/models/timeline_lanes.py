"""Timeline events arranged for drawing: one lane per record version, versions of one record side by side.

A lane's bar is the record's validity in the world (valid_from or event time to valid_until);
its markers are moments of knowledge (learned, superseded, archived, restored) and due dates.
Times become days since the Unix epoch (floats), the unit the timeline canvas scales.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from memvault.desktop.gui.models.vault_calls import Row

DAY_SECONDS = 86400.0
KNOWLEDGE_KINDS = ("learned", "superseded", "archived", "restored")


def days(stamp: str) -> float:
    """ISO 8601 (a date alone too) as days since 1970-01-01 UTC."""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp() / DAY_SECONDS


@dataclass
class Lane:
    record: Row
    start: float  # valid_from, else event time, else learned
    end: float | None  # valid_until; None: still valid
    markers: list[tuple[float, str]] = field(default_factory=list)  # (day, event kind)
    next_lane: int | None = None  # the lane of the version that superseded this one

    @property
    def superseded(self) -> bool:
        return self.record.get("status") == "superseded"


def _start(record: Row, first_seen: float) -> float:
    for name in ("valid_from", "event_time", "learned_at"):
        if record.get(name):
            return days(str(record[name]))
    return first_seen


def _chain_root(record_id: str, records: dict[str, Row]) -> str:
    seen = {record_id}
    while (older := records[record_id].get("supersedes_id")) in records and older not in seen:
        seen.add(older)
        record_id = str(older)
    return record_id


def build_lanes(events: list[dict[str, Any]]) -> list[Lane]:
    """Lanes ordered by chain (oldest version first within it), chains by when they began."""
    records: dict[str, Row] = {}
    markers: dict[str, list[tuple[float, str]]] = {}
    for event in events:
        record = event["record"]
        records[record["id"]] = record
        markers.setdefault(record["id"], []).append((days(str(event["time"])), str(event["kind"])))
    lanes = {
        i: Lane(r, _start(r, min(m[0] for m in markers[i])), days(r["valid_until"]) if r.get("valid_until") else None)
        for i, r in records.items()
    }
    for memory_id, lane in lanes.items():
        lane.markers = sorted(m for m in markers[memory_id] if m[1] in (*KNOWLEDGE_KINDS, "due"))
    chains: dict[str, list[str]] = {}
    for memory_id in records:
        chains.setdefault(_chain_root(memory_id, records), []).append(memory_id)
    ordered: list[str] = []
    for members in sorted(chains.values(), key=lambda m: min(lanes[i].start for i in m)):
        ordered += sorted(members, key=lambda i: (lanes[i].start, str(records[i].get("learned_at") or "")))
    position = {memory_id: n for n, memory_id in enumerate(ordered)}
    for memory_id in ordered:
        newer = records[memory_id].get("superseded_by_id")
        lanes[memory_id].next_lane = position.get(str(newer)) if newer else None
    return [lanes[i] for i in ordered]


def span(lanes: list[Lane]) -> tuple[float, float]:
    """The first and last day any lane mentions (a day's margin when only one moment is known)."""
    moments = [lane.start for lane in lanes] + [m[0] for lane in lanes for m in lane.markers]
    moments += [lane.end for lane in lanes if lane.end is not None]
    if not moments:
        return 0.0, 1.0
    first, last = min(moments), max(moments)
    return (first, last) if last - first >= 1 else (first - 0.5, first + 0.5)


def _months_from(day: float, step: int) -> list[datetime]:
    start = datetime.fromtimestamp(day * DAY_SECONDS, UTC)
    month = (start.year * 12 + start.month - 1) // step * step
    return [datetime(m // 12, m % 12 + 1, 1, tzinfo=UTC) for m in range(month, month + 12 * 400, step)]


def ticks(first: float, last: float, per_day: float, min_gap: float = 70.0) -> list[tuple[float, str]]:
    """Axis ticks between two days at a zoom (pixels per day): days, weeks, months, quarters or years."""
    if per_day * 7 >= min_gap:
        step = 1 if per_day >= min_gap else 7
        day = float(int(first) - (int(first) - 4) % step)  # weeks start on Monday (1970-01-05 was one)
        found = []
        while day <= last:
            found.append((day, datetime.fromtimestamp(day * DAY_SECONDS, UTC).strftime("%Y-%m-%d")))
            day += step
        return found
    for months, fmt in ((1, "%Y-%m"), (3, "%Y-%m"), (12, "%Y"), (24, "%Y"), (60, "%Y"), (120, "%Y")):
        if per_day * 30.4 * months >= min_gap or months == 120:
            found = []
            for moment in _months_from(first, months):
                day = moment.timestamp() / DAY_SECONDS
                if day > last:
                    break
                found.append((day, moment.strftime(fmt)))
            return found
    return []
