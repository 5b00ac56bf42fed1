"""`memvault migrate --to URL|local`: move the home's store to a shared PostgreSQL store, or back into
a store file of its own (core/maintenance/migrate.py). Each table's progress goes to stderr."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from memvault.core.maintenance import migrate
from memvault.core.vocabulary.clock import SystemClock
from memvault.desktop.commands.common import add_command, emit
from memvault.desktop.commands.maintenance import refuse_while_daemon_runs

LOCAL = "local"


def _progress(table: str, done: int, total: int) -> None:
    if done == total:  # a line per table, once it is all there
        print(f"copied {table}: {done} rows", file=sys.stderr, flush=True)


def _migrate(args: argparse.Namespace) -> int:
    refuse_while_daemon_runs(args, "migrate")
    if args.to == LOCAL:
        result = migrate.to_local(args.home, progress=_progress)
    else:
        result = migrate.to_shared(args.home, args.to, clock=SystemClock(), progress=_progress)
    emit(args, result, _migrated_text)
    return 0


def _migrated_text(d: migrate.MigrateReport) -> str:
    rows = sum(d["rows"].values())
    lines = [f"{rows} rows in {len(d['rows'])} tables copied and verified (counts and checksums)"]
    if d["resumed"]:
        lines[0] = (
            f"the copy an interrupted migrate left in the database ({rows} rows in {len(d['rows'])} tables) "
            "matches the store file (counts and checksums): nothing was copied again"
        )
    if d["engine"] == "postgresql":
        lines.append(f"this home now uses the shared PostgreSQL store {d['store']}")
        lines.append(
            f"its previous store file is kept, encrypted, as {d['previous_store_kept_as']}, with its "
            f"{len(d['backups_moved'])} backups and a copy of its key file beside it"
        )
        lines.append("a purge in the shared store does not reach them: delete them once you no longer want them")
    else:
        lines.append(f"this home now uses its own store file {d['store']}")
        lines.append(
            f"the shared PostgreSQL store {d['shared_store_left']} was left as it is (other machines may use it)"
        )
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "migrate",
        _migrate,
        "move the store to a shared PostgreSQL store, or back to a store file in this home",
    )
    p.add_argument(
        "--to",
        required=True,
        metavar="URL|local",
        help="postgresql://… (an empty database with pgvector: the store file's every record moves there, and "
        "the file is kept aside) or `local` (the shared store is copied into a new store file in this home, "
        "which uses it from then on; the database is left as it is)",
    )
