"""The memvault CLI, run for real on real encrypted stores: in-process through `main`, and as a subprocess."""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clikit import run, run_json

from memvault.core.runtime.settings import SETTINGS
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.desktop.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
MEMVAULT_BIN = REPO / ".venv" / "bin" / "memvault"


def add(capsys: pytest.CaptureFixture[str], statement: str, *options: str) -> str:
    result = run_json(capsys, "add", statement, *options)
    assert result["outcome"] == "added", result
    return str(result["id"])


def counts(home: Path) -> dict[str, Any]:
    with Vault.open(home) as vault:
        return dict(vault.status(OWNER)["counts"])


# -- add / get / list ------------------------------------------------------------------------
def test_add_with_every_option_then_get_shows_it(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    memory_id = add(
        capsys,
        "The greenhouse door sticks in wet weather",
        "--type", "DISCOVERY", "--domain", "garden", "--tag", "project:Greenhouse", "--tag", "repairs",
        "--importance", "0.7", "--confidence", "0.9", "--explicitness", "inferred", "--source", "walk",
        "--source-reference", "notebook p. 4", "--evidence", "noticed twice in October",
        "--event-time", "2026-10-02", "--valid-from", "2026-10-01", "--valid-until", "2027-10-01",
        "--scope", "remote_allowed", "--sensitivity", "personal", "--entity", "Greenhouse", "--entity", "Shed",
    )  # fmt: skip
    got = run_json(capsys, "get", memory_id)
    record = got["memory"]
    assert record["statement"] == "The greenhouse door sticks in wet weather"
    assert (record["type"], record["domain"], record["explicitness"]) == ("DISCOVERY", "garden", "inferred")
    assert (record["importance"], record["confidence"]) == (0.7, 0.9)
    assert record["tags"] == ["project:Greenhouse", "repairs"]
    assert (record["access_scope"], record["sensitivity"]) == ("remote_allowed", "personal")
    assert record["valid_from"] == "2026-10-01T00:00:00.000Z"
    assert record["valid_until"] == "2027-10-01T00:00:00.000Z"
    assert sorted(got["entities"]) == ["Greenhouse", "Shed"]

    code, out, _ = run(capsys, "get", memory_id)
    assert code == 0
    assert memory_id in out and "DISCOVERY" in out and "entities: Greenhouse, Shed" in out


def test_add_reads_the_statement_from_stdin_and_links(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = add(capsys, "The allotment plot is number 14 on the east side", "--domain", "garden")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Water the allotment on Thursday evenings\n"))
    code, out, err = run(
        capsys, "add", "-", "--type", "WORKFLOW", "--domain", "garden", "--link", f"relates_to:{target}"
    )
    assert code == 0, err
    new_id = out.split()[-1]
    got = run_json(capsys, "get", new_id)
    assert got["memory"]["statement"] == "Water the allotment on Thursday evenings"
    assert got["links"] == [{"type": "relates_to", "target_id": target}]


def test_next_action_due_date_and_duplicate(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    memory_id = add(
        capsys, "Order seed potatoes", "--type", "NEXT_ACTION", "--domain", "garden", "--due-at", "2027-02-01"
    )
    assert run_json(capsys, "get", memory_id)["memory"]["due_at"] == "2027-02-01T00:00:00.000Z"
    again = run_json(capsys, "add", "order seed potatoes.", "--type", "NEXT_ACTION", "--domain", "garden")
    assert again["outcome"] == "duplicate" and again["duplicate_of"] == memory_id
    assert counts(home)["current"] == 1


def test_list_pages_with_a_cursor_and_filters(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = [add(capsys, f"Fictional fact number {n} about the canal boat", "--domain", "boats") for n in range(5)]
    add(capsys, "Prefers strong tea", "--type", "PREFERENCE", "--domain", "food")
    first = run_json(capsys, "list", "--domain", "boats", "--limit", "3")
    assert len(first["items"]) == 3 and first["next_cursor"]
    second = run_json(capsys, "list", "--domain", "boats", "--limit", "3", "--cursor", first["next_cursor"])
    assert {r["id"] for r in first["items"] + second["items"]} == set(ids)
    assert second["next_cursor"] is None
    prefs = run_json(capsys, "list", "--type", "PREFERENCE")
    assert [r["statement"] for r in prefs["items"]] == ["Prefers strong tea"]
    code, out, _ = run(capsys, "list", "--type", "PREFERENCE", "--json")  # --json after the command works too
    assert code == 0 and json.loads(out) == prefs
    code, out, _ = run(capsys, "list", "--domain", "boats", "--limit", "3")
    assert code == 0 and "more: --cursor" in out and "statement" in out.splitlines()[0]


# -- search ----------------------------------------------------------------------------------
def test_search_prints_the_packet_and_a_table(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hit = add(capsys, "The bicycle needs a new chain before the spring tour", "--domain", "cycling")
    add(capsys, "The sourdough starter is fed on Fridays", "--domain", "cooking")
    code, out, err = run(capsys, "search", "bicycle chain")
    assert code == 0, err
    assert f"[{hit}] cycling/fact: The bicycle needs a new chain" in out
    assert "score" in out and "sourdough" not in out
    data = run_json(capsys, "search", "bicycle chain", "--domain", "cycling", "--limit", "3", "--max-tokens", "200")
    assert [r["id"] for r in data["results"]] == [hit]
    assert run_json(capsys, "search", "bicycle chain", "--domain", "cooking")["results"] == []
    assert run_json(capsys, "search", "bicycle chain", "--type", "DECISION")["results"] == []


def test_search_history_as_of_and_known_at(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = add(
        capsys, "The rowing club meets at the north boathouse", "--domain", "rowing", "--valid-from", "2025-01-01"
    )
    new = run_json(
        capsys, "correct", old, "The rowing club meets at the south boathouse", "--valid-from", "2026-01-01"
    )["id"]
    now_ids = [r["id"] for r in run_json(capsys, "search", "rowing club boathouse")["results"]]
    assert now_ids == [new]
    with_history = {r["id"] for r in run_json(capsys, "search", "rowing club boathouse", "--history")["results"]}
    assert with_history == {old, new}
    then = [r["id"] for r in run_json(capsys, "search", "rowing club boathouse", "--as-of", "2025-06-01")["results"]]
    assert then == [old]
    learned = run_json(capsys, "get", old)["memory"]["learned_at"]  # before the correction was known
    known = [r["id"] for r in run_json(capsys, "search", "rowing club boathouse", "--known-at", learned)["results"]]
    assert known == [old]


# -- history, correct, archive, restore -----------------------------------------------------
def test_history_from_any_version_newest_first_with_events(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = add(capsys, "The choir rehearses on Mondays", "--domain", "music")
    second = run_json(capsys, "correct", first, "The choir rehearses on Tuesdays", "--reason", "new hall")["id"]
    third = run_json(capsys, "correct", second, "The choir rehearses on Wednesdays")["id"]
    for start in (first, third):
        data = run_json(capsys, "history", start)
        assert [v["id"] for v in data["versions"]] == [third, second, first]
        assert [v["status"] for v in data["versions"]] == ["current", "superseded", "superseded"]
        actions = [e["action"] for e in data["events"]]
        assert actions.count("added") == 3 and actions.count("superseded") == 2
    code, out, _ = run(capsys, "history", first)
    assert code == 0 and out.index(third) < out.index(first) and "events:" in out


def test_correct_archive_restore_round_trip(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    memory_id = add(capsys, "The library card renews every March", "--domain", "admin")
    code, out, _ = run(capsys, "archive", memory_id, "--reason", "moved town", "--expected-revision", "1")
    assert (code, out.strip()) == (0, f"archived {memory_id}")
    assert run_json(capsys, "search", "library card")["results"] == []
    archived = run_json(capsys, "list", "--status", "archived")["items"]
    assert [(r["id"], r["archived_reason"]) for r in archived] == [(memory_id, "moved town")]
    code, out, _ = run(capsys, "restore", memory_id)
    assert (code, out.strip()) == (0, f"restored {memory_id}")
    assert [r["id"] for r in run_json(capsys, "search", "library card")["results"]] == [memory_id]
    code, out, _ = run(capsys, "correct", memory_id, "The library card renews every April")
    assert code == 0 and out.startswith("corrected: ") and f"supersedes {memory_id}" in out


def test_export_prints_the_private_files_it_wrote(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add(capsys, "The canoe is stored at the club", "--domain", "boats")
    add(capsys, "Prefers green tea in the afternoon", "--domain", "food")
    code, out, _ = run(capsys, "export", "--domain", "boats")
    files = [Path(line) for line in out.splitlines() if line.endswith(".md")]
    assert code == 0 and [f.name for f in files] == ["boats.md"]
    assert "The canoe is stored at the club" in files[0].read_text()
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    data = run_json(capsys, "export", "--history")
    assert sorted(Path(f).name for f in data["files"]) == ["boats.md", "food.md"] and data["records"] == 2


# -- refusals change nothing -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["add", "A fictional fact about kites", "--importance", "high"], "importance: expected a number"),
        (["add", "A fictional fact about kites", "--importance", "3"], "importance"),
        (["add", "A fictional fact about kites", "--type", "RUMOUR"], "type: expected one of"),
        (["add", "A fictional fact about kites", "--due-at", "next week"], "due_at: expected an ISO 8601 time"),
        (["add", "A fictional fact about kites", "--scope", "everyone"], "access_scope"),
        (["add", "A fictional fact about kites", "--link", "relates_to"], "--link: expected TYPE:ID"),
        (["add", "A fictional fact about kites", "--link", "relates_to:m000000000000"], "not_found"),
        (["add", "   "], "statement"),
        (["list", "--limit", "0"], "limit"),
        (["list", "--cursor", "garbage"], "cursor"),
        (["search", "kites", "--depth", "bottomless"], "depth"),
        (["search", "kites", "--as-of", "yesterday"], "as_of"),
        (["get", "m000000000000"], "not_found: no such memory"),
        (["history", "m000000000000"], "not_found"),
        (["archive", "m000000000000"], "not_found"),
        (["restore", "m000000000000"], "not_found"),
    ],
)
def test_bad_input_exits_1_with_a_clear_message_and_changes_nothing(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    kept = add(capsys, "The kite festival is in August", "--domain", "hobbies")
    before = counts(home)
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert message in err and err.startswith("memvault: ")
    assert out == ""
    assert counts(home) == before
    assert run_json(capsys, "get", kept)["memory"]["revision"] == 1


def test_refused_changes_leave_the_record_as_it_was(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    memory_id = add(capsys, "The tandem lives in the garage", "--domain", "cycling")
    code, _, err = run(capsys, "correct", memory_id, "The tandem lives in the garage.")
    assert code == 1 and "says the same" in err
    code, _, err = run(capsys, "correct", memory_id, "The tandem lives in the shed", "--expected-revision", "7")
    assert code == 1 and "conflict" in err
    code, _, err = run(capsys, "restore", memory_id)
    assert code == 1 and "not archived" in err
    got = run_json(capsys, "get", memory_id)
    assert got["memory"]["status"] == "current" and got["memory"]["revision"] == 1 and got["history"] == []


def test_a_secret_is_rejected_not_echoed_and_not_stored(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = "Tr0ub4dor&3-fictional"
    code, out, err = run(capsys, "add", f"The router password is {secret}")
    assert code == 1
    assert "rejected" in err and "secret" in err
    assert secret not in out + err
    code, out, err = run(capsys, "--json", "add", f"The router password is {secret}")
    assert code == 1 and json.loads(out)["outcome"] == "rejected" and secret not in out + err
    assert counts(home)["total"] == 0


# -- proposals and config --------------------------------------------------------------------
def _stage(home: Path, statement: str) -> str:
    with Vault.open(home) as vault:
        result = vault.add(LOCAL_ASSISTANT, Draft.of(statement=statement, domain="hobbies"))
    assert result["outcome"] == "staged"
    return str(result["proposal_id"])


def test_proposals_list_approve_and_reject(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keep = _stage(home, "Plays the ukulele on Sunday afternoons")
    drop = _stage(home, "Wants to learn the bagpipes")
    code, out, _ = run(capsys, "proposals", "list")
    assert code == 0 and keep in out and drop in out and "Plays the ukulele" in out
    approved = run_json(capsys, "proposals", "approve", keep)
    assert approved["outcome"] == "added"
    assert run_json(capsys, "get", approved["id"])["memory"]["statement"] == "Plays the ukulele on Sunday afternoons"
    code, out, _ = run(capsys, "proposals", "reject", drop, "--reason", "not true")
    assert (code, out.strip()) == (0, f"rejected {drop}")
    assert run_json(capsys, "proposals", "list") == []
    assert [p["id"] for p in run_json(capsys, "proposals", "list", "--status", "rejected")] == [drop]
    code, _, err = run(capsys, "proposals", "approve", drop)
    assert code == 1 and "already rejected" in err
    code, _, err = run(capsys, "proposals", "list", "--status", "maybe")
    assert code == 1 and "status" in err
    assert counts(home)["current"] == 1


def test_the_inbox_says_why_a_write_waits_and_badges_a_sensitive_one(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stage(home, "Plays the ukulele on Sunday afternoons")
    _stage(home, "Sees a psychiatrist every other Friday for bipolar disorder")
    code, out, _ = run(capsys, "proposals", "list")
    lines = out.splitlines()
    assert code == 0 and "why" in lines[0]
    ukulele = next(line for line in lines if "ukulele" in line)
    psychiatrist = next(line for line in lines if "psychiatrist" in line)
    assert "review-before-write" in ukulele and "[sensitive]" not in ukulele
    assert "[sensitive]" in psychiatrist
    code, out, _ = run(capsys, "add", "I take lithium every evening for bipolar disorder")
    assert code == 0 and "sensitive" in out and "kept local_only" in out


def test_config_lists_every_setting_and_changes_one(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "config", "get")
    assert code == 0
    for name, declared in SETTINGS.items():
        assert f"{name} = " in out and declared.description in out
    data = run_json(capsys, "config", "get")
    assert set(data) == set(SETTINGS) and data["write_mode"]["value"] == "review-before-write"
    code, out, _ = run(capsys, "config", "set", "write_mode", "retrieval-only")
    assert (code, out.strip()) == (0, "write_mode = retrieval-only")
    assert run_json(capsys, "config", "get", "write_mode")["value"] == "retrieval-only"
    run(capsys, "config", "set", "auto_write_scopes", "local_only,remote_allowed")
    assert run_json(capsys, "config", "get", "auto_write_scopes")["value"] == ["local_only", "remote_allowed"]
    for bad, message in (
        (["write_mode", "yolo"], "write_mode: expected one of"),
        (["packet_max_tokens", "7"], "at least"),
        (["colour", "blue"], "unknown setting"),
    ):
        code, _, err = run(capsys, "config", "set", *bad)
        assert code == 1 and message in err
    assert run_json(capsys, "config", "get", "write_mode")["value"] == "retrieval-only"


# -- as a real process -----------------------------------------------------------------------
def _env(home: Path, passphrase: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["MEMVAULT_HOME"] = str(home)
    if passphrase is not None:
        env["MEMVAULT_PASSPHRASE"] = passphrase
    return env


def test_the_installed_command_and_the_module_share_one_store(home: Path) -> None:
    added = subprocess.run(
        [str(MEMVAULT_BIN), "--json", "add", "The piano tuner visits every October", "--domain", "music"],
        env=_env(home), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    memory_id = json.loads(added.stdout)["id"]
    found = subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "--json", "search", "piano tuner"],
        env=_env(home), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert found.returncode == 0, found.stderr
    assert [r["id"] for r in json.loads(found.stdout)["results"]] == [memory_id]


def test_a_wrong_passphrase_exits_2_and_changes_nothing(home: Path) -> None:
    store = home / "memvault.db"
    before = store.read_bytes()
    done = subprocess.run(
        [str(MEMVAULT_BIN), "add", "Anything at all about lanterns"],
        env=_env(home, "not the passphrase"), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "wrong passphrase" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == "" and "not the passphrase" not in done.stderr
    assert store.read_bytes() == before


def test_no_store_exits_2_and_says_what_to_do(fresh_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "list")
    assert code == 2 and "memvault init" in err
    assert not fresh_home.exists()


# -- the guide keeps up with the commands ----------------------------------------------------
DOCUMENTED_HERE = ("add", "get", "list", "search", "history", "correct", "archive", "restore", "export", "demo")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_command_and_option_is_in_the_cli_guide() -> None:
    guide = (REPO / "docs" / "cli.md").read_text()
    commands = _subcommands(build_parser())
    parsers = {name: commands[name] for name in DOCUMENTED_HERE}
    for group in ("proposals", "config"):
        parsers.update({f"{group} {name}": sub for name, sub in _subcommands(commands[group]).items()})
    missing = []
    for name, parser in parsers.items():
        if f"memvault {name}" not in guide:
            missing.append(f"memvault {name}")
        for action in parser._actions:
            for option in action.option_strings:
                if option.startswith("--") and option not in ("--help", "--json") and option not in guide:
                    missing.append(f"memvault {name} {option}")
    assert missing == []


def test_scope_shares_a_record_and_refuses_a_bad_scope(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    memory_id = add(capsys, "The allotment gate code changes in May", "--domain", "garden")
    shared = run_json(capsys, "scope", memory_id, "remote_allowed")
    assert shared["access_scope"] == "remote_allowed" and shared["revision"] == 2
    code, _out, err = run(capsys, "scope", memory_id, "everyone")
    assert code == 1 and "scope: expected one of" in err
    assert run_json(capsys, "get", memory_id)["memory"]["access_scope"] == "remote_allowed"
