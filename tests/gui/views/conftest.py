"""The memory, timeline and graph views' tests: their own small fictional store (viewkit.seed), no proposals.

These fixtures replace tests/gui/conftest.py's `ops` (which stands on the shell's seeded data) for this folder.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from viewkit import running, seed

from memvault.core.vault import Vault
from memvault.desktop.gui.operations import Operations


@pytest.fixture
def ops(vault: Vault) -> Iterator[Operations]:
    with running(vault) as operations:
        yield operations


@pytest.fixture
def ids(vault: Vault) -> dict[str, str]:
    return seed(vault)
