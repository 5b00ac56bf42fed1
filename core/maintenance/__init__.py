"""Keeping the store safe over time: backups, restore, purge, health checks and uninstall."""
