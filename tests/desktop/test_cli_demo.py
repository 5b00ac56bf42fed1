"""`memvault demo`: the shipped fictional data set, loaded into its own store and searchable at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import keyring
import keyring.backend
import pytest
from clikit import run, run_json

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER, MemoryType
from memvault.core.vocabulary.requests import ListRequest
from memvault.desktop.cli import main
from memvault.desktop.commands import demo


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo store for the read-only tests of this module (loading takes about a second)."""
    home = tmp_path_factory.mktemp("demo") / "store"
    assert main(["demo", "--home", str(home)]) == 0
    return home


def all_records(home: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    with Vault.open(home) as vault:
        for status in ("current", "superseded", "archived"):
            cursor = None
            while True:
                page = vault.list_memories(
                    OWNER, ListRequest.of(status=status, limit=200, **({"cursor": cursor} if cursor else {}))
                )
                records += page["items"]
                cursor = page["next_cursor"]
                if not cursor:
                    break
    return records


def test_the_demo_holds_a_rich_fictional_data_set(demo_home: Path) -> None:
    records = all_records(demo_home)
    assert len(records) >= 220
    by_domain = Counter(r["domain"] for r in records)
    assert len(by_domain) >= 8 and min(by_domain.values()) >= 10
    statuses = Counter(r["status"] for r in records)
    assert statuses["superseded"] >= 10 and statuses["archived"] >= 5
    types = Counter(r["type"] for r in records)
    for needed in ("DECISION", "CONSTRAINT", "OPEN_QUESTION", "NEXT_ACTION", "FAILED_APPROACH", "SUCCESSFUL_APPROACH"):
        assert types[needed] >= 5, needed
    assert {t.value for t in MemoryType} - set(types) <= {"USER_CORRECTION"}
    assert sum(1 for r in records if r["type"] == "NEXT_ACTION" and r["due_at"]) >= 10
    assert sum(1 for r in records if r["access_scope"] == "remote_allowed") >= 10
    projects = {t for r in records for t in r["tags"] if t.startswith("project:")}
    assert len(projects) >= 5
    for record in records:
        if record["status"] == "superseded":
            assert record["superseded_by_id"] and record["valid_until"]


def test_links_entities_and_supersede_chains_resolve(demo_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = run_json(capsys, "--home", str(demo_home), "search", "Dagster orchestrator", "--type", "DECISION")
    decision = found["results"][0]
    assert "Dagster" in decision["statement"]
    got = run_json(capsys, "--home", str(demo_home), "get", decision["id"])
    assert "Dagster" in got["entities"]
    assert {link["type"] for link in got["links"]} == {"part_of_project"}
    project = run_json(capsys, "--home", str(demo_home), "get", got["links"][0]["target_id"])["memory"]
    assert project["type"] == "PROJECT" and project["statement"].startswith("Atlas")

    budget = run_json(capsys, "--home", str(demo_home), "search", "kitchen renovation budget", "--type", "CONSTRAINT")
    current = budget["results"][0]
    assert "19,500" in current["statement"]
    history = run_json(capsys, "--home", str(demo_home), "history", current["id"])
    assert [v["status"] for v in history["versions"]] == ["current", "superseded"]
    assert "18,000" in history["versions"][1]["statement"]


def test_search_finds_demo_records_by_domain_and_in_the_past(
    demo_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--home", str(demo_home), "search", "Portuguese lesson tutor")
    assert code == 0 and "language/" in out and "Joana" in out
    then = run_json(capsys, "--home", str(demo_home), "search", "kitchen budget", "--as-of", _days_ago(150))["results"]
    assert any("18,000" in r["statement"] for r in then)
    assert not any("19,500" in r["statement"] for r in then)


def _days_ago(days: int) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).date().isoformat()


def test_demo_prints_what_it_loaded_and_what_to_try(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "d"
    code, out, _ = run(capsys, "demo", "--home", str(home))
    assert code == 0
    assert f"Loaded the fictional demo data set into {home}" in out
    assert "domains: cooking (" in out and "Try:" in out and f"memvault --home {home} search" in out
    assert (home / demo.MARKER).exists()
    # A second run loads nothing twice; --reset loads it afresh with new ids.
    again = run_json(capsys, "demo", "--home", str(home))
    assert again["loaded_now"] is False and again["counts"]["total"] == len(all_records(home))
    first_ids = {r["id"] for r in all_records(home)}
    reset = run_json(capsys, "demo", "--home", str(home), "--reset")
    assert reset["loaded_now"] is True and reset["counts"]["total"] == again["counts"]["total"]
    assert set(reset["ids"].values()).isdisjoint(first_ids)


def test_demo_defaults_to_its_own_folder_never_memvault_home(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    data = run_json(capsys, "demo")
    assert Path(data["home"]) == tmp_path / "xdg" / "memvault-demo"
    assert data["counts"]["total"] >= 220
    with Vault.open(home) as vault:  # $MEMVAULT_HOME, the person's own store, is untouched
        assert vault.status(OWNER)["counts"]["total"] == 0


def test_demo_refuses_a_store_it_did_not_make(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Vault.open(home) as vault:
        vault.add(OWNER, Draft.of(statement="A real record the demo must never touch", domain="mine"))
    before = (home / "memvault.db").read_bytes()
    for argv in (
        ["demo", "--home", str(home)],
        ["demo", "--home", str(home), "--reset"],
        ["--home", str(home), "demo"],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "not the demo" in err
    assert (home / "memvault.db").read_bytes() == before
    with Vault.open(home) as vault:
        assert vault.status(OWNER)["counts"]["total"] == 1


def test_every_shipped_line_is_valid_and_keys_resolve() -> None:
    files = demo.demo_files()
    assert len(files) >= 8
    lines = demo.parse_lines(files)
    ops = Counter(line.get("op", "add") for _, _, line in lines)
    assert ops["add"] + ops["correct"] >= 220 and ops["archive"] >= 5
    secrets_words = ("password", "passcode", "iban", "pin code")
    assert not any(word in text.lower() for _, text in files for word in secrets_words)


def test_a_broken_data_file_names_its_line(vault: Vault) -> None:
    good = '{"key": "a", "statement": "The fictional boat is blue", "domain": "boats"}'
    with pytest.raises(InvalidArgument, match=r"x\.jsonl:2: refers to 'nope'"):
        demo.load(vault, [("x.jsonl", good + '\n{"op": "correct", "target": "nope", "statement": "It is red"}\n')])
    with pytest.raises(InvalidArgument, match=r"y\.jsonl:1: not a JSON object"):
        demo.load(vault, [("y.jsonl", "[1, 2]\n")])
    with pytest.raises(InvalidArgument, match=r"z\.jsonl:1: unknown op"):
        demo.load(vault, [("z.jsonl", '{"op": "purge", "target": "a"}\n')])


def test_relative_days_are_resolved_at_load_time(vault: Vault) -> None:
    lines = (
        '{"op": "defaults", "domain": "boats", "source": "demo"}\n'
        '{"key": "k", "type": "NEXT_ACTION", "statement": "Varnish the fictional oars", "due_at": "+3d",'
        ' "event_time": "-10d"}\n'
    )
    loaded = demo.load(vault, [("t.jsonl", lines)])
    record = vault.get(OWNER, loaded.ids["k"])["memory"]
    assert record["due_at"][:10] == _days_ago(-3)
    assert record["valid_from"][:10] == _days_ago(10)
    assert (record["domain"], record["source"]) == ("boats", "demo")


def test_the_demo_runs_as_a_real_process(tmp_path: Path) -> None:
    env = {**os.environ, "MEMVAULT_HOME": str(tmp_path / "not-this-one")}
    done = subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "demo", "--home", str(tmp_path / "demo")],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Loaded the fictional demo data set" in done.stdout
    found = subprocess.run(
        [sys.executable, "-m", "memvault.desktop.cli", "--home", str(tmp_path / "demo"), "search", "sourdough starter"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert found.returncode == 0 and "Bertha" in found.stdout
    assert not (tmp_path / "not-this-one").exists()


class MemoryKeyring(keyring.backend.KeyringBackend):
    """An OS keyring stand-in that keeps secrets in this process (tests only)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def delete_password(self, service: str, username: str) -> None:
        del self.entries[(service, username)]


def test_reset_also_forgets_the_demo_key_in_the_os_keyring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ring = MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(ring)
    monkeypatch.delenv("MEMVAULT_KEY_BACKEND", raising=False)
    try:
        home = tmp_path / "demo"
        assert run_json(capsys, "demo", "--home", str(home))["loaded_now"] is True
        first = json.loads((home / "memvault.key.json").read_text())
        assert first["backend"] == "keyring" and list(ring.entries) == [("memvault", first["store_id"])]
        assert run_json(capsys, "demo", "--home", str(home), "--reset")["loaded_now"] is True
        second = json.loads((home / "memvault.key.json").read_text())
        assert list(ring.entries) == [("memvault", second["store_id"])] != [("memvault", first["store_id"])]
    finally:
        keyring.set_keyring(previous)
