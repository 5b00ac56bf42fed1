"""Consolidation: merge redundant wording, promote recurring constraints, flag unresolved conflicts,
lower stale activation; every change an event, a run undone as a whole."""
