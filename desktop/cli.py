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
from typing import NoReturn

from memvault import __version__
from memvault.core.vocabulary.errors import EnvironmentProblem, MemvaultError
from memvault.desktop import bug_report, commands
from memvault.desktop.commands import bridge

EXIT_OK = 0
EXIT_ERROR = 1  # the request was refused (bad input, not found, conflict...)
EXIT_ENVIRONMENT = 2  # the machine or the store is not in a state to serve (passphrase, keyring...)
EXIT_BUG = 3  # an unexpected exception: a bug of memvault's, reported with where its log is
EXIT_USAGE = 64  # the command line itself is wrong (unknown option, missing argument): sysexits' EX_USAGE

SHORT_HELP = """\
memvault: a private, local-first long-term memory for AI assistants.

  memvault init                   create your encrypted store
  memvault install codex|claude   connect an assistant (and check it starts)
  memvault status                 what the store holds, how writes are governed
  memvault search QUERY           what memory holds for a request, cited
  memvault proposals list         what assistants asked to remember
  memvault app                    the desktop app (needs a display)

Every command: memvault --help. The guide: docs/user-guide.md."""


class Parser(argparse.ArgumentParser):
    """argparse with usage errors on their own exit code (argparse's 2 would read as 'environment')."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="memvault", description="Private, local-first long-term memory for AI assistants.")
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
    _global_options_after_commands(parser)
    return parser


def _global_options_after_commands(parser: argparse.ArgumentParser) -> None:
    """`memvault status --json` works like `memvault --json status`, at every level of sub-commands.

    SUPPRESS keeps a sub-command's unset option from overwriting the value given before it."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        for sub in dict.fromkeys(action.choices.values()):  # aliases map to the same parser
            taken = {option for known in sub._actions for option in known.option_strings}
            if "--json" not in taken:
                sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
            if "--home" not in taken:
                sub.add_argument("--home", default=argparse.SUPPRESS, help="the memvault folder")
            _global_options_after_commands(sub)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`memvault list | head`): not a failure; keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _main(argv: Sequence[str] | None) -> int:
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
        return _no_command(parser or build_parser(), args)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
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
        raise  # main() handles it: the reader went away
    except Exception as exc:  # a bug: say so, keep the frames in the log, never the message (it may quote data)
        where = bug_report.record(exc, args.home)
        print(f"memvault: this is a bug ({type(exc).__name__}); the details are in {where}", file=sys.stderr)
        return EXIT_BUG


def _no_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Bare `memvault`: the desktop app where a display exists, the short help elsewhere."""
    if args.command is not None:  # a command group named without its action (`memvault token`)
        parser.print_help()
        return EXIT_OK
    if not has_display():
        print(SHORT_HELP)
        return EXIT_OK
    app = parser.parse_args(["app"]) if "app" in _commands(parser) else None
    if app is None:
        print("memvault: the desktop app is not available in this installation\n", file=sys.stderr)
        print(SHORT_HELP)
        return EXIT_ENVIRONMENT
    app.home, app.verbose = args.home, args.verbose
    return _run(app)


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    return {name for a in parser._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices}


def has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


if __name__ == "__main__":
    sys.exit(main())
