"""Reading JSON exports with errors that name the file and the place."""

from __future__ import annotations

import json
from typing import Any

from memvault.core.importers.conversation import ImportFormatError


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
