"""`memvault changes`: the change feed, for people and scripts (ids and kinds only, never text).

`memvault changes --since N` prints what changed after cursor N; `--follow` keeps printing as
changes are committed by any process, until interrupted (SIGINT or SIGTERM). With `--json` each
change is one JSON object on its own line (JSON Lines), flushed at once.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from typing import Any

from memvault.core.operations.changes import Change, ChangeBatch
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.desktop.change_listener import ChangeListener
from memvault.desktop.commands.common import open_vault
from memvault.desktop.commands.memory import command


def change_line(change: Change, as_json: bool) -> str:
    if as_json:
        return json.dumps(change.to_dict(), separators=(",", ":"))
    notes = [
        f"proposal {change.proposal_id}" if change.proposal_id else "",
        f"domain {change.domain}" if change.domain else "",
        f"revision {change.revision}" if change.revision else "",
        f"by {change.surface.value}",
    ]
    ids = " ".join(change.memory_ids) or "-"
    return f"{change.cursor:>6}  {change.kind.value:<18} {ids}  ({', '.join(n for n in notes if n)})"


def _print_batch(batch: ChangeBatch, as_json: bool) -> None:
    if batch.reset:
        reset = {"reset": True, "cursor": batch.cursor}
        print(json.dumps(reset) if as_json else f"reset: the store was restored (cursor {batch.cursor})")
    for change in batch.changes:
        print(change_line(change, as_json))
    sys.stdout.flush()


def _changes(args: argparse.Namespace) -> int:
    as_json = bool(args.json)
    with open_vault(args) as vault:
        if args.follow:
            return _follow(vault, args.since, as_json)
        cursor = args.since or 0
        while True:
            batch = vault.changes_since(OWNER, cursor)
            _print_batch(batch, as_json)
            cursor = batch.cursor
            if not batch.more:
                break
        print(f"cursor {cursor}", file=sys.stderr)
    return 0


def _follow(vault: Vault, since: int | None, as_json: bool) -> int:
    done = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: done.set())
    with ChangeListener(vault, lambda batch: _print_batch(batch, as_json), cursor=since) as listener:
        how = "the daemon" if listener.mode == "daemon" else "the change signal"
        print(f"memvault: following changes after cursor {listener.cursor} (via {how})", file=sys.stderr, flush=True)
        while not done.wait(1.0) and listener.running:
            pass
    return 0


def _cursor(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("expected a cursor (0 or more)")
    return number


def register(subparsers: Any) -> None:
    parser = command(subparsers, "changes", _changes, "what changed after a cursor (kinds and ids, never text)")
    parser.add_argument("--since", type=_cursor, help="the cursor to start after (default: 0, or now with --follow)")
    parser.add_argument("--follow", action="store_true", help="keep printing changes as any process commits them")
