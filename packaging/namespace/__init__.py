"""memvault: private, local-first long-term memory for AI assistants."""

__version__ = "0.1.0"
