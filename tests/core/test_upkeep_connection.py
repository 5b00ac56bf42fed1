"""Long background jobs run on a connection of their own: the Vault people and assistants use does
not wait for them, and what they write is seen at once."""

from __future__ import annotations

import threading
from collections.abc import Callable

from corekit import OWNER

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft


def _runs_while_held(held: Vault, other: Vault, call: Callable[[Vault], object]) -> bool:
    """Whether `call(other)` finishes while a long read holds `held`."""
    entered, release, done = threading.Event(), threading.Event(), threading.Event()

    def long_read() -> None:
        with held.ctx.reading():
            entered.set()
            release.wait(30)

    reader = threading.Thread(target=long_read)
    reader.start()
    assert entered.wait(10)
    caller = threading.Thread(target=lambda: (call(other), done.set()))
    caller.start()
    finished = done.wait(2)
    release.set()
    reader.join()
    caller.join()
    return finished


def test_an_upkeep_read_does_not_hold_the_vault(vault: Vault) -> None:
    with vault.for_upkeep() as upkeep:
        assert _runs_while_held(upkeep, vault, lambda v: v.status(OWNER))
    # the control: on one connection, the same call waits for the long read
    assert not _runs_while_held(vault, vault, lambda v: v.status(OWNER))


def test_what_upkeep_writes_the_vault_sees(vault: Vault) -> None:
    with vault.for_upkeep() as upkeep:
        added = upkeep.add(OWNER, Draft.of(statement="The bike lock code card is in the blue folder", domain="home"))
        assert added["id"] is not None
        assert vault.get(OWNER, added["id"])["memory"]["domain"] == "home"
    assert vault.status(OWNER)["counts"]["current"] == 1
