"""Render Settings → Connections with one connection and one waiting request under Xvfb, light and dark.

    python packaging/connections_screenshots.py     # needs what screenshots.py needs (Xvfb)

Uses screenshots.py's X server and demo store. The connection (a fictional "Claude" made three days
ago, last active two hours ago) and the request ("ChatGPT", asked two minutes ago) are made through
`Vault.oauth` as the HTTP front end makes them, with a clock set back for their times.
Writes docs/screenshots/{light,dark}-connections.png. Look at them before publishing.
"""

from __future__ import annotations

import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from screenshots import OUT, ROOT, make_demo, sandbox, settle, start_x

RESOURCE = "https://memvault.example.net/mcp"


def connect(home: Path) -> None:
    """A connection made three days ago (renewed two hours ago), and a request made two minutes ago."""
    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.core.vocabulary.clock import FixedClock  # noqa: PLC0415
    from memvault.core.vocabulary.model import OWNER  # noqa: PLC0415

    now = datetime.now(UTC)
    clock = FixedClock(now - timedelta(days=3))
    with Vault.open(home, clock=clock) as vault:
        oauth = vault.oauth
        back = "https://claude.ai/api/mcp/auth_callback"
        oauth.register_client("claude-web", None, {"client_name": "Claude", "redirect_uris": [back]})
        started = oauth.start_request(
            client_id="claude-web",
            scopes=["memory:read", "memory:propose"],
            redirect_uri=back,
            redirect_explicit=True,
            code_challenge="c" * 43,
            state="s",
            resource=RESOURCE,
        )
        oauth.approve(OWNER, started["id"])
        code = oauth.page(started["page"])["code"]
        assert code
        issued = oauth.exchange_code(code)
        clock.advance(days=2, hours=22)
        oauth.exchange_refresh(issued["refresh_token"], issued["scopes"])
        clock.advance(hours=1, minutes=58)
        back = "https://chatgpt.com/connector_platform_oauth_redirect"
        oauth.register_client("chatgpt", None, {"client_name": "ChatGPT", "redirect_uris": [back]})
        oauth.start_request(
            client_id="chatgpt",
            scopes=["memory:read", "memory:propose", "memory:write"],
            redirect_uri=back,
            redirect_explicit=True,
            code_challenge="c" * 43,
            state="s",
            resource=RESOURCE,
        )


def shoot(home: Path) -> list[Path]:
    from PySide6.QtCore import Qt  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from memvault.core.vault import Vault  # noqa: PLC0415
    from memvault.desktop.gui.main_window import MainWindow  # noqa: PLC0415
    from memvault.desktop.gui.operations import Operations  # noqa: PLC0415
    from memvault.desktop.gui.theme import apply_scheme  # noqa: PLC0415
    from memvault.desktop.gui.tray import Tray  # noqa: PLC0415
    from memvault.desktop.gui.windows.settings import SettingsView  # noqa: PLC0415

    app = QApplication.instance() or QApplication(["memvault"])
    assert isinstance(app, QApplication)
    vault = Vault.open(home)
    ops = Operations(vault)
    window = MainWindow(ops, Tray(ops))
    window.resize(1020, 630)
    window.show()
    settle(app, 3)
    saved = []
    for scheme, name in ((Qt.ColorScheme.Light, "light"), (Qt.ColorScheme.Dark, "dark")):
        apply_scheme(app, scheme)
        window.show_page("Settings")
        settle(app, 2)
        view = window.page("Settings")
        assert isinstance(view, SettingsView)
        view.connections.table.clearSelection()
        view.show_connections()
        settle(app, 1.5)
        target = OUT / f"{name}-connections.png"
        window.grab().save(str(target))
        saved.append(target)
    window.shutdown()
    ops.shutdown()
    vault.close()
    return saved


def main() -> int:
    folder = sandbox("memvault-connections-shots-")
    server = start_x(1)
    try:
        home = make_demo(folder)
        connect(home)
        for path in shoot(home):
            print(path.relative_to(ROOT))
    finally:
        server.terminate()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
