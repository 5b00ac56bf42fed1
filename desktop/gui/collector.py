"""Python's cyclic garbage collector runs on the GUI thread only, while the app runs.

CPython collects cycles on whichever thread allocates when a threshold is crossed: the store
worker, the daemon's threads, the change listener. A Qt object Python owns (a window, a dialog, a
QObject without a parent) that hangs in or off a reference cycle is then destroyed by that pass,
on that thread (gdb: `QObject::~QObject` under `gc_collect_generations` on memvault-gui-worker).
Qt objects must die on their own thread: a widget torn down elsewhere deadlocks in
`QWindow::close` or corrupts what the GUI thread is using, and the process dies later, anywhere.

So the automatic collector is switched off and a timer on the GUI thread runs the same
generational passes when the same thresholds are crossed. Reference counting still frees
everything outside cycles at once, on the thread that lets go (see `Operations` for that side).
What start-up made (modules, the window, the MCP SDK) is frozen once it has settled, so an oldest-
generation pass on the GUI thread scans only what came later (~100 ms for a full pass before).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

CHECK_MS = 250  # how often the GUI thread looks at the allocation counts


class GuiThreadCollector(QObject):
    """While it runs, cycles are collected only by its timer (GUI thread); `stop` hands back to CPython."""

    def __init__(self, parent: QObject | None = None, *, check_ms: int = CHECK_MS) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        self._thresholds = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(check_ms)
        self._timer.timeout.connect(self.collect_due)
        self._timer.start()

    def collect_due(self) -> int:
        """The pass CPython would have run by now (the oldest generation over its threshold); objects freed."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self._thresholds[generation]:
                return gc.collect(generation)
        return 0

    @staticmethod
    def settle() -> None:
        """Keep what exists now out of later passes (it lives as long as the app). Frees nothing, so
        any thread may call it."""
        gc.freeze()

    def stop(self) -> None:
        """Collect once more here, then let CPython collect automatically again (if it did before)."""
        self._timer.stop()
        gc.unfreeze()
        gc.collect()
        if self._was_enabled:
            gc.enable()
