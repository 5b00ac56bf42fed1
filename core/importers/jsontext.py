"""Reading JSON exports with errors that name the file and the place."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from memvault.core.importers.conversation import ImportFormatError

T = TypeVar("T")


def load(raw: bytes, file: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ImportFormatError(file, f"byte {exc.start}", "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ImportFormatError(file, f"line {exc.lineno}, column {exc.colno}", "malformed or truncated JSON") from None


def expect_list(value: Any, file: str, place: str) -> list[Any]:
    if not isinstance(value, list):
        raise ImportFormatError(file, place, "expected a list of conversations")
    return value


def expect_object(value: Any, file: str, place: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportFormatError(file, place, "expected an object")
    return value


def each_conversation(data: Any, file: str, read: Callable[[Any, str, str], T]) -> list[T]:
    """`read(item, file, place)` for every item of an export's top-level list."""
    return [read(item, file, f"conversations[{i}]") for i, item in enumerate(expect_list(data, file, "top"))]


def json_lines(text: str, file: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line of a JSON Lines file."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            raise ImportFormatError(file, f"line {number}", "malformed or truncated JSON line") from None
        if not isinstance(item, dict):
            raise ImportFormatError(file, f"line {number}", "expected a JSON object")
        yield number, item
