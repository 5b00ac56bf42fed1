"""`memvault demo`: load a fictional data set into a separate store, so a newcomer sees something real.

The data set ships in `resources/demo/*.jsonl` (format: docs/cli.md). It goes
into its own store (default: the `memvault-demo` user data folder), never into
the person's own: a folder that holds a store memvault did not make for the demo
is refused, and `--reset` only removes what the demo made.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from memvault.core.maintenance.uninstall import keyring_entry
from memvault.core.runtime.paths import VaultPaths, demo_home
from memvault.core.security.keys import KEYRING_SERVICE
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import format_time
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest
from memvault.desktop.commands.common import emit
from memvault.desktop.commands.memory import command

MARKER = "MEMVAULT-DEMO.txt"
MARKER_TEXT = "This folder holds the fictional memvault demo store; `memvault demo --reset` may delete it.\n"
TIME_FIELDS = ("event_time", "valid_from", "valid_until", "due_at")
_RELATIVE = re.compile(r"^([+-])(\d{1,5})d$")
Progress = Callable[[int, int], None]


def demo_files() -> list[tuple[str, str]]:
    """(name, text) of every data file shipped with memvault, in load order."""
    folder = resources.files("memvault.resources").joinpath("demo")
    chosen = sorted((f for f in folder.iterdir() if f.name.endswith(".jsonl")), key=lambda f: f.name)
    return [(f.name, f.read_text(encoding="utf-8")) for f in chosen]


@dataclass
class Loaded:
    ids: dict[str, str] = field(default_factory=dict)  # local key -> record id
    added: int = 0
    corrected: int = 0
    archived: int = 0
    links: int = 0


def _when(value: Any, now: datetime) -> Any:
    """`+7d` / `-30d`: days from the moment of loading (so the story never goes stale)."""
    if not isinstance(value, str):
        return value
    match = _RELATIVE.match(value)
    if not match:
        return value
    days = int(match.group(2)) * (1 if match.group(1) == "+" else -1)
    return format_time((now + timedelta(days=days)).replace(hour=0, minute=0, second=0, microsecond=0))


def _target(loaded: Loaded, key: Any, where: str) -> str:
    if key not in loaded.ids:
        raise InvalidArgument(f"{where}: refers to {key!r}, which no earlier line defines")
    return loaded.ids[key]


def _keep(loaded: Loaded, key: Any, memory_id: str, where: str) -> None:
    if key is None:
        return
    if not isinstance(key, str) or key in loaded.ids:
        raise InvalidArgument(f"{where}: key {key!r} is not a new string")
    loaded.ids[key] = memory_id


def _add(
    vault: Vault, loaded: Loaded, line: dict[str, Any], defaults: dict[str, Any], now: datetime, where: str
) -> None:
    fields = {**defaults, **{k: v for k, v in line.items() if k not in ("op", "key", "links")}}
    for name in TIME_FIELDS:
        if name in fields:
            fields[name] = _when(fields[name], now)
    links = line.get("links") or []
    fields["links"] = [{"type": link["type"], "target_id": _target(loaded, link.get("to"), where)} for link in links]
    result = vault.add(OWNER, Draft.parse(fields))
    if result["outcome"] != "added":
        raise InvalidArgument(f"{where}: the record was not added ({result['outcome']}: {result['reason']})")
    _keep(loaded, line.get("key"), str(result["id"]), where)
    loaded.added += 1
    loaded.links += len(links)


def _apply(
    vault: Vault, loaded: Loaded, line: dict[str, Any], defaults: dict[str, Any], now: datetime, where: str
) -> None:
    op = line.get("op", "add")
    if op == "add":
        _add(vault, loaded, line, defaults, now, where)
    elif op == "correct":
        args: dict[str, Any] = {k: line[k] for k in ("statement", "reason") if k in line}
        if "valid_from" in line:
            args["valid_from"] = _when(line["valid_from"], now)
        result = vault.correct(OWNER, CorrectRequest.of(id=_target(loaded, line.get("target"), where), **args))
        _keep(loaded, line.get("key"), str(result["id"]), where)
        loaded.corrected += 1
    elif op == "archive":
        vault.archive(
            OWNER, ArchiveRequest.of(id=_target(loaded, line.get("target"), where), reason=line.get("reason"))
        )
        loaded.archived += 1
    else:
        raise InvalidArgument(f"{where}: unknown op {op!r} (add, correct, archive or defaults)")


def parse_lines(files: Iterable[tuple[str, str]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(file, where, line) for every operation, with `defaults` lines kept in place."""
    parsed = []
    for name, text in files:
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            where = f"{name}:{number}"
            try:
                line = json.loads(raw)
            except ValueError:
                raise InvalidArgument(f"{where}: not a JSON object") from None
            if not isinstance(line, dict):
                raise InvalidArgument(f"{where}: not a JSON object")
            parsed.append((name, where, line))
    return parsed


def load(vault: Vault, files: Iterable[tuple[str, str]], progress: Progress | None = None) -> Loaded:
    """Load demo lines through the Vault API as the person; defaults apply within one file."""
    lines = parse_lines(files)
    records = sum(1 for _, _, line in lines if line.get("op", "add") in ("add", "correct"))
    now = datetime.now(UTC)
    loaded = Loaded()
    defaults: dict[str, Any] = {}
    current_file = None
    for name, where, line in lines:
        if name != current_file:
            current_file, defaults = name, {}
        if line.get("op") == "defaults":
            defaults = {k: v for k, v in line.items() if k != "op"}
            continue
        _apply(vault, loaded, line, defaults, now, where)
        if progress:
            progress(loaded.added + loaded.corrected, records)
    return loaded


# -- the command -----------------------------------------------------------------------------
def _remove_demo(paths: VaultPaths) -> None:
    """Delete only what the demo made: the store, its companions, its folders, the marker, its keyring entry."""
    store_id = keyring_entry(paths)
    if store_id:
        try:
            import keyring  # noqa: PLC0415 - only where the demo's key lives in the OS keyring

            keyring.delete_password(KEYRING_SERVICE, store_id)
        except Exception as exc:  # keyring raises backend-specific errors
            print(f"memvault: the old demo key stays in the OS keyring ({type(exc).__name__})", file=sys.stderr)
    for name in (paths.store.name, paths.key_file.name, MARKER):
        for suffix in ("", "-wal", "-shm", "-journal"):
            (paths.home / f"{name}{suffix}").unlink(missing_ok=True)
    for folder in (paths.exports, paths.backups, paths.logs, paths.imports):
        shutil.rmtree(folder, ignore_errors=True)


def _prepare(home: Path, reset: bool) -> tuple[VaultPaths, bool]:
    """The demo's folder, made ready; True when the data set still has to be loaded."""
    paths = VaultPaths.from_env(home)
    is_demo = (paths.home / MARKER).exists()
    if (paths.store.exists() or paths.key_file.exists()) and not is_demo:
        raise InvalidArgument(f"{paths.home} holds a memvault store that is not the demo: choose another --home")
    if reset and is_demo:
        _remove_demo(paths)
    return paths, not paths.store.exists()


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty() and (done % 20 == 0 or done == total):
        print(f"\rloading the demo: {done}/{total} records", end="\n" if done == total else "", file=sys.stderr)


def _examples(home: Path, ids: dict[str, str] | None) -> list[str]:
    at = f"memvault --home {shlex.quote(str(home))}"
    past = (datetime.now(UTC) - timedelta(days=150)).date().isoformat()
    examples = [
        f'{at} search "kitchen budget"',
        f'{at} search "kitchen budget" --as-of {past}',
        f'{at} search "what did we decide for Atlas" --type DECISION',
        f"{at} list --domain cooking --limit 10",
        f"{at} list --status archived",
        f'{at} search "Portuguese lesson" --json',
    ]
    if ids and "kitchen-budget-2" in ids:
        examples.insert(2, f"{at} history {ids['kitchen-budget-2']}")
    return examples


def _summary_text(data: dict[str, Any]) -> str:
    counts = data["counts"]
    lines = [
        ("Loaded the fictional demo data set into " if data["loaded_now"] else "The demo is already loaded in ")
        + data["home"],
        f"records: {counts['current']} current, {counts['superseded']} superseded, {counts['archived']} archived",
        "domains: " + ", ".join(f"{k} ({v})" for k, v in counts["by_domain"].items()),
    ]
    if data["loaded_now"]:
        lines.append(f"corrections: {data['corrected']}   links: {data['links']}   ({data['seconds']} s)")
    lines += ["", "Try:", *(f"  {example}" for example in data["examples"])]
    if not data["loaded_now"]:
        lines.append("(`memvault demo --reset` loads it afresh)")
    return "\n".join(lines)


def _demo(args: argparse.Namespace) -> int:
    chosen = args.demo_home or args.home  # never $MEMVAULT_HOME: that is the person's own store
    home = Path(chosen).expanduser() if chosen else demo_home()
    paths, fresh = _prepare(home, args.reset)
    started = datetime.now(UTC)
    with Vault.open(paths.home, create=fresh) as vault:
        loaded = None
        if fresh:
            (paths.home / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
            loaded = load(vault, demo_files(), _progress)
        counts = vault.status(OWNER)["counts"]
    data = {
        "home": str(paths.home),
        "loaded_now": fresh,
        "counts": counts,
        "corrected": loaded.corrected if loaded else None,
        "links": loaded.links if loaded else None,
        "ids": loaded.ids if loaded else None,
        "seconds": round((datetime.now(UTC) - started).total_seconds(), 2),
        "examples": _examples(paths.home, loaded.ids if loaded else None),
    }
    emit(args, data, _summary_text)
    return 0


def register(subparsers: Any) -> None:
    p = command(subparsers, "demo", _demo, "load a fictional data set into a separate demo store to try memvault")
    p.add_argument(
        "--home", dest="demo_home", metavar="DIR", help="the demo's folder (default: the memvault-demo data folder)"
    )
    p.add_argument("--reset", action="store_true", help="delete the demo store and load it afresh")
