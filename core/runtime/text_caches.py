"""The caches that keep memory text in process memory, and the one call that empties them all.

Searching and writing keep statements, or what is read from them (their words, their parse,
domain keywords), in small caches to run faster. A purge promises that a statement is gone, so
every such cache registers here, and a purge this process makes or sees clears them at once.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from typing import Protocol, TypeVar

from memvault.core.runtime.heap import overwrite_freed_objects, release_freed_memory


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...


C = TypeVar("C", bound=_Clearable)

_CLEARS: list[Callable[[], None]] = []
_LOCK = threading.Lock()


def keeps_text(cache: C) -> C:
    """Register a `functools.lru_cache`d function whose entries hold memory text."""
    register(cache.cache_clear)
    return cache


def register(clear: Callable[[], None]) -> None:
    """Register the function that empties a cache holding memory text."""
    with _LOCK:
        _CLEARS.append(clear)


def unregister(clear: Callable[[], None]) -> None:
    """Forget a registered function (its cache is gone)."""
    with _LOCK:
        if clear in _CLEARS:
            _CLEARS.remove(clear)


def forget_all() -> None:
    """Empty every registered cache (after a purge), then let go of the memory that held them."""
    with _LOCK:
        clears = list(_CLEARS)
    for clear in clears:
        clear()
    gc.collect()
    overwrite_freed_objects()
    release_freed_memory()
