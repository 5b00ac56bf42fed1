"""Render the app's views with the fictional demo data under a real X server, light and dark, at three sizes.

    python packaging/screenshots.py                      # the committed set, into docs/screenshots/
    python packaging/screenshots.py --every --out DIR    # every view x size x scheme, to look through
    python packaging/screenshots.py --every --out DIR --home DEMO --views memories,graph
                                    # a copy of a demo home made before (with its proposals and benchmark), some views
                                                         # (Debian: xvfb xauth libxcb-icccm4 libxcb-keysyms1)

Sizes: the app's default window (1020x630), a large window (1600x1000) and the default window at
200 % (QT_SCALE_FACTOR=2, a process of its own). The committed set is modest: every view at the
default size (`{scheme}-{view}.png`, the names the README and docs/desktop.md show), the first-run
pictures, and a few views at the other sizes (`{scheme}-{view}-1600x1000.png`, `...-200pc.png`).
Not part of CI: look at each picture before publishing it.

The demo store is made in a temporary folder (`memvault demo --home`), an assistant's proposals are
staged in it so the inbox has something to show, and the small benchmark suite is run in it so the
Benchmark page has a report and a plot.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
DISPLAY = ":97"
SCREEN = (2400, 1600)  # room for the largest window (1020x630 at 200 %)
FICTIONAL_RECOVERY_KEY = "K7QM-2XPA-HC4R-WN6E-TJ3L-PV5D-QF7Y-MB2S"  # made up for the picture: opens nothing


@dataclass(frozen=True)
class Size:
    name: str  # "" for the default window: the plain names the docs show
    scale: int
    window: tuple[int, int]  # logical pixels


SIZES = (Size("", 1, (1020, 630)), Size("1600x1000", 1, (1600, 1000)), Size("200pc", 2, (1020, 630)))
SCHEMES = ("light", "dark")
# Committed besides every view at the default size: (scheme, view) per size.
KEPT = {
    "1600x1000": {("light", "memories"), ("dark", "memories"), ("light", "graph"), ("dark", "graph")},
    "200pc": {("light", "memories"), ("dark", "inbox")},
}


def start_x(scale: int = 1, screen: tuple[int, int] = SCREEN) -> subprocess.Popen[bytes]:
    """Xvfb on DISPLAY (the environment points Qt at it, at `scale`); it ends with `terminate()`."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise SystemExit("Xvfb is missing (Debian: apt-get install xvfb xauth libxcb-icccm4 libxcb-keysyms1)")
    width, height = screen
    server = subprocess.Popen(
        [xvfb, DISPLAY, "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL
    )
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


def run_benchmark(home: Path) -> None:
    """The small suite (fictional data, its own temporary stores): the Benchmark page's report and plot."""
    env = {**os.environ, "MEMVAULT_EMBEDDINGS": "off"}
    command = ["bench", "memory", "--suite", "small", "--in-process", "--home", str(home)]
    subprocess.run([sys.executable, "-m", "memvault.desktop.cli", *command], check=True, env=env, capture_output=True)


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


def wanted(size: Size, scheme: str, view: str, every: bool) -> bool:
    only = _option("--views")
    if only and view not in only.split(","):
        return False
    return every or not size.name or (scheme, view) in KEPT.get(size.name, set())


def file_name(scheme: str, view: str, size: Size) -> str:
    return f"{scheme}-{view}{'-' + size.name if size.name else ''}.png"


def shoot(home: Path, scale: int, out: Path, every: bool) -> list[Path]:
    """Every wanted picture at this process's scale (QT_SCALE_FACTOR is read once, when the app starts)."""
    from PySide6.QtCore import Qt  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.desktop.gui.main_window import PAGES, MainWindow  # noqa: PLC0415
    from memvault.desktop.gui.operations import Operations  # noqa: PLC0415
    from memvault.desktop.gui.theme import apply_scheme  # noqa: PLC0415
    from memvault.desktop.gui.tray import Tray  # noqa: PLC0415

    app = QApplication.instance() or QApplication(["memvault"])
    assert isinstance(app, QApplication)
    vault = Vault.open(home)
    ops = Operations(vault)
    window = MainWindow(ops, Tray(ops))
    window.show()
    settle(app, 3)
    saved = []
    colours = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}
    for size in (s for s in SIZES if s.scale == scale):
        window.resize(*size.window)
        for scheme in SCHEMES:
            apply_scheme(app, colours[scheme])
            for page, _ in PAGES:
                if not wanted(size, scheme, page.lower(), every):
                    continue
                window.show_page(page)
                prepare(window, page)
                settle(app, 2.5)
                target = out / file_name(scheme, page.lower(), size)
                window.grab().save(str(target))
                saved.append(target)
            if (not size.name or every) and wanted(size, scheme, "first-run", every):
                saved += shoot_first_run(app, out, scheme, size)
    window.shutdown()
    ops.shutdown()
    vault.close()
    return saved


def shoot_first_run(app: object, out: Path, scheme: str, size: Size) -> list[Path]:
    from memvault.desktop.gui.windows.first_run import FirstRunWizard  # noqa: PLC0415
    from memvault.desktop.gui.windows.recovery_key_dialog import RecoveryKeyDialog  # noqa: PLC0415

    saved = []
    wizard = FirstRunWizard(needs_passphrase=True)
    wizard.resize(760, 520)
    wizard.show()
    for step in ("first-run", "first-run-store"):
        settle(app, 1)
        target = out / file_name(scheme, step, size)
        wizard.grab().save(str(target))
        saved.append(target)
        wizard.next()
    wizard.close()
    key = RecoveryKeyDialog(FICTIONAL_RECOVERY_KEY)
    key.show()
    settle(app, 1)
    target = out / file_name(scheme, "first-run-recovery-key", size)
    key.grab().save(str(target))
    saved.append(target)
    key.confirm.setChecked(True)
    key.accept()
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
    if page == "Graph":
        limit = time.monotonic() + 20
        while view.data is None and time.monotonic() < limit:
            settle(window, 0.1)
        hub = view.busiest_record()
        if hub is not None:
            view.select_node(hub)  # a neighbourhood highlighted, its labels shown
            view.canvas.frame_neighbourhood()


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
            "LANG": "en_GB.UTF-8",  # dates as a person's desktop shows them (Qt carries its own locale data)
            "HOME": str(folder / "home"),
            "XDG_CONFIG_HOME": str(folder / "config"),
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_RUNTIME_DIR": str(folder / "run"),
        }
    )
    for sub in ("home", "config", "data", "run"):
        (folder / sub).mkdir(mode=0o700)
    return folder


def _option(name: str, default: str | None = None) -> str | None:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main() -> int:
    out = Path(_option("--out") or OUT)
    every = "--every" in sys.argv
    home_given = _option("--shoot")
    if home_given is not None:  # one scale's pass, started by the run below
        scale = int(_option("--scale", "1") or 1)
        os.environ["QT_SCALE_FACTOR"] = str(scale)
        for path in shoot(Path(home_given), scale, out, every):
            print(path)
        return 0
    folder = sandbox("memvault-shots-")
    out.mkdir(parents=True, exist_ok=True)
    server = start_x()
    try:
        given = _option("--home")
        if given:
            home = folder / "demo"
            shutil.copytree(given, home)
        else:
            home = make_demo(folder)
            stage_proposals(home)
            run_benchmark(home)
        for scale in sorted({size.scale for size in SIZES}):
            command = [sys.executable, __file__, "--shoot", str(home), "--scale", str(scale), "--out", str(out)]
            views = _option("--views")
            command += [*(["--every"] if every else []), *(["--views", views] if views else [])]
            subprocess.run(command, check=True)
    finally:
        server.terminate()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
