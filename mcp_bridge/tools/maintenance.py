"""memory_backup (local only) and memory_purge (a request the person confirms; never a purge by itself)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.results import BackupAnswer, PurgeRequested
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating
from memvault.mcp_bridge.tools import schemas


def memory_backup(vault: Vault, caller: Caller) -> BackupAnswer:
    return vault.backup(caller)


def memory_purge(
    vault: Vault,
    caller: Caller,
    id: Annotated[str | None, Field(description="the record to erase for good (give id or batch_id)")] = None,
    batch_id: Annotated[str | None, Field(description="an import batch to erase (local callers only)")] = None,
    reason: Annotated[str | None, Field(description="why it must be erased")] = None,
) -> PurgeRequested:
    return vault.request_purge(caller, PurgeRequest.of(id=id, batch_id=batch_id, reason=reason))


TOOLS = [
    ToolSpec(
        name="memory_backup",
        title="Back up memory",
        fn=memory_backup,
        description="Write an encrypted backup of the whole store into memvault's backup folder. Local callers only.",
        annotations=mutating(destructive=False, idempotent=False),
        output_schema=schemas.BACKUP,
        local_only=True,
    ),
    ToolSpec(
        name="memory_purge",
        title="Request erasure",
        fn=memory_purge,
        description="Ask the person to erase a record (or an import batch) for good. Nothing is erased now: the "
        "answer is outcome confirmation_required with a request_id that waits for their confirmation.",
        annotations=mutating(destructive=True, idempotent=False),
        output_schema=schemas.PURGE,
    ),
]
