"""Run-time plumbing that knows no store: folders, settings, caches, heap, the change signal."""
