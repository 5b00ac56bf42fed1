"""Giving freed heap memory back to the operating system after big, passing work.

glibc keeps what a process frees in its malloc arenas for reuse, so a peak stays resident for the
process's whole life. Building the embedding model's session is such a peak: onnxruntime folds
the int8 weights into fp32 ones and frees ~55 MB of temporaries on the way (measured: the session
costs 155 MB of RSS, 99 MB after a trim). `malloc_trim` hands those pages back. Where the C
library has no `malloc_trim` (macOS, Windows, musl's older versions), nothing is done.

Freed memory also keeps what it held until it is used again. After a purge, `overwrite_freed_objects`
writes zeros over the blocks CPython's small-object allocator (pymalloc) keeps free, where the
strings copied from a purged statement were (tests/bench/bench_purge_memory.py: it took the copies
of a purged word a server still held after its next search from 9-14 to 3-6, for 3-15 ms). What
the C allocator keeps free in pieces smaller than a page (SQLite's, the tokenizer's) stays as it is
until it is used again (docs/maintenance.md, "Process memory").
"""

from __future__ import annotations

import ctypes
import functools
import re
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
    found = getattr(libc, "malloc_trim", None)
    if found is None:
        return None
    found.argtypes = [ctypes.c_size_t]
    found.restype = ctypes.c_int
    trim: Callable[[int], int] = found
    return trim


def release_freed_memory() -> bool:
    """Return freed heap pages to the OS; True when some were released (glibc only)."""
    trim = _malloc_trim()
    return trim is not None and trim(0) == 1


# pymalloc's own statistics (`sys._debugmallocstats`, written to a stream in memory, not stderr): a
# row per size class (class, block size, pools, blocks in use, free blocks), then its unused pools.
_CLASS_ROW = re.compile(rb"^ *\d+ +(\d+) +\d+ +\d+ +(\d+) *$", re.MULTILINE)
_UNUSED_POOLS = re.compile(rb"^(\d+) unused pools \* (\d+) bytes", re.MULTILINE)
SMALLEST_BLOCK = 16
_EMPTY_BYTES = sys.getsizeof(b"")  # a bytes object's header and final NUL: bytes(n) takes this + n, zeroed


@functools.cache
def _pymalloc_report() -> Callable[[], bytes] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        stats = ctypes.pythonapi._PyObject_DebugMallocStats  # CPython's, private: absent, nothing is done
        open_memstream, fclose, free = libc.open_memstream, libc.fclose, libc.free
    except (OSError, AttributeError):
        return None
    stats.argtypes, stats.restype = [ctypes.c_void_p], ctypes.c_int
    open_memstream.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t)]
    open_memstream.restype = ctypes.c_void_p
    fclose.argtypes, free.argtypes = [ctypes.c_void_p], [ctypes.c_void_p]

    def report() -> bytes:
        buffer, size = ctypes.c_void_p(), ctypes.c_size_t()
        stream = open_memstream(ctypes.byref(buffer), ctypes.byref(size))
        if not stream:
            return b""
        stats(stream)
        fclose(stream)
        try:
            return ctypes.string_at(buffer.value, size.value) if buffer.value else b""
        finally:
            free(buffer.value)

    return report


def overwrite_freed_objects() -> int:
    """Write zeros over the blocks pymalloc keeps free (best effort; Linux, CPython with pymalloc):
    zero-filled objects take every free block of every size class and the unused pools, and are
    freed again. Costs a moment of as much memory as is free there. Answers how many objects it
    took (0: nothing was done)."""
    report = _pymalloc_report()
    text = report() if report is not None else b""
    held: list[bytes | bytearray] = []
    for block, free_blocks in _CLASS_ROW.findall(text):
        held.extend(_zeros(int(block)) for _ in range(int(free_blocks)))
    unused = _UNUSED_POOLS.search(text)
    if unused is not None:  # the smallest objects that are one block each fill them
        smallest = -(-_EMPTY_BYTES // SMALLEST_BLOCK) * SMALLEST_BLOCK
        held.extend(_zeros(smallest) for _ in range(int(unused[1]) * int(unused[2]) // smallest))
    taken = len(held)
    del held
    return taken


def _zeros(block: int) -> bytes | bytearray:
    """A zero-filled object in one block of `block` bytes (below a bytes object's size: a bytearray,
    whose buffer is that block)."""
    return bytes(block - _EMPTY_BYTES) if block >= _EMPTY_BYTES else bytearray(block - 1)
