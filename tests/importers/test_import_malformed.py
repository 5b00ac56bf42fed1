"""A file that is not what it claims, truncated or malformed: a clear error naming it and the place;
nothing is written."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from importkit import FIXTURES, content

from memvault.core.importers.conversation import ImportFormatError
from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER


def _truncated(name: str) -> bytes:
    raw = (FIXTURES / name).read_bytes()
    return raw[: len(raw) // 2]


def _chatgpt_broken_branch() -> bytes:
    data = json.loads((FIXTURES / "chatgpt_conversations.json").read_text())
    data[1]["current_node"] = "nowhere"
    return json.dumps(data).encode()


def _claude_bad_sender() -> bytes:
    data = json.loads((FIXTURES / "claude_conversations.json").read_text())
    data[0]["chat_messages"][1]["sender"] = "robot"
    return json.dumps(data).encode()


CODEX = next((FIXTURES / "codex").rglob("rollout-*.jsonl")).read_text().splitlines()
CASES = [
    ("conversations.json", "chatgpt", _truncated("chatgpt_conversations.json"), "line "),
    ("conversations.json", "chatgpt", _chatgpt_broken_branch(), "conversations[1].current_node"),
    ("conversations.json", "chatgpt", (FIXTURES / "claude_conversations.json").read_bytes(), "conversations[0]"),
    ("conversations.json", "claude", _truncated("claude_conversations.json"), "line "),
    ("conversations.json", "claude", _claude_bad_sender(), "conversations[0].chat_messages[1].sender"),
    ("conversations.json", "claude", (FIXTURES / "chatgpt_conversations.json").read_bytes(), "conversations[0]"),
    ("rollout-x.jsonl", "codex", "\n".join([*CODEX[:3], CODEX[3][:40]]).encode(), "line 4"),
    ("rollout-x.jsonl", "codex", (FIXTURES / "generic.jsonl").read_bytes(), "line 1"),
    ("history.jsonl", "jsonl", (FIXTURES / "generic.jsonl").read_bytes()[:-30], "line 4"),
    ("history.jsonl", "jsonl", b'{"conversation": "a", "role": "robot", "text": "hi"}\n', "line 1"),
    ("history.md", "markdown", b"Some text without a title\n# Title\n", "line 1"),
    ("history.md", "markdown", b"# Title\n## narrator\nhello\n", "line 2"),
    ("history.md", "markdown", b"# Title\nDate: yesterday-ish\n", "line 2"),
    ("notes.json", "auto", b'{"not": "an export"}', "top"),
    ("conversations.json", "chatgpt", b"\xff\xfe not utf-8", "byte 0"),
]


@pytest.mark.parametrize(("name", "fmt", "raw", "place"), CASES)
@pytest.mark.parametrize("commit", [False, True])
def test_a_malformed_file_is_refused_naming_the_place(
    vault: Vault, tmp_path: Path, name: str, fmt: str, raw: bytes, place: str, commit: bool
) -> None:
    path = tmp_path / name
    path.write_bytes(raw)
    before = content(vault)
    events = vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0]
    with pytest.raises(ImportFormatError) as refused:
        vault.imports.run(OWNER, ImportRequest.parse({"path": str(path), "format": fmt, "commit": commit}))
    assert str(path) in refused.value.message and place in refused.value.message
    assert "nothing was imported" in refused.value.message
    assert content(vault) == before
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0] == events
    assert path.read_bytes() == raw


def test_a_zip_without_conversations_is_refused(vault: Vault, tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("chat.html", "<html></html>")
    with pytest.raises(ImportFormatError, match=r"no conversations\.json"):
        vault.imports.run(OWNER, ImportRequest.parse({"path": str(path)}))


@pytest.mark.parametrize(
    "args", [{"path": "x", "format": "myspace"}, {"path": "x", "chunk_size": 0}, {"path": "x", "bogus": 1}, {}]
)
def test_bad_requests_are_invalid_arguments(args: dict[str, object]) -> None:
    with pytest.raises(InvalidArgument):
        ImportRequest.parse(args)


def test_a_missing_path_is_refused(vault: Vault, tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="no such file"):
        vault.imports.run(OWNER, ImportRequest.parse({"path": str(tmp_path / "absent.json")}))
