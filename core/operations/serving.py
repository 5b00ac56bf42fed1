"""`Serving`: what a long-lived server does for speed, in one place, configured once by its transport.

A server (the stdio bridge, the daemon's sessions, the HTTP transport) calls `start()` once; from
then on, in this process:
- a write's embedding runs on a thread of its own, and a search waits for what is pending, so a
  search never misses a record an earlier call added;
- a search's usage counters and log row are written after its answer, and before the next use of
  the store, so no reader sees the store without them;
- `expect_search` / `expect_add` start a call's vector while its checks run (never loading the
  model, never embedding text the secrets check refuses);
- `warm(caller)` sets up what a first search needs as a session starts (on a thread of its own:
  `warm_in_background`); it writes nothing;
- `settle()` waits for a warm-up under way and for pending embeddings (before a store closes, after
  a daemon's upkeep);
- the writer's secret detectors load on a thread of their own as the first session starts.
A process that never calls `start()` (the CLI, the app, tests) writes and searches in line.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable

from memvault.core.retrieval.seam import ServingHooks
from memvault.core.store.context import Context
from memvault.core.vocabulary.drafts import MAX_STATEMENT_CHARS, required_text
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller
from memvault.core.writer import gate
from memvault.core.writer.gate import rejection

log = logging.getLogger("memvault.mcp")
WARM_WAIT_S = 120  # a model that takes longer to load than this is not waited for


class Serving:
    def __init__(self, ctx: Context, hooks: ServingHooks, guard: Callable[[Caller], None]) -> None:
        self._ctx = ctx
        self._hooks = hooks
        self._guard = guard
        self._lock = threading.Lock()
        self._warming: list[threading.Thread] = []

    def start(self) -> None:
        """This process serves assistants from now on (idempotent)."""
        self._hooks.embed_in_background()
        self._hooks.usage_after_answer()
        _warm_the_writer()

    def warm_in_background(self, caller: Caller) -> None:
        """`warm_quietly` on a thread of its own, as a session starts; `settle` waits for it, so the
        process never exits while the model is still loading (a native thread cut short aborts it)."""
        thread = threading.Thread(target=self.warm_quietly, args=(caller,), name="memvault-search-warm", daemon=True)
        with self._lock:
            self._warming = [t for t in self._warming if t.is_alive()] + [thread]
        thread.start()

    def warm_quietly(self, caller: Caller) -> bool:
        """`warm`, whose failure (a store closed meanwhile, the kill switch, a missing model) only
        leaves the first search to load what it needs and report what fails: False."""
        try:
            self.warm(caller)
        except Exception as exc:
            log.info("search warm-up stopped (%s)", type(exc).__name__)
            return False
        return True

    def warm(self, caller: Caller) -> None:
        """Set up what `caller`'s searches need now (the model, the indexes, the domain profiles), so
        that the first search does not pay for it. Writes nothing."""
        self._guard(caller)
        self._hooks.warm(self._ctx, caller)

    def expect_search(self, query: object) -> None:
        """A search for `query` (a tool's argument, not checked yet) is coming: its vector may start
        while the call's checks run. Reads nothing of the store; a search that never comes costs
        only the vector."""
        if isinstance(query, str):
            self._hooks.expect(query)

    def expect_add(self, statement: object) -> None:
        """An add of `statement` (a tool's argument, not checked yet) is coming from an assistant:
        unless it would be refused (a secret is never embedded), its vector may start while the
        call's checks run. Reads nothing of the store."""
        try:  # the statement as the draft will hold it; one the draft would refuse starts nothing
            text = required_text(statement, "statement", max_chars=MAX_STATEMENT_CHARS)
        except InvalidArgument:
            return
        if rejection(text) is None:
            self._hooks.expect_write(text)

    def settle(self) -> None:
        """Wait for a warm-up under way and for the embeddings asked for so far."""
        with self._lock:
            warming = list(self._warming)
        for thread in warming:
            thread.join(WARM_WAIT_S)
        self._hooks.settle()


@functools.cache
def _warm_the_writer() -> None:
    """Once per process: the detectors load while a session starts (the client lists the tools)."""
    threading.Thread(target=gate.warm, name="memvault-writer-warm", daemon=True).start()
