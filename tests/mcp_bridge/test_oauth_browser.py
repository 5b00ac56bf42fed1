"""The consent page in a real headless Chromium: it shows the client, the scopes and the pairing
code, waits while the person approves in the CLI, then takes the browser back to the client.
Skipped where Chromium, its driver or selenium is missing (apt: chromium chromium-driver; packaging/test.sh
installs them where it can), or where the command found does not run (Ubuntu's snap wrappers in a container)."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.mcp_bridge.oauthkit import Browser, Served, free_port, pkce, query_of, serving

webdriver = pytest.importorskip("selenium.webdriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _runs(command: str | None) -> bool:
    if command is None:
        return False
    try:
        done = subprocess.run([command, "--version"], check=False, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


pytestmark = pytest.mark.skipif(not (_runs(CHROMIUM) and _runs(DRIVER)), reason="needs chromium and chromium-driver")
# The docs' picture is refreshed only on request (it shows a random code and port each run).
DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "oauth-consent.png"


class _Callback(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>client</title><p>back at the client</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:  # quiet
        return


@pytest.fixture
def callback() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Callback)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/callback"
    finally:
        server.shutdown()


@pytest.fixture
def served(template_home: Path, tmp_path: Path) -> Iterator[Served]:
    with serving(template_home, tmp_path) as running:
        yield running


@pytest.fixture
def chromium() -> Iterator[object]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=900,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def test_the_consent_page_waits_for_the_cli_then_returns_to_the_client(
    served: Served, callback: str, chromium: object, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415

    driver: object = chromium
    browser = Browser(served)
    client = browser.register(redirect=callback, name="Claude (web)")
    verifier, challenge = pkce()
    driver.get(browser.authorize_url(client, challenge, scope="memory:read memory:propose"))  # type: ignore[attr-defined]
    assert driver.title == "Connect to memvault?"  # type: ignore[attr-defined]
    pairing = driver.find_element(By.CLASS_NAME, "code").text  # type: ignore[attr-defined]
    text = driver.find_element(By.TAG_NAME, "main").text  # type: ignore[attr-defined]
    assert "Claude (web) asks to connect" in text and "memory:propose" in text and "memory:write" not in text
    shot = DOCS_SCREENSHOT if os.environ.get("MEMVAULT_WRITE_SCREENSHOTS") else tmp_path / "oauth-consent.png"
    assert driver.save_screenshot(str(shot))  # type: ignore[attr-defined]
    assert shot.read_bytes().startswith(b"\x89PNG")
    time.sleep(2.5)  # a reload or two while nobody has answered: still waiting
    assert driver.current_url.startswith(served.base + "/consent/")  # type: ignore[attr-defined]
    served.cli("connections", "approve", pairing)
    deadline = time.monotonic() + 20
    while not driver.current_url.startswith(callback):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the page did not send the browser back"
        time.sleep(0.2)
    back = query_of(driver.current_url)  # type: ignore[attr-defined]
    assert back["state"] == "st-1" and back["iss"] == served.base
    issued = browser.exchange(client, back["code"], verifier)
    assert issued.status_code == 200 and issued.json()["scope"] == "memory:read memory:propose"
