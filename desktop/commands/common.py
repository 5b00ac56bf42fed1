"""What every command shares: opening the vault as the person, and printing results."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from memvault.core.vault import Vault
from memvault.core.vocabulary.text_safety import visible

Handler = Callable[[argparse.Namespace], int | None]


def open_vault(args: argparse.Namespace, *, create: bool = False) -> Vault:
    return Vault.open(args.home, create=create)


def emit(args: argparse.Namespace, data: Any, human: Callable[[Any], str] | None = None) -> None:
    """JSON for scripts (`--json`), a readable rendering for people (non-printables made visible)."""
    if args.json or human is None:
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False, sort_keys=False)
        sys.stdout.write("\n")
    else:
        text = human(data)
        if text:
            print(visible(text))  # what an assistant wrote cannot hide or steer anything on the terminal


def add_command(subparsers: Any, name: str, handler: Handler, help_text: str, **kwargs: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(name, help=help_text, description=help_text, **kwargs)
    parser.set_defaults(handler=handler)
    return parser
