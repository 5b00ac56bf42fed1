"""What an export cannot do to an import: nest without end, be a device, a FIFO or a link out of the
chosen folder, pass for a zip. Each is refused with a clear error naming the file and the place,
never its content, and nothing is written. Reading is a stream: conversations read window by
window are the same conversations, in the same order."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from clikit import run
from importkit import CODEX_SESSIONS, FIXTURES, chatgpt_zip, content, copy_fixture

from memvault.core.importers import readers
from memvault.core.importers.jsontext import MAX_DEPTH, CheckedStream
from memvault.core.importers.request import ImportRequest
from memvault.core.importers.watched_folder import InboxWatcher
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import InvalidArgument, MemvaultError
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.mcp_bridge.tools.importing import memory_import

DEEP = "[" * 100_000 + "]" * 100_000  # as text: no parser is asked to build it
SAID = "I prefer the river path over the main road."


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def _refused(vault: Vault, path: Path | str, fmt: str = "auto", *, commit: bool = False) -> str:
    """The refusal's message; the store is as it was."""
    before = content(vault)
    events = vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0]
    with pytest.raises(InvalidArgument) as refused:
        vault.imports.run(OWNER, ImportRequest.parse({"path": str(path), "format": fmt, "commit": commit}))
    assert content(vault) == before
    assert vault.ctx.store.raw.execute("SELECT count(*) FROM events").fetchone()[0] == events
    return refused.value.message


def _chatgpt_with_deep_part(folder: Path) -> Path:
    item = json.loads((FIXTURES / "chatgpt_conversations.json").read_text())[0]
    node = next(n for n in item["mapping"].values() if n.get("message"))
    node["message"]["content"]["parts"] = ["__DEEP__"]
    path = folder / "conversations.json"
    path.write_text(json.dumps([item]).replace('"__DEEP__"', DEEP))
    return path


def _jsonl_with_deep_line(folder: Path) -> Path:
    path = folder / "history.jsonl"
    path.write_text(
        json.dumps({"conversation": "a", "role": "user", "text": SAID}) + "\n"
        '{"conversation": "a", "role": "user", "text": ' + DEEP + "}\n"
    )
    return path


def _codex_with_deep_line(folder: Path) -> Path:
    sessions = copy_fixture(CODEX_SESSIONS, folder)
    rollout = next(sessions.rglob("rollout-*.jsonl"))
    rollout.write_text(rollout.read_text() + '{"type": "response_item", "payload": ' + DEEP + "}\n")
    return sessions


DEEP_CASES = [
    ("a file", lambda folder: _write(folder / "deep.json", "[" + DEEP + "]"), "line 1"),
    ("a ChatGPT message", _chatgpt_with_deep_part, "line 1"),
    ("a JSONL line", _jsonl_with_deep_line, "line 2"),
    ("a Codex rollout line", _codex_with_deep_line, "line "),
]


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize(("what", "make", "place"), DEEP_CASES, ids=[c[0] for c in DEEP_CASES])
@pytest.mark.parametrize("commit", [False, True])
def test_deep_nesting_is_refused_naming_the_nesting(
    vault: Vault, tmp_path: Path, what: str, make: Any, place: str, commit: bool
) -> None:
    message = _refused(vault, make(tmp_path), commit=commit)
    assert f"nested more than {MAX_DEPTH} levels deep" in message and place in message
    assert "[[" not in message and "river path" not in message


def test_deep_nesting_is_an_invalid_argument_for_mcp_and_the_cli(
    vault: Vault, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _chatgpt_with_deep_part(tmp_path)
    with pytest.raises(MemvaultError) as refused:
        memory_import(vault, LOCAL_ASSISTANT, path=str(path))
    assert refused.value.code == "invalid_argument"
    code, _, err = run(capsys, "import", str(path))
    assert code != 0 and "nested more than" in err and "bug" not in err and "RecursionError" not in err


def test_brackets_in_markdown_are_text_not_nesting(vault: Vault, tmp_path: Path) -> None:
    path = tmp_path / "history.md"
    path.write_text(f'# Brackets\nDate: 2026-03-01\n\n## user\n{SAID}\n{"[" * 500} "{"{" * 300}\n')
    report = vault.imports.run(OWNER, ImportRequest.parse({"path": str(path)}))
    assert [a["statement"] for a in report["additions"]] == [SAID]


def test_devices_are_refused(vault: Vault) -> None:
    message = _refused(vault, "/dev/zero", "jsonl")
    assert message == "/dev/zero: a device, not a regular file; nothing was imported"


def test_a_fifo_is_refused_without_waiting_for_a_writer(vault: Vault, tmp_path: Path) -> None:
    fifo = tmp_path / "history.jsonl"
    os.mkfifo(fifo)
    answer: list[BaseException | None] = []

    def attempt() -> None:
        try:
            vault.imports.run(OWNER, ImportRequest.parse({"path": str(fifo)}))
            answer.append(None)
        except BaseException as exc:  # handed to the test's thread
            answer.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=30)
    if worker.is_alive():  # free the reader stuck in open() before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("the import waited on the FIFO")
    assert isinstance(answer[0], InvalidArgument) and "a FIFO, not a regular file" in answer[0].message


def test_a_codex_folder_is_not_left_through_links(vault: Vault, tmp_path: Path) -> None:
    sessions = copy_fixture(CODEX_SESSIONS, tmp_path)
    day = next(sessions.rglob("rollout-*.jsonl")).parent
    outside = tmp_path / "elsewhere.jsonl"
    shutil.copy(next(sessions.rglob("rollout-*.jsonl")), outside)
    (day / "rollout-outside.jsonl").symlink_to(outside)
    assert "a link to outside" in _refused(vault, sessions)
    (day / "rollout-outside.jsonl").unlink()
    (day / "rollout-zero.jsonl").symlink_to("/dev/zero")
    assert "rollout-zero.jsonl: a link to outside" in _refused(vault, sessions)
    (day / "rollout-zero.jsonl").unlink()
    os.mkfifo(day / "rollout-fifo.jsonl")
    assert "rollout-fifo.jsonl: a FIFO" in _refused(vault, sessions)
    (day / "rollout-fifo.jsonl").unlink()
    inside = next(sessions.rglob("rollout-*.jsonl"))
    (day / "rollout-again.jsonl").symlink_to(inside)  # a link that stays inside is read
    report = vault.imports.run(OWNER, ImportRequest.parse({"path": str(sessions)}))
    assert report["inventory"]["conversations"] == 2 and report["format"] == "codex"


def test_the_inbox_does_not_follow_links_out_of_it(vault: Vault, tmp_path: Path) -> None:
    watching = InboxWatcher(vault.ctx)  # not started: offered by hand
    outside = copy_fixture("generic.md", tmp_path)
    (watching.folder / "notes.md").symlink_to(outside)
    os.mkfifo(watching.folder / "pipe.jsonl")
    watching.scan()
    assert [p for p in vault.proposals(OWNER) if p["kind"] == "import"] == []


def test_a_file_named_zip_that_is_not_one_says_so(vault: Vault, tmp_path: Path) -> None:
    path = tmp_path / "chatgpt-export.zip"
    shutil.copy(FIXTURES / "chatgpt_conversations.json", path)
    message = _refused(vault, path)
    assert message == f"{path}: zip: not a zip archive (or a damaged one); nothing was imported"


def test_a_damaged_zip_member_is_unreadable_not_a_bug(vault: Vault, tmp_path: Path) -> None:
    path = chatgpt_zip(tmp_path)
    with zipfile.ZipFile(path) as archive:
        member = archive.getinfo("conversations.json")
    raw = bytearray(path.read_bytes())
    data = member.header_offset + 30 + len(member.filename) + len(member.extra)
    for index in range(data + 50, data + 60):  # inside the compressed bytes
        raw[index] ^= 0x55
    path.write_bytes(bytes(raw))
    assert "unreadable (" in _refused(vault, path)


def test_a_utf8_bom_is_read_and_bad_bytes_are_placed(vault: Vault, tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(b"\xef\xbb\xbf" + (FIXTURES / "claude_conversations.json").read_bytes())
    assert vault.imports.run(OWNER, ImportRequest.parse({"path": str(path)}))["format"] == "claude"
    raw = (FIXTURES / "claude_conversations.json").read_bytes()
    path.write_bytes(raw[:100] + b"\xff" + raw[100:])
    assert "byte 100: not UTF-8 text" in _refused(vault, path)


def test_conversations_read_in_small_windows_are_the_same_and_in_order(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
    from fake_export import write_export  # noqa: PLC0415

    path = write_export(tmp_path / "conversations.json", 60)
    whole = vault.imports.run(OWNER, ImportRequest.parse({"path": str(path), "max_conversations": 40}))
    monkeypatch.setattr(readers, "WINDOW_BYTES", 2000)  # a window of a conversation or two: many re-readings
    windowed = vault.imports.run(OWNER, ImportRequest.parse({"path": str(path), "max_conversations": 40}))
    assert windowed == whole
    export = readers.read_export(path)
    chosen = sorted(export.outlines, key=lambda o: (o.started_at or "", o.key), reverse=True)
    assert [c.key for c in export.conversations(chosen)] == [o.key for o in chosen]


def _reference_depths(data: bytes) -> list[int]:
    depth, inside, escaped, found = 0, False, False, []
    for byte in data:
        if inside:
            if escaped:
                escaped = False
            elif byte == ord("\\"):
                escaped = True
            elif byte == ord('"'):
                inside = False
        elif byte == ord('"'):
            inside = True
        elif byte in b"[{":
            depth += 1
        elif byte in b"]}":
            depth -= 1
        found.append(depth)
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(['"', "\\", "[", "]", "{", "}", "a", "\\\\", '\\"']), max_size=80), st.integers(1, 9))
def test_the_nesting_check_reads_strings_and_escapes_like_a_parser(parts: list[str], size: int) -> None:
    data = "".join(parts).encode()
    if any(not inside for inside in _outside_backslashes(data)):
        return  # a backslash outside a string is not JSON: the parser stops there first
    stream = CheckedStream(io.BytesIO(data), "f.json", len(data))
    ends, depths = [], _reference_depths(data)
    while stream.read(size):
        ends.append((stream.offset, stream.depth))
    assert all(depth == depths[offset - 1] for offset, depth in ends)


def _outside_backslashes(data: bytes) -> list[bool]:
    """For each backslash, whether it is inside a string."""
    inside, escaped, found = False, False, []
    for byte in data:
        if inside:
            if escaped:
                escaped = False
            elif byte == ord("\\"):
                escaped = True
                found.append(True)
            elif byte == ord('"'):
                inside = False
        elif byte == ord("\\"):
            found.append(False)
        elif byte == ord('"'):
            inside = True
    return found


def test_the_check_carries_escapes_across_reads() -> None:
    data = b'["a\\\\\\"[[[[", [1]]'  # the string holds an escaped backslash, an escaped quote and brackets
    for size in range(1, len(data) + 1):
        stream = CheckedStream(io.BytesIO(data), "f.json", len(data))
        while stream.read(size):
            pass
        assert stream.depth == 0 and not stream.in_string
