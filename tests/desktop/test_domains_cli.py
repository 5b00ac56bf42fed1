"""`memvault domains ...` and the view commands, run in-process through `main` on a real store."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from clikit import run, run_json

from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "retrieval"))
from regions_data import fill

from memvault.core.vocabulary.drafts import Draft


@pytest.fixture
def filled(home: Path) -> dict[str, list[str]]:
    with Vault.open(home) as vault:
        return fill(vault)


def test_list_show_rename_merge_split_pin(capsys: pytest.CaptureFixture[str], filled: dict[str, list[str]]) -> None:
    code, out, _ = run(capsys, "domains", "list")
    assert code == 0 and "garden" in out and "finance" in out
    assert run_json(capsys, "domains", "show", "garden")["records"] == 15
    assert run_json(capsys, "domains", "rename", "garden", "allotment")["records"] == 15
    assert run_json(capsys, "domains", "split", "software", "devops", "--keyword", "container")["moved"] == 2
    assert run_json(capsys, "domains", "pin", "health")["pinned"] is True
    code, _, err = run(capsys, "domains", "merge", "health", "--into", "finance")
    assert code == 1 and "pinned" in err
    run(capsys, "domains", "unpin", "health")
    assert run_json(capsys, "domains", "merge", "health", "--into", "finance")["moved"] == 15
    names = {d["name"] for d in run_json(capsys, "domains", "list")["items"]}
    assert names == {"allotment", "devops", "finance", "software"}
    shown = run_json(capsys, "domains", "set", "finance", "--keywords", "money, health", "--depth", "deep")
    assert shown["keywords"] == ["money", "health"] and shown["depth"] == "deep"


def test_discover_is_a_dry_run_unless_applied(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    with Vault.open(home) as vault:
        fill(vault, explicit=False)
    code, out, _ = run(capsys, "domains", "discover")
    assert code == 0 and "would move" in out and "nothing changed" in out
    assert {d["name"] for d in run_json(capsys, "domains", "list")["items"]} == {"general"}
    assert run_json(capsys, "domains", "refresh")["refreshed"] == 1  # general gets keywords and a centroid
    applied = run_json(capsys, "domains", "discover", "--apply")
    assert applied["dry_run"] is False and applied["moves"] > 0
    assert set(applied["new_domains"]) <= {d["name"] for d in run_json(capsys, "domains", "list")["items"]}
    assert len(applied["new_domains"]) >= 3
    code, out, _ = run(capsys, "domains", "maintain")
    assert code == 0 and "refreshed" in out and "placed by their meaning" in out


def test_view_commands(capsys: pytest.CaptureFixture[str], home: Path) -> None:
    with Vault.open(home) as vault:
        base = vault.add(OWNER, Draft.of(statement="The bike needs new brake pads", tags=["project:Bike"]))["id"]
        todo = vault.add(
            OWNER,
            Draft.of(
                statement="Order brake pads for the bike",
                type="NEXT_ACTION",
                due_at="2026-05-01",
                tags=["project:Bike"],
                links=[{"type": "depends_on", "target_id": base}],
            ),
        )["id"]
        vault.add(
            OWNER, Draft.of(statement="Decided to service the bike myself", type="DECISION", tags=["project:Bike"])
        )
    related = run_json(capsys, "related", todo)
    assert [n["id"] for n in related["nodes"]] == [todo, base]
    assert run_json(capsys, "unresolved")["items"][0]["id"] == todo
    assert len(run_json(capsys, "decisions", "--project", "bike")["items"]) == 1
    assert run_json(capsys, "project", "Bike")["project"] == "Bike"
    kinds = [e["kind"] for e in run_json(capsys, "timeline", "--subject", "brake")["events"]]
    assert kinds.count("learned") == 2 and "due" in kinds
    assert run_json(capsys, "feedback", todo, "useful", "--note", "helped") == {"ok": True}
    code, _, err = run(capsys, "related", todo, "--depth", "9")
    assert code == 1 and "depth" in err
