"""Fixtures for the maintenance tests: a store with a little of everything in it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from maintkit import SECRET_STATEMENT

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest


def added(vault: Vault, statement: str, **fields: Any) -> str:
    answer = vault.add(OWNER, Draft.of(statement=statement, **fields))
    assert answer["outcome"] == "added", answer
    return str(answer["id"])


@pytest.fixture
def filled(vault: Vault) -> dict[str, str]:
    """Records with links, entities, a correction chain, an archived one and the secret one."""
    ids = {
        "garden": added(
            vault,
            "Fictional: the allotment beds face south",
            tags=["project:allotment"],
            entities=["Hollowmere Allotments"],
        ),
        "tea": added(vault, "Fictional: prefers oolong in the afternoon", type="PREFERENCE"),
        "decision": added(
            vault, "Fictional: chose cedar planks for the raised beds", type="DECISION", tags=["project:allotment"]
        ),
    }
    ids["secret"] = added(
        vault,
        SECRET_STATEMENT,
        entities=["Brindlecove Lighthouse"],
        links=[{"type": "relates_to", "target_id": ids["garden"]}],
    )
    ids["archived"] = added(vault, "Fictional: the shed key hangs by the door")
    vault.archive(OWNER, ArchiveRequest.of(id=ids["archived"], reason="moved"))
    corrected = vault.correct(
        OWNER, CorrectRequest.of(id=ids["tea"], statement="Fictional: prefers green tea in the afternoon")
    )
    ids["tea_now"] = str(corrected["id"])
    return ids
