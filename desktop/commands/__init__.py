"""Sub-commands of `memvault`, one module per group."""
