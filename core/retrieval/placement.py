"""Choosing a domain (region) for a write that names none.

Two votes, both limited to what the writer may see (a remote write must not learn the
domain of a local_only record from the domain it is given):

- the router's lexical score of every domain against the statement (name, keywords,
  description, distinctive terms of its records);
- the domains of the statement's nearest neighbours that share at least two of its content
  words: by meaning when the write has its vector already (an assistant's add with embeddings
  on, for a local caller), else lexical (bm25 over the word index).

The domain with the best combined vote wins when it is clear enough; otherwise the
record goes to `general`, from where discovery can move it into a region later.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from memvault.core.retrieval import vocab
from memvault.core.retrieval.query import query_terms
from memvault.core.retrieval.router import route
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import Caller, Scope, Surface

DEFAULT_DOMAIN = "general"
NEIGHBOURS = 10
W_ROUTER, W_NEIGHBOURS = 0.6, 0.4
MIN_VOTE = 0.2

# A caller's nearest live records by meaning, as (domain, text), at most n: the write's vector at work.
ByMeaning = Callable[[Caller, int], list[tuple[str, str]]]


def _neighbour_votes(conn: Store, statement: str, caller: Caller, by_meaning: ByMeaning | None) -> dict[str, float]:
    """The share of the statement's nearest neighbours in each domain; a neighbour votes only when
    it shares at least two of the statement's content words (one for very short statements), so a
    single common word cannot pull a record into an unrelated domain."""
    if by_meaning is not None:
        near = by_meaning(caller, NEIGHBOURS)
    else:
        words = query_terms(statement)
        if not words:
            return {}
        near = conn.domains.neighbours(caller, words, NEIGHBOURS)
    mine = vocab.term_set(statement)
    needed = min(2, len(mine)) or 1
    votes: Counter[str] = Counter()
    for domain, text in near:
        if len(mine & vocab.term_set(text)) >= needed:
            votes[domain] += 1
    return {name: n / NEIGHBOURS for name, n in votes.items()}


def domain_votes(conn: Store, statement: str, caller: Caller, by_meaning: ByMeaning | None = None) -> dict[str, float]:
    """Each visible domain's combined vote (0..1) for holding this statement."""
    decision = route(conn, caller, statement, None)
    routed = {} if decision.broad else decision.weights
    strength = {name: decision.scores.get(name, 0.0) for name in routed}
    neighbours = _neighbour_votes(conn, statement, caller, by_meaning)
    names = set(routed) | set(neighbours)
    return {
        name: W_ROUTER * min(1.0, strength.get(name, 0.0)) * routed.get(name, 0.0) ** 0.5
        + W_NEIGHBOURS * neighbours.get(name, 0.0)
        for name in names
    }


# Whose view places a record the person shares: a caller that sees only unbound
# remote_allowed records (it owns none, so no principal-bound record is visible to it).
SHARED_VIEW = Caller(principal="memvault-placement", surface=Surface.REMOTE)


def assign_domain(
    conn: Store, statement: str, caller: Caller, scope: Scope | None = None, by_meaning: ByMeaning | None = None
) -> str:
    """The domain for a write that names none.

    A record is placed by what its writer may see. A record the person writes for remote
    or workspace callers (`scope`) is placed by what remote callers may see, so that it never
    lands in a domain known only from local records (its domain's name travels with it).
    """
    # Any caller's remote_allowed record (a workspace's too: not by its workspace's records).
    if scope is Scope.REMOTE_ALLOWED or (caller.is_local and scope is Scope.WORKSPACE_ALLOWED):
        caller = SHARED_VIEW
    # Neighbours by meaning only in a local caller's own view (the shared view stays lexical).
    votes = domain_votes(conn, statement, caller, by_meaning if caller.is_local else None)
    votes.pop(DEFAULT_DOMAIN, None)  # general is the fallback, never a reason
    if not votes:
        return DEFAULT_DOMAIN
    best, vote = max(votes.items(), key=lambda item: (item[1], item[0]))
    return best if vote >= MIN_VOTE else DEFAULT_DOMAIN
