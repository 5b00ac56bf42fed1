"""Retrieval fixtures: the evaluation store is built (and embedded) once per session.

Each test that uses it gets its own copy, since searching changes usage counters.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import evalkit

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock


@pytest.fixture(scope="session")
def eval_data() -> dict[str, Any]:
    return evalkit.load_set()


@pytest.fixture(scope="session")
def eval_home(tmp_path_factory: pytest.TempPathFactory, eval_data: dict[str, Any]) -> Path:
    home = tmp_path_factory.mktemp("eval") / "store"
    vault, _, _ = evalkit.open_eval_vault(home, True, eval_data)
    vault.close()
    return home


@pytest.fixture
def eval_vault(
    eval_home: Path, tmp_path: Path, eval_data: dict[str, Any]
) -> Iterator[tuple[Vault, FixedClock, dict[str, str]]]:
    target = tmp_path / "eval-store"
    shutil.copytree(eval_home, target)
    vault, clock, ids = evalkit.open_eval_vault(target, False, eval_data)
    try:
        yield vault, clock, ids
    finally:
        vault.close()
