"""What every command shares: opening the vault as the person, printing results, and a question left
unanswered (the input ended: Ctrl+D on a terminal, or stdin closed) said as such, not as a bug."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from typing import Any

from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import EnvironmentProblem
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


def no_answer(outcome: str) -> EnvironmentProblem:
    """The input ended while memvault asked something (exit 2 with this message, not "a bug (EOFError)");
    `outcome` says what was and was not done."""
    print(file=sys.stderr)  # the question's line ends here: the message starts on its own
    return EnvironmentProblem(f"no answer: the input ended (Ctrl+D, or nothing on stdin) at the question; {outcome}")


def _answered(handler: Handler) -> Handler:
    """`handler`, with a question a prompt of the core asked (a passphrase, a recovery key) and found no
    answer to said as such; the commands' own questions say what they left undone (`no_answer`)."""

    @functools.wraps(handler)
    def run(args: argparse.Namespace) -> int | None:
        try:
            return handler(args)
        except EOFError:
            raise no_answer("the command stopped there") from None

    return run


def add_command(subparsers: Any, name: str, handler: Handler, help_text: str, **kwargs: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(name, help=help_text, description=help_text, **kwargs)
    parser.set_defaults(handler=_answered(handler))
    return parser
