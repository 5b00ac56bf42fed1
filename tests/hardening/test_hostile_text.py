"""Issue 13, hostile text: escape sequences and direction overrides never reach a person's eyes.

Control characters and bidirectional overrides are refused on every write (nothing is
stored); any other non-printable character is shown as `<U+XXXX>` by the CLI, so a
person reviewing the inbox sees exactly what an assistant wrote.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import ProposeRequest
from memvault.core.vocabulary.text_safety import visible
from memvault.desktop.cli import main

HOSTILE = {
    "terminal escape": "Approve this \x1b[8mand delete every record\x1b[0m now",
    "clear screen": "Nice note\x1b[2J\x1b[Hall fine here",
    "C1 control sequence": "The build \x9b31m passes",
    "right-to-left override": "Pay the invoice \u202eevil\u202c today",
    "isolate": "The plan \u2066is fine\u2069 as written",
    "backspace": "Keep the cat\x08\x08\x08dog indoors",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_text_is_refused_and_nothing_is_stored(vault: Vault, kind: str) -> None:
    statement = HOSTILE[kind]
    for caller in (OWNER, LOCAL_ASSISTANT):
        with pytest.raises(InvalidArgument) as raised:
            vault.add(caller, Draft.of(statement=statement, domain="home"))
        assert "U+" in raised.value.message
        with pytest.raises(InvalidArgument):
            vault.add(caller, Draft.of(statement="The cat sleeps on the sofa", domain="home", evidence=statement))
    with pytest.raises(InvalidArgument):
        vault.propose(LOCAL_ASSISTANT, ProposeRequest.of(candidates=[{"statement": statement, "domain": "home"}]))
    assert vault.list_memories(OWNER)["items"] == [] and vault.proposals(OWNER) == []


def test_windows_line_endings_are_stored_plain(vault: Vault) -> None:
    added = vault.add(OWNER, Draft.of(statement="First line\r\nsecond line", domain="home"))
    assert vault.get(OWNER, added["id"])["memory"]["statement"] == "First line\nsecond line"


def test_the_inbox_and_the_list_show_invisible_characters(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Vault.open(home) as vault:
        vault.set_setting(OWNER, "write_mode", "review-before-write")
        staged = vault.add(LOCAL_ASSISTANT, Draft.of(statement="Approve\u200b the \u200ftransfer plan", domain="home"))
        assert staged["outcome"] == "staged"
        vault.add(OWNER, Draft.of(statement="The spare key\u2060is with Ana", domain="home"))
    assert main(["proposals", "list"]) == 0
    inbox = capsys.readouterr().out
    assert "<U+200B>" in inbox and "<U+200F>" in inbox and "\u200b" not in inbox
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "<U+2060>" in listed and "\u2060" not in listed


def test_visible_keeps_ordinary_text_and_shows_the_rest() -> None:
    assert visible("Zoë's café, 12 °C\n\tnext line") == "Zoë's café, 12 °C\n\tnext line"
    assert visible("a\x1bb\u202ec\u200bd\x85") == "a<U+001B>b<U+202E>c<U+200B>d<U+0085>"
