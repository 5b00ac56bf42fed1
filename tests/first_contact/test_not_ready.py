"""`memvault mcp` on a store it cannot open: the handshake completes and every call names the one fix.

Each case runs the real bridge through the official MCP client, as Codex or Claude spawns it:
no store yet, a locked store (passphrase store, no passphrase, no daemon), a wrong passphrase,
a store of a newer schema, and a Codex registration written before `memvault init`.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bridgekit import INIT, MEMVAULT, bridge_params, raw_session, run_cli, running_daemon
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from memvault.core.store.sqlcipher import migrations
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop import clients, launch_check

pytestmark = pytest.mark.anyio

LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def body(result: Any) -> dict[str, Any]:
    block = result.content[0]
    assert isinstance(block, TextContent)
    data: dict[str, Any] = json.loads(block.text)
    return data


async def every_tool(params: StdioServerParameters, errlog: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Call every listed tool once (empty arguments); the error bodies by tool, and memory_status's answer."""
    with errlog.open("w") as err:
        async with stdio_client(params, errlog=err) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            errors: dict[str, Any] = {}
            for tool in tools:
                if tool.name != "memory_status":
                    result = await session.call_tool(tool.name, {})
                    assert result.is_error, tool.name
                    errors[tool.name] = body(result)["error"]
            status = await session.call_tool("memory_status", {})
    assert not status.is_error and status.structured_content is not None
    assert len(tools) >= 9
    return errors, status.structured_content


def assert_not_ready(errors: dict[str, Any], status: dict[str, Any], reason: str, command: str) -> None:
    assert {e["code"] for e in errors.values()} == {"not_ready"}
    messages = {e["message"] for e in errors.values()}
    assert len(messages) == 1 and f"`{command}`" in messages.pop()
    assert status["ready"] is False
    assert status["not_ready"]["reason"] == reason
    assert status["not_ready"]["command"] == command


async def test_no_store_every_call_says_init_and_the_session_serves_once_it_exists(
    fresh_home: Path, tmp_path: Path
) -> None:
    command = f"memvault --home {fresh_home} init"
    with (tmp_path / "bridge.err").open("w") as err:
        async with (
            stdio_client(bridge_params(fresh_home), errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            first = await session.call_tool("memory_search", {"query": "where do we keep the boat"})
            assert first.is_error and body(first)["error"]["code"] == "not_ready"
            assert f"`{command}`" in body(first)["error"]["message"]
            assert not fresh_home.exists(), "a not-ready bridge creates nothing"
            # The person runs the named command in a terminal while the assistant stays connected.
            made = run_cli(fresh_home, *command.split()[1:])
            assert made.returncode == 0, made.stderr
            statement = "The boat is kept at Lakeside pier (fictional)"
            added = await session.call_tool("memory_add", {"statement": statement})
            status = await session.call_tool("memory_status", {})
    assert not added.is_error and body(added)["outcome"] == "staged"  # review-before-write: the default
    assert status.structured_content is not None and "ready" not in status.structured_content
    assert status.structured_content["pending_proposals"] == 1


async def test_a_locked_store_names_the_daemon(home: Path, tmp_path: Path) -> None:
    errors, status = await every_tool(bridge_params(home, MEMVAULT_PASSPHRASE=None), tmp_path / "err")
    assert_not_ready(errors, status, "locked", f"memvault --home {home} daemon")
    assert "passphrase" in status["not_ready"]["message"]


async def test_a_locked_store_is_served_through_the_daemon_once_it_runs(home: Path, tmp_path: Path) -> None:
    with Vault.open(home) as vault:
        kept = vault.add(OWNER, Draft.of(statement="The kayak club meets at Birch Landing (fictional)"))
    with (tmp_path / "bridge.err").open("w") as err:
        async with (
            stdio_client(bridge_params(home, MEMVAULT_PASSPHRASE=None), errlog=err) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            first = await session.call_tool("memory_search", {"query": "where does the kayak club meet"})
            assert first.is_error and f"`memvault --home {home} daemon`" in body(first)["error"]["message"]
            # The person runs the named command (it has the passphrase); the assistant just asks again.
            with running_daemon(home):
                found = await session.call_tool("memory_search", {"query": "where does the kayak club meet"})
                status = await session.call_tool("memory_status", {})
    assert not found.is_error and f"[{kept['id']}]" in body(found)["packet"]
    assert "a daemon answers now; calling through it" in (home / "logs" / "mcp.log").read_text()
    assert status.structured_content is not None and status.structured_content["counts"]["current"] == 1


async def test_a_wrong_passphrase_is_locked_too_and_never_echoed(home: Path, tmp_path: Path) -> None:
    errors, status = await every_tool(bridge_params(home, MEMVAULT_PASSPHRASE="not it at all"), tmp_path / "err")
    assert_not_ready(errors, status, "locked", f"memvault --home {home} daemon")
    assert "not it at all" not in json.dumps([errors, status]) + (tmp_path / "err").read_text()


async def test_a_key_in_an_unreachable_keyring_names_the_daemon_in_the_desktop_session(
    home: Path, tmp_path: Path
) -> None:
    """A store made on the desktop (key in the OS keyring), opened where no keyring answers (the fail backend)."""
    key_file = home / "memvault.key.json"
    store_id = json.loads(key_file.read_text())["store_id"]
    in_keyring = {"version": 1, "backend": "keyring", "keyring": "SecretService", "store_id": store_id}
    key_file.write_text(json.dumps(in_keyring))
    errors, status = await every_tool(bridge_params(home), tmp_path / "err")
    assert_not_ready(errors, status, "keyring_unreachable", f"memvault --home {home} daemon")
    assert "desktop session" in status["not_ready"]["message"]


def _digests(home: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in home.iterdir() if p.is_file()}


async def test_a_newer_schema_names_the_upgrade_and_leaves_the_store_alone(home: Path, tmp_path: Path) -> None:
    newer = len(migrations.available()) + 1
    with Vault.open(home) as vault:
        vault.ctx.store.raw.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (newer, "future.sql"))
    before = _digests(home)
    errors, status = await every_tool(bridge_params(home), tmp_path / "err")
    upgrade = status["not_ready"]["command"]  # the pip of the environment the bridge runs from
    assert upgrade.endswith(" -m pip install --upgrade memvault")
    assert Path(upgrade.split()[0]).parent == Path(sys.executable).parent
    assert_not_ready(errors, status, "schema_too_new", upgrade)
    assert f"schema {newer}" in status["not_ready"]["message"]
    assert _digests(home) == before


def test_a_codex_registration_before_init_answers_with_init(person: Path, tmp_path: Path) -> None:
    fresh_home = tmp_path / "memvault"
    clients.install("codex", executable=MEMVAULT[0], home=fresh_home)
    assert (person / ".codex" / "config.toml").exists()
    launch = launch_check.registered_launch("codex")
    assert launch is not None and (launch.command, launch.args) == (MEMVAULT[0], ("--home", str(fresh_home), "mcp"))
    assert "MEMVAULT_PASSPHRASE" not in launch.env and "MEMVAULT_HOME" not in launch.env  # as Codex passes it
    result = launch_check.check(launch)
    assert not result.ready and result.command == f"memvault --home {fresh_home} init"
    assert result.status is not None and result.status["not_ready"]["reason"] == "no_store"
    assert result.problem is not None and "`memvault --home" in result.problem


def test_stdout_carries_only_json_rpc_and_the_bridge_exits_cleanly(fresh_home: Path) -> None:
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_list", "arguments": {}}}
    session = raw_session(fresh_home, [INIT, INITIALIZED, LIST_TOOLS, call])
    answers = [json.loads(line) for line in session.lines]
    assert all(a["jsonrpc"] == "2.0" for a in answers)
    by_id = {a["id"]: a for a in answers}
    assert by_id[1]["result"]["serverInfo"]["name"] == "memvault"
    assert "memory_search" in {t["name"] for t in by_id[2]["result"]["tools"]}
    assert by_id[3]["result"]["isError"] is True
    assert json.loads(by_id[3]["result"]["content"][0]["text"])["error"]["code"] == "not_ready"
    assert session.returncode == 0
    assert "not_ready" in session.stderr and "Traceback" not in session.stderr


def test_the_relay_path_still_loads_no_mcp_sdk(home: Path) -> None:
    """A not-ready store must not slow the relay: `memvault mcp`'s fast path imports no SDK before it knows."""
    probe = "import sys; from memvault.desktop import cli; cli.bridge.fast_args(['mcp']); print('mcp' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
