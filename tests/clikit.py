"""Running the `memvault` command line in this process, as a test sees it: exit code and output."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memvault.desktop.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    """The command's JSON answer; it must succeed."""
    code, out, err = run(capsys, "--json", *argv)
    assert code == 0, err
    return json.loads(out)
