"""Issue 13, recovery on a new machine: a backup and the recovery key (or the passphrase) open the store.

Two separate homes stand for two machines: the store is made and backed up in one; only
the backup's two files (`.db`, `.db-keys`) reach the other, which starts empty.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import keyring
import pytest
from memory_keyring import MemoryKeyring

from memvault.core.security import keys
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import WrongPassphrase
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.cli import main

STATEMENT = "The spare bike key hangs behind the hall mirror"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(["--json", *argv])
    out = capsys.readouterr().out
    assert code == 0, out
    answer: dict[str, object] = json.loads(out)
    return answer


def _first_machine(capsys: pytest.CaptureFixture[str], home: Path, carried: Path) -> tuple[str, str, Path]:
    """init, add, backup on machine one; the backup's files are carried away. Returns (recovery key, id, backup)."""
    made = _cli(capsys, "--home", str(home), "init")
    recovery = str(made["recovery_key"])
    assert len(recovery) == 39 and recovery.count("-") == 7
    added = _cli(capsys, "--home", str(home), "add", STATEMENT, "--domain", "home")
    backup = Path(str(_cli(capsys, "--home", str(home), "backup")["path"]))
    carried.mkdir()
    for part in (backup, Path(f"{backup}-keys")):
        shutil.copy2(part, carried / part.name)
    return recovery, str(added["id"]), carried / backup.name


def _opens_with(home: Path, memory_id: str) -> None:
    with Vault.open(home) as vault:
        assert vault.get(OWNER, memory_id)["memory"]["statement"] == STATEMENT


def test_passphrase_store_restores_on_a_new_machine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "first machine passphrase (fictional)")
    recovery, memory_id, backup = _first_machine(capsys, tmp_path / "one", tmp_path / "usb")
    raw = keys.load_key(tmp_path / "one" / "memvault.key.json")
    sidecar = Path(f"{backup}-keys").read_text()
    assert raw.hex() not in sidecar and base64.b64encode(raw).decode() not in sidecar  # wrapped only

    # A new machine, the passphrase forgotten: the recovery key opens it, a new passphrase protects it.
    monkeypatch.setenv("MEMVAULT_RECOVERY_KEY", recovery.lower().replace("-", " "))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "second machine passphrase (fictional)")
    _cli(capsys, "--home", str(tmp_path / "two"), "restore", str(backup))
    monkeypatch.delenv("MEMVAULT_RECOVERY_KEY")
    _opens_with(tmp_path / "two", memory_id)

    # Another one, with the old passphrase given on stdin.
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    monkeypatch.setattr("sys.stdin", io.StringIO("first machine passphrase (fictional)\n"))
    _cli(capsys, "--home", str(tmp_path / "three"), "restore", str(backup))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "first machine passphrase (fictional)")
    _opens_with(tmp_path / "three", memory_id)


def test_a_wrong_recovery_key_restores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "first machine passphrase (fictional)")
    recovery, _, backup = _first_machine(capsys, tmp_path / "one", tmp_path / "usb")
    wrong = ("B" if recovery[0] != "B" else "C") + recovery[1:]
    monkeypatch.setenv("MEMVAULT_RECOVERY_KEY", wrong)
    with pytest.raises(WrongPassphrase):
        Vault.restore_backup(backup, tmp_path / "two")
    assert not (tmp_path / "two" / "memvault.key.json").exists() and not (tmp_path / "two" / "memvault.db").exists()


def test_keyring_store_restores_on_a_new_machine_with_its_own_keyring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND")
    previous = keyring.get_keyring()
    first, second = MemoryKeyring(), MemoryKeyring()
    try:
        keyring.set_keyring(first)
        recovery, memory_id, backup = _first_machine(capsys, tmp_path / "one", tmp_path / "usb")
        assert keys.describe(tmp_path / "one" / "memvault.key.json").backend == "keyring"
        assert next(iter(first.secrets.values())) not in Path(f"{backup}-keys").read_text()
        keyring.set_keyring(second)  # the new machine: its keyring knows nothing of this store
        monkeypatch.setenv("MEMVAULT_RECOVERY_KEY", recovery)
        _cli(capsys, "--home", str(tmp_path / "two"), "restore", str(backup))
        monkeypatch.delenv("MEMVAULT_RECOVERY_KEY")
        assert keys.describe(tmp_path / "two" / "memvault.key.json").backend == "keyring" and len(second.secrets) == 1
        _opens_with(tmp_path / "two", memory_id)
    finally:
        keyring.set_keyring(previous)


SECRET_SERVICE = """
set -e
printf 'fictional keyring password' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
"$PY" -m memvault.desktop.cli --json --home "$ONE" init > "$OUT/init.json"
"$PY" -m memvault.desktop.cli --json --home "$ONE" add "$STATEMENT" --domain home > "$OUT/add.json"
"$PY" -m memvault.desktop.cli --json --home "$ONE" backup > "$OUT/backup.json"
"""


def _machine(home: Path) -> dict[str, str]:
    """A machine's own HOME and XDG folders: its keyrings live there, apart from the other machine's."""
    folders = {"HOME": home, **{f"XDG_{n}_HOME": home / n.lower() for n in ("DATA", "CONFIG", "CACHE")}}
    folders["XDG_RUNTIME_DIR"] = home / "runtime"
    for folder in folders.values():
        folder.mkdir(parents=True, mode=0o700, exist_ok=True)
    return {name: str(folder) for name, folder in folders.items()}


@pytest.mark.skipif(
    not (shutil.which("gnome-keyring-daemon") and shutil.which("dbus-run-session")),
    reason="needs a real Secret Service: apt-get install gnome-keyring dbus-daemon",
)
def test_real_secret_service_store_restores_in_another_session(tmp_path: Path) -> None:
    """Machine one keeps its key in gnome-keyring (its own D-Bus session); machine two is another session."""
    env = {k: v for k, v in os.environ.items() if k not in ("MEMVAULT_PASSPHRASE", "PYTHON_KEYRING_BACKEND")}
    env.update(PY=sys.executable, ONE=str(tmp_path / "one"), OUT=str(tmp_path), STATEMENT=STATEMENT)
    env.update(_machine(tmp_path / "home-one"))
    done = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SECRET_SERVICE],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    made = json.loads((tmp_path / "init.json").read_text())
    assert made["key_backend"] == "keyring" and made["recovery_key"]
    backup = json.loads((tmp_path / "backup.json").read_text())["path"]
    memory_id = json.loads((tmp_path / "add.json").read_text())["id"]
    env.update(_machine(tmp_path / "home-two"))
    env.update(TWO=str(tmp_path / "two"), BACKUP=backup, ID=memory_id, MEMVAULT_RECOVERY_KEY=made["recovery_key"])
    second = """
set -e
printf 'another fictional password' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
"$PY" -m memvault.desktop.cli --home "$TWO" restore "$BACKUP"
env -u MEMVAULT_RECOVERY_KEY "$PY" -m memvault.desktop.cli --json --home "$TWO" get "$ID"
"""
    restored = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", second],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert restored.returncode == 0, restored.stderr
    assert STATEMENT in restored.stdout
