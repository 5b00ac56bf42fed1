"""Fixtures for the core tests (helpers live in corekit.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corekit import Adder

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER, Caller


def _adder(vault: Vault) -> Adder:
    def _add(statement: str, caller: Caller = OWNER, **fields: Any) -> str:
        answer = vault.add(caller, Draft.of(statement=statement, **fields))
        assert answer["outcome"] == "added", answer
        return str(answer["id"])

    return _add


@pytest.fixture
def add(vault: Vault) -> Adder:
    """Add a record (as the person by default, a direct write) and return its id."""
    return _adder(vault)


@pytest.fixture
def cadd(clocked_vault: Vault) -> Adder:
    """`add` for the clocked vault."""
    return _adder(clocked_vault)


@pytest.fixture(scope="module")
def module_vault(template_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vault]:
    """One fresh store shared by a module's tests (for property tests and read-only checks)."""
    target = tmp_path_factory.mktemp("module-vault") / "memvault"
    shutil.copytree(template_home, target)
    with Vault.open(target) as opened:
        yield opened


# Modules about retrieval and access keep the product default (local embeddings, so the
# semantic and graph paths are exercised too); the others run lexical-only, a supported mode,
# which keeps the suite fast: embedding each write and query costs tens of milliseconds.
WITH_EMBEDDINGS = frozenset(
    {
        "test_add_by_meaning",
        "test_search_v1",
        "test_access",
        "test_access_property",
        "test_archive_restore",
        "test_kill_switch_core",
    }
)


@pytest.fixture(scope="module", autouse=True)
def _embeddings_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        if request.module.__name__.rsplit(".", 1)[-1] not in WITH_EMBEDDINGS:
            patch.setenv("MEMVAULT_EMBEDDINGS", "off")
        yield
