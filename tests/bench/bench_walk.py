"""The walk of one search and one add through memvault's rooms, as a newcomer would trace it.

    .venv/bin/python tests/bench/bench_walk.py

Traces every call into memvault's code while `Vault.search` and `Vault.add` (an assistant's, in
automatic mode) run on a small fictional store, after a warm-up. A room is a package of core
(`core.store`, `core.retrieval`, ...), `core.vault`, or a module of the bridge or the desktop. It
prints, per operation: the steps (calls that enter another room than the caller's), the rooms
seen, the returns (steps into a room the walk had already left), and the climbs (steps from a
lower floor of core to a higher one: a callback, or a lower room handing work back up).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType

os.environ.setdefault("MEMVAULT_PASSPHRASE", "walk (fictional data)")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

FLOORS = ("vocabulary", "runtime", "security", "store", "retrieval", "writer", "importers", "operations", "vault")
SAME_FLOOR = {"consolidate": "importers", "maintenance": "importers"}
STATEMENTS = [
    "The kitchen renovation starts in March with the Oakfield builders.",
    "I prefer green tea over black coffee in the morning.",
    "The Juniper report goes to the board every quarter.",
    "Project Heron moved its launch to the second week of May.",
    "My bike is serviced at the shop on Elm Street.",
]


def room_of(filename: str, package_root: str) -> str | None:
    if not filename.startswith(package_root):
        return None
    parts = Path(filename[len(package_root) :].lstrip("/")).with_suffix("").parts
    if not parts or parts[0] not in ("core", "mcp_bridge", "desktop"):
        return None
    if parts[0] == "core":
        return "core." + parts[1] if len(parts) > 1 else "core"
    return ".".join(parts)


def floor_of(room: str) -> int | None:
    name = room.split(".", 1)[1] if room.startswith("core.") else ""
    name = SAME_FLOOR.get(name, name)
    return FLOORS.index(name) if name in FLOORS else None


def walk(action: Callable[[], object], package_root: str) -> list[tuple[str, str]]:
    steps: list[tuple[str, str]] = []

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        callee = room_of(frame.f_code.co_filename, package_root)
        caller = room_of(frame.f_back.f_code.co_filename, package_root) if frame.f_back else None
        if callee and caller and callee != caller:
            steps.append((caller, callee))

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return steps


def summary(steps: list[tuple[str, str]]) -> str:
    seen: set[str] = set()
    returns = climbs = 0
    for caller, callee in steps:
        seen.add(caller)
        if callee in seen:
            returns += 1
        seen.add(callee)
        low, high = floor_of(caller), floor_of(callee)
        if low is not None and high is not None and high > low:
            climbs += 1
    return f"{len(steps)} steps through {len(seen)} rooms, {returns} returns, {climbs} climbs"


def main() -> None:
    from memvault.core import vault as vault_module  # noqa: PLC0415
    from memvault.core.vault import Vault  # noqa: PLC0415

    package_root = str(Path(vault_module.__file__).parents[1])
    from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
    from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER  # noqa: PLC0415
    from memvault.core.vocabulary.search_request import SearchRequest  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as home, Vault.open(home, create=True, scrypt_n=2**12) as vault:
        vault.set_setting(OWNER, "write_mode", "automatic-write-within-approved-scope")
        vault.set_setting(OWNER, "auto_write_domains", ["*"])
        for statement in STATEMENTS:
            vault.add(OWNER, Draft.parse({"statement": statement, "domain": "home"}))
        vault.search(LOCAL_ASSISTANT, SearchRequest.of(query="warm up"))  # the model and the indexes load
        vault.add(LOCAL_ASSISTANT, Draft.parse({"statement": "The garden shed needs a new lock.", "domain": "home"}))
        search = walk(
            lambda: vault.search(LOCAL_ASSISTANT, SearchRequest.of(query="when does the kitchen work start")),
            package_root,
        )
        add = walk(
            lambda: vault.add(
                LOCAL_ASSISTANT, Draft.parse({"statement": "The porch light is on a timer.", "domain": "home"})
            ),
            package_root,
        )
    print(f"package at {package_root}")
    print("search:", summary(search))
    print("add:   ", summary(add))
    if "--steps" in sys.argv:
        for name, steps in (("search", search), ("add", add)):
            print(f"\n{name}:\n" + "\n".join(f"  {a} -> {b}" for a, b in steps))


if __name__ == "__main__":
    main()
