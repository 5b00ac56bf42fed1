"""A question at the terminal answered with the end of the input (Ctrl+D) is said as such, exits non-zero and
leaves nothing behind: no "this is a bug (EOFError)", no half-made store, no empty folders.

Run for real: `memvault` in a subprocess on a pseudo-terminal (as a person types), or in-process with a
stdin that ends at once."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clikit import run, run_json

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / ".venv" / "bin" / "memvault"
MEMVAULT = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "memvault.desktop.cli"]
CTRL_D = b"\x04"
NO_ANSWER = "no answer: the input ended (Ctrl+D, or nothing on stdin) at the question"
Steps = list[tuple[bytes, bytes]]  # (what is asked, what is typed)


def on_a_terminal(args: list[str], env: dict[str, str], steps: Steps, timeout: float = 120) -> tuple[int, str]:
    """Run `args` with a pseudo-terminal as stdin, stdout and stderr, typing each answer once its question shows."""
    main, child = pty.openpty()
    proc = subprocess.Popen(args, stdin=child, stdout=child, stderr=child, env=env)
    os.close(child)
    output, step, deadline = b"", 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.2)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal closed with the process
            break
        output += chunk
        if step < len(steps) and steps[step][0] in output:
            time.sleep(0.2)  # the prompt is read after it is written: let the process reach its read
            os.write(main, steps[step][1])
            step += 1
    os.close(main)
    return proc.wait(timeout=30), output.decode(errors="replace").replace("\r\n", "\n")


@pytest.fixture
def person(tmp_path: Path) -> dict[str, str]:
    """A person's environment on a machine without a keyring, no passphrase given: memvault must ask."""
    home = tmp_path / "person"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "MEMVAULT_HOME": str(tmp_path / "stores" / "memvault"),
        "MEMVAULT_KEY_BACKEND": "passphrase",
    }
    for name in ("MEMVAULT_PASSPHRASE", "MEMVAULT_RECOVERY_KEY"):
        env.pop(name, None)
    return env


def left_behind(env: dict[str, str]) -> list[str]:
    """What exists of the store's folder and the person's configuration after the command."""
    store = Path(env["MEMVAULT_HOME"])
    return [str(p) for p in [store.parent, *Path(env["HOME"]).iterdir()] if p.exists()]


def said_clearly(code: int, output: str, outcome: str) -> None:
    assert code == 2, output
    assert f"memvault: {NO_ANSWER}; {outcome}" in output, output
    assert "bug" not in output and "Traceback" not in output and "EOFError" not in output


def test_install_with_no_answer_to_create_the_store_registers_nothing(person: dict[str, str]) -> None:
    code, output = on_a_terminal([*MEMVAULT, "install", "codex"], person, [(b"[Y/n]", CTRL_D)])
    said_clearly(code, output, "no store was made and nothing was registered: run `memvault")
    assert left_behind(person) == []


def test_install_with_no_answer_to_the_passphrase_makes_no_store(person: dict[str, str]) -> None:
    steps = [(b"[Y/n]", b"y\n"), (b"memvault passphrase:", CTRL_D)]
    code, output = on_a_terminal([*MEMVAULT, "install", "claude"], person, steps)
    said_clearly(code, output, "no store was made")
    assert left_behind(person) == []  # neither the store's folders nor Claude's configuration


def test_init_with_no_answer_to_the_passphrase_leaves_no_empty_folders(person: dict[str, str]) -> None:
    code, output = on_a_terminal([*MEMVAULT, "init"], person, [(b"memvault passphrase:", CTRL_D)])
    said_clearly(code, output, "no store was made")
    assert left_behind(person) == []


def test_init_with_two_different_passphrases_leaves_no_empty_folders(person: dict[str, str]) -> None:
    steps = [(b"memvault passphrase:", b"otter lantern 42\n"), (b"again:", b"otter lantern 43\n")]
    code, output = on_a_terminal([*MEMVAULT, "init"], person, steps)
    assert code == 2 and "the two passphrases differ; nothing was created" in output, output
    assert left_behind(person) == []


def test_restore_with_no_answer_to_the_backups_secret_changes_nothing(
    person: dict[str, str], home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = run_json(capsys, "backup")["path"]
    code, output = on_a_terminal([*MEMVAULT, "restore", backup], person, [(b"passphrase of the backup", CTRL_D)])
    said_clearly(code, output, "nothing was changed")
    assert left_behind(person) == []


class _EndedTerminal(io.StringIO):
    """A terminal whose input has ended: `input()` finds nothing."""

    def isatty(self) -> bool:
        return True


def test_a_purge_with_no_answer_to_its_confirmation_purges_nothing(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = run_json(capsys, "add", "The spare key hangs behind the Lindenhof studio door")["id"]
    request = run_json(capsys, "purge", record)["request_id"]
    monkeypatch.setattr(sys, "stdin", _EndedTerminal(""))
    code, _, err = run(capsys, "purge", "--confirm", request)
    assert code == 1 and "not confirmed; nothing was purged" in err and "bug" not in err
    assert run_json(capsys, "get", record)["memory"]["id"] == record
