"""`memvault init` and `memvault status`: make the store, and say how it is."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER, WriteMode
from memvault.core.writer.writes import ANY_DOMAIN
from memvault.desktop.commands.common import add_command, emit, no_answer, open_vault

AUTOMATIC = WriteMode.AUTOMATIC.value


def create_store(home: str | None, shared_store: str | None = None) -> dict[str, Any]:
    """Make the encrypted store (key in the OS keyring, or wrapped by a passphrase) and describe it;
    with `shared_store`, the home uses that PostgreSQL store instead (made there, or joined).

    When no key can be made (no passphrase given, the two typed differ, the input ended at the question)
    nothing is left behind: the folders the attempt made are removed again."""
    made = _missing_folders(VaultPaths.from_env(home))
    try:
        vault = Vault.open(home, create=True, shared_store=shared_store)
    except EOFError:
        _remove_empty(made)
        raise no_answer("no store was made") from None
    except BaseException:
        _remove_empty(made)
        raise
    with vault:
        info = keys.describe(vault.paths.key_file)
        recovery = keys.take_new_recovery_key(vault.paths.key_file)  # taken either way: never kept
        status = vault.status(OWNER)
        return {
            "home": str(vault.paths.home),
            "store": vault.store_location,
            "engine": vault.engine_name,
            "key_backend": info.backend,
            "key_detail": info.detail,
            "schema_version": status["store"]["schema_version"],
            "write_mode": status["write_mode"],
            # Shown once, never stored: it unwraps the store key from any backup on a new machine. A home
            # on a shared store has no backups of its own (its database's operator keeps those): none.
            "recovery_key": recovery if vault.engine_name == "sqlcipher" else None,
        }


def _missing_folders(paths: VaultPaths) -> list[Path]:
    """The folders opening a new store makes (`VaultPaths.ensure`) that do not exist yet, outermost first."""
    missing: list[Path] = []
    folder = paths.home
    while not folder.exists() and folder != folder.parent:
        missing.insert(0, folder)
        folder = folder.parent
    return missing + [f for f in (paths.exports, paths.backups, paths.logs, paths.imports) if not f.exists()]


def _remove_empty(folders: list[Path]) -> None:
    for folder in reversed(folders):
        with contextlib.suppress(OSError):  # not empty: something else put a file there; it stays
            folder.rmdir()


def _init(args: argparse.Namespace) -> int:
    emit(args, create_store(args.home, args.store), _init_text)
    return 0


def _init_text(data: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"memvault store ready in {data['home']} (key: {data['key_backend']}, {data['key_detail']})",
            *([f"shared store: {data['store']} (PostgreSQL)"] if data["engine"] == "postgresql" else []),
            *write_mode_lines(data["write_mode"], domains=0),
            "Next: `memvault install codex` (or `claude`) connects an assistant; `memvault demo` shows a sample.",
            *recovery_key_lines(data["recovery_key"]),
        ]
    )


def recovery_key_lines(recovery_key: str | None) -> list[str]:
    if not recovery_key:
        return []
    groups = recovery_key.split("-")
    return [
        "",
        "Your recovery key (shown only now: print it or write it down, and keep it away from this computer):",
        "",
        f"    {'-'.join(groups[:4])}",
        f"    {'-'.join(groups[4:])}",
        "",
        "With a backup (its .db and .db-keys files) and this key, `memvault restore BACKUP` opens your",
        "memory on a new machine, even if you forget the passphrase. See docs/maintenance.md.",
    ]


def write_mode_lines(mode: str, *, domains: int) -> list[str]:
    """What happens to an assistant's writes in this mode, and how to change it, in a person's words."""
    if mode == WriteMode.RETRIEVAL_ONLY:
        return ["Assistants can read but not write (write mode retrieval-only)."]
    if mode == WriteMode.REVIEW_BEFORE_WRITE:
        return [
            "Assistants' writes wait for your review: `memvault proposals list`, then `approve ID` or `reject ID`.",
            f"To let them write on their own: `memvault config set write_mode {AUTOMATIC}`.",
        ]
    lines = [f"Assistants write on their own in domains you have approved (write mode {AUTOMATIC})."]
    if domains == 0:
        lines.append(
            "No domain exists yet: each write that opens a new domain waits for review until you approve it "
            "(`memvault proposals list`, `memvault proposals approve ID`); later writes there commit at once. "
            "To let assistants open new domains too: `memvault config set auto_write_domains '*'`."
        )
    return lines


def _status_text(data: dict[str, Any], *, any_domain: bool, engine: str) -> str:
    counts = data["counts"]
    where = "shared PostgreSQL store" if engine == "postgresql" else "encrypted SQLCipher file"
    lines = [
        f"memvault {data['version']} — schema {data['store']['schema_version']}, {where}",
        f"records: {counts['current']} current, {counts['superseded']} superseded, {counts['archived']} archived",
        f"write mode: {data['write_mode']}   kill switch: {data['kill_switch']}   "
        f"embeddings: {data['embeddings']}   pending proposals: {data['pending_proposals']}",
    ]
    if counts["by_domain"]:
        lines.append("domains: " + ", ".join(f"{k} ({v})" for k, v in counts["by_domain"].items()))
    if data["write_mode"] == AUTOMATIC and not counts["by_domain"] and not any_domain:
        lines += write_mode_lines(AUTOMATIC, domains=0)
    if data["pending_proposals"]:
        lines.append(f"{data['pending_proposals']} proposal(s) wait for your review: `memvault proposals list`")
    return "\n".join(lines)


def _status(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        approved = vault.get_setting("auto_write_domains")
        any_domain = isinstance(approved, list) and ANY_DOMAIN in approved
        engine = vault.engine_name
        emit(args, vault.status(OWNER), lambda data: _status_text(data, any_domain=any_domain, engine=engine))
    return 0


def register(subparsers: Any) -> None:
    init = add_command(subparsers, "init", _init, "create the encrypted store (key in the OS keyring or a passphrase)")
    init.add_argument(
        "--store",
        metavar="URL",
        help="use a shared PostgreSQL store (postgresql://…, with pgvector): made there if new, joined unchanged "
        "if another machine made it; its password, if the URL has one, goes to the OS keyring",
    )
    add_command(subparsers, "status", _status, "what the store holds and how memvault is set")
