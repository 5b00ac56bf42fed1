"""Registering memvault with MCP clients (Codex, Claude Code) and removing exactly that again.

What `memvault install codex` adds:
- `[mcp_servers.memvault]` in `$CODEX_HOME/config.toml` (default `~/.codex`): `command` = the
  absolute path of this `memvault` executable, `args = ["mcp"]`. The rest of the file is kept
  byte for byte: the table is appended as text, and the result is parsed back and compared with
  the original plus our entry before anything is written (tomlkit edits in place when the table
  exists already or the text route does not fit the file).
- the Codex skill at `~/.agents/skills/memvault/SKILL.md`.

What `memvault install claude` adds: `mcpServers.memvault` in `~/.claude.json` (Claude Code,
user scope), other keys kept. The Claude Desktop snippet is printed, not written.

Never any `env`: no passphrase or key goes into a client's config; the bridge finds the key
itself (OS keyring, or the running daemon that was unlocked once).

Uninstall removes our entry (recognised by its content: a `memvault` command run with `mcp`),
the skill file unless it was edited by hand, and the folders and keys that install created
(recorded in `clients.json` in the user state folder). Entries a person made, other servers,
comments and every other setting stay untouched.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import shutil
import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import platformdirs

from memvault.core.runtime.paths import VaultPaths, default_home
from memvault.core.vocabulary.errors import Conflict, EnvironmentProblem, InvalidArgument

CLIENTS = ("codex", "claude")
SERVER_NAME = "memvault"
# Forwarded by name only (never a value): Codex passes almost no environment to MCP servers, and the
# bridge needs the session bus to reach the OS keyring when no daemon runs.
CODEX_ENV_VARS = ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")
SKILL_TEMPLATE = ("codex", "skills", "memvault", "SKILL.md")


class ClientConfigProblem(EnvironmentProblem):
    """A client's config file cannot be read or would not survive the edit: nothing was written."""


# -- where things are ------------------------------------------------------------------------
def codex_config() -> Path:
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex") / "config.toml"


def codex_skill() -> Path:
    return Path.home() / ".agents" / "skills" / SERVER_NAME / "SKILL.md"


def claude_config() -> Path:
    return Path.home() / ".claude.json"


def claude_desktop_config() -> Path:
    """Where Claude Desktop reads its servers on this platform."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "Claude" / "claude_desktop_config.json"
    return Path(platformdirs.user_config_dir("Claude")) / "claude_desktop_config.json"


def manifest_path() -> Path:
    return Path(platformdirs.user_state_dir("memvault")) / "clients.json"


def memvault_executable() -> str:
    """The absolute path of the `memvault` command running now, or the one on PATH."""
    argv0 = Path(sys.argv[0])
    if argv0.name in ("memvault", "memvault.exe") and argv0.is_file():
        return os.path.abspath(argv0)
    found = shutil.which("memvault")
    if found:
        return os.path.abspath(found)
    raise EnvironmentProblem("cannot find the installed `memvault` command (is it on PATH?)")


def skill_text() -> str:
    here = resources.files("memvault.client_templates")
    for part in SKILL_TEMPLATE:
        here = here / part
    return here.read_text(encoding="utf-8")


# -- one planned file change -----------------------------------------------------------------
@dataclass
class FileChange:
    path: Path
    before: str | None  # None: the file does not exist
    after: str | None  # None: the file goes away
    what: str  # one line for people: what is added or removed

    def diff(self) -> str:
        lines = difflib.unified_diff(
            (self.before or "").splitlines(keepends=True),
            (self.after or "").splitlines(keepends=True),
            fromfile=str(self.path) if self.before is not None else "/dev/null",
            tofile=str(self.path) if self.after is not None else "/dev/null",
        )
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


@dataclass(frozen=True)
class Server:
    """What a client runs: this `memvault` executable with `mcp` (and `--home` for a store not in the default place)."""

    command: str
    args: tuple[str, ...] = ("mcp",)

    def codex_entry(self) -> dict[str, Any]:
        return {"command": self.command, "args": list(self.args), "env_vars": list(CODEX_ENV_VARS)}

    def claude_entry(self) -> dict[str, Any]:
        return {"type": "stdio", "command": self.command, "args": list(self.args), "env": {}}


def server_args(home: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """`mcp`, or `--home DIR mcp` when the store is not where memvault looks by default
    (clients such as Codex do not pass MEMVAULT_HOME on to the servers they spawn, nor
    XDG_DATA_HOME, which moves the default folder on Linux)."""
    chosen = VaultPaths.from_env(home).home
    if chosen == default_home() and not os.environ.get("XDG_DATA_HOME"):
        return ("mcp",)
    return ("--home", str(chosen), "mcp")


def _is_ours(entry: Any) -> bool:
    """An entry that runs a `memvault` executable with `mcp`: what install writes (paths may differ)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args")
    shaped = args == ["mcp"] or (isinstance(args, list) and len(args) == 3 and args[0] == "--home" and args[2] == "mcp")
    return Path(entry["command"]).name in ("memvault", "memvault.exe") and shaped


def read_text(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8", newline="") as handle:  # newline="": keep \r\n as it is
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ClientConfigProblem(f"cannot read {path}: {exc}") from None


# -- Codex: config.toml ----------------------------------------------------------------------
def _toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ClientConfigProblem(f"{path} is not valid TOML ({exc}); fix it first, nothing was changed") from None


def _codex_block(server: Server, newline: str = "\n") -> str:
    import tomlkit  # noqa: PLC0415

    entry = server.codex_entry()
    lines = [
        f"[mcp_servers.{SERVER_NAME}]",
        *(f"{key} = {tomlkit.item(value).as_string()}" for key, value in entry.items()),
    ]
    return newline.join(lines) + newline


def _newline_of(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _without_entry(data: dict[str, Any]) -> dict[str, Any]:
    """The parsed config minus our entry (and minus an `mcp_servers` left empty)."""
    servers = {k: v for k, v in data.get("mcp_servers", {}).items() if k != SERVER_NAME}
    rest = {k: v for k, v in data.items() if k != "mcp_servers"}
    return {**rest, "mcp_servers": servers} if servers else rest


def _has_our_keys(entry: Any, server: Server) -> bool:
    """The entry holds what install writes (a person may have added keys of their own beside it)."""
    return isinstance(entry, dict) and all(entry.get(k) == v for k, v in server.codex_entry().items())


def _codex_add_text(original: str, data: dict[str, Any], server: Server) -> str | None:
    """The original text with our table appended, when that parses to exactly original + entry."""
    nl = _newline_of(original)
    separator = "" if not original else (nl if original.endswith("\n") else nl + nl)
    candidate = original + separator + _codex_block(server, nl)
    parsed = _parse_or_none(candidate)
    return candidate if parsed is not None and _codex_matches(parsed, data, server) else None


def _codex_matches(parsed: dict[str, Any], original: dict[str, Any], server: Server) -> bool:
    entry = parsed.get("mcp_servers", {}).get(SERVER_NAME)
    return _has_our_keys(entry, server) and _without_entry(parsed) == _without_entry(original)


def _codex_edit_text(original: str, server: Server) -> str:
    """Set our keys in place with tomlkit (the table exists, or appending does not fit the file)."""
    import tomlkit  # noqa: PLC0415

    doc = tomlkit.parse(original)
    servers = doc.get("mcp_servers")
    if servers is None:
        servers = tomlkit.table(is_super_table=True)
        doc["mcp_servers"] = servers
    if SERVER_NAME not in servers:
        servers[SERVER_NAME] = tomlkit.table()
    for key, value in server.codex_entry().items():
        servers[SERVER_NAME][key] = value
    return tomlkit.dumps(doc)


def plan_codex_config(server: Server, *, force: bool = False) -> FileChange | None:
    path = codex_config()
    original = read_text(path)
    data = _toml(original or "", path)
    entry = data.get("mcp_servers", {}).get(SERVER_NAME)
    if entry is not None and not _is_ours(entry) and not force:
        raise Conflict(
            f"{path} already has an [mcp_servers.{SERVER_NAME}] that runs something else; --force replaces it"
        )
    if _has_our_keys(entry, server):
        return None
    after = None if entry is not None else _codex_add_text(original or "", data, server)
    if after is None:
        after = _codex_edit_text(original or "", server)
    parsed = _parse_or_none(after)
    if parsed is None or not _codex_matches(parsed, data, server):
        raise ClientConfigProblem(f"editing {path} would change more than memvault's entry; nothing was written")
    return FileChange(path, original, after, f"[mcp_servers.{SERVER_NAME}] in {path}")


def plan_codex_config_removal() -> FileChange | None:
    path = codex_config()
    original = read_text(path)
    if original is None:
        return None
    data = _toml(original, path)
    entry = data.get("mcp_servers", {}).get(SERVER_NAME)
    if not _is_ours(entry):
        return None
    nl = _newline_of(original)
    block = _codex_block(Server(entry["command"], tuple(entry["args"])), nl)
    after = None
    for exact in (nl + block, block):
        if exact in original:
            head, _, tail = original.rpartition(exact)
            after = head + tail
            break
    if not _removed_cleanly(after, data):
        after = _codex_remove_with_tomlkit(original)
    if not _removed_cleanly(after, data):
        raise ClientConfigProblem(
            f"removing memvault from {path} would change more than its entry; nothing was written"
        )
    return FileChange(path, original, after, f"[mcp_servers.{SERVER_NAME}] in {path}")


def _removed_cleanly(text: str | None, before: dict[str, Any]) -> bool:
    parsed = _parse_or_none(text)
    if parsed is None or SERVER_NAME in parsed.get("mcp_servers", {}):
        return False
    return _without_entry(parsed) == _without_entry(before)


def _parse_or_none(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def _codex_remove_with_tomlkit(original: str) -> str:
    import tomlkit  # noqa: PLC0415

    doc = tomlkit.parse(original)
    servers = doc["mcp_servers"]
    del servers[SERVER_NAME]
    if not servers and getattr(servers, "is_super_table", lambda: False)():
        del doc["mcp_servers"]
    return tomlkit.dumps(doc)


# -- Codex: the skill ------------------------------------------------------------------------
def plan_codex_skill(*, force: bool = False) -> FileChange | None:
    path = codex_skill()
    text = skill_text()
    current = read_text(path)
    if current == text:
        return None
    if current is not None and not _is_our_skill(current) and not force:
        raise Conflict(f"{path} exists and was not installed by memvault; --force replaces it")
    return FileChange(path, current, text, f"the Codex skill {path}")


def _is_our_skill(text: str) -> bool:
    return "Installed by `memvault install codex`" in text


def plan_codex_skill_removal() -> tuple[FileChange | None, str | None]:
    """The skill's removal, or a note on why it stays (edited by hand)."""
    path = codex_skill()
    current = read_text(path)
    if current is None or not _is_our_skill(current):
        return None, None
    if _digest(current) != _digest(skill_text()):
        return None, f"{path} was edited by hand: left in place"
    return FileChange(path, current, None, f"the Codex skill {path}"), None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- Claude Code: ~/.claude.json -------------------------------------------------------------
def _json(text: str | None, path: Path) -> dict[str, Any]:
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ClientConfigProblem(f"{path} is not valid JSON ({exc}); nothing was changed") from None
    if not isinstance(data, dict):
        raise ClientConfigProblem(f"{path} does not hold a JSON object; nothing was changed")
    return data


def _dump_json(data: dict[str, Any], like: str | None) -> str:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return text + "\n" if like is None or like.endswith("\n") else text


def plan_claude_config(server: Server, *, force: bool = False) -> FileChange | None:
    path = claude_config()
    original = read_text(path)
    data = _json(original, path)
    servers = data.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise ClientConfigProblem(f"{path}: mcpServers is not an object; nothing was changed")
    entry = (servers or {}).get(SERVER_NAME)
    if entry is not None and not _is_ours(entry) and not force:
        raise Conflict(f"{path} already has an mcpServers.{SERVER_NAME} that runs something else; --force replaces it")
    wanted = server.claude_entry()
    if entry == wanted:
        return None
    updated = dict(data)
    updated["mcpServers"] = {**(servers or {}), SERVER_NAME: {**(entry or {}), **wanted}}
    return FileChange(path, original, _dump_json(updated, original), f"mcpServers.{SERVER_NAME} in {path}")


def plan_claude_config_removal(created_keys: list[str]) -> FileChange | None:
    path = claude_config()
    original = read_text(path)
    data = _json(original, path)
    servers = data.get("mcpServers")
    if not isinstance(servers, dict) or not _is_ours(servers.get(SERVER_NAME)):
        return None
    rest = {k: v for k, v in servers.items() if k != SERVER_NAME}
    updated = dict(data)
    if rest or "mcpServers" not in created_keys:
        updated["mcpServers"] = rest
    else:
        del updated["mcpServers"]
    return FileChange(path, original, _dump_json(updated, original), f"mcpServers.{SERVER_NAME} in {path}")


def claude_desktop_snippet(server: Server) -> str:
    entry = {"command": server.command, "args": list(server.args)}
    return json.dumps({"mcpServers": {SERVER_NAME: entry}}, indent=2)


# -- applying, with a record of what install created -----------------------------------------
def _load_manifest() -> dict[str, Any]:
    text = read_text(manifest_path())
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _save_manifest(data: dict[str, Any]) -> None:
    """Write the record; once no client is left in it, remove it and the folders it needed."""
    path = manifest_path()
    if not any(client in data for client in CLIENTS):
        path.unlink(missing_ok=True)
        for folder in reversed(data.get("state_folders", [])):
            with contextlib.suppress(OSError):  # not empty: something else lives there now
                Path(folder).rmdir()
        return
    if not path.exists():
        data = {**data, "state_folders": [*data.get("state_folders", []), *_make_parents(path)]}
    write_atomically(path, json.dumps(data, indent=2) + "\n", mode=0o600)


def write_atomically(path: Path, text: str, *, mode: int | None = None) -> None:
    """Atomic replace, keeping the file's permissions (new files: private to the user)."""
    try:
        keep = path.stat().st_mode & 0o777
    except FileNotFoundError:
        keep = 0o600 if mode is None else mode
    tmp = path.with_name(f".{path.name}.memvault-tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, keep)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, keep)
    os.replace(tmp, path)


def _make_parents(path: Path) -> list[str]:
    """Create the missing folders above `path` (0700); returns those created, outermost first."""
    missing = [p for p in reversed(path.parents) if not p.exists()]
    for folder in missing:
        folder.mkdir(mode=0o700)
    return [str(p) for p in missing]


def _apply(change: FileChange) -> list[str]:
    created = _make_parents(change.path) if change.after is not None else []
    if change.after is None:
        change.path.unlink()
    else:
        if change.before is None:
            created.append(str(change.path))
        write_atomically(change.path, change.after)
    return created


@dataclass
class InstallResult:
    client: str
    changes: list[FileChange]
    server: Server
    notes: list[str]


def install(
    client: str,
    *,
    dry_run: bool = False,
    executable: str | None = None,
    force: bool = False,
    home: str | os.PathLike[str] | None = None,
) -> InstallResult:
    """Register memvault with `client`; with `dry_run`, only say what would change."""
    server = Server(executable or memvault_executable(), server_args(home))
    if client == "codex":
        planned = [plan_codex_config(server, force=force), plan_codex_skill(force=force)]
    elif client == "claude":
        planned = [plan_claude_config(server, force=force)]
    else:
        raise InvalidArgument(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
    changes = [change for change in planned if change is not None]
    notes = [] if changes else [f"memvault is already registered with {client}"]
    if client == "claude":
        notes.append(f"Claude Desktop: add this to {claude_desktop_config()}:\n{claude_desktop_snippet(server)}")
    if not dry_run and changes:
        manifest = _load_manifest()
        record = manifest.setdefault(client, {"created": [], "created_keys": []})
        if client == "claude" and "mcpServers" not in _json(changes[0].before, changes[0].path):
            record["created_keys"] = sorted({*record["created_keys"], "mcpServers"})
        for change in changes:
            record["created"] = [*record["created"], *(p for p in _apply(change) if p not in record["created"])]
        _save_manifest(manifest)
    return InstallResult(client, changes, server, notes)


def plan_removal(client: str) -> tuple[list[FileChange], list[str], list[str]]:
    """(file changes, folders and files install created that would then go, notes)."""
    record = _load_manifest().get(client, {})
    notes: list[str] = []
    if client == "codex":
        skill, note = plan_codex_skill_removal()
        notes += [note] if note else []
        changes = [c for c in (plan_codex_config_removal(), skill) if c is not None]
    elif client == "claude":
        changes = [c for c in (plan_claude_config_removal(record.get("created_keys", [])),) if c is not None]
    else:
        raise InvalidArgument(f"unknown client {client!r}; known: {', '.join(CLIENTS)}")
    return changes, list(record.get("created", [])), notes


def remove_registration(client: str, dry_run: bool) -> list[str]:
    """`memvault uninstall <client>`: remove what install added; returns what was (or would be) removed."""
    changes, created, notes = plan_removal(client)
    removed = [change.what for change in changes]
    leftovers = _emptied(created, changes)
    removed += [f"the empty {'folder' if Path(p).is_dir() else 'file'} {p} (made by install)" for p in leftovers]
    if not dry_run:
        for change in changes:
            _apply(change)
        for path in leftovers:
            target = Path(path)
            target.rmdir() if target.is_dir() else target.unlink()
        manifest = _load_manifest()
        if manifest.pop(client, None) is not None:
            _save_manifest(manifest)
    return removed + [f"note: {note}" for note in notes]


def _emptied(created: list[str], changes: list[FileChange]) -> list[str]:
    """What install created that is empty once `changes` are applied: innermost first."""
    after = {change.path: change.after for change in changes}
    gone = {str(p) for p, text in after.items() if text is None}
    leftovers: list[str] = []
    for path in sorted(created, key=lambda p: -len(Path(p).parts)):
        target = Path(path)
        if target.is_dir():
            inside = {str(child) for child in target.iterdir()}
            if inside <= gone | set(leftovers):
                leftovers.append(path)
        elif target.is_file():
            text = after.get(target, read_text(target))
            if text is not None and text.strip() in ("", "{}"):
                leftovers.append(path)
    return leftovers


def registered_clients() -> list[str]:
    """The clients whose config currently holds memvault's entry."""
    found = []
    codex = read_text(codex_config())
    if codex is not None:
        try:
            if _is_ours(tomllib.loads(codex).get("mcp_servers", {}).get(SERVER_NAME)):
                found.append("codex")
        except tomllib.TOMLDecodeError:
            pass
    claude = read_text(claude_config())
    if claude:
        try:
            servers = json.loads(claude).get("mcpServers", {})
        except (ValueError, AttributeError):
            servers = {}
        if isinstance(servers, dict) and _is_ours(servers.get(SERVER_NAME)):
            found.append("claude")
    return found
