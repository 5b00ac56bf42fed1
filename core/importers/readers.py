"""Open an export, whatever product wrote it, as a stream of conversations; the original is only read.

`read_export(path, format)` accepts a file (ChatGPT's or Claude's zip or conversations.json, a
Codex rollout file, memvault JSONL or Markdown) or a folder (an unzipped ChatGPT or Claude export,
Codex sessions). `format="auto"` tells them apart by content (layout.py). Only regular files are
read (files.py); the whole export is checked while its outlines are read, before anything is written.

Memory does not grow with the file: the first reading keeps an outline per conversation (no
text); `Export.conversations` then reads the chosen ones in windows whose text takes at most
WINDOW_BYTES, reading the file again for each window (sources.py).
"""

from __future__ import annotations

import stat
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from memvault.core.importers import chatgpt, claude, files, layout
from memvault.core.importers.conversation import FORMATS, Conversation, ImportFormatError, Outline
from memvault.core.importers.sources import (
    CodexFiles,
    JsonArray,
    JsonLines,
    Markdown,
    Opener,
    Source,
    plain,
    zip_member,
)
from memvault.core.vocabulary.errors import Conflict, InvalidArgument

DEFAULT_MAX_BYTES = 512 * 1024 * 1024
WINDOW_BYTES = 48 * 1024 * 1024  # the memory the text of conversations held at once may take


@dataclass(frozen=True)
class Export:
    path: str
    format: str
    source_hash: str  # sha256 of the original bytes (all files of a folder, in name order)
    size_bytes: int
    outlines: list[Outline]  # every conversation, in file order, without text
    source: Source

    def conversations(self, chosen: Sequence[Outline]) -> Iterator[Conversation]:
        """The chosen conversations, in the order given, read window by window."""
        for window in _windows(chosen):
            held = dict(self.source.read({outline.position for outline in window}))
            for outline in window:
                found = held.pop(outline.position, None)
                if found is None or found.key != outline.key:
                    raise Conflict(f"{self.path}: the file changed while it was read; nothing more was imported")
                yield found


def _windows(chosen: Sequence[Outline]) -> Iterator[Sequence[Outline]]:
    start, held = 0, 0
    for end, outline in enumerate(chosen):
        if end > start and held + outline.text_bytes > WINDOW_BYTES:
            yield chosen[start:end]
            start, held = end, 0
        held += outline.text_bytes
    if start < len(chosen):
        yield chosen[start:]


def read_export(
    path: str | Path, fmt: str = "auto", max_bytes: int = DEFAULT_MAX_BYTES, *, expect_hash: str | None = None
) -> Export:
    """The export's outlines, read and checked whole; `expect_hash`: refused (`conflict`) before any
    reading when the file is no longer the one a dry run read."""
    source = Path(path).expanduser()
    if fmt not in (*FORMATS, "auto"):
        raise InvalidArgument(f"format: expected one of auto, {', '.join(FORMATS)}")
    try:
        mode = source.stat().st_mode
    except FileNotFoundError:
        raise InvalidArgument(f"{source}: no such file or folder") from None
    except OSError as exc:
        raise InvalidArgument(f"{source}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    if not stat.S_ISDIR(mode):
        files.refuse_special(source, mode)
        return _file_export(source, source, fmt, max_bytes, expect_hash)
    found = layout.in_folder(source, fmt)
    if found.conversations is not None:  # an unzipped ChatGPT or Claude export
        return _file_export(found.conversations, source, fmt, max_bytes, expect_hash)
    return _codex_folder(source, found.sessions, max_bytes, expect_hash)


def _file_export(file: Path, shown: Path, fmt: str, max_bytes: int, expect_hash: str | None) -> Export:
    """An export read from one file (`shown`: the path the person gave, a folder holding it or the file)."""
    size = files.size_of(file)
    if size > max_bytes:
        raise InvalidArgument(f"{file}: {size} bytes, over the limit of {max_bytes} (--max-bytes)")
    digest = files.digest([(b"", file)])
    if expect_hash is not None and digest != expect_hash:
        raise Conflict("the file changed since its dry run: drop it again for a new report")
    opener, name, siblings = _inner(file, max_bytes)
    found = _guess(opener, name, str(file), max_bytes, siblings) if fmt == "auto" else fmt
    reader = _source(found, opener, name, file, max_bytes)
    return Export(str(shown), found, digest, size, reader.outlines(), reader)


def _inner(source: Path, max_bytes: int) -> tuple[Opener, str, set[str]]:
    """What to read: the file, or the conversations.json inside an export's zip (ChatGPT's, Claude's);
    and the names beside it (they tell an empty export's product)."""
    with files.open_regular(source) as handle:
        is_zip = zipfile.is_zipfile(handle)
        if not is_zip:
            if source.suffix.lower() == ".zip":
                raise ImportFormatError(str(source), "zip", "not a zip archive (or a damaged one)")
            return plain(source), source.name, layout.folder_siblings(source)
        try:
            with zipfile.ZipFile(handle) as archive:
                infos = {i.filename: i for i in archive.infolist()}
        except (zipfile.BadZipFile, OSError, EOFError):
            raise ImportFormatError(str(source), "zip", "not a zip archive (or a damaged one)") from None
    member = layout.zip_member(source, list(infos))
    if infos[member].file_size > max_bytes:
        raise InvalidArgument(f"{source}: conversations.json is over the limit of {max_bytes} bytes")
    return zip_member(source, member), member, layout.siblings_of(member, infos)


def _source(fmt: str, opener: Opener, name: str, path: Path, max_bytes: int) -> Source:
    file = str(path)
    if fmt == "codex":
        return CodexFiles([(opener, file, Path(name).stem)], max_bytes)
    if fmt in ("chatgpt", "claude"):
        return JsonArray(opener, file, (chatgpt if fmt == "chatgpt" else claude).conversation, max_bytes)
    if fmt == "jsonl":
        return JsonLines(opener, file, max_bytes)
    return Markdown(opener, file, max_bytes)


def _guess(opener: Opener, name: str, file: str, max_bytes: int, siblings: set[str]) -> str:
    """The format, by content: Markdown by its name; JSONL by its first line; JSON by its first conversation."""
    lower = Path(name).name.lower()
    if lower.endswith((".md", ".markdown")):
        return "markdown"
    if lower.endswith(".jsonl"):
        return layout.jsonl_format(layout.sniff(opener), lower)
    first = JsonArray(opener, file, chatgpt.conversation, max_bytes).first()
    return layout.json_format(first, file, name, siblings)


def _codex_folder(folder: Path, found: list[Path], max_bytes: int, expect_hash: str | None) -> Export:
    total = sum(files.size_of(f) for f in found)
    if total > max_bytes:
        raise InvalidArgument(f"{folder}: {total} bytes of sessions, over the limit of {max_bytes} (--max-bytes)")
    named = [(str(f.relative_to(folder)), f) for f in found]
    digest = files.digest((name.encode() + b"\0", f) for name, f in named)
    if expect_hash is not None and digest != expect_hash:
        raise Conflict("the file changed since its dry run: drop it again for a new report")
    reader = CodexFiles([(plain(f), str(f), name) for name, f in named], max_bytes)
    return Export(str(folder), "codex", digest, total, reader.outlines(), reader)
