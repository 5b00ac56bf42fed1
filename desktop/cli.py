"""The `memvault` command: every operation a script or a person needs, on the same `Vault` API.

Each group of commands lives in `desktop/commands/<group>.py` and registers its
sub-commands with `register(subparsers)`. Qt is never imported here: only the
GUI commands import it, when they run.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from collections.abc import Sequence

from memvault import __version__
from memvault.core.errors import EnvironmentProblem, MemvaultError
from memvault.desktop import commands
from memvault.desktop.commands import bridge

EXIT_OK = 0
EXIT_ERROR = 1  # the request was refused (bad input, not found, conflict...)
EXIT_ENVIRONMENT = 2  # the machine or the store is not in a state to serve (passphrase, keyring...)
EXIT_BUG = 3


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memvault", description="Private, local-first long-term memory for AI assistants."
    )
    parser.add_argument("--version", action="version", version=f"memvault {__version__}")
    parser.add_argument("--home", help="the memvault folder (default: $MEMVAULT_HOME or the user data folder)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Every module in desktop/commands with a `register(subparsers)` adds its group of commands.
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "register"):
            module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # `memvault mcp` starts on every assistant start: it skips loading the other command groups.
    parser = None
    args = bridge.fast_args(argv)
    if args is None:
        parser = build_parser()
        args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    if not getattr(args, "handler", None):
        (parser or build_parser()).print_help()
        return EXIT_OK
    try:
        return int(args.handler(args) or EXIT_OK)
    except EnvironmentProblem as exc:
        print(f"memvault: {exc.message}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    except MemvaultError as exc:
        print(f"memvault: {exc.code}: {exc.message}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("memvault: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`memvault list | head`): not a failure; keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
