"""What to do with one prepared candidate: the writer's gate and judgement, as for any write.

Every candidate passes the writer gate (secrets, chatter). The rest is compared with the
store as the importing caller sees it (core/writer/classify.classify: exact, near duplicate,
conflict, ending) and with the candidates before it in the same batch (the same rules of
core/writer/similarity.relate), so nothing is said twice and a later statement corrects an
earlier one.

A candidate said as a change (extract.py found what it replaces: "I no longer work at X; now I
work at Y", "ab sofort auf Hetzner statt auf Netlify") is a correction of the record that holds
what it replaces (changes.replaces), in any of the four languages, found among the records the
caller may see that share its words; failing that, of what the writer's own change or conflict
rules found (not its ending rule: it would take "X's office is in Leeds" for what "I no longer work
at X" ends), else it is an addition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memvault.core.importers.prepare import Prepared
from memvault.core.importers.said_changes import Change, replaces
from memvault.core.retrieval.hybrid import Gathered, gather_lexical
from memvault.core.retrieval.query import query_terms
from memvault.core.store.seam import Store
from memvault.core.vocabulary.model import LIVE_STATUSES, Caller, Memory
from memvault.core.vocabulary.search_request import SearchRequest
from memvault.core.writer.classify import Embed, classify
from memvault.core.writer.gate import rejection
from memvault.core.writer.normalize import is_chatter, normalize_statement
from memvault.core.writer.similarity import Relation, relate

BATCH_POOL = 30  # earlier candidates of the batch compared with each new one
CHANGE_POOL = 30  # records near what a change replaces, compared with it
CHANGE_REASON = "a change: it replaces what this record says"


@dataclass(frozen=True)
class Decision:
    action: str  # add | correct | confirm | exclude
    reason: str
    target: Memory | None = None
    batch_target: int | None = None  # index of an earlier candidate of the same batch
    secret: bool = False  # the statement is withheld from the report


@dataclass
class BatchMemory:
    """The candidates a dry run has accepted so far (a commit finds them in the store instead)."""

    statements: list[str] = field(default_factory=list)
    norms: dict[str, int] = field(default_factory=dict)
    by_term: dict[str, list[int]] = field(default_factory=dict)

    def remember(self, statement: str) -> None:
        index = len(self.statements)
        self.statements.append(statement)
        self.norms.setdefault(normalize_statement(statement), index)
        for term in query_terms(statement):
            self.by_term.setdefault(term, []).append(index)

    def related(self, statement: str) -> tuple[Relation, int] | None:
        norm = normalize_statement(statement)
        if norm in self.norms:
            return Relation.SAME, self.norms[norm]
        shared: dict[int, int] = {}
        for term in query_terms(statement):
            for index in self.by_term.get(term, ())[-BATCH_POOL:]:
                shared[index] = shared.get(index, 0) + 1
        near = sorted((i for i, n in shared.items() if n >= 2), reverse=True)[:BATCH_POOL]
        for index in near:
            judged = relate(statement, self.statements[index])
            if judged.relation in (Relation.SAME, Relation.CONFLICT, Relation.REPLACES):
                return judged.relation, index
        return None

    def replaced_by(self, change: Change, statement: str) -> int | None:
        """The earlier candidate of the batch that `change` (said in `statement`) replaces, if any."""
        near: set[int] = set()
        for term in query_terms(change.old):
            near.update(self.by_term.get(term, ())[-BATCH_POOL:])
        scored = [(replaces(change, statement, self.statements[i]), i) for i in near]
        best = max(scored, default=(0.0, -1))
        return best[1] if best[0] > 0 else None


def screen(prepared: Prepared, clean: bool) -> Decision | None:
    """The writer gate. `clean`: the whole conversation was screened for secrets and holds none, so
    only chatter is left to check (the secret detectors cost ~10 ms a call)."""
    statement = prepared.draft.statement
    refused = (
        ("refused: nothing durable to remember (empty or chatter)" if is_chatter(statement) else None)
        if clean
        else rejection(statement)
    )
    if refused:
        return Decision("exclude", refused, secret="secret" in refused)
    return None


def decide(
    conn: Store, caller: Caller, embed: Embed | None, prepared: Prepared, batch: BatchMemory | None,
    clean: bool = False,
) -> Decision:  # fmt: skip
    refused = screen(prepared, clean)
    if refused:
        return refused
    found = classify(conn, caller, embed, prepared.draft)
    if found.classification == "NO_CHANGE":
        return Decision("confirm", f"already known: {found.reason}", found.target)
    change = prepared.item.change
    replaced = _replaced(conn, caller, change, prepared.draft.statement) if change else None
    if replaced is not None:
        return _correction(prepared, replaced, CHANGE_REASON)
    # A change said with an ending ("no longer X, now Y") replaces only what changes.replaces finds: the
    # writer's ending rule alone would take "X's office is in Leeds" for what "I no longer work at X" ends.
    ending = change is not None and found.evidence.get("rule") == "ending"
    if found.classification == "SUPERSEDE" and not ending:
        return _correction(prepared, found.target, found.reason)
    if found.classification == "ARCHIVE" and change is None:
        return Decision("exclude", "says a stored record ended: review it by hand (memvault archive)", found.target)
    if batch is not None:
        earlier = batch.replaced_by(change, prepared.draft.statement) if change else None
        if earlier is not None:
            return Decision("correct", "changes what an earlier conversation of this import said", batch_target=earlier)
        relation = batch.related(prepared.draft.statement)
        if relation and relation[0] is Relation.SAME:
            return Decision("exclude", "said again earlier in this import", batch_target=relation[1])
        if relation:
            return Decision(
                "correct", "changes what an earlier conversation of this import said", batch_target=relation[1]
            )
    return Decision("add", "nothing similar is known")


def _replaced(conn: Store, caller: Caller, change: Change, statement: str) -> Memory | None:
    """The live record, among those the caller may see that share words with what `change` replaces,
    that it replaces most surely (changes.replaces), or None."""
    gathered = Gathered()
    gather_lexical(conn, caller, SearchRequest(query=change.old, limit=CHANGE_POOL), CHANGE_POOL, gathered)
    scored = [
        (replaces(change, statement, item.record.statement), item.record.id, item.record)
        for item in gathered.found.values()
        if item.record.status in LIVE_STATUSES
    ]
    best = max(scored, key=lambda s: (s[0], s[1]), default=None)
    return best[2] if best is not None and best[0] > 0 else None


def _correction(prepared: Prepared, target: Memory | None, reason: str) -> Decision:
    assert target is not None
    said = prepared.draft.event_time
    if said and target.valid_from and said < target.valid_from:
        return Decision("exclude", "older than the stored record it contradicts: the store keeps the newer", target)
    return Decision("correct", reason, target)
