"""The SDK's private attributes the bridge relies on are there, and an SDK without one fails loudly, by name."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver import MCPServer

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import LOCAL_ASSISTANT
from memvault.mcp_bridge import sdk_private
from memvault.mcp_bridge.server import build_server


def test_the_installed_sdk_has_every_private_attribute_the_bridge_uses(vault: Vault) -> None:
    server = build_server(vault, LOCAL_ASSISTANT)
    sdk_private.check(server)
    assert sdk_private.registered_tool(server, "memory_search").name == "memory_search"
    assert sdk_private.registered_tool(server, "no_such_tool") is None


@pytest.mark.parametrize(
    ("attribute", "named"),
    [("_lowlevel_server", "MCPServer._lowlevel_server"), ("_tool_manager", "MCPServer._tool_manager")],
)
def test_an_sdk_without_one_is_named(attribute: str, named: str, monkeypatch: pytest.MonkeyPatch) -> None:
    server = MCPServer("probe")
    monkeypatch.delattr(server, attribute)
    with pytest.raises(sdk_private.SdkChanged, match=named.replace(".", r"\.") + " is gone"):
        sdk_private.check(server)


def test_an_sdk_whose_attribute_lost_a_method_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    server = MCPServer("probe")
    monkeypatch.setattr(server, "_tool_manager", object())
    with pytest.raises(sdk_private.SdkChanged, match=r"MCPServer\._tool_manager\.get_tool is gone"):
        sdk_private.registered_tool(server, "memory_search")
