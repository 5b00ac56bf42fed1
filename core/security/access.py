"""Who may do what: the kill switch, local-only operations, and the scopes a caller may write.

Which *records* a caller may see is a rule every engine applies inside every query (SQLCipher's:
`store/sqlcipher/visibility.py`); this module holds the rules about *operations*.
"""

from __future__ import annotations

from memvault.core.security.kill_switch import Positions
from memvault.core.vocabulary.errors import Forbidden, KillSwitchEngaged
from memvault.core.vocabulary.model import Caller, KillSwitch, OAuthScope, Scope, Surface


def check_kill_switch(positions: Positions, caller: Caller) -> None:
    """Refuse remote calls when the switch in force is on, and every assistant call in its `all` position."""
    position = positions.in_force
    if position is KillSwitch.OFF:
        return
    if not caller.is_local:
        raise KillSwitchEngaged(f"the kill switch is on ({positions.held_by}): remote access is stopped")
    if position is KillSwitch.ALL and not caller.owner:
        raise KillSwitchEngaged(f"the kill switch is on (all, {positions.held_by}): assistant access is stopped")


def require_local(caller: Caller, operation: str) -> None:
    if not caller.is_local:
        raise Forbidden(f"{operation} is available to local callers only")


def require_owner(caller: Caller, operation: str) -> None:
    if not caller.owner:
        raise Forbidden(f"{operation} needs the person: use the desktop app or the memvault CLI")


def only_proposes(caller: Caller) -> bool:
    """An OAuth connection the person granted memory:propose but not memory:write: its writes wait."""
    return caller.scopes is not None and OAuthScope.WRITE.value not in caller.scopes


def write_scope(caller: Caller, requested: Scope | None) -> tuple[Scope, str | None]:
    """The scope (and workspace binding) of a record this caller writes.

    Absent a request, a record is as visible as its writer: local_only for local callers,
    remote_allowed for remote ones, their workspace for workspace callers.
    """
    if caller.surface is Surface.LOCAL:
        return requested or Scope.LOCAL_ONLY, None
    if caller.surface is Surface.REMOTE:
        if requested not in (None, Scope.REMOTE_ALLOWED):
            raise Forbidden("remote callers may only write remote_allowed records")
        return Scope.REMOTE_ALLOWED, None
    if requested is Scope.REMOTE_ALLOWED:
        return Scope.REMOTE_ALLOWED, None
    if requested not in (None, Scope.WORKSPACE_ALLOWED):
        raise Forbidden("workspace callers may only write remote_allowed or workspace_allowed records")
    return Scope.WORKSPACE_ALLOWED, caller.workspace_id
