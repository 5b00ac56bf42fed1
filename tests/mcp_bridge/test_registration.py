"""`memvault install codex|claude` and the removal behind `memvault uninstall`, on realistic config copies.

Every test gets its own HOME, CODEX_HOME and state folder; config files are fictional but shaped
like real ones (comments, other servers, profiles, Claude Code's own keys).
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path

import pytest

from memvault.core.vocabulary.errors import Conflict
from memvault.desktop import clients

from .bridgekit import MEMVAULT, run_cli

EXE = "/opt/memvault/bin/memvault"
ENV_VARS = ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"]  # names forwarded by Codex, never values
CODEX_ENTRY = {"command": EXE, "args": ["mcp"], "env_vars": ENV_VARS}

CODEX_CONFIG = """\
# Codex settings, kept by hand (fictional)
model = "gpt-5-codex"
model_reasoning_effort = "high"   # slow but careful
approval_policy = "on-request"
sandbox_mode = "workspace-write"

[sandbox_workspace_write]
network_access = false

[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp"]   # pinned by hand
startup_timeout_sec = 20

[mcp_servers.docs.env]
DOCS_REGION = "eu"

[profiles.fast]
model = "gpt-5-mini"

[tui]
notifications = true
"""

CODEX_VARIANTS = {
    "realistic": CODEX_CONFIG,
    "empty": "",
    "no-final-newline": 'model = "gpt-5-codex"\n\n[tui]\nnotifications = true',
    "dotted-keys": 'model = "o3"\nmcp_servers.docs.command = "npx"\nmcp_servers.docs.args = ["docs"]\n',
    "windows-newlines": 'model = "o3"\r\n\r\n[tui]\r\nnotifications = true\r\n',
    "mcp-servers-header": '[mcp_servers]\n\n[mcp_servers.docs]\ncommand = "npx"\n',
}

CLAUDE_JSON = {
    "numStartups": 42,
    "installMethod": "npm-global",
    "autoUpdates": False,
    "theme": "dark",
    "mcpServers": {"notes": {"type": "stdio", "command": "/usr/local/bin/notes-mcp", "args": [], "env": {}}},
    "projects": {"/home/ana/src/aurora": {"allowedTools": [], "history": [], "mcpServers": {}}},
    "userID": "fictional-0000",
}


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    for name, value in {
        "HOME": home,
        "CODEX_HOME": home / ".codex",
        "XDG_STATE_HOME": home / ".local" / "state",
        "XDG_CONFIG_HOME": home / ".config",
    }.items():
        monkeypatch.setenv(name, str(value))
    monkeypatch.delenv("MEMVAULT_HOME")  # the store in its default place: `args = ["mcp"]`
    monkeypatch.delenv("XDG_DATA_HOME")  # which Codex would not pass on: with it, `--home` is named
    return home


def write_codex(home: Path, text: str) -> Path:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text.encode())
    return path


def tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.parametrize("variant", sorted(CODEX_VARIANTS))
def test_codex_install_adds_only_our_table_and_uninstall_gives_the_file_back(homes: Path, variant: str) -> None:
    original = CODEX_VARIANTS[variant]
    config = write_codex(homes, original)
    before = tree(homes)

    result = clients.install("codex", executable=EXE)
    text = config.read_bytes().decode()
    parsed = tomllib.loads(text)
    assert parsed["mcp_servers"]["memvault"] == CODEX_ENTRY  # no env values, ever
    assert clients._without_entry(parsed) == clients._without_entry(tomllib.loads(original))
    assert text.startswith(original)  # the rest of the file, byte for byte
    assert [c.path for c in result.changes] == [config, clients.codex_skill()]
    assert clients.registered_clients() == ["codex"]

    removed = clients.remove_registration("codex", dry_run=False)
    assert any("[mcp_servers.memvault]" in line for line in removed)
    remaining = config.read_bytes().decode()
    if variant == "no-final-newline":
        assert remaining in (original, original + "\n")
    else:
        assert remaining == original
    assert tree(homes) == before  # skill, its folders and the state record are gone again
    assert clients.registered_clients() == []


def test_codex_install_writes_the_skill(homes: Path) -> None:
    clients.install("codex", executable=EXE)
    skill = (homes / ".agents" / "skills" / "memvault" / "SKILL.md").read_text()
    front = skill.split("---\n")[1]
    assert "name: memvault\n" in front and "description: " in front
    for must in ("memory_search", "[id]", "secret", "approval inbox", "memory_correct"):
        assert must in skill
    assert stat.S_IMODE((homes / ".agents" / "skills" / "memvault").stat().st_mode) == 0o700


def test_installing_twice_changes_nothing_and_a_moved_executable_is_updated(homes: Path) -> None:
    config = write_codex(homes, CODEX_CONFIG)
    clients.install("codex", executable=EXE)
    first = config.read_text()
    again = clients.install("codex", executable=EXE)
    assert again.changes == [] and "already registered" in again.notes[0]
    assert config.read_text() == first
    moved = clients.install("codex", executable="/usr/local/bin/memvault")
    assert [c.path for c in moved.changes] == [config]
    text = config.read_text()
    assert tomllib.loads(text)["mcp_servers"]["memvault"]["command"] == "/usr/local/bin/memvault"
    assert text.replace("/usr/local/bin/memvault", EXE) == first
    clients.remove_registration("codex", dry_run=False)
    assert config.read_text() == CODEX_CONFIG


def test_dry_run_shows_the_change_and_writes_nothing(homes: Path) -> None:
    config = write_codex(homes, CODEX_CONFIG)
    before = tree(homes)
    result = clients.install("codex", dry_run=True, executable=EXE)
    assert tree(homes) == before and config.read_text() == CODEX_CONFIG
    diff = result.changes[0].diff()
    added = [line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert added == [
        "+",
        "+[mcp_servers.memvault]",
        f'+command = "{EXE}"',
        '+args = ["mcp"]',
        '+env_vars = ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"]',
    ]
    assert not [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    clients.install("codex", executable=EXE)
    would = clients.remove_registration("codex", dry_run=True)
    assert len(would) >= 2 and "memvault" in config.read_text()
    assert (homes / ".agents" / "skills" / "memvault" / "SKILL.md").exists()


def test_a_server_someone_else_named_memvault_is_not_touched(homes: Path) -> None:
    theirs = CODEX_CONFIG + '\n[mcp_servers.memvault]\ncommand = "/home/ana/bin/my-memvault-fork"\nargs = ["serve"]\n'
    config = write_codex(homes, theirs)
    with pytest.raises(Conflict):
        clients.install("codex", executable=EXE)
    assert config.read_text() == theirs
    assert clients.remove_registration("codex", dry_run=False) == []
    assert config.read_text() == theirs
    assert clients.registered_clients() == []


def test_uninstall_keeps_what_the_person_added_after_install(homes: Path) -> None:
    config = write_codex(homes, CODEX_CONFIG)
    clients.install("codex", executable=EXE)
    skill = clients.codex_skill()
    skill.write_text(skill.read_text() + "\nAlso: my own note.\n")
    later = '\n[mcp_servers.tickets]\ncommand = "tickets-mcp"\n'
    config.write_text(config.read_text() + later)
    removed = clients.remove_registration("codex", dry_run=False)
    assert any("edited by hand" in line for line in removed)
    assert config.read_text() == CODEX_CONFIG + later
    assert skill.exists() and "my own note" in skill.read_text()


def test_a_broken_config_is_refused_untouched(homes: Path) -> None:
    config = write_codex(homes, 'model = "gpt-5\n[unclosed\n')
    with pytest.raises(clients.ClientConfigProblem):
        clients.install("codex", executable=EXE)
    assert config.read_text() == 'model = "gpt-5\n[unclosed\n'
    assert not clients.codex_skill().exists()


def test_codex_without_any_config_gets_one_and_loses_it_again(homes: Path) -> None:
    clients.install("codex", executable=EXE)
    config = homes / ".codex" / "config.toml"
    assert tomllib.loads(config.read_text()) == {"mcp_servers": {"memvault": CODEX_ENTRY}}
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    clients.remove_registration("codex", dry_run=False)
    assert tree(homes) == set()


def test_claude_code_registration_keeps_every_other_key(homes: Path) -> None:
    path = homes / ".claude.json"
    original = json.dumps(CLAUDE_JSON, indent=2)
    path.write_text(original)
    os.chmod(path, 0o600)
    result = clients.install("claude", executable=EXE)
    data = json.loads(path.read_text())
    assert data["mcpServers"]["memvault"] == {"type": "stdio", "command": EXE, "args": ["mcp"], "env": {}}
    assert {k: v for k, v in data.items() if k != "mcpServers"} == {
        k: v for k, v in CLAUDE_JSON.items() if k != "mcpServers"
    }
    assert data["mcpServers"]["notes"] == CLAUDE_JSON["mcpServers"]["notes"]  # type: ignore[index]
    assert list(data) == list(CLAUDE_JSON)  # key order kept
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert any("claude_desktop_config.json" in note for note in result.notes)
    assert clients.registered_clients() == ["claude"]
    clients.remove_registration("claude", dry_run=False)
    assert path.read_text() == original


def test_claude_without_a_config_file_and_the_desktop_snippet(homes: Path) -> None:
    result = clients.install("claude", executable=EXE)
    path = homes / ".claude.json"
    assert json.loads(path.read_text()) == {
        "mcpServers": {"memvault": {"type": "stdio", "command": EXE, "args": ["mcp"], "env": {}}}
    }
    snippet = json.loads(result.notes[-1].split(":\n", 1)[1])
    assert snippet == {"mcpServers": {"memvault": {"command": EXE, "args": ["mcp"]}}}
    clients.remove_registration("claude", dry_run=False)
    assert not path.exists()


def test_the_cli_registers_this_executable_and_never_a_secret(homes: Path, tmp_path: Path) -> None:
    write_codex(homes, CODEX_CONFIG)
    env = {k: os.environ[k] for k in ("HOME", "CODEX_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME")}
    dry = run_cli(tmp_path, "install", "codex", "--dry-run", **env)
    assert dry.returncode == 0 and b"dry run: nothing was written" in dry.stdout
    assert (homes / ".codex" / "config.toml").read_text() == CODEX_CONFIG
    assert run_cli(tmp_path, "init", **env).returncode == 0  # install refuses to register a store that is not there
    for client in ("codex", "claude"):
        done = run_cli(tmp_path, "install", client, "--no-check", **env)
        assert done.returncode == 0, done.stderr
    expected = os.path.abspath(MEMVAULT[0]) if MEMVAULT[0].endswith("memvault") else None
    entry = tomllib.loads((homes / ".codex" / "config.toml").read_text())["mcp_servers"]["memvault"]
    if expected:
        assert entry["command"] == expected
    assert os.path.isabs(entry["command"])
    # The store the CLI used is not in the default place, so the client is told where it is.
    assert entry["args"] == ["--home", str(tmp_path.resolve()), "mcp"]
    assert json.loads((homes / ".claude.json").read_text())["mcpServers"]["memvault"]["args"] == entry["args"]
    passphrase = os.environ["MEMVAULT_PASSPHRASE"]
    for written in (homes / ".codex" / "config.toml", homes / ".claude.json", clients.codex_skill()):
        text = written.read_text()
        assert passphrase not in text and "MEMVAULT_PASSPHRASE" not in text
    listing = run_cli(tmp_path, "--json", "install", "codex", "--no-check", **env)
    assert json.loads(listing.stdout)["changes"] == []


def test_a_default_folder_moved_by_xdg_data_home_is_named_with_home(
    homes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex passes no XDG_DATA_HOME: its server would look in ~/.local/share and find no store."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    config = write_codex(homes, CODEX_CONFIG)
    clients.install("codex", executable=EXE)
    entry = tomllib.loads(config.read_text())["mcp_servers"]["memvault"]
    assert entry["args"] == ["--home", str((tmp_path / "data" / "memvault").resolve()), "mcp"]


def test_a_store_outside_the_default_place_is_named_with_home(homes: Path, tmp_path: Path) -> None:
    store = tmp_path / "elsewhere"
    config = write_codex(homes, CODEX_CONFIG)
    clients.install("codex", executable=EXE, home=str(store))
    entry = tomllib.loads(config.read_text())["mcp_servers"]["memvault"]
    assert entry["args"] == ["--home", str(store.resolve()), "mcp"]
    assert clients.registered_clients() == ["codex"]
    clients.remove_registration("codex", dry_run=False)
    assert config.read_text() == CODEX_CONFIG


def test_an_entry_made_with_codex_mcp_add_is_brought_up_to_date_in_place(homes: Path) -> None:
    """`codex mcp add memvault -- /path/memvault mcp` before, a timeout tuned by hand: install adds what is missing."""
    by_hand = CODEX_CONFIG.replace(
        "[profiles.fast]",
        f'[mcp_servers.memvault]\ncommand = "{EXE}"\nargs = ["mcp"]\nstartup_timeout_sec = 30  # slow disk\n\n'
        "[profiles.fast]",
    )
    config = write_codex(homes, by_hand)
    clients.install("codex", executable=EXE)
    text = config.read_text()
    entry = tomllib.loads(text)["mcp_servers"]["memvault"]
    assert entry == {**CODEX_ENTRY, "startup_timeout_sec": 30}
    assert "# slow disk" in text
    assert clients._without_entry(tomllib.loads(text)) == clients._without_entry(tomllib.loads(by_hand))
    clients.remove_registration("codex", dry_run=False)
    after = config.read_text()
    assert tomllib.loads(after) == clients._without_entry(tomllib.loads(by_hand))
    assert "# pinned by hand" in after and "[profiles.fast]" in after
