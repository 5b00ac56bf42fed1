"""The store key: random, wrapped by the passphrase, never silently moved to another backend."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest
from corekit import SCRYPT_N, file_digest

from memvault.core.security import keys
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import KeyUnavailable, StoreUnavailable, WrongPassphrase
from memvault.core.vocabulary.model import OWNER


def _key_file(home: Path) -> Path:
    return home / "memvault.key.json"


def test_passphrase_backend_wraps_a_random_key(home: Path) -> None:
    text = _key_file(home).read_text()
    info = json.loads(text)
    assert info["backend"] == "passphrase"
    assert info["kdf"]["name"] == "scrypt"
    key = keys.load_key(_key_file(home))
    assert len(key) == 32
    # The raw key appears in no encoding in the key file; only its AES-GCM wrapping does.
    for encoding in (key.hex(), key.hex().upper(), base64.b64encode(key).decode(), base64.b64encode(key)[:20].decode()):
        assert encoding not in text
    assert base64.b64decode(info["wrap"]["key"])[:32] != key


def test_two_stores_get_different_random_keys(tmp_path: Path) -> None:
    found = []
    for name in ("one", "two"):
        Vault.open(tmp_path / name, create=True, scrypt_n=SCRYPT_N).close()
        found.append(keys.load_key(_key_file(tmp_path / name)))
    assert found[0] != found[1]
    assert len(set(found[0])) > 8  # not a constant or a trivially derived key


def test_wrong_passphrase_is_refused_clearly_and_changes_nothing(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, key_file = home / "memvault.db", _key_file(home)
    before = (file_digest(store), file_digest(key_file), sorted(p.name for p in home.iterdir()))
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "not the passphrase (fictional)")
    with pytest.raises(WrongPassphrase) as raised:
        Vault.open(home)
    assert "wrong passphrase" in raised.value.message.lower()
    assert "not the passphrase" not in raised.value.message
    assert raised.value.code == "internal" and isinstance(raised.value, WrongPassphrase)
    assert (file_digest(store), file_digest(key_file), sorted(p.name for p in home.iterdir())) == before


def test_the_right_passphrase_still_opens_after_a_wrong_one(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    right = os.environ["MEMVAULT_PASSPHRASE"]
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", "wrong (fictional)")
    with pytest.raises(WrongPassphrase):
        Vault.open(home)
    monkeypatch.setenv("MEMVAULT_PASSPHRASE", right)
    with Vault.open(home) as vault:
        assert vault.status(OWNER)["store"]["encrypted"] is True


def test_a_keyring_key_file_with_an_unusable_keyring_is_refused_not_switched(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    key_file = _key_file(home)
    info = json.loads(key_file.read_text())
    key_file.write_text(
        json.dumps(
            {
                "version": 1,
                "backend": "keyring",
                "keyring": "keyring.backends.SecretService.Keyring",
                "store_id": info["store_id"],
            }
        )
    )
    before = (file_digest(home / "memvault.db"), file_digest(key_file))
    with pytest.raises(KeyUnavailable) as raised:
        Vault.open(home)
    assert "keyring" in raised.value.message
    assert "not switch" in raised.value.message
    # The passphrase in the environment was not used to re-key or rewrite anything.
    assert (file_digest(home / "memvault.db"), file_digest(key_file)) == before
    assert json.loads(key_file.read_text())["backend"] == "keyring"


def test_forcing_the_keyring_backend_without_a_keyring_creates_nothing(
    fresh_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMVAULT_KEY_BACKEND", "keyring")
    with pytest.raises(KeyUnavailable):
        Vault.open(fresh_home, create=True, scrypt_n=SCRYPT_N)
    assert not (fresh_home / "memvault.db").exists()
    assert not _key_file(fresh_home).exists()


def test_a_missing_key_file_is_a_clear_error(home: Path) -> None:
    _key_file(home).unlink()
    digest = file_digest(home / "memvault.db")
    with pytest.raises(StoreUnavailable) as raised:
        Vault.open(home)
    assert "key file" in raised.value.message and "missing" in raised.value.message
    assert file_digest(home / "memvault.db") == digest


def test_a_damaged_key_file_is_a_clear_error(home: Path) -> None:
    _key_file(home).write_text("{not json")
    with pytest.raises(StoreUnavailable, match="unreadable or damaged"):
        Vault.open(home)


def test_no_passphrase_and_no_terminal_is_a_clear_error(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMVAULT_PASSPHRASE")
    with pytest.raises(KeyUnavailable, match="MEMVAULT_PASSPHRASE"):
        Vault.open(home)


def test_create_refuses_to_overwrite_an_orphan_key_file(fresh_home: Path) -> None:
    fresh_home.mkdir(mode=0o700)
    _key_file(fresh_home).write_text('{"backend": "passphrase"}')
    with pytest.raises(StoreUnavailable, match="refusing to overwrite"):
        Vault.open(fresh_home, create=True, scrypt_n=SCRYPT_N)
    assert _key_file(fresh_home).read_text() == '{"backend": "passphrase"}'
