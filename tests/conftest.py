"""Shared test setup: every test gets a real encrypted store in its own temp folder.

No test touches the real user's data: HOME, the XDG folders, MEMVAULT_HOME and
the keyring backend are pointed at temp places before anything is imported.
A migrated template store is made once per session and copied per test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

_SANDBOX = Path(tempfile.mkdtemp(prefix="memvault-tests-"))
TEST_PASSPHRASE = "correct horse battery staple (fictional)"
os.environ.update(
    {
        "HOME": str(_SANDBOX / "home"),
        "XDG_DATA_HOME": str(_SANDBOX / "xdg-data"),
        "XDG_CONFIG_HOME": str(_SANDBOX / "xdg-config"),
        "XDG_CACHE_HOME": str(_SANDBOX / "xdg-cache"),
        "XDG_RUNTIME_DIR": str(_SANDBOX / "xdg-runtime"),
        "CODEX_HOME": str(_SANDBOX / "home" / ".codex"),
        "MEMVAULT_HOME": str(_SANDBOX / "default-home"),
        "MEMVAULT_PASSPHRASE": TEST_PASSPHRASE,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
        "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
    }
)
os.environ.pop("MEMVAULT_WRITE_MODE", None)
for _folder in ("home", "xdg-data", "xdg-config", "xdg-cache", "xdg-runtime"):
    (_SANDBOX / _folder).mkdir(mode=0o700, parents=True, exist_ok=True)

from memvault.core.vault import Vault  # noqa: E402
from memvault.core.vocabulary.clock import FixedClock  # noqa: E402

# Tests pay for scrypt once per session, not per store; the cost parameter is the only difference.
TEST_SCRYPT_N = 2**12


@pytest.fixture(scope="session")
def template_home() -> Path:
    home = _SANDBOX / "template"
    Vault.open(home, create=True, scrypt_n=TEST_SCRYPT_N).close()
    return home


@pytest.fixture
def home(template_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, migrated, encrypted MEMVAULT_HOME for this test."""
    target = tmp_path / "memvault"
    shutil.copytree(template_home, target)
    monkeypatch.setenv("MEMVAULT_HOME", str(target))
    return target


@pytest.fixture
def vault(home: Path) -> Iterator[Vault]:
    with Vault.open(home) as opened:
        yield opened


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 1, 9, 30, tzinfo=UTC))


@pytest.fixture
def clocked_vault(home: Path, clock: FixedClock) -> Iterator[Vault]:
    """A vault whose time moves only when the test moves `clock`."""
    with Vault.open(home, clock=clock) as opened:
        yield opened


@pytest.fixture
def fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty MEMVAULT_HOME (no store yet), for init and first-run tests."""
    target = tmp_path / "fresh"
    monkeypatch.setenv("MEMVAULT_HOME", str(target))
    return target
