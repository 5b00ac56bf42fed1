"""`Vault`: the one facade every front end (CLI, desktop, MCP) uses.

Every call names its `Caller`. The facade opens and migrates the store, checks
the kill switch on each call, and hands the work to the module that owns it.
"""

from __future__ import annotations

import logging
import os
import uuid
from typing import Any

from memvault import __version__
from memvault.core import domains, feedback, keys, principals, reads, views, writes
from memvault.core.access import check_kill_switch, require_owner
from memvault.core.changes import MAX_BATCH, ChangeBatch, changes_since
from memvault.core.clock import Clock, SystemClock
from memvault.core.consolidate.service import Consolidation
from memvault.core.context import Context
from memvault.core.errors import InvalidArgument, StoreUnavailable
from memvault.core.export import export_markdown
from memvault.core.importers.service import Imports
from memvault.core.maintenance import backup as maintenance_backup
from memvault.core.maintenance import purge
from memvault.core.maintenance import restore as maintenance_restore
from memvault.core.maintenance import schedule as maintenance_schedule
from memvault.core.model import Caller, KillSwitch
from memvault.core.paths import VaultPaths
from memvault.core.retrieval.governor import HybridRetriever
from memvault.core.retrieval.seam import Retriever
from memvault.core.search_request import parse_search
from memvault.core.settings import SETTINGS, setting
from memvault.core.store import events, migrations, proposals, settings_table
from memvault.core.store.connection import open_connection
from memvault.core.writer import propose

log = logging.getLogger("memvault.vault")


class Vault:
    def __init__(self, ctx: Context, retriever: Retriever | None = None) -> None:
        self.ctx = ctx
        self.retriever: Retriever = retriever or HybridRetriever()

    # -- lifecycle ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        home: str | os.PathLike[str] | None = None,
        *,
        create: bool = False,
        clock: Clock | None = None,
        scrypt_n: int | None = None,
    ) -> Vault:
        """Open the store in `home` (MEMVAULT_HOME by default); with `create`, make it first if absent."""
        paths = VaultPaths.from_env(home)
        if not paths.store.exists():
            if not create:
                raise StoreUnavailable(f"no memvault store in {paths.home}: run `memvault init`")
            paths.ensure()
            if paths.key_file.exists():
                raise StoreUnavailable(f"{paths.key_file} exists but the store does not: refusing to overwrite a key")
            key = keys.create_key(paths.key_file, uuid.uuid4().hex, **({"scrypt_n": scrypt_n} if scrypt_n else {}))
        else:
            key = keys.load_key(paths.key_file)
        conn = open_connection(paths.store, key, create=create)
        try:
            migrations.migrate(conn)
        except BaseException:
            conn.close()
            raise
        return cls(Context(conn=conn, paths=paths, clock=clock or SystemClock()))

    def close(self) -> None:
        with self.ctx.lock:
            self.ctx.conn.close()

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def paths(self) -> VaultPaths:
        return self.ctx.paths

    @property
    def imports(self) -> Imports:
        """Importing a person's history and searching its conversations (core/importers/service.py)."""
        return Imports(self.ctx, self.retriever)

    @property
    def consolidation(self) -> Consolidation:
        """Merging, promoting, disputing and fading records (core/consolidate/service.py)."""
        return Consolidation(self.ctx)

    def _guard(self, caller: Caller) -> None:
        check_kill_switch(self.ctx.setting("kill_switch"), caller)

    def _written(self, result: dict[str, Any]) -> dict[str, Any]:
        """After a committed write: embed the new records (the retrieval brain's post-commit step)."""
        self.retriever.after_write(self.ctx)
        return result

    def reindex(self, caller: Caller) -> dict[str, Any]:
        require_owner(caller, "reindexing")
        return self.retriever.reindex(self.ctx)

    # -- the contract's required operations --------------------------------------------------
    def add(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return self._written(writes.add(self.ctx, caller, args))

    def get(self, caller: Caller, memory_id: str) -> dict[str, Any]:
        self._guard(caller)
        return reads.get(self.ctx, caller, memory_id)

    def list_memories(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return reads.list_memories(self.ctx, caller, args)

    def search(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return self.retriever.search(self.ctx, caller, parse_search(args))

    def correct(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return self._written(writes.correct(self.ctx, caller, args))

    def archive(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return writes.archive(self.ctx, caller, args)

    def restore(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return writes.restore(self.ctx, caller, args)

    def export_markdown(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return export_markdown(self.ctx, caller, args)

    def propose(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        """memory_propose: classify candidates against the store, then write (core/writer/propose.py)."""
        self._guard(caller)
        return self._written(propose.propose(self.ctx, caller, args))

    # -- the contract's advanced views (core/views.py, core/feedback.py) ----------------------
    def related(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return views.related(self.ctx, caller, args)

    def timeline(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return views.timeline(self.ctx, caller, args)

    def project_history(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return views.project_history(self.ctx, caller, args)

    def decisions(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return views.decisions(self.ctx, caller, args)

    def unresolved(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return views.unresolved(self.ctx, caller, args)

    def record_feedback(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return feedback.record_feedback(self.ctx, caller, args)

    # -- domains (regions): the person's to manage (core/domains.py) --------------------------
    def list_domains(self, caller: Caller) -> dict[str, Any]:
        self._guard(caller)
        return domains.list_domains(self.ctx, caller)

    def show_domain(self, caller: Caller, name: str) -> dict[str, Any]:
        self._guard(caller)
        return domains.show_domain(self.ctx, caller, name)

    def rename_domain(self, caller: Caller, name: str, new_name: str) -> dict[str, Any]:
        self._guard(caller)
        return domains.rename(self.ctx, caller, name, new_name)

    def merge_domains(self, caller: Caller, sources: list[str], into: str) -> dict[str, Any]:
        self._guard(caller)
        return domains.merge(self.ctx, caller, sources, into)

    def split_domain(self, caller: Caller, name: str, new_name: str, **by: Any) -> dict[str, Any]:
        self._guard(caller)
        return domains.split(self.ctx, caller, name, new_name, **by)

    def pin_domain(self, caller: Caller, name: str, pinned: bool = True) -> dict[str, Any]:
        self._guard(caller)
        return domains.set_pinned(self.ctx, caller, name, pinned)

    def update_domain(self, caller: Caller, name: str, **fields: Any) -> dict[str, Any]:
        self._guard(caller)
        return domains.update(self.ctx, caller, name, **fields)

    def discover_domains(self, caller: Caller, dry_run: bool = True) -> dict[str, Any]:
        self._guard(caller)
        return domains.discover(self.ctx, caller, dry_run=dry_run)

    def maintain_domains(self, caller: Caller) -> dict[str, Any]:
        self._guard(caller)
        return domains.maintain(self.ctx, caller)

    def refresh_domains(self, caller: Caller) -> dict[str, Any]:
        self._guard(caller)
        return {"refreshed": domains.refresh(self.ctx, caller)}

    def status(self, caller: Caller) -> dict[str, Any]:
        self._guard(caller)
        with self.ctx.reading() as conn:
            return {
                "version": __version__,
                "contract": 1,
                "store": {"encrypted": True, "schema_version": migrations.current_version(conn)},
                "counts": reads.counts(conn, caller),
                "write_mode": self.ctx.setting("write_mode"),
                "kill_switch": self.ctx.setting("kill_switch"),
                "embeddings": self.ctx.setting("embeddings"),
                "pending_proposals": reads.pending_count(conn, caller),
            }

    def events_for(self, caller: Caller, memory_id: str) -> list[dict[str, Any]]:
        """The event history of a record the caller may see (ids and actions, no text)."""
        self.get(caller, memory_id)  # not_found for what the caller may not see
        with self.ctx.reading() as conn:
            return events.for_memory(conn, memory_id)

    # -- approval inbox ----------------------------------------------------------------------
    def proposals(self, caller: Caller, status: str = "pending", limit: int = 100) -> list[dict[str, Any]]:
        require_owner(caller, "reading the approval inbox")
        if status not in ("pending", "approved", "rejected"):
            raise InvalidArgument("status: expected pending, approved or rejected")
        with self.ctx.reading() as conn:
            return proposals.list_by_status(conn, status, limit)

    def approve(self, caller: Caller, proposal_id: str) -> dict[str, Any]:
        return self._written(writes.approve(self.ctx, caller, proposal_id))

    def reject(self, caller: Caller, proposal_id: str, reason: str | None = None) -> dict[str, Any]:
        return writes.reject(self.ctx, caller, proposal_id, reason)

    # -- settings and the kill switch --------------------------------------------------------
    def get_setting(self, name: str) -> Any:
        return self.ctx.setting(name)

    def settings(self) -> dict[str, Any]:
        return {name: self.ctx.setting(name) for name in SETTINGS}

    def set_setting(self, caller: Caller, name: str, value: Any) -> Any:
        require_owner(caller, "changing settings")
        parsed = setting(name).parse(value)
        with self.ctx.transaction() as conn:
            settings_table.write(conn, name, parsed)
            events.record(conn, caller, "setting_changed", self.ctx.now(), None, name=name)
        return parsed

    def set_kill_switch(self, caller: Caller, position: str) -> str:
        aliases = {"on": KillSwitch.REMOTE.value}
        return str(self.set_setting(caller, "kill_switch", aliases.get(position, position)))

    # -- principals and tokens (remote and workspace callers) --------------------------------
    def create_token(
        self, caller: Caller, principal: str, surface: str, workspace: str | None = None
    ) -> dict[str, Any]:
        return principals.create_token(self.ctx, caller, principal, surface, workspace)

    def revoke_principal(self, caller: Caller, principal: str) -> dict[str, Any]:
        return principals.revoke(self.ctx, caller, principal)

    def list_principals(self, caller: Caller) -> list[dict[str, Any]]:
        return principals.list_principals(self.ctx, caller)

    def authenticate(self, token: str) -> Caller | None:
        """The caller a bearer token stands for (None: unknown or revoked); read from the store on every call."""
        return principals.authenticate(self.ctx, token)

    # -- backups, restore and purge (core/maintenance) ---------------------------------------
    def backup(self, caller: Caller, to: str | None = None) -> dict[str, Any]:
        self._guard(caller)
        return maintenance_backup.make_backup(self.ctx, caller, to=to).to_dict()

    def scheduled_backup(self, caller: Caller) -> dict[str, Any]:
        """The daemon's daily backup with retention (7 daily, 4 weekly); cheap when already done today."""
        return maintenance_schedule.run_scheduled(self.ctx, caller)

    def list_backups(self, caller: Caller) -> list[dict[str, Any]]:
        return maintenance_backup.list_backups(self.ctx, caller)

    @staticmethod
    def restore_backup(backup: str | os.PathLike[str], home: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        """Replace the store in `home` by a verified backup (no Vault may be open on it in this process)."""
        return maintenance_restore.restore_backup(backup, home)

    def request_purge(self, caller: Caller, /, **args: Any) -> dict[str, Any]:
        self._guard(caller)
        return purge.request(self.ctx, caller, args)

    def preview_purge(self, caller: Caller, request_id: str) -> dict[str, Any]:
        return purge.preview(self.ctx, caller, request_id)

    def confirm_purge(self, caller: Caller, request_id: str) -> dict[str, Any]:
        return purge.confirm(self.ctx, caller, request_id)

    def reject_purge(self, caller: Caller, request_id: str) -> dict[str, Any]:
        return purge.reject(self.ctx, caller, request_id)

    def list_purge_requests(self, caller: Caller, status: str | None = "pending") -> list[dict[str, Any]]:
        return purge.list_requests(self.ctx, caller, status)

    def sweep_purged(self, caller: Caller) -> dict[str, Any]:
        """Apply every tombstone again to the store, exports and backups (finishes an interrupted purge)."""
        return purge.sweep(self.ctx, caller)

    # -- change feed -------------------------------------------------------------------------
    def changes_since(self, caller: Caller, cursor: int | None, *, limit: int = MAX_BATCH) -> ChangeBatch:
        """What changed after `cursor` that `caller` may see, in order (None: only the current cursor)."""
        self._guard(caller)
        return changes_since(self.ctx, caller, cursor, limit)


def store_exists(home: str | os.PathLike[str] | None = None) -> bool:
    return VaultPaths.from_env(home).store.exists()
