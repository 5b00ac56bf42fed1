"""First-contact tests: a person's first commands and their assistant's first calls, on real processes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The bridge tests' helpers (the real `memvault` command, a running daemon, raw sessions) serve here
# too; they are imported as `bridgekit` (tests/mcp_bridge would read as the product's mcp_bridge package).
sys.path.insert(0, str(Path(__file__).parents[1] / "mcp_bridge"))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def person(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME of this test's own (Codex and Claude configs, install's record), with no memvault store yet."""
    home = tmp_path / "person"
    home.mkdir()
    for name, value in {
        "HOME": home,
        "CODEX_HOME": home / ".codex",
        "XDG_STATE_HOME": home / ".local" / "state",
        "XDG_CONFIG_HOME": home / ".config",
        "MEMVAULT_HOME": tmp_path / "memvault",
    }.items():
        monkeypatch.setenv(name, str(value))
    return home
