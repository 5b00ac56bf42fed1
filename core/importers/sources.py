"""Where an export's conversations come from, read as a stream and read again on demand.

A source gives the outlines of all its conversations (a first reading that keeps no text) and then
the conversations at chosen positions (`read`), reading its file again each time: memory holds
one item of a JSON array, or one line, plus the conversations asked for, never the whole file.
Every byte goes through `jsontext.CheckedStream` (UTF-8, nesting depth, the byte limit).
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Collection, Generator, Iterator
from contextlib import AbstractContextManager, closing, contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from memvault.core.importers import codex, generic, jsontext
from memvault.core.importers.conversation import Conversation, ImportFormatError, Outline
from memvault.core.importers.files import open_regular
from memvault.core.importers.jsontext import CheckedStream

Opener = Callable[[], AbstractContextManager[BinaryIO]]
ZIP_ERRORS: tuple[type[BaseException], ...] = (zipfile.BadZipFile, *jsontext.UNREADABLE)
Numbered = Generator[tuple[int, Conversation], None, None]
ParseItem = Callable[[Any, str, str], Conversation]


class Source(Protocol):
    def outlines(self) -> list[Outline]:
        """Every conversation, in file order, without its text; the whole file is checked."""
        ...

    def read(self, wanted: Collection[int]) -> Iterator[tuple[int, Conversation]]:
        """(position, conversation) for the wanted positions, in any order."""
        ...


def plain(path: Path) -> Opener:
    return lambda: open_regular(path)


def zip_member(path: Path, member: str) -> Opener:
    @contextmanager
    def opened() -> Iterator[BinaryIO]:
        with open_regular(path) as handle:
            with _unreadable(path, member):
                archive = zipfile.ZipFile(handle)
            with archive:
                with _unreadable(path, member):
                    stream = archive.open(member)
                with stream:
                    yield stream  # type: ignore[misc]

    return opened


@contextmanager
def _unreadable(path: Path, member: str) -> Iterator[None]:
    """A zip that cannot be opened (damaged, encrypted, an unknown compression) said so, naming the member."""
    try:
        yield
    except ZIP_ERRORS as exc:
        raise ImportFormatError(str(path), member, f"unreadable ({type(exc).__name__})") from None


class _InOrder:
    """A source whose conversations come one after another (a JSON array, Markdown, Codex files)."""

    def each(self) -> Numbered:
        raise NotImplementedError

    def outlines(self) -> list[Outline]:
        with closing(self.each()) as each:
            return [Outline.of(position, conversation) for position, conversation in each]

    def read(self, wanted: Collection[int]) -> Iterator[tuple[int, Conversation]]:
        left = set(wanted)
        if not left:
            return
        with closing(self.each()) as each:
            for position, conversation in each:
                if position in left:
                    left.discard(position)
                    yield position, conversation
                    if not left:
                        return


class JsonArray(_InOrder):
    """ChatGPT's or Claude's conversations.json: a list of conversations, read one item at a time."""

    def __init__(self, opener: Opener, file: str, parse: ParseItem, max_bytes: int) -> None:
        self.opener, self.file, self.parse, self.max_bytes = opener, file, parse, max_bytes

    def each(self) -> Numbered:
        with self.opener() as raw:
            stream = CheckedStream(raw, self.file, self.max_bytes, top=b"[")
            for index, item in enumerate(jsontext.items(stream, self._exact_place)):
                yield index, self.parse(item, self.file, f"conversations[{index}]")

    def first(self) -> Any:
        """The first item (None for an empty list), to tell the format apart."""
        with self.opener() as raw:
            stream = CheckedStream(raw, self.file, self.max_bytes, top=b"[")
            with closing(jsontext.items(stream, self._exact_place)) as it:
                return next(it, None)

    def _exact_place(self) -> str | None:
        def head() -> bytes:
            with self.opener() as raw:
                return raw.read(jsontext.EXACT_PLACE_BYTES + 1)

        return jsontext.exact_place(head)


class Markdown(_InOrder):
    def __init__(self, opener: Opener, file: str, max_bytes: int) -> None:
        self.opener, self.file, self.max_bytes = opener, file, max_bytes

    def each(self) -> Numbered:
        with self.opener() as raw:
            numbered = jsontext.lines(CheckedStream(raw, self.file, self.max_bytes, nesting=False))
            yield from enumerate(generic.markdown_conversations(numbered, self.file))


class CodexFiles(_InOrder):
    """Codex rollout files, one conversation each (a folder of sessions, or one file)."""

    def __init__(self, files: list[tuple[Opener, str, str]], max_bytes: int) -> None:
        self.files, self.max_bytes = files, max_bytes  # (opener, file, place) in name order

    def session(self, position: int) -> Conversation:
        opener, file, place = self.files[position]
        with opener() as raw:
            return codex.parse_session(jsontext.lines(CheckedStream(raw, file, self.max_bytes)), file, place)

    def each(self) -> Numbered:
        for position in range(len(self.files)):
            yield position, self.session(position)

    def read(self, wanted: Collection[int]) -> Iterator[tuple[int, Conversation]]:
        for position in sorted(wanted):
            yield position, self.session(position)


class JsonLines:
    """memvault JSONL: the lines of one conversation need not be adjacent, so a conversation is
    whole only at the file's end; the first reading keeps counts per conversation, never text."""

    def __init__(self, opener: Opener, file: str, max_bytes: int) -> None:
        self.opener, self.file, self.max_bytes = opener, file, max_bytes

    def outlines(self) -> list[Outline]:
        with self.opener() as raw:
            return generic.jsonl_outlines(jsontext.lines(CheckedStream(raw, self.file, self.max_bytes)), self.file)

    def read(self, wanted: Collection[int]) -> Iterator[tuple[int, Conversation]]:
        with self.opener() as raw:
            numbered = jsontext.lines(CheckedStream(raw, self.file, self.max_bytes))
            yield from generic.jsonl_conversations(numbered, self.file, set(wanted))
