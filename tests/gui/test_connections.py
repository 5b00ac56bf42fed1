"""Settings → Connections and the tray's connection requests, on a real store with requests made through
`vault.oauth` as the HTTP front end makes them: approving (all the scopes, or fewer) sends the consent
page's next load back to the client with a code; denying sends it back with access_denied; revoking asks
first and stops the connection's tokens; a request waiting shows its age and leaves when it expires; the
tray says once per request who asks and its pairing code, nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from test_accessibility import unnamed

from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import FixedClock
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.oauth import Issued, StartedRequest
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.tray import Tray, client_name
from memvault.desktop.gui.windows.connections import NO_CONNECTIONS, NO_REQUESTS, ConnectionsPanel
from memvault.desktop.gui.windows.settings import SettingsView
from memvault.mcp_bridge.oauth.consent_page import respond

ISSUER = "https://memvault.example.net"
RESOURCE = ISSUER + "/mcp"
CHATGPT_BACK = "https://chatgpt.com/connector_platform_oauth_redirect"
EVERY_SCOPE = ["memory:read", "memory:propose", "memory:write", "memory:delete"]


def ask(
    vault: Vault, name: str = "ChatGPT", scopes: list[str] | None = None, redirect: str = CHATGPT_BACK
) -> StartedRequest:
    """A request as `/authorize` records it: the client registered, the page waiting for the person."""
    client_id = f"client-{name.lower().replace(' ', '-')[:20]}-{len(vault.oauth.pending(OWNER))}"
    vault.oauth.register_client(client_id, None, {"client_name": name, "redirect_uris": [redirect]})
    return vault.oauth.start_request(
        client_id=client_id,
        scopes=scopes or ["memory:read", "memory:propose", "memory:write"],
        redirect_uri=redirect,
        redirect_explicit=True,
        code_challenge="c" * 43,
        state="st-1",
        resource=RESOURCE,
    )


def connect(vault: Vault, name: str) -> Issued:
    """A connection made the whole way: asked, approved, the page's code exchanged for tokens."""
    started = ask(vault, name, ["memory:read"])
    vault.oauth.approve(OWNER, started["id"])
    code = vault.oauth.page(started["page"])["code"]
    assert code
    return vault.oauth.exchange_code(code)


def next_load(vault: Vault, started: StartedRequest) -> dict[str, str]:
    """What the consent page answers at its next load (mcp_bridge/oauth/consent_page.py): the redirect's query."""
    answer = respond(vault.oauth.page(started["page"]), ISSUER)
    assert answer.status_code == 303, answer.body
    location = answer.headers["location"]
    assert location.startswith(CHATGPT_BACK)
    return {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}


def open_settings(qtbot: QtBot, ops: Operations) -> SettingsView:
    view = SettingsView(ops)
    qtbot.addWidget(view)
    view.resize(1020, 800)
    view.show()
    qtbot.waitUntil(lambda: not ops.busy, timeout=10000)
    return view


def test_approving_with_a_scope_unticked_sends_the_page_back_with_a_code_for_the_rest(
    qtbot: QtBot, ops: Operations, vault: Vault
) -> None:
    started = ask(vault)
    view = open_settings(qtbot, ops)
    panel = view.connections
    qtbot.waitUntil(lambda: started["id"] in panel.cards, timeout=10000)
    card = panel.cards[started["id"]]
    assert card.pairing.text() == started["id"]
    assert "Returns to chatgpt.com" in card.details.text() and "10 minutes left" in card.details.text()
    assert list(card.checks) == ["memory:read", "memory:propose", "memory:write"]
    assert view.waiting.isVisible() and started["id"] in view.waiting.text.text()
    assert unnamed(panel) == []
    assert respond(vault.oauth.page(started["page"]), ISSUER).status_code == 200  # the page still waits

    write = card.checks["memory:write"]
    write.setFocus()
    qtbot.keyClick(write, Qt.Key.Key_Space)  # by keyboard
    assert not write.isChecked()
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Approved" in panel.message.text(), timeout=10000)
    qtbot.waitUntil(lambda: not panel.cards and panel.no_requests.isVisible(), timeout=10000)
    assert not view.waiting.isVisible()

    back = next_load(vault, started)
    assert back["state"] == "st-1" and back["iss"] == ISSUER and back["code"].startswith("mvc_")
    issued = vault.oauth.exchange_code(back["code"])
    assert issued["scopes"] == ["memory:read", "memory:propose"]
    # The exchange writes nothing to the change feed; the section keeps looking for a while after an answer.
    qtbot.waitUntil(lambda: panel.table.row_count() == 1, timeout=10000)
    assert [panel.table.text(0, c) for c in (0, 1, 4)] == ["ChatGPT", "read, propose", "live"]


def test_denying_by_keyboard_sends_the_page_back_with_access_denied(
    qtbot: QtBot, ops: Operations, vault: Vault
) -> None:
    started = ask(vault, "Claude")
    view = open_settings(qtbot, ops)  # held: pytest-qt keeps only a weak reference
    panel = view.connections
    qtbot.waitUntil(lambda: started["id"] in panel.cards, timeout=10000)
    deny = panel.cards[started["id"]].deny_button
    deny.setFocus()
    qtbot.keyClick(deny, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: f"Denied {started['id']} (Claude)" in panel.message.text(), timeout=10000)
    back = next_load(vault, started)
    assert back["error"] == "access_denied" and "code" not in back
    assert vault.oauth.pending(OWNER) == [] and vault.oauth.connections(OWNER) == []


def test_a_request_answered_elsewhere_leaves_and_an_answer_too_late_is_said(
    qtbot: QtBot, ops: Operations, vault: Vault
) -> None:
    started = ask(vault)
    view = open_settings(qtbot, ops)  # held: pytest-qt keeps only a weak reference
    panel = view.connections
    qtbot.waitUntil(lambda: started["id"] in panel.cards, timeout=10000)
    card = panel.cards[started["id"]]
    vault.oauth.deny(OWNER, started["id"])  # e.g. `memvault connections deny` meanwhile
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "no longer waiting" in panel.message.text(), timeout=10000)
    qtbot.waitUntil(lambda: not panel.cards, timeout=10000)
    assert next_load(vault, started)["error"] == "access_denied"


def test_revoking_asks_first_then_stops_the_connections_tokens(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    issued = connect(vault, "ChatGPT")
    assert vault.oauth.authenticate(issued["access_token"], RESOURCE) is not None
    view = open_settings(qtbot, ops)  # held: pytest-qt keeps only a weak reference
    panel = view.connections
    qtbot.waitUntil(lambda: panel.table.row_count() == 1, timeout=10000)
    assert not panel.revoke_button.isEnabled()  # nothing selected
    panel.table.setFocus()
    panel.table.selectRow(0)
    assert panel.revoke_button.isEnabled()

    qtbot.keyClick(panel.table, Qt.Key.Key_Delete)
    box = panel.confirmation
    assert isinstance(box, QMessageBox) and box.isVisible() and "Revoke ChatGPT?" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: not ops.busy, timeout=10000)
    assert vault.oauth.authenticate(issued["access_token"], RESOURCE) is not None  # cancelled: nothing changed

    qtbot.mouseClick(panel.revoke_button, Qt.MouseButton.LeftButton)
    box = panel.confirmation
    assert box is not None
    revoke = next(b for b in box.buttons() if b.text() == "Revoke")
    revoke.click()
    qtbot.waitUntil(lambda: "Revoked" in panel.message.text(), timeout=10000)
    assert vault.oauth.authenticate(issued["access_token"], RESOURCE) is None
    assert vault.oauth.refresh_grant(issued["refresh_token"]) is None
    qtbot.waitUntil(lambda: panel.table.text(0, 4).startswith("revoked"), timeout=10000)
    panel.table.selectRow(0)
    assert not panel.revoke_button.isEnabled()  # a revoked connection cannot be revoked again


def test_the_empty_states_say_what_to_do(qtbot: QtBot, ops: Operations) -> None:
    view = open_settings(qtbot, ops)
    panel = view.connections
    assert panel.no_requests.isVisible() and panel.no_requests.text() == NO_REQUESTS
    assert panel.no_connections.isVisible() and panel.no_connections.text() == NO_CONNECTIONS
    assert "--public-url" in NO_CONNECTIONS and "docs/oauth.md" in NO_CONNECTIONS
    assert not panel.table.isVisible() and not panel.revoke_button.isVisible()
    assert not view.waiting.isVisible() and not panel.cards and not panel.timer.isActive()
    panel.revoke_selected()
    assert panel.confirmation is None and "Select a live connection" in panel.message.text()


@pytest.fixture
def clocked_ops(clocked_vault: Vault, qtbot: QtBot) -> Iterator[Operations]:
    operations = Operations(clocked_vault)
    yield operations
    operations.shutdown()


def test_a_waiting_request_ages_keeps_its_ticks_and_leaves_when_it_expires(
    qtbot: QtBot, clocked_ops: Operations, clocked_vault: Vault, clock: FixedClock
) -> None:
    started = ask(clocked_vault, "ChatGPT", EVERY_SCOPE)
    panel = ConnectionsPanel(clocked_ops)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: started["id"] in panel.cards, timeout=10000)
    card = panel.cards[started["id"]]
    assert panel.timer.isActive()  # while a request waits
    card.checks["memory:delete"].setChecked(False)
    clock.advance(minutes=4)
    panel.reload()
    qtbot.waitUntil(lambda: "6 minutes left" in card.details.text(), timeout=10000)
    assert "asked 4 minutes ago" in card.details.text()
    assert panel.cards[started["id"]] is card and not card.checks["memory:delete"].isChecked()
    clock.advance(minutes=5, seconds=40)
    panel.reload()
    qtbot.waitUntil(lambda: "expires in under a minute" in card.details.text(), timeout=10000)
    clock.advance(seconds=30)
    panel.reload()
    qtbot.waitUntil(lambda: not panel.cards and panel.no_requests.isVisible(), timeout=10000)
    assert clocked_vault.oauth.page(started["page"])["status"] == "expired"


def test_a_clients_name_is_shown_as_plain_text_on_one_line(qtbot: QtBot, ops: Operations, vault: Vault) -> None:
    started = ask(vault, '<img src="https://x.example/p.png"><b>Claude</b>\nofficial', ["memory:read"])
    view = open_settings(qtbot, ops)  # held: pytest-qt keeps only a weak reference
    panel = view.connections
    qtbot.waitUntil(lambda: started["id"] in panel.cards, timeout=10000)
    title = panel.cards[started["id"]].findChildren(type(panel.message))[0]
    assert title.textFormat() == Qt.TextFormat.PlainText
    assert title.text() == '<img src="https://x.example/p.png"><b>Claude</b> official asks to connect'
    assert client_name("x" * 500).endswith("…") and len(client_name("x" * 500)) == 60
    assert client_name(None) == client_name("  \t") == "An unnamed application"


def test_the_tray_says_once_per_request_who_asks_and_its_pairing_code_only(
    qtbot: QtBot, ops: Operations, vault: Vault
) -> None:
    tray = Tray(ops)
    qtbot.waitUntil(lambda: tray.pending >= 0 and not ops.busy, timeout=10000)
    assert not tray.requests_waiting
    started = ask(vault, "ChatGPT")
    with qtbot.waitSignal(tray.connection_requested, timeout=10000) as told:
        tray.look_for_requests()
    assert told.args == [f"ChatGPT asks to connect — open memvault to approve (code {started['id']})."]
    assert started["page"] not in told.args[0]
    assert tray.requests_waiting == {started["id"]} and "1 connection request waiting" in tray.summary()

    with qtbot.assertNotEmitted(tray.connection_requested, wait=500):
        tray.look_for_requests()  # the same request: no second notice
        qtbot.waitUntil(lambda: not ops.busy, timeout=10000)

    other = ask(vault, "Claude")
    with qtbot.waitSignal(tray.connection_requested, timeout=10000) as told:
        tray.look_for_requests()
    assert told.args == [f"Claude asks to connect — open memvault to approve (code {other['id']})."]
    assert started["id"] not in told.args[0]

    vault.oauth.deny(OWNER, started["id"])
    vault.oauth.deny(OWNER, other["id"])
    tray.look_for_requests()
    qtbot.waitUntil(lambda: not tray.requests_waiting, timeout=10000)
    assert "connection request" not in tray.summary()
    tray.dispose()


def test_the_trays_look_brings_a_new_request_into_an_open_settings_page(
    qtbot: QtBot, ops: Operations, vault: Vault
) -> None:
    tray = Tray(ops)
    view = open_settings(qtbot, ops)
    assert not view.connections.cards
    started = ask(vault, "ChatGPT")  # the feed says nothing of a new request; the tray's look finds it
    tray.look_for_requests()
    qtbot.waitUntil(lambda: started["id"] in view.connections.cards, timeout=10000)
    qtbot.waitUntil(view.waiting.isVisible, timeout=10000)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=5000)
    qtbot.mouseClick(view.waiting.button, Qt.MouseButton.LeftButton)
    assert view.connections.cards[started["id"]].approve_button.hasFocus()
    tray.dispose()
