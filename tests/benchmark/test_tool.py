"""memory_benchmark through the official MCP client: it answers local callers, and only them."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import TextContent

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, Caller, Surface
from memvault.mcp_bridge.server import build_server

pytestmark = pytest.mark.anyio

REMOTE = Caller(principal="chatgpt", surface=Surface.REMOTE)
WORKSPACE = Caller(principal="team-bot", surface=Surface.WORKSPACE, workspace_id="ws-a")


async def ask(vault: Vault, caller: Caller, arguments: dict[str, object]) -> tuple[bool, dict[str, object]]:
    async with Client(build_server(vault, caller)) as client:
        result = await client.call_tool("memory_benchmark", arguments)
    block = result.content[0]
    assert isinstance(block, TextContent)
    return bool(result.is_error), json.loads(block.text)


async def test_a_local_caller_gets_the_report_and_its_files(vault: Vault, home: Path) -> None:
    before = vault.status(LOCAL_ASSISTANT)["counts"]
    failed, answer = await ask(vault, LOCAL_ASSISTANT, {"suite": "small"})
    assert not failed, answer
    assert answer["synthetic"] is True and answer["cannot_tell"]
    by = {row["condition"]: row for row in answer["conditions"]}  # type: ignore[attr-defined]
    assert list(by) == ["no memory", "native memory", "memvault"]
    assert by["memvault"]["privacy_leaks"] == 0
    # The remote pass was a real test: the remote caller was given records, and no call was refused.
    assert by["memvault"]["remote_records_per_question"] > 1 and by["memvault"]["remote_errors"] == 0
    assert by["native memory"]["privacy_leaks"] > 0  # the stand-in has no scopes: its list reaches anyone
    assert by["memvault"]["quality"] > by["no memory"]["quality"]
    assert by["memvault"]["calls_per_question"] == 1.0
    files = {kind: Path(path) for kind, path in answer["files"].items()}  # type: ignore[attr-defined]
    assert all(path.parent == home / "benchmarks" for path in files.values())
    report = json.loads(files["json"].read_text())
    assert report["synthetic"] is True and report["data_set"]["suite"] == "small"
    assert len(report["condition_order_per_block"]) >= 2
    assert report["condition_order_per_block"][0] != report["condition_order_per_block"][1]  # counterbalanced
    markdown = files["markdown"].read_text()
    assert (
        "synthetic" in markdown.lower()
        and "cannot tell" in markdown
        and "| metric | no memory | native memory | memvault |" in markdown
    )
    assert ET.fromstring(files["plot"].read_text()).tag.endswith("svg")
    assert vault.status(LOCAL_ASSISTANT)["counts"] == before  # the person's store is never written


@pytest.mark.parametrize("caller", [REMOTE, WORKSPACE], ids=["remote", "workspace"])
async def test_remote_callers_are_forbidden(vault: Vault, home: Path, caller: Caller) -> None:
    failed, answer = await ask(vault, caller, {"suite": "small"})
    assert failed and answer["error"]["code"] == "forbidden"  # type: ignore[index]
    assert not (home / "benchmarks").exists()


async def test_an_unknown_suite_is_invalid(vault: Vault) -> None:
    failed, answer = await ask(vault, LOCAL_ASSISTANT, {"suite": "everything"})
    assert failed and answer["error"]["code"] == "invalid_argument"  # type: ignore[index]
