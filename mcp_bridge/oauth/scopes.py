"""Which OAuth scope each tool needs (docs/mcp-contract.md, "Command line and environment").

A caller that carries scopes (an OAuth connection) may call a tool only with one of the scopes
listed for it; a tool missing here is refused to such a caller (the local-only tools are
refused to every remote caller anyway). Callers without scopes (local, static tokens) pass.
"""

from __future__ import annotations

from memvault.core.vocabulary.errors import Forbidden
from memvault.core.vocabulary.model import Caller, OAuthScope

READ, PROPOSE, WRITE, DELETE = (scope.value for scope in OAuthScope)

TOOL_SCOPES: dict[str, tuple[str, ...]] = {
    "memory_search": (READ,),
    "memory_get": (READ,),
    "memory_list": (READ,),
    "memory_status": (READ,),
    "memory_related": (READ,),
    "memory_timeline": (READ,),
    "memory_get_project_history": (READ,),
    "memory_get_decisions": (READ,),
    "memory_get_unresolved": (READ,),
    "memory_record_feedback": (READ,),  # feedback on what was read
    "memory_propose": (PROPOSE, WRITE),
    "memory_add": (WRITE, PROPOSE),  # with memory:propose alone, every add waits for review
    "memory_correct": (WRITE,),
    "memory_archive": (WRITE,),
    "memory_restore": (WRITE,),
    "memory_purge": (DELETE,),
}


def check_tool_scope(caller: Caller, tool: str) -> None:
    """Refuse with `forbidden`, naming the scope, a tool outside what the person granted."""
    if caller.scopes is None:
        return
    needed = TOOL_SCOPES.get(tool)
    if needed is None:
        raise Forbidden(f"{tool} is not available to OAuth connections")
    if not caller.scopes.intersection(needed):
        raise Forbidden(f"{tool} needs the {' or '.join(needed)} scope, which this connection was not granted")
