"""Choosing a domain (region) for a write that names none.

Two votes, both limited to what the writer may see (a remote write must not learn the
domain of a local_only record from the domain it is given):

- the router's lexical score of every domain against the statement (name, keywords,
  description, distinctive terms of its records);
- the domains of the statement's nearest lexical neighbours (bm25 over the word index) that
  share at least two of its content words.

The domain with the best combined vote wins when it is clear enough; otherwise the
record goes to `general`, from where discovery can move it into a region later. The
record's vector does not exist yet at write time (it is computed after the commit).
"""

from __future__ import annotations

from collections import Counter

from memvault.core.model import Caller, Scope, Surface
from memvault.core.retrieval import vocab
from memvault.core.retrieval.query import fts_query
from memvault.core.retrieval.router import route
from memvault.core.store import domain_rows as domain_sql
from memvault.core.store.connection import Connection

DEFAULT_DOMAIN = "general"
NEIGHBOURS = 10
W_ROUTER, W_NEIGHBOURS = 0.6, 0.4
MIN_VOTE = 0.2


def _neighbour_votes(conn: Connection, statement: str, caller: Caller) -> dict[str, float]:
    """The share of the statement's nearest lexical neighbours in each domain; a neighbour votes
    only when it shares at least two of the statement's content words (one for very short
    statements), so a single common word cannot pull a record into an unrelated domain."""
    match = fts_query(statement)
    if match is None:
        return {}
    mine = vocab.term_set(statement)
    needed = min(2, len(mine)) or 1
    votes: Counter[str] = Counter()
    for domain, text in domain_sql.neighbours(conn, caller, match, NEIGHBOURS):
        if len(mine & vocab.term_set(text)) >= needed:
            votes[domain] += 1
    return {name: n / NEIGHBOURS for name, n in votes.items()}


def domain_votes(conn: Connection, statement: str, caller: Caller) -> dict[str, float]:
    """Each visible domain's combined vote (0..1) for holding this statement."""
    decision = route(conn, caller, statement, None)
    routed = {} if decision.broad else decision.weights
    strength = {name: decision.scores.get(name, 0.0) for name in routed}
    neighbours = _neighbour_votes(conn, statement, caller)
    names = set(routed) | set(neighbours)
    return {
        name: W_ROUTER * min(1.0, strength.get(name, 0.0)) * routed.get(name, 0.0) ** 0.5
        + W_NEIGHBOURS * neighbours.get(name, 0.0)
        for name in names
    }


# Whose view places a record the person shares: a caller that sees only unbound
# remote_allowed records (it owns none, so no principal-bound record is visible to it).
SHARED_VIEW = Caller(principal="memvault-placement", surface=Surface.REMOTE)


def assign_domain(conn: Connection, statement: str, caller: Caller, scope: Scope | None = None) -> str:
    """The domain for a write that names none.

    A record is placed by what its writer may see. A record the person writes for remote
    or workspace callers (`scope`) is placed by what remote callers may see, so that it never
    lands in a domain known only from local records (its domain's name travels with it).
    """
    # Any caller's remote_allowed record (a workspace's too: not by its workspace's records).
    if scope is Scope.REMOTE_ALLOWED or (caller.is_local and scope is Scope.WORKSPACE_ALLOWED):
        caller = SHARED_VIEW
    votes = domain_votes(conn, statement, caller)
    votes.pop(DEFAULT_DOMAIN, None)  # general is the fallback, never a reason
    if not votes:
        return DEFAULT_DOMAIN
    best, vote = max(votes.items(), key=lambda item: (item[1], item[0]))
    return best if vote >= MIN_VOTE else DEFAULT_DOMAIN
