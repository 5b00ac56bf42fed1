"""A repository module with its connection filled in: how an engine whose repositories are modules of
functions (the connection first) hands them out as a `Store`'s repositories."""

from __future__ import annotations

from functools import partial
from types import ModuleType


def operations(protocol: type) -> list[str]:
    """The functions a repository protocol declares."""
    return [name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")]


class Bound:
    """The functions of `protocol`, taken from `module` with `conn` as their first argument. All are
    bound when the store opens, so a module lacking one fails there, not at its first call."""

    def __init__(self, module: ModuleType, conn: object, protocol: type) -> None:
        self._module = module
        for name in operations(protocol):
            setattr(self, name, partial(getattr(module, name), conn))
