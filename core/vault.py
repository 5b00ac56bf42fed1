"""`Vault`: the one facade every front end (CLI, desktop, MCP) uses.

Every call names its `Caller` and takes a typed request (core/vocabulary/requests.py, validated where it
is built) or a few typed parameters; every answer is a typed result (core/vocabulary/results.py, the
contract's JSON shapes). The facade opens and migrates the store, checks the kill switch on
each call, and hands the work to the module that owns it.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TypeVar, cast

from memvault import __version__
from memvault.core.consolidate.service import Consolidation
from memvault.core.importers.service import Imports
from memvault.core.maintenance import backup as maintenance_backup
from memvault.core.maintenance import purge, word_index
from memvault.core.maintenance import restore as maintenance_restore
from memvault.core.maintenance import schedule as maintenance_schedule
from memvault.core.operations import domain_upkeep, domains, feedback, inbox, principals, reads, views
from memvault.core.operations.changes import MAX_BATCH, ChangeBatch, changes_since
from memvault.core.operations.export import export_markdown
from memvault.core.operations.oauth import OAuthGrants
from memvault.core.operations.serving import Serving
from memvault.core.retrieval.pipeline import HybridRetriever
from memvault.core.retrieval.seam import Engine
from memvault.core.runtime.paths import VaultPaths
from memvault.core.runtime.settings import SETTINGS, setting
from memvault.core.security import keys
from memvault.core.security.access import check_kill_switch, require_owner
from memvault.core.security.kill_switch import Positions, write_machine
from memvault.core.store import engines
from memvault.core.store.context import Context
from memvault.core.store.rows import ShadowRow
from memvault.core.vocabulary.clock import Clock, SystemClock
from memvault.core.vocabulary.drafts import Draft, required_text
from memvault.core.vocabulary.errors import Conflict, EnvironmentProblem, InvalidArgument, StoreUnavailable
from memvault.core.vocabulary.model import Caller, KillSwitch, MemoryId, MemoryRecord, ProposalId, Scope
from memvault.core.vocabulary.requests import (
    ArchiveRequest,
    CorrectRequest,
    DecisionsRequest,
    ExportRequest,
    FeedbackRequest,
    ListRequest,
    ProposeRequest,
    PurgeRequest,
    RelatedRequest,
    TimelineRequest,
    UnresolvedRequest,
)
from memvault.core.vocabulary.results import (
    AddResult,
    ArchiveResult,
    BackupAnswer,
    BackupRow,
    CorrectResult,
    Decision,
    DiscoveryReport,
    DiscoveryUpkeep,
    DomainChange,
    DomainList,
    DomainsRefreshed,
    DomainSummary,
    DomainUpkeep,
    EventRow,
    ExportResult,
    Graph,
    Items,
    Ok,
    PrincipalRevoked,
    PrincipalRow,
    ProjectHistory,
    ProposalRow,
    ProposeResult,
    Provenance,
    PurgePreview,
    PurgeRejected,
    PurgeReport,
    PurgeRequested,
    PurgeRequestRow,
    RecordPage,
    RecordView,
    ReindexReport,
    RestoreResult,
    ScheduledBackup,
    SearchAnswer,
    SettingValue,
    ShadowAnswer,
    StatusAnswer,
    SweepReport,
    Timeline,
    TokenCreated,
)
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer import propose, writes

log = logging.getLogger("memvault.vault")
W = TypeVar("W")


class Vault:
    def __init__(self, ctx: Context, retriever: Engine | None = None) -> None:
        self.ctx = ctx
        self.retriever: Engine = retriever or HybridRetriever()
        # What a long-lived server does for speed: its transport calls `serving.start()` once.
        self.serving = Serving(ctx, self.retriever, self._guard)

    # -- lifecycle ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        home: str | os.PathLike[str] | None = None,
        *,
        create: bool = False,
        clock: Clock | None = None,
        scrypt_n: int | None = None,
        passphrase: str | None = None,
        shared_store: str | None = None,
    ) -> Vault:
        """Open the store in `home` (MEMVAULT_HOME by default); with `create`, make it first if absent.

        `passphrase` is for front ends that asked the person (a passphrase store); without it the
        key loader reads MEMVAULT_PASSPHRASE or asks on the terminal. `shared_store` (with `create`):
        the postgresql:// URL of a shared store this new home uses, made there if it is new, joined
        unchanged if another machine made it.
        """
        paths = VaultPaths.from_env(home)
        if shared_store is not None:
            if not create:
                raise InvalidArgument("store: a shared store is named when the vault is made (`memvault init --store`)")
            return cls._joined(paths, shared_store, clock, scrypt_n, passphrase)
        if not engines.store_exists(paths):
            if not create:
                raise StoreUnavailable(f"no memvault store in {paths.home}: run `memvault init`")
            paths.ensure()
            if paths.key_file.exists():
                raise StoreUnavailable(f"{paths.key_file} exists but the store does not: refusing to overwrite a key")
            sized = {"scrypt_n": scrypt_n} if scrypt_n else {}
            key = keys.create_key(paths.key_file, uuid.uuid4().hex, passphrase=passphrase, **sized)
        else:
            key = keys.load_key(paths.key_file, passphrase=passphrase)
        store = engines.open_store(paths, key, create=create)
        try:
            store.migrations.migrate()
        except BaseException:
            store.close()
            raise
        return cls(Context(store=store, paths=paths, clock=clock or SystemClock(), key=key))

    @classmethod
    def _joined(
        cls, paths: VaultPaths, url: str, clock: Clock | None, scrypt_n: int | None, passphrase: str | None
    ) -> Vault:
        """A new home on a shared store: the store is opened and migrated first, the home's key made
        last; a failure on the way leaves the home as it was."""
        if paths.key_file.exists():
            raise Conflict(f"{paths.home} has a key already: a shared store is joined from an empty home")
        store = engines.join(paths, url)
        try:
            sized = {"scrypt_n": scrypt_n} if scrypt_n else {}
            key = keys.create_key(paths.key_file, uuid.uuid4().hex, passphrase=passphrase, **sized)
        except BaseException:
            store.close()
            engines.leave(paths)
            raise
        return cls(Context(store=store, paths=paths, clock=clock or SystemClock(), key=key))

    @classmethod
    def with_key(cls, paths: VaultPaths, key: bytes, clock: Clock | None = None) -> Vault:
        """A store that is open elsewhere, opened again with its raw key (no KDF, no migration): a
        second connection, or the daemon's upkeep process, which gets the key from the daemon."""
        store = engines.open_store(paths, key)
        return cls(Context(store=store, paths=paths, clock=clock or SystemClock(), key=key))

    def for_upkeep(self) -> Vault:
        """The same store on a connection of its own, for long background jobs (consolidation,
        domain discovery, backups): their reads then hold neither this Vault's lock nor its callers."""
        self.ctx.write_queued()  # what it reads includes the searches answered so far
        return Vault.with_key(self.ctx.paths, self.ctx.key, self.ctx.clock)

    def hearing_other_machines(self, wake: Callable[[], None]) -> AbstractContextManager[object]:
        return hearing_other_machines(self.ctx.paths, wake)

    @property
    def engine_name(self) -> str:
        """The engine the store lives on: "sqlcipher" (this machine's file) or "postgresql" (shared)."""
        return self.ctx.store.engine.name

    @property
    def store_location(self) -> str:
        """Where the store is: its file, or its shared store's URL (never with a password)."""
        return str(engines.location_of(self.ctx.paths)[1])

    def close(self) -> None:
        with self.ctx.holding() as conn:
            self.ctx.queued.give_up()  # what could not be written even now is logged as lost
            conn.close()

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def paths(self) -> VaultPaths:
        return self.ctx.paths

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    def key_for_child(self) -> bytes:
        """The raw store key, for a child process of this one that opens the same store (the daemon's
        upkeep, which gets it over a pipe): it never derives the key again, nor asks the keyring."""
        return self.ctx.key

    def shadow_log(self, caller: Caller, since: str) -> list[ShadowRow]:
        """What shadow searches retrieved since `since` (ids, scores, latency: never text); the owner's."""
        require_owner(caller, "reading the shadow log")
        with self.ctx.reading() as conn:
            return conn.shadow_log.shadow_rows(since)

    @property
    def imports(self) -> Imports:
        """Importing a person's history and searching its conversations (core/importers/service.py)."""
        return Imports(self.ctx, self.retriever)

    @property
    def consolidation(self) -> Consolidation:
        """Merging, promoting, disputing and fading records (core/consolidate/service.py)."""
        return Consolidation(self.ctx)

    @property
    def oauth(self) -> OAuthGrants:
        """OAuth connections: requests the person answers, codes and tokens (core/operations/oauth.py)."""
        return OAuthGrants(self.ctx)

    def _guard(self, caller: Caller) -> None:
        check_kill_switch(self.ctx.kill_switch(), caller)

    def _written(self, result: W) -> W:
        """After a committed write: embed the new records (the retrieval brain's post-commit step)."""
        self.retriever.after_write(self.ctx)
        return result

    def reindex(self, caller: Caller) -> ReindexReport:
        require_owner(caller, "reindexing")
        return self.retriever.reindex(self.ctx)

    # -- the contract's required operations --------------------------------------------------
    def add(self, caller: Caller, draft: Draft) -> AddResult:
        self._guard(caller)
        nearby = None if caller.owner else self.retriever.nearby(self.ctx)
        added = writes.add(self.ctx, caller, draft, nearby)
        # Nothing to embed after the commit: nothing was written, or the vector was stored with it.
        return added if added["outcome"] != "added" or nearby is not None else self._written(added)

    def get(self, caller: Caller, memory_id: str) -> RecordView:
        self._guard(caller)
        return reads.get(self.ctx, caller, memory_id_of(memory_id))

    def provenance(self, caller: Caller, memory_id: str) -> Provenance:
        """Source, evidence and its hash check, who wrote it: for the person's detail view."""
        self._guard(caller)
        return reads.provenance(self.ctx, caller, memory_id_of(memory_id))

    def list_memories(self, caller: Caller, request: ListRequest | None = None) -> RecordPage:
        self._guard(caller)
        return reads.list_memories(self.ctx, caller, request or ListRequest())

    def search(self, caller: Caller, request: SearchRequest) -> SearchAnswer | ShadowAnswer:
        self._guard(caller)
        return self.retriever.search(self.ctx, caller, request)

    def correct(self, caller: Caller, request: CorrectRequest) -> CorrectResult:
        self._guard(caller)
        return self._written(writes.correct(self.ctx, caller, request))

    def archive(self, caller: Caller, request: ArchiveRequest) -> ArchiveResult:
        self._guard(caller)
        return writes.archive(self.ctx, caller, request)

    def restore(self, caller: Caller, memory_id: str) -> RestoreResult:
        self._guard(caller)
        return writes.restore(self.ctx, caller, memory_id_of(memory_id))

    def change_scope(
        self, caller: Caller, memory_id: str, scope: Scope, workspace_id: str | None = None
    ) -> MemoryRecord:
        """Who may read a record (the person's decision; every version of it follows)."""
        self._guard(caller)
        return writes.change_scope(self.ctx, caller, memory_id_of(memory_id), scope, workspace_id).to_dict()

    def export_markdown(self, caller: Caller, request: ExportRequest | None = None) -> ExportResult:
        self._guard(caller)
        return export_markdown(self.ctx, caller, request or ExportRequest())

    def propose(self, caller: Caller, request: ProposeRequest) -> ProposeResult:
        """memory_propose: classify candidates against the store, then write (core/writer/propose.py)."""
        self._guard(caller)
        return self._written(propose.propose(self.ctx, caller, request, self.retriever.nearby(self.ctx)))

    # -- the contract's advanced views (core/operations/views.py, core/operations/feedback.py) ----------------------
    def related(self, caller: Caller, request: RelatedRequest) -> Graph:
        self._guard(caller)
        return views.related(self.ctx, caller, request)

    def timeline(self, caller: Caller, request: TimelineRequest | None = None) -> Timeline:
        self._guard(caller)
        return views.timeline(self.ctx, caller, request or TimelineRequest())

    def project_history(self, caller: Caller, project: str) -> ProjectHistory:
        self._guard(caller)
        return views.project_history(self.ctx, caller, project)

    def decisions(self, caller: Caller, request: DecisionsRequest | None = None) -> Items:
        self._guard(caller)
        return views.decisions(self.ctx, caller, request or DecisionsRequest())

    def unresolved(self, caller: Caller, request: UnresolvedRequest | None = None) -> Items:
        self._guard(caller)
        return views.unresolved(self.ctx, caller, request or UnresolvedRequest())

    def record_feedback(self, caller: Caller, request: FeedbackRequest) -> Ok:
        self._guard(caller)
        return feedback.record_feedback(self.ctx, caller, request)

    # -- domains (regions): the person's to manage (core/operations/domains.py, core/operations/domain_upkeep.py) ---
    def list_domains(self, caller: Caller) -> DomainList:
        self._guard(caller)
        return domains.list_domains(self.ctx, caller)

    def show_domain(self, caller: Caller, name: str) -> DomainSummary:
        self._guard(caller)
        return domains.show_domain(self.ctx, caller, name)

    def rename_domain(self, caller: Caller, name: str, new_name: str) -> DomainChange:
        self._guard(caller)
        return domains.rename(self.ctx, caller, name, new_name)

    def merge_domains(self, caller: Caller, sources: Sequence[str], into: str) -> DomainChange:
        self._guard(caller)
        return domains.merge(self.ctx, caller, sources, into)

    def split_domain(
        self,
        caller: Caller,
        name: str,
        new_name: str,
        *,
        keyword: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> DomainChange:
        self._guard(caller)
        return domains.split(self.ctx, caller, name, new_name, keyword=keyword, ids=ids)

    def pin_domain(self, caller: Caller, name: str, pinned: bool = True) -> DomainChange:
        self._guard(caller)
        return domains.set_pinned(self.ctx, caller, name, pinned)

    def update_domain(
        self,
        caller: Caller,
        name: str,
        *,
        description: str | None = None,
        keywords: Sequence[str] | None = None,
        priority: float | None = None,
        depth: str | None = None,
        token_share: float | None = None,
    ) -> DomainSummary:
        self._guard(caller)
        given = {
            "description": description,
            "keywords": None if keywords is None else list(keywords),
            "priority": priority,
            "depth": depth,
            "token_share": token_share,
        }
        return domains.update(self.ctx, caller, name, **given)

    def discover_domains(self, caller: Caller, dry_run: bool = True) -> DiscoveryReport:
        self._guard(caller)
        return domain_upkeep.discover(self.ctx, caller, dry_run=dry_run)

    def maintain_domains(self, caller: Caller) -> DomainUpkeep | DiscoveryUpkeep:
        self._guard(caller)
        return domain_upkeep.maintain(self.ctx, caller)

    def refresh_domains(self, caller: Caller) -> DomainsRefreshed:
        self._guard(caller)
        return {"refreshed": domain_upkeep.refresh(self.ctx, caller)}

    def status(self, caller: Caller) -> StatusAnswer:
        self._guard(caller)
        with self.ctx.reading() as conn:
            return {
                "version": __version__,
                "contract": 1,
                "store": {"encrypted": True, "schema_version": conn.migrations.current_version()},
                "counts": reads.counts(conn, caller),
                "write_mode": str(self.ctx.setting("write_mode")),
                "kill_switch": self.ctx.kill_switch().in_force.value,
                "embeddings": str(self.ctx.setting("embeddings")),
                "pending_proposals": reads.pending_count(conn, caller),
            }

    def events_for(self, caller: Caller, memory_id: str) -> list[EventRow]:
        """The event history of a record the caller may see (ids and actions, no text)."""
        self.get(caller, memory_id)  # not_found for what the caller may not see
        with self.ctx.reading() as conn:
            return conn.events.for_memory(memory_id)

    # -- approval inbox (core/operations/inbox.py) ------------------------------------------------------
    def proposals(self, caller: Caller, status: str = "pending", limit: int = 100) -> list[ProposalRow]:
        return inbox.list_proposals(self.ctx, caller, status, limit)

    def approve(self, caller: Caller, proposal_id: str) -> Decision:
        return self._written(inbox.approve(self.ctx, caller, ProposalId(proposal_id)))

    def reject(self, caller: Caller, proposal_id: str, reason: str | None = None) -> Decision:
        return inbox.reject(self.ctx, caller, ProposalId(proposal_id), reason)

    # -- settings and the kill switch --------------------------------------------------------
    def get_setting(self, name: str) -> SettingValue:
        return cast(SettingValue, self.ctx.setting(name))

    def number_setting(self, name: str) -> float:
        """A numeric setting's value (declared `float` in core/runtime/settings.py)."""
        value = self.get_setting(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"setting {name} is not a number")
        return float(value)

    def settings(self) -> dict[str, SettingValue]:
        return {name: self.get_setting(name) for name in SETTINGS}

    def set_setting(self, caller: Caller, name: str, value: object) -> SettingValue:
        require_owner(caller, "changing settings")
        if name == "kill_switch":  # the store's position (core/security/kill_switch.py)
            return self.set_kill_switch(caller, str(value), store_wide=True).store.value
        return self._write_setting(caller, name, setting(name).parse(value))

    def _write_setting(self, caller: Caller, name: str, parsed: SettingValue) -> SettingValue:
        with self.ctx.transaction() as conn:
            conn.settings.write(name, parsed)
            conn.events.record(caller, "setting_changed", self.ctx.now(), None, name=name)
        return parsed

    def kill_switch(self) -> Positions:
        """The kill switch's positions now: this machine's, the store's, and the one in force."""
        return self.ctx.kill_switch()

    @property
    def shares_store(self) -> bool:
        """Whether other machines may use this store (a shared PostgreSQL store)."""
        return engines.is_shared(self.paths)

    def set_kill_switch(self, caller: Caller, position: str, *, store_wide: bool = False) -> Positions:
        """Set this machine's position (`on` stands for `remote`) or, `store_wide`, the store's, which
        every machine using the store honours. On a store only this machine uses they are one
        position: both are written, this machine's first, so it holds even if the store's write fails."""
        require_owner(caller, "changing the kill switch")
        chosen = KillSwitch(setting("kill_switch").parse("remote" if position == "on" else position))
        shared = self.shares_store
        problem: EnvironmentProblem | None = None
        if not (store_wide and shared):
            try:
                write_machine(self.paths, chosen)
            except EnvironmentProblem as exc:
                if shared:
                    raise
                problem = exc  # on a store only this machine uses, the store's position can still hold it
        if store_wide or not shared:
            self._write_setting(caller, "kill_switch", chosen.value)
        positions = self.kill_switch()
        if problem is not None and positions.in_force is not chosen:
            raise problem
        return positions

    # -- principals and tokens (remote and workspace callers) --------------------------------
    def create_token(self, caller: Caller, principal: str, surface: str, workspace: str | None = None) -> TokenCreated:
        return principals.create_token(self.ctx, caller, principal, surface, workspace)

    def revoke_principal(self, caller: Caller, principal: str) -> PrincipalRevoked:
        return principals.revoke(self.ctx, caller, principal)

    def list_principals(self, caller: Caller) -> list[PrincipalRow]:
        return list(principals.list_principals(self.ctx, caller))

    def authenticate(self, token: str) -> Caller | None:
        """The caller a bearer token stands for (None: unknown or revoked); read from the store on every call."""
        return principals.authenticate(self.ctx, token)

    # -- backups, restore and purge (core/maintenance) ---------------------------------------
    def backup(self, caller: Caller, to: str | None = None) -> BackupAnswer:
        self._guard(caller)
        return maintenance_backup.make_backup(self.ctx, caller, to=to).to_dict()

    def scheduled_backup(self, caller: Caller) -> ScheduledBackup:
        """The daemon's daily backup with retention (7 daily, 4 weekly); cheap when already done today."""
        return maintenance_schedule.run_scheduled(self.ctx, caller)

    def tidy_word_index(self, caller: Caller) -> word_index.WordIndexTidy:
        """Merge the word index's segments (the daemon's hourly upkeep; `memvault reindex`)."""
        return word_index.tidy(self.ctx, caller)

    def list_backups(self, caller: Caller) -> list[BackupRow]:
        return list(maintenance_backup.list_backups(self.ctx, caller))

    @staticmethod
    def restore_backup(
        backup: str | os.PathLike[str],
        home: str | os.PathLike[str] | None = None,
        *,
        secret: str | None = None,
        new_passphrase: str | None = None,
        backup_secret: str | None = None,
        replace: bool = False,
    ) -> maintenance_restore.RestoreOutcome:
        """Replace the store in `home` by a verified backup (no Vault may be open on it in this process).

        `secret` unlocks it: this store's passphrase, or (into an empty home) the backup's passphrase
        or recovery key; `new_passphrase` wraps the key on a machine without a keyring after a
        recovery key opened it; `backup_secret` opens a backup of another store (its recovery key
        or passphrase); `replace` lets such a backup replace a store that holds records (kept first).
        Left None, the secrets come from the environment or the terminal.
        """
        return maintenance_restore.restore_backup(
            backup,
            home,
            clock=SystemClock(),
            secret=secret,
            new_passphrase=new_passphrase,
            backup_secret=backup_secret,
            replace=replace,
        )

    def request_purge(self, caller: Caller, request: PurgeRequest) -> PurgeRequested:
        self._guard(caller)
        return purge.request(self.ctx, caller, request)

    def preview_purge(self, caller: Caller, request_id: str) -> PurgePreview:
        return purge.preview(self.ctx, caller, request_id)

    def confirm_purge(self, caller: Caller, request_id: str) -> PurgeReport:
        report = purge.confirm(self.ctx, caller, request_id)
        self.retriever.forget_text(self.ctx)  # at once; other processes forget at their next search
        return report

    def reject_purge(self, caller: Caller, request_id: str) -> PurgeRejected:
        return purge.reject(self.ctx, caller, request_id)

    def list_purge_requests(self, caller: Caller, status: str | None = "pending") -> list[PurgeRequestRow]:
        return list(purge.list_requests(self.ctx, caller, status))

    def sweep_purged(self, caller: Caller) -> SweepReport:
        """Apply every tombstone again to the store, exports and backups (finishes an interrupted purge)."""
        report = purge.sweep(self.ctx, caller)
        if report["store_records_removed"]:
            self.retriever.forget_text(self.ctx)  # what the sweep removed leaves this process too
        return report

    # -- change feed -------------------------------------------------------------------------
    def changes_since(self, caller: Caller, cursor: int | None, *, limit: int = MAX_BATCH) -> ChangeBatch:
        """What changed after `cursor` that `caller` may see, in order (None: only the current cursor)."""
        self._guard(caller)
        return changes_since(self.ctx, caller, cursor, limit)


def memory_id_of(value: str) -> MemoryId:
    """A memory id from a caller (validated: the same refusal for every malformed one)."""
    return MemoryId(required_text(value, "id", max_chars=64))


def hearing_other_machines(paths: VaultPaths, wake: Callable[[], None]) -> AbstractContextManager[object]:
    """For the block, `wake` is called when another machine may have written to a shared store
    (nothing to hear for a store file: this machine's writers signal through the change signal)."""
    engine, location = engines.location_of(paths)
    return engine.listen(location, wake)


def store_exists(home: str | os.PathLike[str] | None = None) -> bool:
    return engines.store_exists(VaultPaths.from_env(home))
