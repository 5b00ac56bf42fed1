"""`memvault uninstall`: registrations, autostart and caches go; the data stays unless asked and confirmed."""

from __future__ import annotations

import io
from pathlib import Path

import platformdirs
import pytest
from maintkit import digests

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.desktop import clients
from memvault.desktop.cli import main


@pytest.fixture
def installed(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """memvault registered with Codex and Claude Code, an autostart entry and a cache, all in tmp_path."""
    user = tmp_path / "user"
    for name, value in {
        "HOME": user,
        "CODEX_HOME": user / ".codex",
        "XDG_CONFIG_HOME": user / ".config",
        "XDG_CACHE_HOME": user / ".cache",
        "XDG_STATE_HOME": user / ".state",
        "XDG_DATA_HOME": user / ".data",
        "XDG_RUNTIME_DIR": user / "run",
    }.items():
        monkeypatch.setenv(name, str(value))
    user.mkdir()
    clients.install("codex", executable="/opt/fictional/bin/memvault")
    clients.install("claude", executable="/opt/fictional/bin/memvault")
    autostart = Path(platformdirs.user_config_dir()) / "autostart" / "memvault-tray.desktop"
    autostart.parent.mkdir(parents=True)
    autostart.write_text("[Desktop Entry]\nName=memvault (fictional test entry)\n")
    cache = Path(platformdirs.user_cache_dir("memvault"))
    cache.mkdir(parents=True)
    (cache / "model.bin").write_bytes(b"cached")
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement="Fictional: the kayak is stored in the red shed"))
        vault.backup(OWNER)
    assert sorted(clients.registered_clients()) == ["claude", "codex"]
    return {"autostart": autostart, "cache": cache, "skill": clients.codex_skill()}


def test_dry_run_lists_and_removes_nothing(
    home: Path, installed: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    before = digests(home)
    assert main(["uninstall", "--dry-run", "--delete-data"]) == 0
    out = capsys.readouterr().out
    for expected in ("autostart entry", "cache folder", "store", "key file", "backups"):
        assert expected in out, expected
    assert digests(home) == before
    assert all(p.exists() for p in installed.values())
    assert sorted(clients.registered_clients()) == ["claude", "codex"]


def test_uninstall_keeps_the_data(home: Path, installed: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    before = digests(home)
    assert main(["uninstall"]) == 0
    out = capsys.readouterr().out
    assert clients.registered_clients() == []
    assert not any(p.exists() for p in installed.values())
    assert f"kept: the store, key and backups in {home}" in out
    assert digests(home) == before
    with Vault.open(home) as vault:
        assert vault.status(OWNER)["counts"]["total"] == 1


def test_uninstall_one_client_only(home: Path, installed: dict[str, Path]) -> None:
    assert main(["uninstall", "codex"]) == 0
    assert clients.registered_clients() == ["claude"]
    assert installed["autostart"].exists() and installed["cache"].exists()


def test_delete_data_needs_the_word(
    home: Path,
    installed: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    outside = tmp_path / "usb"
    outside.mkdir()
    with Vault.open(home) as vault:
        elsewhere = Path(vault.backup(OWNER, to=str(outside))["path"])
        vault.set_kill_switch(OWNER, "all")  # this machine's position, a file in the home: removed with it
    before = digests(home)
    monkeypatch.setattr("sys.stdin", io.StringIO("yes\n"))
    assert main(["uninstall", "--delete-data"]) == 1
    assert "nothing was removed" in capsys.readouterr().err
    assert digests(home) == before and elsewhere.exists()
    assert sorted(clients.registered_clients()) == ["claude", "codex"]
    monkeypatch.setattr("sys.stdin", io.StringIO("ERASE\n"))
    assert main(["uninstall", "--delete-data"]) == 0
    assert not home.exists() and not elsewhere.exists()
    assert clients.registered_clients() == []
