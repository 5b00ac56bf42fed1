"""The word index's segments (FTS5 b-trees): how many, and merging them a bounded step at a time.

Every write that touches the index adds a small segment; FTS5's automerge keeps their number at
about three per size level (18 at 10k records, 25 at 100k, written one by one or in bulk). A
search looks each of its terms up in every segment and merges what they hold, so one segment
answers the same query for less. Merging changes how the index is stored, not what it holds:
the same records match, with the same bm25.
"""

from __future__ import annotations

from memvault.core.store.connection import Connection


def segment_count(conn: Connection) -> int:
    """How many segments the word index has (each has rows in the index's page directory)."""
    return int(conn.execute("SELECT count(DISTINCT segid) FROM memory_fts_idx").fetchone()[0])


def merge_step(conn: Connection, pages: int, *, first: bool) -> bool:
    """Merge segments until about `pages` pages are written; whether there was work to do.

    The first step of a pass puts every segment on one level and starts merging them all (FTS5's
    'merge' with a negative budget: even two segments are merged); the next ones carry on with
    that merge. FTS5 changes at least two rows when it merged anything (its documented test).
    """
    before = conn.total_changes
    conn.execute("INSERT INTO memory_fts (memory_fts, rank) VALUES ('merge', ?)", (-pages if first else pages,))
    return conn.total_changes - before >= 2
