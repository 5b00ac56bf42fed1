"""The error hierarchy of memvault's core.

Every failure the core raises on purpose is a `MemvaultError` with a stable
`code` (the MCP contract's error codes). `EnvironmentProblem` marks failures
that are not our bug (wrong passphrase, locked store, disk full, a store from a
newer schema): front ends show them calmly. Anything else escaping the core is
a bug and is reported as `internal`.

Messages never contain memory text, secrets or file contents.
"""

from __future__ import annotations


class MemvaultError(Exception):
    code = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgument(MemvaultError):
    code = "invalid_argument"


class NotFound(MemvaultError):
    code = "not_found"


class Forbidden(MemvaultError):
    """An operation (never a record) is not allowed for this caller."""

    code = "forbidden"


class Conflict(MemvaultError):
    code = "conflict"


class KillSwitchEngaged(MemvaultError):
    code = "kill_switch"


class RateLimited(MemvaultError):
    code = "rate_limited"


class BudgetExceeded(MemvaultError):
    code = "budget_exceeded"


class ReadOnlyMode(MemvaultError):
    code = "read_only_mode"


class ConfirmationRequired(MemvaultError):
    code = "confirmation_required"


class EnvironmentProblem(MemvaultError):
    """Not a bug of ours: something about the machine or the store's state."""

    code = "internal"


class WrongPassphrase(EnvironmentProblem):
    pass


class KeyUnavailable(EnvironmentProblem):
    pass


class StoreTooNew(EnvironmentProblem):
    pass


class StoreUnavailable(EnvironmentProblem):
    """Locked, unreadable, disk full or not a memvault store."""
