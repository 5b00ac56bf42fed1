"""Principals and tokens (core/operations/principals.py) and their commands (`memvault token`, `kill-switch`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import run

from memvault.core.operations.principals import token_hash
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Conflict, Forbidden, InvalidArgument, NotFound
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER, Surface


def stored_token_rows(vault: Vault) -> list[dict[str, object]]:
    with vault.ctx.reading() as conn:
        return [dict(row) for row in conn.raw.execute("SELECT * FROM tokens")]


def test_a_token_authenticates_as_its_principal_and_only_its_hash_is_kept(vault: Vault) -> None:
    made = vault.create_token(OWNER, "ChatGPT", "remote")
    token = made["token"]
    caller = vault.authenticate(token)
    assert caller is not None and (caller.principal, caller.surface, caller.workspace_id) == (
        "chatgpt",
        Surface.REMOTE,
        None,
    )
    rows = stored_token_rows(vault)
    assert [row["token_hash"] for row in rows] == [token_hash(token)]
    assert token not in json.dumps(rows) and token not in json.dumps(vault.list_principals(OWNER))
    assert token not in json.dumps([e["details"] for e in _all_events(vault)])


def _all_events(vault: Vault) -> list[dict[str, object]]:
    with vault.ctx.reading() as conn:
        return [dict(row) for row in conn.raw.execute("SELECT details FROM events")]


def test_unknown_malformed_and_revoked_tokens_are_refused(vault: Vault) -> None:
    first = vault.create_token(OWNER, "tablet", "remote")["token"]
    second = vault.create_token(OWNER, "tablet", "remote")["token"]  # a second token for the same principal
    assert vault.authenticate(first) and vault.authenticate(second)
    for bad in ("", "mvt_", first[:-1], first + "x", "Bearer " + first, first.upper(), "mvt_" + "a" * 400):
        assert vault.authenticate(bad) is None, bad
    assert vault.revoke_principal(OWNER, "tablet") == {"principal": "tablet", "revoked_tokens": 2}
    assert vault.authenticate(first) is None and vault.authenticate(second) is None
    again = vault.create_token(OWNER, "tablet", "remote")["token"]  # the person may bring it back
    assert vault.authenticate(again) is not None and vault.authenticate(first) is None


def test_workspace_principals_and_the_rules_for_names(vault: Vault) -> None:
    ws = vault.authenticate(vault.create_token(OWNER, "team-a", "workspace", "ws-a")["token"])
    assert ws is not None and (ws.surface, ws.workspace_id) == (Surface.WORKSPACE, "ws-a")
    with pytest.raises(Conflict):
        vault.create_token(OWNER, "team-a", "remote")
    for name, surface, workspace in (
        ("local", "remote", None),
        ("owner", "remote", None),
        ("bad name!", "remote", None),
        ("x", "local", None),
        ("x", "workspace", None),
        ("x", "remote", "ws-a"),
    ):
        with pytest.raises(InvalidArgument):
            vault.create_token(OWNER, name, surface, workspace)
    with pytest.raises(NotFound):
        vault.revoke_principal(OWNER, "nobody")


def test_only_the_person_manages_tokens(vault: Vault) -> None:
    with pytest.raises(Forbidden):
        vault.create_token(LOCAL_ASSISTANT, "sneaky", "remote")
    with pytest.raises(Forbidden):
        vault.list_principals(LOCAL_ASSISTANT)


def test_token_commands(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "token", "create", "--principal", "phone", "--surface", "remote")
    assert code == 0 and len(out.splitlines()) == 1 and out.startswith("mvt_") and out.strip() not in err
    token = out.strip()
    code, listed, _ = run(capsys, "--json", "token", "list")
    assert code == 0 and token not in listed
    assert json.loads(listed)[0] | {"created_at": None} == {
        "name": "phone",
        "surface": "remote",
        "workspace_id": None,
        "created_at": None,
        "revoked_at": None,
        "live_tokens": 1,
    }
    code, _, err = run(capsys, "token", "create", "--principal", "crew", "--surface", "workspace")
    assert code == 1 and "--workspace" in err
    assert run(capsys, "token", "revoke", "phone")[0] == 0
    code, _, err = run(capsys, "token", "revoke", "phone-2")
    assert code == 1 and "not_found" in err
    with Vault.open(home) as vault:
        assert vault.authenticate(token) is None


def test_kill_switch_command_prints_its_position(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A change prints the position in force; `status` prints it first, then both positions in words."""
    assert run(capsys, "kill-switch", "status")[1] == (
        "off\n"
        "assistants may call\n"
        "this machine: off\n"
        "store-wide: off (no other machine uses this store: the two positions are one)\n"
    )
    assert run(capsys, "kill-switch", "on")[1] == "on\n"
    assert run(capsys, "kill-switch", "status")[1].splitlines()[:3] == [
        "on",
        "remote and workspace calls are stopped (this machine and store-wide)",
        "this machine: on",
    ]
    assert run(capsys, "kill-switch", "all")[1] == "all\n"
    with Vault.open(home) as vault:
        assert vault.get_setting("kill_switch") == "all"
    assert run(capsys, "kill-switch", "off")[1] == "off\n"


@pytest.mark.parametrize(
    "options",
    [["--http", "127.0.0.1"], ["--http", "127.0.0.1:99999"], ["--http", "127.0.0.1:0", "--burst", "0"]],
)
def test_serve_refuses_bad_options_before_listening(
    home: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    code, out, err = run(capsys, "serve", *options)
    assert code == 1 and out == "" and "invalid_argument" in err
