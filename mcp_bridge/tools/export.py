"""memory_export_markdown (local only): readable Markdown views in the export folder."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ExportRequest
from memvault.core.vocabulary.results import ExportResult
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating
from memvault.mcp_bridge.tools import schemas


def memory_export_markdown(
    vault: Vault,
    caller: Caller,
    domain: Annotated[str | None, Field(description="only this domain")] = None,
    include_history: Annotated[bool, Field(description="also superseded and historical records")] = False,
) -> ExportResult:
    return vault.export_markdown(caller, ExportRequest.of(domain=domain, include_history=include_history))


TOOLS = [
    ToolSpec(
        name="memory_export_markdown",
        title="Export memory as Markdown",
        fn=memory_export_markdown,
        description=(
            "Write readable, generated Markdown views (one file per domain) into memvault's export folder on "
            "this machine. Local callers only."
        ),
        # It writes files (replacing the previous export of the same domain) but changes no memory.
        annotations=mutating(destructive=False, idempotent=True),
        output_schema=schemas.EXPORT,
        local_only=True,
    )
]
