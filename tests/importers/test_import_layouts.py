"""Every layout a person hands over is told apart by what its files hold: ChatGPT and Claude exports as
a zip, an unzipped folder or their conversations.json; Codex sessions as ~/.codex, its sessions folder
or one rollout file. What matches nothing is refused, saying what was found (names, never content)."""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "import_eval"))

import build_set  # the evaluation set's writers of real export layouts

from memvault.core.importers.conversation import ImportFormatError
from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Conflict, InvalidArgument
from memvault.core.vocabulary.model import OWNER


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


@pytest.fixture(scope="module")
def three() -> list[dict[str, Any]]:
    """Three conversations of the evaluation set (fictional), in whatever format a test writes."""
    chosen = {c["template"]: c for c in build_set.conversations() if c["instance"] == 0}
    return [chosen["en-dentist-remind"], chosen["en-job-no-longer"], chosen["de-zahnarzt"]]


def _chatgpt_zip(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_chatgpt(items, at / "chatgpt-export", zipped=True)


def _chatgpt_folder(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_chatgpt(items, at / "chatgpt-export", zipped=False)


def _chatgpt_nested(items: list[dict[str, Any]], at: Path) -> Path:
    build_set.write_chatgpt(items, at / "Downloads" / "chatgpt-2026-03-01", zipped=False)
    return at / "Downloads"  # an unzipped archive often adds a folder


def _claude_folder(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_claude(items, at / "claude-export", zipped=False)


def _claude_zip(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_claude(items, at / "claude-export", zipped=True)


def _claude_json(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_claude(items, at / "claude-export", zipped=False) / "conversations.json"


def _dot_codex(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_codex(items, at / ".codex")


def _codex_sessions(items: list[dict[str, Any]], at: Path) -> Path:
    return build_set.write_codex(items, at / ".codex") / "sessions"


LAYOUTS = [
    (_chatgpt_zip, "chatgpt"), (_chatgpt_folder, "chatgpt"), (_chatgpt_nested, "chatgpt"),
    (_claude_folder, "claude"), (_claude_zip, "claude"), (_claude_json, "claude"),
    (_dot_codex, "codex"), (_codex_sessions, "codex"),
]  # fmt: skip


@pytest.mark.parametrize(("write", "fmt"), LAYOUTS, ids=[w.__name__.strip("_") for w, _ in LAYOUTS])
def test_each_layout_is_told_apart_by_its_content(
    vault: Vault, tmp_path: Path, three: list[dict[str, Any]], write: Any, fmt: str
) -> None:
    path = write(three, tmp_path)
    summary = vault.imports.inspect(OWNER, str(path))
    assert (summary["format"], summary["conversations"]) == (fmt, 3)
    report = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert report["format"] == fmt and report["inventory"]["conversations"] == 3
    said = " ".join(str(a["statement"]) for a in report["additions"] + report["corrections"])
    assert three[0]["expect"][0]["gist"].split(" on ")[1].split(" at ")[0] in said  # the dentist's date


def test_an_unzipped_export_is_the_same_export_as_its_conversations_json(
    vault: Vault, tmp_path: Path, three: list[dict[str, Any]]
) -> None:
    folder = _claude_folder(three, tmp_path)
    done = vault.imports.run(OWNER, ImportRequest(path=str(folder), commit=True))
    assert done["format"] == "claude" and done["counts"]["added"] >= 3
    again = ImportRequest(path=str(folder / "conversations.json"), commit=True)
    with pytest.raises(Conflict, match="already imported"):  # the same bytes, whichever path names them
        vault.imports.run(OWNER, again)


def test_one_rollout_file_and_a_session_named_otherwise_are_codex(
    vault: Vault, tmp_path: Path, three: list[dict[str, Any]]
) -> None:
    rollout = next(build_set.write_codex(three, tmp_path / ".codex").rglob("rollout-*.jsonl"))
    renamed = tmp_path / "session.jsonl"
    shutil.copy(rollout, renamed)
    assert vault.imports.inspect(OWNER, str(rollout))["format"] == "codex"
    assert vault.imports.inspect(OWNER, str(renamed))["format"] == "codex"
    memvault_lines = tmp_path / "rollout-notes.jsonl"  # a memvault JSONL history, whatever its name says
    memvault_lines.write_text(json.dumps({"conversation": "c1", "role": "user", "text": "I live in Porto."}) + "\n")
    assert vault.imports.inspect(OWNER, str(memvault_lines))["format"] == "jsonl"


def test_content_wins_over_the_files_beside_it(vault: Vault, tmp_path: Path, three: list[dict[str, Any]]) -> None:
    folder = _chatgpt_folder(three, tmp_path)  # ChatGPT's user.json and chat.html beside it...
    (folder / "conversations.json").write_text(json.dumps([build_set.claude(c) for c in three]))  # ...Claude's content
    assert vault.imports.inspect(OWNER, str(folder))["format"] == "claude"


@pytest.mark.parametrize(("beside", "fmt"), [("users.json", "claude"), ("chat.html", "chatgpt")])
def test_an_empty_export_is_told_by_the_files_beside_it(vault: Vault, tmp_path: Path, beside: str, fmt: str) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "conversations.json").write_text("[]")
    (folder / beside).write_text("[]")
    summary = vault.imports.inspect(OWNER, str(folder))
    assert (summary["format"], summary["conversations"]) == (fmt, 0)
    (folder / beside).unlink()
    with pytest.raises(ImportFormatError, match="an empty list of conversations"):
        vault.imports.inspect(OWNER, str(folder))


def test_a_folder_without_an_export_says_what_it_holds(vault: Vault, tmp_path: Path) -> None:
    folder = tmp_path / "Downloads"
    (folder / "photos").mkdir(parents=True)
    (folder / "notes.txt").write_text("Lindqvist garden plan (fictional)")
    (folder / "claude-data.zip").write_bytes(b"")
    with pytest.raises(InvalidArgument) as refused:
        vault.imports.run(OWNER, ImportRequest(path=str(folder)))
    message = refused.value.message
    assert "no export found" in message and "notes.txt" in message and "1 folder (photos)" in message
    assert "give it: claude-data.zip" in message and "conversations.json" in message and "rollout-" in message
    assert "Lindqvist" not in message


def test_an_account_file_given_for_conversations_names_its_fields_not_its_content(vault: Vault, tmp_path: Path) -> None:
    users = tmp_path / "users.json"
    users.write_text(json.dumps([{"uuid": "u1", "full_name": "Sam Fictional", "email_address": "sam@example.com"}]))
    with pytest.raises(ImportFormatError) as refused:
        vault.imports.inspect(OWNER, str(users))
    message = refused.value.message
    assert "conversations[0]" in message and "email_address, full_name, uuid" in message
    assert "give conversations.json, the folder or the zip" in message
    assert "Sam Fictional" not in message and "sam@example.com" not in message


def test_zips_and_folders_that_hold_something_else_are_refused_naming_it(
    vault: Vault, tmp_path: Path, three: list[dict[str, Any]]
) -> None:
    sessions = build_set.write_codex(three, tmp_path / ".codex")
    zipped = tmp_path / "codex.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        for path in sessions.rglob("*.jsonl"):
            archive.write(path, path.relative_to(tmp_path).as_posix())
    with pytest.raises(ImportFormatError, match="unzip it and give the folder"):
        vault.imports.inspect(OWNER, str(zipped))
    two = tmp_path / "two"
    for name in ("a", "b"):
        build_set.write_claude(three, two / name, zipped=False)
    with pytest.raises(InvalidArgument, match=r"several exports in it \(a/conversations\.json, b/conv"):
        vault.imports.inspect(OWNER, str(two))
    with pytest.raises(InvalidArgument, match=r"no conversations\.json in it"):
        vault.imports.inspect(OWNER, str(sessions), fmt="claude")
