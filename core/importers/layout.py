"""Which export a path holds, told by what its files say, not by their names alone.

The layouts people hand over:

- a ChatGPT data export: the zip (`conversations.json`, `chat.html`, `user.json`,
  `message_feedback.json`, ...), the folder it unzips to, or its `conversations.json`;
- a Claude data export: the zip (`conversations.json`, `users.json`, `projects.json`), its folder,
  or its `conversations.json`;
- Codex sessions: `~/.codex` or `~/.codex/sessions` (or a folder under it) holding
  `rollout-*.jsonl` files, or one such file;
- memvault's own JSONL and Markdown.

A `conversations.json` is ChatGPT's when its first conversation has a `mapping` of messages and
Claude's when it has `chat_messages`; an empty one is told by the files beside it. A `.jsonl` file
is a Codex session when its first line is a session meta. When nothing matches, the error says what
was found (file names, field names, never content).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memvault.core.importers import files
from memvault.core.importers.conversation import ImportFormatError
from memvault.core.vocabulary.errors import InvalidArgument

CONVERSATIONS = "conversations.json"
ROLLOUTS = "rollout-*.jsonl"
# The other files of a data export: they say which product wrote it, and hold no conversations.
CLAUDE_FILES = frozenset({"users.json", "projects.json"})
CHATGPT_FILES = frozenset(
    {"user.json", "chat.html", "message_feedback.json", "shared_conversations.json", "model_comparisons.json"}
)
COMPANIONS = CLAUDE_FILES | CHATGPT_FILES
FOLDER_DEPTH = 2  # conversations.json at the top of a folder, or one folder down (an unzipped archive)
SNIFF_BYTES = 1 << 20  # the first line of a .jsonl file read to tell Codex from memvault JSONL
NAMED = 6  # names an error lists of what a folder holds
_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


@dataclass(frozen=True)
class InFolder:
    """What a folder holds: its conversations.json (ChatGPT, Claude) or its Codex session files."""

    conversations: Path | None
    sessions: list[Path]


def in_folder(folder: Path, fmt: str) -> InFolder:
    """The export inside `folder` (`fmt`: auto, or the format the person named)."""
    if fmt in ("jsonl", "markdown"):
        raise InvalidArgument(f"{folder}: a folder, not a {fmt} file: give the file itself")
    if fmt != "codex":
        found = _conversations_file(folder)
        if found is not None:
            return InFolder(found, [])
        if fmt != "auto":
            raise InvalidArgument(f"{folder}: no {CONVERSATIONS} in it (a {fmt} data export holds one)")
    sessions = files.files_within(folder, ROLLOUTS)
    if sessions:
        return InFolder(None, sessions)
    if fmt == "codex":
        raise InvalidArgument(f"{folder}: no Codex session files ({ROLLOUTS}) in it")
    raise InvalidArgument(f"{folder}: no export found in it; {_holds(folder)}. {_EXPECTED}")


_EXPECTED = (
    f"Expected a ChatGPT or Claude data export ({CONVERSATIONS}, its folder or the zip) or Codex sessions "
    f"({ROLLOUTS}, e.g. ~/.codex/sessions)"
)


def _conversations_file(folder: Path) -> Path | None:
    """The shallowest conversations.json under `folder` (links leading out of it are not followed)."""
    for depth in range(FOLDER_DEPTH):
        found = [
            path
            for path in _entries(folder, depth)
            if path.name.lower() == CONVERSATIONS and files.within(folder, path)
        ]
        if len(found) > 1:
            names = ", ".join(str(p.relative_to(folder)) for p in sorted(found)[:NAMED])
            raise InvalidArgument(f"{folder}: several exports in it ({names}): give one of them")
        if found:
            return found[0]
    return None


def _entries(folder: Path, depth: int) -> list[Path]:
    """The entries `depth` folders down (linked folders are not entered)."""
    level = [folder]
    for _ in range(depth):
        level = [p for f in level for p in _listed(f) if p.is_dir() and not p.is_symlink()]
    return [p for f in level for p in _listed(f)]


def _listed(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _holds(folder: Path) -> str:
    """What a folder holds, by names only: '3 files (notes.txt, ...) and 1 folder (photos)'."""
    entries = _listed(folder)
    kept = [p for p in entries if not p.name.startswith(".")]
    subfolders = [p.name for p in kept if p.is_dir()]
    plain = [p.name for p in kept if not p.is_dir()]
    zips = [n for n in plain if n.lower().endswith(".zip")]
    said = f"it holds {_some(plain, 'file')} and {_some(subfolders, 'folder')}"
    return said + (f" (an export zip among them? give it: {zips[0][:80]})" if zips else "")


def _some(names: list[str], what: str) -> str:
    if not names:
        return f"no {what}s"
    shown = ", ".join(n[:60] for n in names[:NAMED]) + (", ..." if len(names) > NAMED else "")
    return f"{len(names)} {what}{'s' if len(names) != 1 else ''} ({shown})"


def zip_member(source: Path, names: list[str]) -> str:
    """The conversations.json of an export's zip (the shallowest), or an error saying what it holds."""
    members = [n for n in names if Path(n).name.lower() == CONVERSATIONS]
    if members:
        return min(members, key=lambda n: n.count("/"))
    if any(Path(n).match(ROLLOUTS) for n in names):
        what = "it holds Codex sessions: unzip it and give the folder"
    else:
        shown = ", ".join(Path(n).name[:60] for n in names[:NAMED] if not n.endswith("/"))
        what = f"not a ChatGPT or Claude data export (it holds {shown or 'nothing'})"
    raise ImportFormatError(str(source), "zip", f"holds no {CONVERSATIONS}: {what}")


def siblings_of(member: str, names: Collection[str]) -> set[str]:
    """The names beside `member` (in the same zip folder, or the same folder on disk)."""
    parent = str(Path(member).parent)
    return {Path(n).name.lower() for n in names if str(Path(n).parent) == parent}


def folder_siblings(path: Path) -> set[str]:
    return {p.name.lower() for p in _listed(path.parent)}


def json_format(first: Any, file: str, name: str, siblings: Collection[str]) -> str:
    """ChatGPT or Claude, from the first conversation of a conversations.json (or, when the list is
    empty, from the export's other files); an error naming what was found otherwise."""
    if isinstance(first, dict) and "mapping" in first:
        return "chatgpt"
    if isinstance(first, dict) and "chat_messages" in first:
        return "claude"
    if first is None:
        if CLAUDE_FILES.intersection(siblings):
            return "claude"
        if CHATGPT_FILES.intersection(siblings):
            return "chatgpt"
        raise ImportFormatError(file, "top", "an empty list of conversations (give --format to read it anyway)")
    lower = Path(name).name.lower()
    hint = f" ({lower} is not where an export keeps its conversations: give {CONVERSATIONS}, the folder or the zip)"
    raise ImportFormatError(
        file,
        "conversations[0]",
        "neither a ChatGPT conversation ('mapping') nor a Claude one ('chat_messages')"
        + _fields(first)
        + (hint if lower in COMPANIONS else ""),
    )


def _fields(item: Any) -> str:
    if not isinstance(item, dict):
        return ": not an object"
    names = sorted(k for k in item if isinstance(k, str) and _FIELD.match(k))[:8]
    return f"; its fields: {', '.join(names)}" if names else ""


def jsonl_format(head: Callable[[], bytes], name: str) -> str:
    """Codex (a rollout file: a session meta first) or memvault JSONL, from the first line."""
    raw = head()
    first_line = raw.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
    try:
        item = json.loads(first_line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        item = None
    if isinstance(item, dict):
        if item.get("type") == "session_meta" or ("id" in item and "timestamp" in item and "conversation" not in item):
            return "codex"
        if "conversation" in item:
            return "jsonl"
    if b'"session_meta"' in raw or Path(name).name.lower().startswith("rollout-"):
        return "codex"
    return "jsonl"  # its reader names the line that is not memvault JSONL


def sniff(path_open: Callable[[], Any]) -> Callable[[], bytes]:
    """A reader of a file's first SNIFF_BYTES (through the caller's opener)."""

    def head() -> bytes:
        with path_open() as raw:
            data: bytes = raw.read(SNIFF_BYTES)
            return data

    return head
