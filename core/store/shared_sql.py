"""SQL both engines speak, written once: the access rule and a search's time and filter conditions.
Each engine passes its driver's parameter mark ("?" for SQLite, "%s" for psycopg)."""

from __future__ import annotations

from memvault.core.vocabulary.model import Caller, Scope, Surface
from memvault.core.vocabulary.search_request import SearchRequest

LIVE = "m.status IN ('current', 'partial', 'disputed')"
WITH_HISTORY = "m.status IN ('current', 'partial', 'disputed', 'superseded', 'historical')"


def visible_clause(caller: Caller, alias: str, mark: str) -> tuple[str, list[object]]:
    """A WHERE fragment (and its parameters) limiting rows of `memories` to what `caller` sees.

    local sees everything; remote sees remote_allowed; workspace also sees its own
    workspace_allowed records; a record bound to a principal is for that principal (and local) alone.
    """
    if caller.surface is Surface.LOCAL:
        return "1 = 1", []
    principal_rule = f"({alias}.authorized_principal_id IS NULL OR {alias}.authorized_principal_id = {mark})"
    if caller.surface is Surface.REMOTE:
        return f"({alias}.access_scope = {mark} AND {principal_rule})", [Scope.REMOTE_ALLOWED.value, caller.principal]
    return (
        f"(({alias}.access_scope = {mark} OR ({alias}.access_scope = {mark}"
        f" AND {alias}.authorized_workspace_id = {mark})) AND {principal_rule})",
        [Scope.REMOTE_ALLOWED.value, Scope.WORKSPACE_ALLOWED.value, caller.workspace_id, caller.principal],
    )


def time_conditions(request: SearchRequest, mark: str) -> tuple[list[str], list[object]]:
    """Which states and times a search may return. Archived records never.

    as_of (valid time): records true in the world at that moment, whatever their status now.
    known_at (knowledge time): records the store held as current at that moment.
    Both: records the store knew at `known_at` to be true at `as_of` (history included).
    """
    # Not archived at a moment (known_at, twice): a record restored since was archived then.
    archived_then = (
        f"NOT EXISTS (SELECT 1 FROM events a WHERE a.memory_id = m.id AND a.action = 'archived' AND a.time <= {mark}"
        " AND NOT EXISTS (SELECT 1 FROM events r WHERE r.memory_id = m.id AND r.action = 'restored'"
        f" AND r.id > a.id AND r.time <= {mark}))"
    )
    where: list[str] = []
    params: list[object] = []
    if request.as_of:
        where += [WITH_HISTORY, f"(m.valid_from IS NULL OR m.valid_from <= {mark})"]
        params.append(request.as_of)
        if request.known_at:
            # A correction sets the old record's valid_until when it supersedes it: before that
            # moment the store knew no end, so as known at an earlier time the record was open
            # (unless the end is the record's own, which the correction kept: it had ended).
            where.append(
                f"(m.valid_until IS NULL OR m.valid_until > {mark} OR (m.superseded_at > {mark} AND m.valid_until ="
                " (SELECT n.valid_from FROM memories n WHERE n.id = m.superseded_by_id)))"
            )
            params += [request.as_of, request.known_at]
        else:
            where.append(f"(m.valid_until IS NULL OR m.valid_until > {mark})")
            params.append(request.as_of)
    if request.known_at:
        where += [WITH_HISTORY, f"m.learned_at <= {mark}", archived_then]
        params += [request.known_at, request.known_at, request.known_at]
        if not request.as_of:  # alone, known_at asks what the store held as current then
            where.append(f"(m.superseded_at IS NULL OR m.superseded_at > {mark})")
            params.append(request.known_at)
    if not where:
        where.append(WITH_HISTORY if request.include_history else LIVE)
    return where, params


def search_conditions(caller: Caller, request: SearchRequest, mark: str) -> tuple[list[str], list[object]]:
    """Everything a search's candidates must pass: access, time and status, the request's filters."""
    clause, params = visible_clause(caller, "m", mark)
    time_where, time_params = time_conditions(request, mark)
    where = [clause, *time_where]
    params += time_params
    if request.domains:
        where.append(f"m.domain IN ({', '.join([mark] * len(request.domains))})")
        params += list(request.domains)
    if request.types:
        where.append(f"m.type IN ({', '.join([mark] * len(request.types))})")
        params += [t.value for t in request.types]
    return where, params


def like_anywhere(fragment: str) -> str:
    """A LIKE pattern matching `fragment` anywhere, with LIKE's own wildcards escaped (ESCAPE '\\')."""
    escaped = fragment.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
