"""The app moving the demo's store into a shared PostgreSQL store under Xvfb: Settings' "Use a shared
store…" dialog, its connection tested, at the verified result of the move (a bar per table). Writes
docs/screenshots/move-to-shared-store.png. Look at it before publishing.

    python packaging/move_store_screenshot.py     # needs what screenshots.py needs, and pgserver (dev extra)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from screenshots import OUT, make_demo, sandbox, settle, start_x
from shared_store_screenshot import shared_store

WAIT_S = 180.0


def until(app: object, done: Callable[[], bool], what: str) -> None:
    """Let the app run until `done()`; a picture of a half-finished state is worse than none."""
    end = time.monotonic() + WAIT_S
    while not done():
        if time.monotonic() > end:
            raise SystemExit(f"gave up waiting: {what}")
        settle(app, 0.2)


def main() -> None:
    server, url = shared_store()
    folder = sandbox("memvault-move-shot-")
    x = start_x()
    try:
        from PySide6.QtWidgets import QApplication  # noqa: PLC0415

        from memvault.core.vault import Vault  # noqa: PLC0415
        from memvault.desktop.gui.app import App  # noqa: PLC0415
        from memvault.desktop.gui.windows.settings import SettingsView  # noqa: PLC0415

        qt = QApplication.instance() or QApplication(["memvault"])
        assert isinstance(qt, QApplication)
        app = App(qt, Vault.open(make_demo(folder)))
        app.window.resize(1020, 630)
        app.window.show()
        until(qt, lambda: app.serving, "the app serving assistants")
        app.window.show_page("Settings")
        settings = app.window.page("Settings")
        assert isinstance(settings, SettingsView)
        until(qt, settings.store.move_button.isVisible, "the store panel")
        dialog = settings.store.open_move()
        dialog.url.setText(url)
        dialog.test_button.click()
        until(qt, dialog.move_button.isEnabled, "the connection test")
        dialog.move_button.click()
        until(qt, lambda: not dialog.moving, "the move")
        if "Moved and verified" not in dialog.status.text():
            raise SystemExit(f"the move did not finish: {dialog.status.text()}")
        settle(qt, 2)
        target = OUT / "move-to-shared-store.png"
        dialog.grab().save(str(target))
        print(target)
        app.quit()
        app.dispose()
    finally:
        server.cleanup()  # type: ignore[attr-defined]
        x.terminate()


if __name__ == "__main__":
    main()
