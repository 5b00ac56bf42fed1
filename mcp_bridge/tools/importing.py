"""memory_import and memory_search_conversations (local callers only).

memory_import runs a dry run unless `dry_run` is false; `rollback` with a `batch_id` undoes a
whole batch. An assistant's commit or rollback needs automatic write mode (the core says so
with `forbidden`); the person commits with `memvault import PATH --commit`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller
from memvault.mcp_bridge.tool_gate import ToolSpec, mutating, read_only
from memvault.mcp_bridge.tools import schemas
from memvault.mcp_bridge.tools.schemas import BOOL, INT, STR, array, nullable, obj

Format = Literal["auto", "chatgpt", "claude", "codex", "jsonl", "markdown"]

IMPORT: schemas.Schema = obj(
    {
        "dry_run": BOOL,
        "batch_id": nullable(STR),
        "counts": {"type": "object"},
        "additions": array({"type": "object"}),
        "corrections": array({"type": "object"}),
        "exclusions": array({"type": "object"}),
        "sensitivity_flags": array({"type": "object"}),
        "estimate": {"type": "object"},
        "removed": INT,
        "restored": INT,
    }
)
CONVERSATIONS: schemas.Schema = obj(
    {
        "items": array(
            obj(
                {
                    "conversation_id": STR,
                    "title": nullable(STR),
                    "time": nullable(STR),
                    "snippet": nullable(STR),
                    "source": nullable(STR),
                },
                ("conversation_id", "title", "time", "snippet"),
            )
        )
    },
    ("items",),
)


def memory_import(
    vault: Vault,
    caller: Caller,
    path: Annotated[
        str | None, Field(description="the export on this machine (zip, json, jsonl, md, Codex folder)")
    ] = None,
    format: Annotated[Format, Field(description="the export's format; auto tells them apart")] = "auto",
    dry_run: Annotated[bool, Field(description="report what would happen and write nothing (default)")] = True,
    batch_id: Annotated[str | None, Field(description="with rollback: the import batch to undo")] = None,
    rollback: Annotated[bool, Field(description="undo the whole batch_id")] = False,
) -> dict[str, Any]:
    if rollback:
        if not batch_id or path:
            raise InvalidArgument("rollback needs batch_id (and no path)")
        return dict(vault.imports.rollback(caller, batch_id))
    if batch_id:
        raise InvalidArgument("batch_id is only for rollback=true")
    request = ImportRequest.parse({"path": path, "format": format, "commit": not dry_run})
    return dict(vault.imports.run(caller, request))


def memory_search_conversations(
    vault: Vault,
    caller: Caller,
    query: Annotated[str, Field(description="words to find in imported conversations")],
    limit: Annotated[int, Field(ge=1, le=50, description="how many conversations (default 10)")] = 10,
    start: Annotated[str | None, Field(description="only conversations started at or after (ISO 8601)")] = None,
    end: Annotated[str | None, Field(description="only conversations started before (ISO 8601)")] = None,
    source: Annotated[
        Literal["chatgpt", "claude", "codex", "jsonl", "markdown"] | None, Field(description="only from this export")
    ] = None,
) -> dict[str, Any]:
    return dict(
        vault.imports.search_conversations(caller, query=query, limit=limit, start=start, end=end, source=source)
    )


TOOLS = [
    ToolSpec(
        name="memory_import",
        title="Import history",
        fn=memory_import,
        description=(
            "Import the person's ChatGPT, Claude, Codex or generic (JSONL, Markdown) history from a file on this "
            "machine. A dry run by default: a review report of additions, corrections, exclusions and sensitivity "
            "flags. Committing (dry_run=false) or rolling back a batch needs the person's automatic write mode. "
            "Local callers only."
        ),
        # A rollback removes what a batch added: that data becomes unreachable.
        annotations=mutating(destructive=True, idempotent=False),
        output_schema=IMPORT,
        local_only=True,
    ),
    ToolSpec(
        name="memory_search_conversations",
        title="Search imported conversations",
        fn=memory_search_conversations,
        description=(
            "Find imported conversations by their words, optionally by date and source; answers titles, times and "
            "a short snippet, never transcripts. Local callers only."
        ),
        annotations=read_only(),
        output_schema=CONVERSATIONS,
        local_only=True,
    ),
]
