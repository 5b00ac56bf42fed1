"""Two homes on one shared PostgreSQL store, each with the app open under Xvfb: a record written in the
first window appears in the second through the live feed. Writes docs/screenshots/shared-store.png
(the two windows side by side, after the write). Look at it before publishing.

    python packaging/shared_store_screenshot.py     # needs what screenshots.py needs, and pgserver (dev extra)
"""

from __future__ import annotations

import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from screenshots import OUT, sandbox, settle, start_x

RECORDS = (
    "The Heronmere canoe club meets at the boathouse on Saturdays",
    "The allotment is plot 14, beside the water tank",
    "Project Kestrel's review moved to the second week of March",
)
WRITTEN = "The boathouse key now hangs in the blue cabinet by the door"


def shared_store() -> tuple[object, str]:
    """A PostgreSQL server of its own (started before the sandbox sets a locale initdb may not know)."""
    import pgserver  # noqa: PLC0415
    import psycopg  # noqa: PLC0415

    server = pgserver.get_server(tempfile.mkdtemp(prefix="memvault-shared-pg-"), cleanup_mode="stop")
    with psycopg.connect(server.get_uri(), autocommit=True) as admin:
        name = f"shared_{uuid.uuid4().hex[:8]}"
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, query = server.get_uri().partition("?")
    return server, f"{base.rsplit('/', 1)[0]}/{name}?{query}"


def main() -> None:
    server, url = shared_store()
    folder = sandbox("memvault-shared-shot-")
    x = start_x()
    try:
        from PySide6.QtGui import QPainter, QPixmap  # noqa: PLC0415
        from PySide6.QtWidgets import QApplication  # noqa: PLC0415

        from memvault.core.vault import Vault  # noqa: PLC0415
        from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
        from memvault.core.vocabulary.model import OWNER  # noqa: PLC0415
        from memvault.desktop.gui.live import LiveFeed  # noqa: PLC0415
        from memvault.desktop.gui.main_window import MainWindow  # noqa: PLC0415
        from memvault.desktop.gui.operations import Operations  # noqa: PLC0415
        from memvault.desktop.gui.tray import Tray  # noqa: PLC0415

        app = QApplication.instance() or QApplication(["memvault"])
        homes = [folder / "laptop", folder / "desktop"]
        vaults = [Vault.open(home, create=True, scrypt_n=2**12, shared_store=url) for home in homes]
        for statement in RECORDS:
            vaults[0].add(OWNER, Draft.of(statement=statement, domain="home"))
        windows, feeds, ops = [], [], []
        for vault in vaults:
            operations = Operations(vault)
            window = MainWindow(operations, Tray(operations))
            window.resize(1020, 630)
            window.show()
            ops.append(operations)
            windows.append(window)
            feeds.append(LiveFeed(operations))
        settle(app, 4)
        ops[0].run(lambda v: v.add(OWNER, Draft.of(statement=WRITTEN, domain="home")), lambda _: None, writes=True)
        settle(app, 4)  # the second window hears it (LISTEN/NOTIFY) and reloads its list
        shots = [window.grab() for window in windows]
        both = QPixmap(sum(s.width() for s in shots) + 16, max(s.height() for s in shots))
        both.fill()
        painter = QPainter(both)
        painter.drawPixmap(0, 0, shots[0])
        painter.drawPixmap(shots[0].width() + 16, 0, shots[1])
        painter.end()
        target = OUT / "shared-store.png"
        both.save(str(target))
        print(target)
        for feed in feeds:
            feed.stop()
        for window, operations, vault in zip(windows, ops, vaults, strict=True):
            window.shutdown()
            operations.shutdown()
            vault.close()
    finally:
        server.cleanup()  # type: ignore[attr-defined]
        x.terminate()


if __name__ == "__main__":
    main()
