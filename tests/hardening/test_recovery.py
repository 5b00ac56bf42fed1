"""Issue 13, recovery on a new machine: a backup and the recovery key (or the passphrase) open the store.

Two separate homes stand for two machines: the store is made and backed up in one; only
the backup's two files (`.db`, `.db-keys`) reach the other, which starts empty.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends.fail import Keyring as FailKeyring
from memory_keyring import MemoryKeyring

from memvault.core.security import keys
from memvault.core.store.sqlcipher import tombstone_checks
from memvault.core.store.sqlcipher.connection import open_connection
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


# -- restoring over the store `memvault init` (or the first-run wizard) already made ---------------------------
ONE, TWO = "first machine passphrase (fictional)", "second machine passphrase (fictional)"


@pytest.fixture(params=["passphrase", "keyring"])
def rings(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[MemoryKeyring | None]]:
    """Each machine's OS keyring (an in-memory one each), or none (the key wrapped by a passphrase)."""
    previous = keyring.get_keyring()
    if request.param == "keyring":
        monkeypatch.delenv("MEMVAULT_PASSPHRASE")
        monkeypatch.delenv("PYTHON_KEYRING_BACKEND")
    try:
        yield [MemoryKeyring(), MemoryKeyring()] if request.param == "keyring" else [None, None]
    finally:
        keyring.set_keyring(previous)


def _machine_two_of(rings: list[MemoryKeyring | None], monkeypatch: pytest.MonkeyPatch) -> None:
    if rings[1] is not None:
        keyring.set_keyring(rings[1])
    else:
        monkeypatch.setenv("MEMVAULT_PASSPHRASE", TWO)


def _backup_secret(rings: list[MemoryKeyring | None], recovery: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the person opens the backup on machine two: a keyring store's by its recovery key (in the
    environment), a passphrase store's by its own passphrase, as a line on stdin (MEMVAULT_PASSPHRASE
    holds this machine's)."""
    if rings[0] is not None:
        monkeypatch.setenv("MEMVAULT_RECOVERY_KEY", recovery)
        return recovery
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{ONE}\n"))
    return ONE


def _first_machine_of(
    rings: list[MemoryKeyring | None],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[str, str, Path]:
    if rings[0] is not None:
        keyring.set_keyring(rings[0])
    else:
        monkeypatch.setenv("MEMVAULT_PASSPHRASE", ONE)
    return _first_machine(capsys, tmp_path / "one", tmp_path / "usb")


def _failing(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(argv)
    return code, " ".join(capsys.readouterr().err.split())


def _snapshot(root: Path) -> dict[str, str]:
    """Every folder and file under `root`, with each file's bytes: what "nothing changed" means."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "folder"
        for p in sorted(root.rglob("*"))
    }


def _records_in(path: Path, key_file: Path) -> int:
    conn = open_connection(path, keys.load_key(key_file))
    try:
        return tombstone_checks.record_count(conn)
    finally:
        conn.close()


def test_a_backup_replaces_the_empty_store_memvault_init_made(
    rings: list[MemoryKeyring | None],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new machine where `memvault init` ran first: the backup of the old one replaces its empty store,
    which is kept (with its key file and the backup the daemon made of it); status and search work after."""
    recovery, memory_id, backup = _first_machine_of(rings, capsys, tmp_path, monkeypatch)
    two = tmp_path / "two"
    _machine_two_of(rings, monkeypatch)
    _cli(capsys, "--home", str(two), "init")
    its_backup = Path(str(_cli(capsys, "--home", str(two), "backup")["path"]))  # as the daemon makes daily
    _backup_secret(rings, recovery, monkeypatch)

    done = _cli(capsys, "--home", str(two), "restore", str(backup))

    monkeypatch.delenv("MEMVAULT_RECOVERY_KEY", raising=False)
    other = done["replaced_other_store"]
    assert isinstance(other, dict) and other["held"] == {}
    assert other["key_backend"] == ("keyring" if rings[1] else "passphrase")
    kept, folder = Path(str(done["previous_store_kept_as"])), Path(other["kept_in"])
    assert kept.parent == folder and folder.parent == two / "backups"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [kept.name, f"{kept.name}-keys", its_backup.name, f"{its_backup.name}-keys", "memvault.key.json"]
    )
    carried = json.loads(Path(f"{backup}-keys").read_text())
    assert keys.read_key_info(two / "memvault.key.json")["store_id"] == carried["store_id"]
    assert keys.describe(two / "memvault.key.json").backend == other["key_backend"]
    if rings[1] is not None:
        assert len(rings[1].secrets) == 2  # the restored store's key beside the empty one's
    assert _cli(capsys, "--home", str(two), "status")["counts"] == {**_counts(1), "by_domain": {"home": 1}}
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")
    found = _cli(capsys, "--home", str(two), "search", "where is the spare bike key")
    assert [r["id"] for r in found["results"]] == [memory_id]  # type: ignore[index]
    assert main(["--home", str(two), "doctor"]) == 0, capsys.readouterr().out
    capsys.readouterr()
    # the empty store is kept whole and opens with the key file kept beside it (this machine's passphrase)
    assert _records_in(kept, folder / "memvault.key.json") == 0


def _counts(current: int) -> dict[str, object]:
    zero = dict.fromkeys(("historical", "partial", "disputed", "superseded", "archived"), 0)
    return {"current": current, **zero, "total": current}


def test_a_backup_of_another_store_never_replaces_one_with_records_unasked(
    rings: list[MemoryKeyring | None],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recovery, memory_id, backup = _first_machine_of(rings, capsys, tmp_path, monkeypatch)
    two = tmp_path / "two"
    _machine_two_of(rings, monkeypatch)
    _cli(capsys, "--home", str(two), "init")
    mine = str(
        _cli(capsys, "--home", str(two), "add", "The attic ladder hangs in the garage", "--domain", "home")["id"]
    )
    secret = _backup_secret(rings, recovery, monkeypatch)
    before = _snapshot(two)

    code, err = _failing(capsys, "--home", str(two), "restore", str(backup))

    assert code == 1
    assert "holds 1 record, 1 domain" in err and "Nothing was changed" in err
    assert f"memvault --home {two} restore {backup} --replace" in err
    assert f"memvault --home NEW_FOLDER restore {backup}" in err
    assert _snapshot(two) == before
    with Vault.open(two) as vault:
        assert vault.get(OWNER, mine)["memory"]["statement"] == "The attic ladder hangs in the garage"

    # Asked for (`memvault restore BACKUP --replace`): replaced, and the store with the record kept whole.
    from memvault.desktop.commands.maintenance import restore_store  # noqa: PLC0415

    monkeypatch.setattr("sys.stdin", io.StringIO(f"{secret}\n"))
    assert restore_store(argparse.Namespace(home=str(two), json=False, replace=True), str(backup)) == 0
    out = capsys.readouterr().out
    assert "this home held another store (1 record, 1 domain): the backup replaced it" in out
    monkeypatch.delenv("MEMVAULT_RECOVERY_KEY", raising=False)
    _opens_with(two, memory_id)
    folder = next((two / "backups").glob("replaced-*"))
    kept = next(folder.glob("memvault-*-pre-restore.db"))
    assert _records_in(kept, folder / "memvault.key.json") == 1


@pytest.mark.parametrize("first", ["passphrase", "keyring"])
def test_without_a_terminal_a_restore_says_which_passphrase_it_wants_and_leaves_nothing(
    first: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Machine two has no OS keyring and no terminal (stdin is empty): each refusal names the passphrase
    it wants — the backup's, this machine's, or a new one for this machine — and how to give it, and
    leaves no folder or file behind."""
    previous = keyring.get_keyring()
    try:
        rings: list[MemoryKeyring | None] = [MemoryKeyring() if first == "keyring" else None, None]
        if first == "keyring":
            monkeypatch.delenv("MEMVAULT_PASSPHRASE")
        recovery, _, backup = _first_machine_of(rings, capsys, tmp_path, monkeypatch)
        keyring.set_keyring(FailKeyring())
        monkeypatch.delenv("MEMVAULT_PASSPHRASE", raising=False)
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        new = tmp_path / "new" / "home"

        monkeypatch.setenv("MEMVAULT_RECOVERY_KEY", recovery)
        code, err = _failing(capsys, "--home", str(new), "restore", str(backup))
        assert code == 2 and "needs a NEW passphrase for this machine" in err
        assert "set MEMVAULT_PASSPHRASE to the passphrase you choose" in err and "nothing was changed" in err
        assert not (tmp_path / "new").exists()

        monkeypatch.delenv("MEMVAULT_RECOVERY_KEY")
        code, err = _failing(capsys, "--home", str(new), "restore", str(backup))
        assert code == 2 and "MEMVAULT_RECOVERY_KEY='XXXX-XXXX-…'" in err
        assert ("passphrase it was made with (MEMVAULT_PASSPHRASE, or one line on stdin)" in err) == (
            first != "keyring"
        )
        assert not (tmp_path / "new").exists()

        damaged = tmp_path / "damaged.db"  # the right key, a broken backup: refused, nothing left either
        data = bytearray(backup.read_bytes())
        data[4096:8192] = os.urandom(4096)
        damaged.write_bytes(bytes(data))
        shutil.copy(f"{backup}-keys", f"{damaged}-keys")
        monkeypatch.setenv("MEMVAULT_RECOVERY_KEY", recovery)
        monkeypatch.setenv("MEMVAULT_PASSPHRASE", TWO)
        code, err = _failing(capsys, "--home", str(new), "restore", str(damaged))
        assert code == 1 and "the backup is damaged" in err, err
        assert not (tmp_path / "new").exists()

        # After `memvault init` here: this machine's passphrase opens the store here, then the backup's key.
        monkeypatch.delenv("MEMVAULT_RECOVERY_KEY")
        _cli(capsys, "--home", str(new), "init")
        before = _snapshot(new)
        monkeypatch.delenv("MEMVAULT_PASSPHRASE")
        code, err = _failing(capsys, "--home", str(new), "restore", str(backup))
        assert code == 2 and "locked with this machine's passphrase: give that passphrase in MEMVAULT_PASSPHRASE" in err
        assert _snapshot(new) == before
        monkeypatch.setenv("MEMVAULT_PASSPHRASE", TWO)
        code, err = _failing(capsys, "--home", str(new), "restore", str(backup))
        assert code == 2 and "MEMVAULT_RECOVERY_KEY='XXXX-XXXX-…'" in err and "nothing was changed" in err
        if first == "passphrase":
            assert "this machine's passphrase does not open the backup" in err
            assert "the passphrase it was made with (one line on stdin, or typed on a terminal)" in err
        assert _snapshot(new) == before
    finally:
        keyring.set_keyring(previous)
