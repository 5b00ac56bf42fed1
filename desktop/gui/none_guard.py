"""A guard against a reference-count bug of PySide6/shiboken6 6.12.0 under CPython < 3.12.

Those bindings return `None` from every void Qt method without taking a reference (harmless on
3.12+, where None is immortal). Under 3.11 each call of e.g. `QLabel.setText` or
`QPainter.drawLine` drops None's count by one, and after a few thousand calls CPython aborts with
"none_dealloc: deallocating None". `protect_none()` gives None a reference count no run can
exhaust, which is what 3.12 does for every interpreter. The package runs it on import, before
any Qt work.
"""

from __future__ import annotations

import ctypes
import sys

ENOUGH = 1 << 40  # a trillion void calls


def protect_none() -> None:
    """Make None effectively immortal on CPython < 3.12 (once per process; a no-op elsewhere)."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython" or sys.getrefcount(None) > ENOUGH // 2:
        return
    ctypes.c_ssize_t.from_address(id(None)).value += ENOUGH  # ob_refcnt is the object's first field
