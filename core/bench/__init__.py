"""The memory benchmark: does memvault earn its overhead? (docs/benchmark.md)."""
