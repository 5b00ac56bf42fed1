"""Render the import dialog with a dry run's review report under Xvfb, light and dark.

    python packaging/import_screenshots.py     # needs what screenshots.py needs (Xvfb)

Uses screenshots.py's X server and demo store, and a small fictional Markdown export written here
(a change that corrects a demo record, a weak sentence, a sensitive one, chatter, a request).
Writes docs/screenshots/{light,dark}-import.png. Look at them before publishing.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from screenshots import OUT, ROOT, make_demo, sandbox, settle, start_x

EXPORT = """# Atlas planning

## user
We switched the Atlas orchestrator from Dagster to Prefect. I prefer short status updates on Fridays.
I prefer oat milk in my coffee, I think. Can you summarise the meeting notes?

## assistant
Here is a summary of the meeting notes.

# Kitchen renovation
Date: 2026-11-09

## user
My budget for the kitchen worktop is 1800 euros. I need to call the tiler by Friday.
Thanks, that helps a lot.

## assistant
Good luck with the tiler.

# Check-up
Date: 2026-11-20

## user
My blood pressure is fine again after the new medication. I live in Lisbon since January.
"""


def shoot(home: Path, export: Path) -> list[Path]:
    from PySide6.QtCore import Qt  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.desktop.gui.operations import Operations  # noqa: PLC0415
    from memvault.desktop.gui.theme import apply_scheme  # noqa: PLC0415
    from memvault.desktop.gui.windows.import_dialog import ImportDialog  # noqa: PLC0415

    app = QApplication.instance() or QApplication(["memvault"])
    assert isinstance(app, QApplication)
    vault = Vault.open(home)
    ops = Operations(vault)
    saved = []
    for scheme, name in ((Qt.ColorScheme.Light, "light"), (Qt.ColorScheme.Dark, "dark")):
        apply_scheme(app, scheme)
        dialog = ImportDialog(ops)
        dialog.resize(1300, 900)
        dialog.show()
        dialog.choose(str(export))
        _wait(app, ops)
        dialog.dry_run()
        _wait(app, ops)
        settle(app, 1)
        target = OUT / f"{name}-import.png"
        dialog.grab().save(str(target))
        saved.append(target)
        dialog.close()
    ops.shutdown()
    vault.close()
    return saved


def _wait(app: object, ops: object) -> None:
    limit = time.monotonic() + 60
    settle(app, 0.3)
    while ops.busy and time.monotonic() < limit:  # type: ignore[attr-defined]
        settle(app, 0.1)


def main() -> int:
    folder = sandbox("memvault-import-shots-")
    server = start_x(1)
    try:
        home = make_demo(folder)
        export = folder / "history.md"
        export.write_text(EXPORT, encoding="utf-8")
        for path in shoot(home, export):
            print(path.relative_to(ROOT))
    finally:
        server.terminate()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
