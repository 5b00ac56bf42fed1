"""The served tools against mcp-contract.md: names, argument names, defaults, annotations, vocabularies.

The contract is parsed from the copy kept in the repository (docs/mcp-contract.md), so every
check runs on a clean clone; where the team's shared copy is reachable, the two must be the
same (a new revision is copied in with the code that follows it). A pinned table derived
from it guards the parser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.types import Tool

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import (
    LOCAL_ASSISTANT,
    Explicitness,
    LinkType,
    MemoryType,
    Scope,
    Sensitivity,
    Status,
)
from memvault.mcp_bridge.server import build_server
from memvault.mcp_bridge.tools import schemas, vocabulary
from tests.mcp_bridge.conftest import Seeded
from tests.mcp_bridge.helpers import call, connect

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "docs" / "mcp-contract.md"
SHARED_CONTRACT = ROOT.parent / "shared" / "docs" / "mcp-contract.md"

# Derived by hand from contract version 1, revision 2.
PINNED: dict[str, tuple[str, list[str]]] = {
    "memory_search": (
        "read-only",
        ["query", "limit", "domains", "types", "as_of", "known_at", "include_history", "depth", "max_tokens", "shadow"],
    ),
    "memory_get": ("read-only", ["id"]),
    "memory_list": ("read-only", ["domain", "type", "status", "limit", "cursor"]),
    "memory_status": ("read-only", []),
    "memory_add": (
        "mutating",
        [
            "statement",
            "type",
            "domain",
            "tags",
            "importance",
            "confidence",
            "explicitness",
            "source",
            "source_reference",
            "evidence",
            "event_time",
            "valid_from",
            "valid_until",
            "due_at",
            "access_scope",
            "sensitivity",
            "entities",
            "links",
        ],
    ),
    "memory_correct": ("mutating", ["id", "statement", "reason", "valid_from", "expected_revision"]),
    "memory_archive": ("mutating, destructive", ["id", "reason"]),
    "memory_restore": ("mutating", ["id"]),
    "memory_export_markdown": ("local only", ["domain", "include_history"]),
}
# Contract defaults that depend on the caller or the clock: the schema says null and the description says how.
CALLER_DEPENDENT_DEFAULTS = {("memory_add", "access_scope"), ("memory_correct", "valid_from")}


def _strip_parentheses(text: str) -> str:
    out, depth = [], 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def _note_after(text: str, opening: str) -> str:
    """The balanced parenthesised note that starts with `opening` (empty when there is none)."""
    start = text.find(opening)
    if start < 0:
        return ""
    depth, begin = 0, start + len(opening) - 1
    for index in range(begin, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[begin + 1 : index]
    return ""


def _arguments(section: str) -> tuple[list[str], dict[str, str]]:
    """Argument names (in order) and their `default ...` words, from a section's `Arguments:` sentence."""
    match = re.search(r"Arguments:(.*?)(?:\bAnswer:|\Z)", section, re.S)
    if not match:
        return [], {}
    sentence = re.sub(r"\s+", " ", match.group(1))
    flat = _strip_parentheses(sentence)
    flat = re.split(r"\.(?:\s|$)", flat, maxsplit=1)[0]
    names = re.findall(r"`([a-z_]+)`", flat)
    defaults = {}
    for name in names:
        note = _note_after(sentence, f"`{name}` (")
        found = re.search(r"default\s+`?([\w.]+)`?", note)
        if found:
            defaults[name] = found.group(1)
    return names, defaults


def parse_contract(text: str) -> dict[str, tuple[str, list[str], dict[str, str]]]:
    required = text.split("## Required tools", 1)[1].split("\n## ", 1)[0]
    tools = {}
    for heading, body in re.findall(r"^### (memory_\w+ \([^)]*\))\n(.*?)(?=^### |\Z)", required, re.S | re.M):
        name, kind = re.match(r"(memory_\w+) \(([^)]*)\)", heading).groups()  # type: ignore[union-attr]
        names, defaults = _arguments(body)
        tools[name] = (kind, names, defaults)
    return tools


def contract_text() -> str:
    return CONTRACT.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def contract() -> dict[str, tuple[str, list[str], dict[str, str]]]:
    return parse_contract(contract_text())


def test_the_repository_copy_is_the_shared_contract() -> None:
    if not SHARED_CONTRACT.exists():
        pytest.skip("the team's shared copy is not beside this checkout")
    assert contract_text() == SHARED_CONTRACT.read_text(encoding="utf-8"), "copy the new revision into docs/"


@pytest.fixture
async def served(vault: Vault) -> dict[str, Tool]:
    async with Client(build_server(vault, LOCAL_ASSISTANT)) as client:
        return {tool.name: tool for tool in (await client.list_tools()).tools}


pytestmark = pytest.mark.anyio


def test_the_document_says_what_the_pinned_table_says(contract: dict[str, Any]) -> None:
    assert {name: (kind, names) for name, (kind, names, _) in contract.items()} == PINNED


async def test_every_required_tool_is_served_with_the_contract_arguments(served: dict[str, Tool]) -> None:
    assert set(PINNED) <= set(served)
    for name, (_kind, arguments) in PINNED.items():
        assert list(served[name].input_schema.get("properties", {})) == arguments, name


async def test_defaults_match_the_document(served: dict[str, Tool], contract: dict[str, Any]) -> None:
    for name, (_kind, _names, defaults) in contract.items():
        properties = served[name].input_schema["properties"]
        for argument, word in defaults.items():
            declared = properties[argument].get("default")
            if (name, argument) in CALLER_DEPENDENT_DEFAULTS:
                assert declared is None and word in properties[argument]["description"], (name, argument)
                continue
            assert json.dumps(declared).strip('"') == word or str(declared) == word, (name, argument, declared)


async def test_required_arguments(served: dict[str, Tool]) -> None:
    required = {name: set(tool.input_schema.get("required", [])) for name, tool in served.items()}
    assert required["memory_search"] == {"query"}
    assert required["memory_add"] == {"statement"}
    assert required["memory_correct"] == {"id", "statement"}
    assert required["memory_get"] == required["memory_archive"] == required["memory_restore"] == {"id"}
    assert required["memory_list"] == required["memory_status"] == required["memory_export_markdown"] == set()


async def test_annotations_tell_the_truth(served: dict[str, Tool]) -> None:
    for name, (kind, _arguments) in PINNED.items():
        hints = served[name].annotations
        assert hints is not None, name
        assert hints.open_world_hint is False, name
        assert hints.read_only_hint is (kind == "read-only"), name
        assert hints.destructive_hint is ("destructive" in kind), name
        assert hints.idempotent_hint is not None, name
    for name in ("memory_search", "memory_get", "memory_list", "memory_status"):
        assert served[name].annotations.idempotent_hint is True  # type: ignore[union-attr]


async def test_every_tool_declares_an_object_output_schema(served: dict[str, Tool]) -> None:
    for name in PINNED:
        schema = served[name].output_schema
        assert schema is not None and schema["type"] == "object", name


async def test_search_hits_hold_to_the_record_schema(vault: Vault, seeded: Seeded) -> None:
    """memory_search's schema names the fields every hit carries and types none (the official client
    checks each answer against it); every field of a hit must still be what the record's schema and
    the hit's own fields say."""
    async with connect(vault, LOCAL_ASSISTANT) as client:
        answer = await call(client, "memory_search", {"query": "Lindqvist garden", "limit": 10})
    hits = answer.data["results"]
    assert len(hits) >= 2
    typed = {**schemas.RECORD, "properties": {**schemas.RECORD["properties"], **schemas.HIT_FIELDS}}
    hit_schema = Draft202012Validator({**typed, "required": schemas.HIT["required"]})
    for hit in hits:
        assert not list(hit_schema.iter_errors(hit)), hit["id"]
    assert list(hit_schema.iter_errors({**hits[0], "confidence": "high", "valid_until": 3}))
    assert list(hit_schema.iter_errors({**hits[0], "tier": "lukewarm"}))
    assert list(hit_schema.iter_errors({key: value for key, value in hits[0].items() if key != "score"}))


@pytest.mark.parametrize(
    ("literal", "enum", "skip"),
    [
        (vocabulary.TypeName, MemoryType, ()),
        (vocabulary.StatusName, Status, ()),
        (vocabulary.ScopeName, Scope, ()),
        (vocabulary.SensitivityName, Sensitivity, ()),
        (vocabulary.ExplicitnessName, Explicitness, ()),
        (vocabulary.LinkName, LinkType, ()),
        (vocabulary.WritableLinkName, LinkType, (LinkType.SUPERSEDES.value,)),
    ],
)
def test_vocabularies_match_core(literal: Any, enum: Any, skip: tuple[str, ...]) -> None:
    assert list(get_args(literal)) == [member.value for member in enum if member.value not in skip]


def test_the_parser_reads_a_known_section() -> None:
    sample = (
        "## Required tools\n\n### memory_thing (mutating, destructive)\nArguments: `id`, `depth` (`a` | `b`,\n"
        'default `a`; `b` goes far), `limit` (int, default 5). Answer: `{"x"}`.\n\n## Next\n'
    )
    assert parse_contract(sample) == {
        "memory_thing": ("mutating, destructive", ["id", "depth", "limit"], {"depth": "a", "limit": "5"})
    }


# -- advanced tools: served only where their core feature exists, then with the contract's arguments --

ADVANCED_KINDS = {
    "memory_related": "read-only",
    "memory_timeline": "read-only",
    "memory_get_project_history": "read-only",
    "memory_get_decisions": "read-only",
    "memory_get_unresolved": "read-only",
    "memory_record_feedback": "mutating",
    "memory_backup": "mutating",
    "memory_purge": "mutating, destructive",
    "memory_propose": "mutating",  # additive for any MCP caller: its supersedes and archives wait for approval
    "memory_import": "mutating, destructive",  # its rollback removes what a batch added
    "memory_search_conversations": "read-only",
}


def parse_advanced(text: str) -> dict[str, list[str]]:
    """`memory_x(a, b?, c=1..3)` -> {"memory_x": ["a", "b", "c"]}; `id | batch_id` names both."""
    section = text.split("## Advanced tools", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[str]] = {}
    for name, inside in re.findall(r"^- `(memory_\w+)\(([^)]*)\)`", section, re.M):
        names = []
        for part in inside.split(","):
            for alternative in part.split("|"):
                word = alternative.strip().split("=")[0].rstrip("?").strip()
                if word:
                    names.append(word)
        found.setdefault(name, names)
    return found


def test_the_advanced_parser_reads_a_known_line() -> None:
    sample = "## Advanced tools\n\n- `memory_x(id | batch_id, depth=1..3, limit?)` → ok\n\n## Next\n"
    assert parse_advanced(sample) == {"memory_x": ["id", "batch_id", "depth", "limit"]}


async def test_served_advanced_tools_take_the_contract_arguments(served: dict[str, Tool]) -> None:
    advanced = parse_advanced(contract_text())
    assert set(ADVANCED_KINDS) <= set(advanced)
    for name in set(advanced) & set(served):
        arguments = list(served[name].input_schema.get("properties", {}))
        assert arguments == advanced[name] + EXTENDED.get(name, []), name


# Optional arguments after the contract's own: memory_import's rollback is named in the contract's
# prose (`memory_import(batch_id=..., rollback=true)`); the date and source filters of
# memory_search_conversations come from issue 11 (the contract's next revision should list them).
EXTENDED = {"memory_import": ["rollback"], "memory_search_conversations": ["start", "end", "source"]}


async def test_advanced_annotations_tell_the_truth(served: dict[str, Tool]) -> None:
    assert set(ADVANCED_KINDS) <= set(served)
    for name, kind in ADVANCED_KINDS.items():
        hints = served[name].annotations
        assert hints is not None and hints.open_world_hint is False, name
        assert hints.read_only_hint is (kind == "read-only"), name
        assert hints.destructive_hint is ("destructive" in kind), name
        assert served[name].output_schema is not None, name


async def test_nothing_is_served_that_the_contract_does_not_name(served: dict[str, Tool]) -> None:
    text = contract_text() or ""
    assert set(served) <= set(PINNED) | set(ADVANCED_KINDS) | set(parse_advanced(text) if text else {})
