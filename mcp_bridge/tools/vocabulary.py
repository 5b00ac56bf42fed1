"""The contract's closed vocabularies as `Literal` types, so input schemas list the allowed values.

Written out (type checkers need literal types); tests/mcp_bridge/test_contract.py checks
they match core's enums.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

TypeName = Literal[
    "FACT",
    "PREFERENCE",
    "DECISION",
    "PROJECT",
    "PROJECT_STATE",
    "GOAL",
    "CONSTRAINT",
    "DISCOVERY",
    "WORKFLOW",
    "SUCCESSFUL_APPROACH",
    "FAILED_APPROACH",
    "OPEN_QUESTION",
    "NEXT_ACTION",
    "USER_CORRECTION",
]
StatusName = Literal["current", "historical", "partial", "disputed", "superseded", "archived"]
ScopeName = Literal["local_only", "remote_allowed", "workspace_allowed"]
SensitivityName = Literal["normal", "personal", "sensitive"]
ExplicitnessName = Literal["explicit", "inferred", "consolidated"]
# `supersedes` links come only from memory_correct.
WritableLinkName = Literal["depends_on", "contradicts", "part_of_project", "failed_for", "relates_to", "mentions"]
LinkName = Literal["depends_on", "contradicts", "supersedes", "part_of_project", "failed_for", "relates_to", "mentions"]

MemoryIdArg = Annotated[str, Field(description="a record id, as given by another memory tool")]
Time = Annotated[str | None, Field(description="ISO 8601 UTC time or a date (2026-03-01)")]
