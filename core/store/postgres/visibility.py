"""The access rule, as SQL: which memory rows a caller may see. Every read path uses it."""

from __future__ import annotations

from memvault.core.vocabulary.model import Caller, Scope, Surface


def visible_clause(caller: Caller, alias: str = "m") -> tuple[str, list[object]]:
    """A WHERE fragment (and its parameters) limiting rows of `memories` to what `caller` sees.

    local sees everything; remote sees remote_allowed; workspace also sees its own
    workspace_allowed records; a record bound to a principal is for that principal (and local) alone.
    """
    if caller.surface is Surface.LOCAL:
        return "TRUE", []
    principal_rule = f"({alias}.authorized_principal_id IS NULL OR {alias}.authorized_principal_id = %s)"
    if caller.surface is Surface.REMOTE:
        return f"({alias}.access_scope = %s AND {principal_rule})", [Scope.REMOTE_ALLOWED.value, caller.principal]
    return (
        f"(({alias}.access_scope = %s OR ({alias}.access_scope = %s AND {alias}.authorized_workspace_id = %s))"
        f" AND {principal_rule})",
        [Scope.REMOTE_ALLOWED.value, Scope.WORKSPACE_ALLOWED.value, caller.workspace_id, caller.principal],
    )
