"""The first commands a person types: bare `memvault`, usage mistakes, `--json` anywhere, bugs said as bugs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from bridgekit import run_cli

from memvault.desktop import cli


def test_bare_memvault_without_a_display_prints_the_short_help(fresh_home: Path) -> None:
    done = run_cli(fresh_home, DISPLAY=None, WAYLAND_DISPLAY=None)
    assert done.returncode == 0
    out = done.stdout.decode()
    assert "memvault init" in out and "memvault install codex|claude" in out
    assert len(out.splitlines()) < 15, "the short help, not every command"


def test_bare_memvault_with_a_display_but_no_app_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", ":99")
    without_app = cli.Parser(prog="memvault")
    without_app.add_subparsers(dest="command")
    code = cli._no_command(without_app, argparse.Namespace(command=None, home=None, verbose=False))
    assert code == cli.EXIT_ENVIRONMENT
    captured = capsys.readouterr()
    assert "the desktop app is not available" in captured.err and "memvault init" in captured.out


def test_a_usage_mistake_has_its_own_exit_code(fresh_home: Path) -> None:
    done = run_cli(fresh_home, "list", "--no-such-option")
    assert done.returncode == cli.EXIT_USAGE == 64
    assert b"unrecognized arguments" in done.stderr and done.stdout == b""


def _leaf_parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], object]:
    found: dict[tuple[str, ...], object] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[(*path, name)] = sub
                found |= _leaf_parsers(sub, (*path, name))
    return found


def test_json_and_home_are_accepted_after_every_command() -> None:
    parsers = _leaf_parsers(cli.build_parser())
    assert len(parsers) > 40
    for path, sub in parsers.items():
        assert isinstance(sub, argparse.ArgumentParser)
        options = {option for action in sub._actions for option in action.option_strings}
        assert "--json" in options, path
        assert "--home" in options or path == ("demo",), path  # demo's --home names the demo's own folder


def test_status_and_doctor_json_after_the_command(home: Path) -> None:
    status = run_cli(home, "status", "--json")
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["contract"] == 1
    doctor = run_cli(home, "doctor", "--json")
    assert doctor.returncode in (0, 2), doctor.stderr  # 2: a problem found (this test machine has no keyring)
    assert isinstance(json.loads(doctor.stdout), dict)


def test_json_before_the_command_is_not_undone_after_it(home: Path) -> None:
    done = run_cli(home, "--json", "status")
    assert done.returncode == 0 and json.loads(done.stdout)["contract"] == 1


def test_an_unexpected_exception_is_reported_as_a_bug_without_its_message(
    fresh_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    diary = {"entry": "the private diary says: rowing at dawn"}  # data a bug might carry in its message

    def broken(_args: argparse.Namespace) -> int:
        raise RuntimeError(diary["entry"])

    fresh_home.mkdir()
    (fresh_home / "logs").mkdir()
    code = cli._run(argparse.Namespace(handler=broken, home=str(fresh_home)))
    assert code == cli.EXIT_BUG == 3
    err = capsys.readouterr().err
    log = fresh_home / "logs" / "cli.log"
    assert "this is a bug (RuntimeError)" in err and str(log) in err
    assert "rowing" not in err
    text = log.read_text()
    assert "RuntimeError" in text and "broken" in text and "rowing" not in text


def test_init_and_status_say_what_happens_to_an_assistant_s_writes(fresh_home: Path) -> None:
    init = run_cli(fresh_home, "init")
    assert init.returncode == 0, init.stderr
    assert b"memvault proposals list" in init.stdout and b"memvault install codex" in init.stdout
    automatic = "automatic-write-within-approved-scope"
    assert run_cli(fresh_home, "config", "set", "write_mode", automatic).returncode == 0
    status = run_cli(fresh_home, "status").stdout.decode()
    assert "No domain exists yet" in status and "memvault proposals approve ID" in status
    assert run_cli(fresh_home, "config", "set", "auto_write_domains", "*").returncode == 0
    assert "No domain exists yet" not in run_cli(fresh_home, "status").stdout.decode()  # any domain: nothing waits
