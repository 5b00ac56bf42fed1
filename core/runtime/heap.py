"""Giving freed heap memory back to the operating system after big, passing work.

glibc keeps what a process frees in its malloc arenas for reuse, so a peak stays resident for the
process's whole life. Building the embedding model's session is such a peak: onnxruntime folds
the int8 weights into fp32 ones and frees ~55 MB of temporaries on the way (measured: the session
costs 155 MB of RSS, 99 MB after a trim). `malloc_trim` hands those pages back. Where the C
library has no `malloc_trim` (macOS, Windows, musl's older versions), nothing is done.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)  # the C library this process already uses
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def release_freed_memory() -> bool:
    """Return freed heap pages to the OS; True when some were released (glibc only)."""
    trim = _malloc_trim()
    return trim is not None and trim(0) == 1
