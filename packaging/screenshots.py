"""Render every view of the app with the fictional demo data under a real X server, light and dark.

    python packaging/screenshots.py            # starts Xvfb itself (Debian: xvfb xauth libxcb-icccm4 libxcb-keysyms1)
    python packaging/screenshots.py --scale 2  # the same at 200 % (files named scaled-*.png, light only)

Writes PNGs into docs/screenshots/. Not part of CI: look at each picture before publishing it.
The demo store is made in a temporary folder (`memvault demo --home`), and an assistant's
proposals are staged in it so the inbox has something to show.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
DISPLAY = ":97"
FICTIONAL_RECOVERY_KEY = "K7QM-2XPA-HC4R-WN6E-TJ3L-PV5D-QF7Y-MB2S"  # made up for the picture: opens nothing


def start_x(scale: int) -> subprocess.Popen[bytes]:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise SystemExit("Xvfb is missing (Debian: apt-get install xvfb xauth libxcb-icccm4 libxcb-keysyms1)")
    width, height = 1600 * scale, 1000 * scale
    screen = f"{width}x{height}x24"
    server = subprocess.Popen([xvfb, DISPLAY, "-screen", "0", screen, "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    os.environ.update({"DISPLAY": DISPLAY, "QT_QPA_PLATFORM": "xcb", "QT_SCALE_FACTOR": str(scale)})
    trayer = shutil.which("trayer")
    if trayer:  # a system tray, as on a desktop (else the window says there is none); it ends with the server
        subprocess.Popen([trayer, "--edge", "top", "--align", "right", "--width", "10", "--height", "24"])
        time.sleep(1.5)
    return server


def make_demo(folder: Path) -> Path:
    home = folder / "demo"
    env = {**os.environ, "MEMVAULT_EMBEDDINGS": "off"}
    subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "demo", "--home", str(home)],
        check=True,
        env=env,
        capture_output=True,
    )
    return home


def stage_proposals(home: Path) -> None:
    """What an assistant might propose in the demo's world (fictional, like the demo itself)."""
    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.core.vocabulary.drafts import Draft  # noqa: PLC0415
    from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER  # noqa: PLC0415
    from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ListRequest, PurgeRequest  # noqa: PLC0415

    with Vault.open(home) as vault:
        items = vault.list_memories(OWNER, ListRequest(limit=40))["items"]
        first, second, third = items[0], items[1], items[2]
        vault.add(LOCAL_ASSISTANT, Draft(statement="Prefers morning meetings before 10:00 on weekdays", domain="work"))
        statement = first["statement"] + " (confirmed again in March)"
        reason = "said so in today's planning chat"
        vault.correct(LOCAL_ASSISTANT, CorrectRequest(id=first["id"], statement=statement, reason=reason))
        vault.archive(LOCAL_ASSISTANT, ArchiveRequest(id=second["id"], reason="no longer true after the move"))
        vault.request_purge(LOCAL_ASSISTANT, PurgeRequest(id=third["id"], reason="asked to forget this"))


def settle(app: object, seconds: float) -> None:
    from PySide6.QtCore import QCoreApplication  # noqa: PLC0415

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        time.sleep(0.02)


def shoot(home: Path, scale: int) -> list[Path]:
    from PySide6.QtCore import Qt  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.desktop.gui.main_window import PAGES, MainWindow  # noqa: PLC0415
    from memvault.desktop.gui.operations import Operations  # noqa: PLC0415
    from memvault.desktop.gui.theme import apply_scheme  # noqa: PLC0415
    from memvault.desktop.gui.tray import Tray  # noqa: PLC0415
    from memvault.desktop.gui.windows.first_run import FirstRunWizard  # noqa: PLC0415
    from memvault.desktop.gui.windows.recovery_key_dialog import RecoveryKeyDialog  # noqa: PLC0415

    app = QApplication.instance() or QApplication(["memvault"])
    assert isinstance(app, QApplication)
    vault = Vault.open(home)
    ops = Operations(vault)
    window = MainWindow(ops, Tray(ops))
    window.resize(1400, 860)
    window.show()
    settle(app, 3)
    saved = []
    schemes = (
        ((Qt.ColorScheme.Light, "light"), (Qt.ColorScheme.Dark, "dark"))
        if scale == 1
        else ((Qt.ColorScheme.Light, "scaled"),)
    )
    for scheme, name in schemes:
        apply_scheme(app, scheme)
        for page, _ in PAGES:
            window.show_page(page)
            prepare(window, page)
            settle(app, 2.5)
            target = OUT / f"{name}-{page.lower()}.png"
            window.grab().save(str(target))
            saved.append(target)
        wizard = FirstRunWizard(needs_passphrase=True)
        wizard.resize(760, 520)
        wizard.show()
        for step in ("first-run", "first-run-store"):
            settle(app, 1)
            target = OUT / f"{name}-{step}.png"
            wizard.grab().save(str(target))
            saved.append(target)
            wizard.next()
        wizard.close()
        key = RecoveryKeyDialog(FICTIONAL_RECOVERY_KEY)
        key.show()
        settle(app, 1)
        target = OUT / f"{name}-first-run-recovery-key.png"
        key.grab().save(str(target))
        saved.append(target)
        key.confirm.setChecked(True)
        key.accept()
    ops.shutdown()
    vault.close()
    return saved


def prepare(window: object, page: str) -> None:
    """Put each view in a state that shows what it is for."""
    view = window.page(page)  # type: ignore[attr-defined]
    if page == "Memories" and not view.search.text():
        view.search.setText("kitchen")
        limit = time.monotonic() + 10
        while (view.shown_query is None or view.shown_query.text != "kitchen") and time.monotonic() < limit:
            settle(window, 0.05)
        view.table.selectRow(0)  # a record in the detail pane too
    if page == "Inbox" and view.items:
        view.table.selectRow(1 if len(view.items) > 1 else 0)


def sandbox(prefix: str) -> Path:
    """A temp folder that is this process's HOME and XDG folders, and a passphrase store's setup:
    rendering never touches the person's own data or keyring."""
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ.update(
        {
            "MEMVAULT_PASSPHRASE": "fictional screenshot passphrase",
            "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
            "MEMVAULT_EMBEDDINGS": "off",
            "HOME": str(folder / "home"),
            "XDG_CONFIG_HOME": str(folder / "config"),
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_RUNTIME_DIR": str(folder / "run"),
        }
    )
    for sub in ("home", "config", "data", "run"):
        (folder / sub).mkdir(mode=0o700)
    return folder


def main() -> int:
    folder = sandbox("memvault-shots-")
    scale = int(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else 1
    server = start_x(scale)
    try:
        home = make_demo(folder)
        stage_proposals(home)
        for path in shoot(home, scale):
            print(path.relative_to(ROOT))
    finally:
        server.terminate()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
