"""`Context.settings()` (every setting read at once, for a search) answers what `setting` answers."""

from __future__ import annotations

import pytest

from memvault.core.runtime.settings import SETTINGS
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER


def test_settings_read_at_once_agree_with_one_by_one(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    vault.set_setting(OWNER, "rank_w_lexical", 0.3)
    vault.set_setting(OWNER, "embeddings", "local")
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")  # the environment overrides the stored value
    at_once = vault.ctx.settings()
    assert at_once("rank_w_lexical") == 0.3
    assert at_once("embeddings") == "off"
    assert at_once("tier_hot") == SETTINGS["tier_hot"].default  # never stored: the default
    assert {name: at_once(name) for name in SETTINGS} == {name: vault.ctx.setting(name) for name in SETTINGS}


def test_settings_read_at_once_do_not_move_with_later_writes(vault: Vault) -> None:
    at_once = vault.ctx.settings()
    vault.set_setting(OWNER, "rank_w_lexical", 0.4)
    assert at_once("rank_w_lexical") == SETTINGS["rank_w_lexical"].default
    assert vault.ctx.settings()("rank_w_lexical") == 0.4
