"""Open an export as a list of conversations, whatever product wrote it; the original is only read.

`read_export(path, format)` accepts a file (ChatGPT's zip or conversations.json, Claude's
conversations.json, a Codex rollout file, memvault JSONL or Markdown) or a folder of Codex
sessions. `format="auto"` tells them apart by name and content.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path
from typing import Any

from memvault.core.importers import chatgpt, claude, codex, generic, jsontext
from memvault.core.importers.conversation import FORMATS, Conversation, Export, ImportFormatError
from memvault.core.vocabulary.errors import InvalidArgument

DEFAULT_MAX_BYTES = 512 * 1024 * 1024


def read_export(path: str | Path, fmt: str = "auto", max_bytes: int = DEFAULT_MAX_BYTES) -> Export:
    source = Path(path).expanduser()
    if fmt not in (*FORMATS, "auto"):
        raise InvalidArgument(f"format: expected one of auto, {', '.join(FORMATS)}")
    if not source.exists():
        raise InvalidArgument(f"{source}: no such file or folder")
    if source.is_dir():
        return _codex_folder(source, fmt, max_bytes)
    size = source.stat().st_size
    if size > max_bytes:
        raise InvalidArgument(f"{source}: {size} bytes, over the limit of {max_bytes} (--max-bytes)")
    raw = source.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    name = source.name
    if zipfile.is_zipfile(source):
        raw, name = _from_zip(source, max_bytes)
    found, conversations = _parse(raw, name, str(source), fmt)
    return Export(str(source), found, digest, size, conversations)


def _from_zip(source: Path, max_bytes: int) -> tuple[bytes, str]:
    """The conversations.json inside an export's zip (ChatGPT's, or Claude's)."""
    with zipfile.ZipFile(source) as archive:
        members = [i for i in archive.infolist() if Path(i.filename).name == "conversations.json"]
        if not members:
            raise ImportFormatError(str(source), "zip", "holds no conversations.json (not a data export)")
        member = min(members, key=lambda i: i.filename.count("/"))
        if member.file_size > max_bytes:
            raise InvalidArgument(f"{source}: conversations.json is over the limit of {max_bytes} bytes")
        try:
            return archive.read(member), member.filename
        except (zipfile.BadZipFile, OSError) as exc:
            raise ImportFormatError(str(source), member.filename, f"unreadable ({type(exc).__name__})") from None


def _parse(raw: bytes, name: str, file: str, fmt: str) -> tuple[str, list[Conversation]]:
    if fmt == "auto":
        fmt = _guess(raw, name, file)
    if fmt == "codex":
        return fmt, [codex.parse_session(raw, file, Path(name).stem)]
    if fmt in ("chatgpt", "claude"):
        data = jsontext.load(raw, file)
        return fmt, (chatgpt if fmt == "chatgpt" else claude).parse(data, file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(file, f"byte {exc.start}", "not UTF-8 text") from None
    return fmt, generic.parse_jsonl(text, file) if fmt == "jsonl" else generic.parse_markdown(text, file)


def _guess(raw: bytes, name: str, file: str) -> str:
    lower = name.lower()
    if lower.endswith((".md", ".markdown")):
        return "markdown"
    if lower.endswith(".jsonl"):
        head = raw[:4096].decode("utf-8", "replace")
        return "codex" if lower.startswith("rollout-") or "session_meta" in head else "jsonl"
    data: Any = jsontext.load(raw, file)
    first = data[0] if isinstance(data, list) and data else None
    if isinstance(first, dict) and "mapping" in first:
        return "chatgpt"
    if isinstance(first, dict) and "chat_messages" in first:
        return "claude"
    raise ImportFormatError(file, "top", "neither a ChatGPT nor a Claude export (give --format)")


def _codex_folder(folder: Path, fmt: str, max_bytes: int) -> Export:
    if fmt not in ("auto", "codex"):
        raise InvalidArgument(f"{folder}: a folder is read as Codex sessions (format codex)")
    files = sorted(folder.rglob("rollout-*.jsonl"))
    if not files:
        raise InvalidArgument(f"{folder}: no Codex session files (rollout-*.jsonl) in it")
    total = sum(f.stat().st_size for f in files)
    if total > max_bytes:
        raise InvalidArgument(f"{folder}: {total} bytes of sessions, over the limit of {max_bytes} (--max-bytes)")
    digest = hashlib.sha256()
    conversations = []
    for file in files:
        raw = file.read_bytes()
        digest.update(str(file.relative_to(folder)).encode() + b"\0" + raw)
        conversations.append(codex.parse_session(raw, str(file), str(file.relative_to(folder))))
    return Export(str(folder), "codex", digest.hexdigest(), total, conversations)
