"""Reading JSON exports as streams, with errors that name the file and the place.

Nothing is read whole: a JSON array is read one item at a time (ijson), a JSON Lines file one line at
a time. Every byte passes `CheckedStream` first, which refuses, naming the place, what would make a
reader misbehave: bytes that are not UTF-8, nesting deeper than MAX_DEPTH (a parser's stack or its
paths grow with it), more bytes than the limit (a zip member can claim a small size and inflate).
The parser's own messages quote the input, so they are never passed on.
"""

from __future__ import annotations

import codecs
import functools
import io
import json
import zipfile
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

import ijson  # type: ignore[import-untyped]

from memvault.core.importers.conversation import ImportFormatError
from memvault.core.vocabulary.errors import InvalidArgument

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")

MAX_DEPTH = 200  # real exports nest under 20 levels
MAX_LINE_BYTES = 32 * 1024 * 1024  # a JSON Lines or Markdown line longer than this is refused
READ_BYTES = 256 * 1024
EXACT_PLACE_BYTES = 16 * 1024 * 1024  # a malformed file up to this size is read again to name line and column
_BOM = codecs.BOM_UTF8
NEWLINE = b"\n"
_QUOTE, _BACKSLASH = ord('"'), ord("\\")


@functools.cache
def _tables() -> tuple[Any, Any]:
    """What a byte does to the nesting depth (outside strings), and the bytes the depth check looks
    at. numpy loads here, when an export is first checked: opening a store never pays for it."""
    import numpy as np  # noqa: PLC0415

    step = np.zeros(256, dtype=np.int64)
    step[[ord("["), ord("{")]] = 1
    step[[ord("]"), ord("}")]] = -1
    structure = step != 0
    structure[[_QUOTE, _BACKSLASH]] = True
    return step, structure


# what an unreadable source raises while it is read (a damaged zip member among them)
UNREADABLE: tuple[type[BaseException], ...] = (
    OSError, EOFError, RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error,
)  # fmt: skip


class CheckedStream(io.RawIOBase):
    """A binary source whose bytes are checked before a parser sees them (module docstring).

    `top` (a byte such as b"[") is what the first non-blank byte must be. Lines are counted so a
    refusal can name one; a UTF-8 byte-order mark at the start is skipped."""

    def __init__(
        self, raw: BinaryIO, file: str, max_bytes: int, top: bytes | None = None, *, nesting: bool = True
    ) -> None:
        super().__init__()
        self.raw, self.file, self.max_bytes, self.top = raw, file, max_bytes, top
        self.nesting = nesting  # JSON: its depth is checked (not for Markdown, whose brackets are text)
        self.offset = 0  # bytes handed on
        self.line = 1  # the line the next byte is on
        self.depth = 0
        self.in_string = False
        self.escaped = False  # the next byte follows an odd run of backslashes
        self.started = False  # the first non-blank byte was seen
        self.utf8 = codecs.getincrementaldecoder("utf-8")()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        chunk = self._next(len(view))
        view[: len(chunk)] = chunk
        return len(chunk)

    def _next(self, size: int) -> bytes:
        try:
            chunk = self.raw.read(size)
        except UNREADABLE as exc:
            raise ImportFormatError(self.file, f"byte {self.offset}", f"unreadable ({type(exc).__name__})") from None
        if self.offset == 0 and chunk.startswith(_BOM):
            chunk = chunk[len(_BOM) :] or self.raw.read(size)
        if self.offset + len(chunk) > self.max_bytes:
            raise InvalidArgument(f"{self.file}: over the limit of {self.max_bytes} bytes (--max-bytes)")
        self._check(chunk)
        self.offset += len(chunk)
        self.line += chunk.count(NEWLINE)
        return chunk

    def place(self, index: int, chunk: bytes) -> str:
        return f"line {self.line + chunk.count(NEWLINE, 0, index)}"

    def _check(self, chunk: bytes) -> None:
        try:
            self.utf8.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            pending = len(self.utf8.getstate()[0])
            raise ImportFormatError(self.file, f"byte {self.offset - pending + exc.start}", "not UTF-8 text") from None
        if not chunk:
            return
        if self.top is not None and not self.started:
            self._check_top(chunk)
        if self.nesting:
            import numpy as np  # noqa: PLC0415 - loaded once by _tables

            self._check_depth(np.frombuffer(chunk, dtype=np.uint8), chunk)

    def _check_top(self, chunk: bytes) -> None:
        stripped = chunk.lstrip()
        if stripped:
            self.started = True
            if stripped[:1] != self.top:
                raise ImportFormatError(self.file, "top", "expected a list of conversations")

    def _check_depth(self, a: np.ndarray[Any, np.dtype[np.uint8]], chunk: bytes) -> None:
        """Nesting outside strings, vectorised over the few bytes that matter: quotes not escaped by
        an odd run of backslashes open and close strings; brackets outside strings move the depth."""
        import numpy as np  # noqa: PLC0415 - loaded once by _tables

        step, structure = _tables()
        marks = np.flatnonzero(structure[a])
        kinds = a[marks]
        quotes = marks[kinds == _QUOTE]
        quotes = quotes[~np.isin(quotes, self._escapes(marks[kinds == _BACKSLASH], a.size))]
        brackets = marks[step[kinds] != 0]
        before = np.searchsorted(quotes, brackets) + int(self.in_string)  # quotes before each bracket
        steps = step[a[brackets]] * ((before & 1) == 0)
        depth = self.depth + np.cumsum(steps)
        if depth.size and int(depth.max()) > MAX_DEPTH:
            at = int(brackets[np.argmax(depth > MAX_DEPTH)])
            raise ImportFormatError(self.file, self.place(at, chunk), f"nested more than {MAX_DEPTH} levels deep")
        if depth.size:
            self.depth = int(depth[-1])
        self.in_string = bool((quotes.size + int(self.in_string)) & 1)

    def _escapes(self, slashes: np.ndarray[Any, np.dtype[np.intp]], size: int) -> np.ndarray[Any, np.dtype[np.intp]]:
        """Positions of bytes escaped by a backslash (an odd run of them right before), given the
        backslashes' positions in a chunk of `size` bytes."""
        import numpy as np  # noqa: PLC0415 - loaded once by _tables

        carried = self.escaped
        self.escaped = False
        if not slashes.size:
            return np.array([0] if carried else [], dtype=np.intp)
        starts = np.flatnonzero(np.diff(slashes, prepend=-2) != 1)
        lengths = np.diff(np.append(starts, slashes.size))
        first, ends = slashes[starts], slashes[starts] + lengths
        if carried and first[0] == 0:
            lengths[0] += 1
        escaped = ends[(lengths & 1) == 1]
        if carried and first[0] != 0:
            escaped = np.append([0], escaped)
        if escaped.size and escaped[-1] == size:  # the run ends the chunk: the next chunk's first byte
            self.escaped = True
            escaped = escaped[:-1]
        found: np.ndarray[Any, np.dtype[np.intp]] = escaped.astype(np.intp)
        return found


def items(stream: CheckedStream, locate: Callable[[], str | None] | None = None) -> Generator[Any, None, None]:
    """The items of the top-level array, one at a time. `locate` names the place of a malformed
    file precisely when it can (by reading a small file again)."""
    try:
        yield from ijson.items(stream, "item", use_float=True, buf_size=READ_BYTES)
    except ijson.JSONError:
        place = (locate() if locate else None) or f"near byte {stream.offset}"
        raise ImportFormatError(stream.file, place, "malformed or truncated JSON") from None


def exact_place(head: Callable[[], bytes]) -> str | None:
    """'line L, column C' of the first error in a small JSON file (None when it cannot tell).
    `head` reads the first EXACT_PLACE_BYTES + 1 bytes again."""
    raw = head()
    if len(raw) > EXACT_PLACE_BYTES:
        return None
    try:
        json.loads(raw.decode("utf-8-sig"))
    except json.JSONDecodeError as exc:
        return f"line {exc.lineno}, column {exc.colno}"
    except (UnicodeDecodeError, RecursionError, ValueError):
        return None
    return None


def lines(stream: CheckedStream) -> Iterator[tuple[int, str]]:
    """(number, text) of every line, each at most MAX_LINE_BYTES long."""
    reader = io.BufferedReader(stream, buffer_size=READ_BYTES)
    number = 0
    while line := reader.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(line) > MAX_LINE_BYTES:
            raise ImportFormatError(stream.file, f"line {number}", f"longer than {MAX_LINE_BYTES} bytes")
        yield number, line.decode("utf-8").rstrip("\r\n")


def json_lines(numbered: Iterable[tuple[int, str]], file: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line of a JSON Lines file."""
    for number, line in numbered:
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise ImportFormatError(file, f"line {number}", "malformed or truncated JSON line") from None
        if not isinstance(item, dict):
            raise ImportFormatError(file, f"line {number}", "expected a JSON object")
        yield number, item


def expect_object(value: Any, file: str, place: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportFormatError(file, place, "expected an object")
    return value
