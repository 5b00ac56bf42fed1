"""Maintenance commands: backup, restore (of a backup), purge, doctor and uninstall.

`memvault restore` is shared with the memory commands: given an existing file it
restores the store from that backup (`restore_store` below), otherwise it
brings an archived record back.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memvault.core.maintenance import doctor, restore, uninstall
from memvault.core.runtime.paths import VaultPaths
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.text_safety import visible
from memvault.desktop.commands.common import add_command, emit, no_answer, open_vault

EXIT_PROBLEM = 1


def confirmed(prompt: str, word: str) -> bool:
    """Ask for `word`: typed on a terminal, or the first line of stdin when it is not one. No answer (the
    input ended) is no confirmation."""
    print(prompt, file=sys.stderr, end="", flush=True)
    if sys.stdin is None:
        return False
    try:
        answer = input() if sys.stdin.isatty() else sys.stdin.readline()
    except EOFError:
        print(file=sys.stderr)
        return False
    return answer.strip() == word


# -- backup and restore --------------------------------------------------------------------------
def _backup(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        if args.list:
            rows = vault.list_backups(OWNER)
            emit(
                args,
                rows,
                lambda r: "\n".join(
                    f"{x['created_at']}  {x['kind']:<11} {x['bytes']:>10}  {x['path']}"
                    + ("" if x["exists"] else "  (missing)")
                    for x in r
                ),
            )
            return 0
        if args.scheduled:
            emit(args, vault.scheduled_backup(OWNER), lambda d: d["made"]["path"] if d["made"] else "")
            return 0
        emit(args, vault.backup(OWNER, to=args.to), lambda d: d["path"])
    return 0


def refuse_while_daemon_runs(args: argparse.Namespace, doing: str) -> None:
    from memvault.desktop import daemon  # noqa: PLC0415

    daemon.refuse_while_running(args.home, doing)


def restore_store(args: argparse.Namespace, backup: str) -> int:
    """`memvault restore BACKUP [--replace]`: a backup of this store, or of another one over an empty store."""
    refuse_while_daemon_runs(args, "restore")
    try:
        result = Vault.restore_backup(backup, args.home, replace=bool(getattr(args, "replace", False)))
    except EOFError:  # every secret is asked for before anything is made or replaced
        raise no_answer("nothing was changed") from None
    emit(args, result, _restored_text)
    return 0


def _restored_text(d: restore.RestoreOutcome) -> str:
    lines = [f"restored {d['records']} records from {d['restored_from']}"]
    other = d["replaced_other_store"]
    if other is None:
        if d["previous_store_kept_as"]:
            lines.append(f"the previous store is kept as {d['previous_store_kept_as']}")
    else:
        held = other["held"]
        if held == {}:
            lines.append(
                "this home held an empty store (the one `memvault init` made, no records): the backup replaced it"
            )
        elif held is None:
            lines.append("this home's store did not open with its key: the backup replaced it (--replace)")
        else:
            lines.append(
                f"this home held another store ({restore.held_text(held)}): the backup replaced it (--replace)"
            )
        lines.append(
            f"the replaced store is kept in {other['kept_in']}, with its key file; it still opens with its own "
            "passphrase or recovery key"
        )
        if other["key_backend"] == "keyring":
            lines.append("the restored store's key is now in this machine's keyring")
        else:
            lines.append("the restored store is locked with this machine's passphrase (unchanged)")
        lines.append(
            "its recovery key is the restored store's own (shown when that store was made), not the one "
            "`memvault init` showed on this machine"
        )
    if d["purged_again"]:
        lines.append(f"{d['purged_again']} records purged since this backup were purged again")
    return "\n".join(lines)


# -- purge ------------------------------------------------------------------------------------------
def _purge(args: argparse.Namespace) -> int:
    with open_vault(args) as vault:
        if args.list:
            emit(args, vault.list_purge_requests(OWNER), _requests_text)
            return 0
        if args.sweep:
            emit(args, vault.sweep_purged(OWNER), _report_text)
            return 0
        if args.reject:
            emit(args, vault.reject_purge(OWNER, args.reject), lambda d: f"purge request {d['request_id']} rejected")
            return 0
        if args.confirm:
            return _confirm(args, vault)
        if (args.id is None) == (args.batch is None):
            raise InvalidArgument("name a record id or --batch BATCH_ID (or use --confirm, --list)")
        request: dict[str, Any] = {"reason": args.reason, "whole_history": args.whole_history}
        request.update({"id": args.id} if args.id else {"batch_id": args.batch})
        result = vault.request_purge(OWNER, PurgeRequest.parse(request))
    emit(args, result, lambda d: d["request_id"])
    if not args.json:
        print(f"confirm with: memvault purge --confirm {result['request_id']}", file=sys.stderr)
    return 0


def _confirm(args: argparse.Namespace, vault: Vault) -> int:
    preview = vault.preview_purge(OWNER, args.confirm)
    lines = [f"purge request {preview['request_id']} removes {len(preview['ids'])} record(s) for good:"]
    lines += [f"  {memory_id}  {_short(text)}" for memory_id, text in preview["statements"].items()]
    print(visible("\n".join(lines)), file=sys.stderr)
    if not confirmed("type yes to purge: ", "yes"):
        print("memvault: not confirmed; nothing was purged", file=sys.stderr)
        return EXIT_PROBLEM
    emit(args, vault.confirm_purge(OWNER, args.confirm), _report_text)
    return 0


def _short(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _requests_text(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no pending purge requests"
    from memvault.core.maintenance.purge import describe_request  # noqa: PLC0415

    return "\n".join(describe_request(row) for row in rows)


def _report_text(data: dict[str, Any]) -> str:
    lines = []
    if "purged_ids" in data:
        lines.append(f"purged {len(data['purged_ids'])} record(s); a content-free tombstone remains for each")
    store = data.get("store") or {}
    if store.get("removed_rows"):
        lines.append("store: removed " + ", ".join(f"{k} {v}" for k, v in store["removed_rows"].items()))
    if store:
        lines.append(
            f"store: WAL {'truncated' if store.get('wal_truncated') else 'NOT truncated (busy)'}, "
            f"{'vacuumed' if store.get('vacuumed') else 'NOT vacuumed (busy; run `memvault purge --sweep`)'}"
        )
    lines += [f"export deleted (run `memvault export` again): {p}" for p in data.get("exports_removed", [])]
    backups = data.get("backups", {})
    lines += [f"backup rewritten: {p}" for p in backups.get("rewritten", [])]
    lines += [f"backup deleted (could not be opened): {p}" for p in backups.get("deleted", [])]
    lines += [f"backup missing (recorded, not found): {p}" for p in backups.get("missing", [])]
    lines += [f"backup busy, NOT rewritten yet (run `memvault purge --sweep`): {p}" for p in backups.get("failed", [])]
    lines += [f"not cleaned: {note}" for note in data.get("not_cleaned", [])]
    return "\n".join(lines)


# -- doctor and uninstall -----------------------------------------------------------------------------
def _doctor(args: argparse.Namespace) -> int:
    report = doctor.run(args.home, fix=args.fix, clock=SystemClock())
    report["checks"].append(_clients_check())
    report["ok"] = all(c["ok"] for c in report["checks"])
    emit(args, report, _doctor_text)
    return 0 if report["ok"] else EXIT_PROBLEM


def _clients_check() -> doctor.CheckRow:
    try:
        from memvault.desktop import clients  # noqa: PLC0415

        found = clients.registered_clients()
    except Exception as exc:  # a damaged client config is worth a line, not a crash
        return {"name": "clients", "ok": False, "detail": f"client configs unreadable ({exc})", "fix": None}
    detail = "registered with " + ", ".join(found) if found else "not registered with any client"
    return {"name": "clients", "ok": True, "detail": detail, "fix": None if found else "memvault install codex|claude"}


def _doctor_text(report: doctor.DoctorReport) -> str:
    lines = [f"memvault doctor — {report['home']}"]
    for check in report["checks"]:
        lines.append(f"{'ok ' if check['ok'] else 'BAD'}  {check['name']}: {check['detail']}")
        if not check["ok"] and check.get("fix"):
            lines.append(f"     fix: {check['fix']}")
    disk = report["disk"]
    lines.append("disk: " + ", ".join(f"{name} {_size(n)}" for name, n in disk.items()))
    lines.append("no problems found" if report["ok"] else "problems found (see above)")
    return "\n".join(lines)


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024:
            return f"{n} {unit}"
        n //= 1024
    return f"{n} GB"


def _uninstall(args: argparse.Namespace) -> int:
    from memvault.desktop import clients  # noqa: PLC0415

    paths = VaultPaths.from_env(args.home)
    named = [args.client] if args.client else list(clients.CLIENTS)
    lines = [line for client in named for line in clients.remove_registration(client, True)]
    removals, notes = ([], []) if args.client else uninstall.plan(paths, delete_data=args.delete_data)
    lines += [f"{r.what}: {r.path}" for r in removals]
    if args.dry_run:
        emit(
            args,
            {"dry_run": True, "would_remove": lines, "notes": notes},
            lambda d: "\n".join(["would remove:", *(f"  {x}" for x in d["would_remove"]), *d["notes"]]),
        )
        return 0
    if args.delete_data:
        refuse_while_daemon_runs(args, "uninstall")
    if args.delete_data and not confirmed(
        f"this deletes every memory in {paths.home} and its backups for good; type {uninstall.CONFIRM_WORD}: ",
        uninstall.CONFIRM_WORD,
    ):
        print("memvault: not confirmed; nothing was removed", file=sys.stderr)
        return EXIT_PROBLEM
    done = [line for client in named for line in clients.remove_registration(client, False)]
    done += uninstall.apply(paths, removals, delete_data=args.delete_data)
    emit(
        args,
        {"removed": done, "notes": notes},
        lambda d: "\n".join([*d["removed"], *d["notes"]]) or "nothing to remove",
    )
    return 0


def register(subparsers: Any) -> None:
    p = add_command(subparsers, "backup", _backup, "write an encrypted backup of the store and print its path")
    p.add_argument("--to", help="a folder or a new file for the backup (default: MEMVAULT_HOME/backups)")
    p.add_argument("--list", action="store_true", help="list the backups memvault knows of")
    p.add_argument("--scheduled", action="store_true", help="the daily backup with retention (for schedulers)")
    p = add_command(subparsers, "purge", _purge, "remove a record's content for good (asks for confirmation)")
    p.add_argument("id", nargs="?", help="the record to purge")
    p.add_argument("--batch", help="purge every record of an import batch")
    p.add_argument("--reason", help="why (its first word, e.g. privacy or incorrect, is kept as a category)")
    p.add_argument("--whole-history", action="store_true", help="also every earlier and later version")
    p.add_argument("--confirm", metavar="REQUEST_ID", help="carry out a purge request (asks for `yes`)")
    p.add_argument("--reject", metavar="REQUEST_ID", help="turn a purge request down")
    p.add_argument("--list", action="store_true", help="list pending purge requests")
    p.add_argument("--sweep", action="store_true", help="apply every past purge again to backups and exports")
    p = add_command(subparsers, "doctor", _doctor, "check the store, key, permissions and registrations")
    p.add_argument("--fix", action="store_true", help="tighten permissions and remove leftovers")
    p = add_command(subparsers, "uninstall", _uninstall, "remove registrations, autostart and caches (data kept)")
    p.add_argument("client", nargs="?", choices=("codex", "claude"), help="only this client's registration")
    p.add_argument("--delete-data", action="store_true", help="also delete the store, key and backups (asks)")
    p.add_argument("--dry-run", action="store_true", help="list what would go; remove nothing")
