"""What `Vault` asks of a retrieval engine (the hybrid one lives in pipeline.py), in two parts.

- `Retriever`: searching, and keeping the indexes in step with the store (after a write, a
  reindex, a purge). Every front end needs it.
- `ServingHooks`: what a long-lived server does for speed (work started ahead of a call, a
  warm-up, embedding and usage writes off the answer's path). Only `Serving`
  (core/operations/serving.py) calls these; nothing above the facade does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from memvault.core.store.context import Context
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.results import ReindexReport, SearchAnswer, ShadowAnswer
from memvault.core.vocabulary.search_request import SearchRequest

if TYPE_CHECKING:
    from memvault.core.retrieval.vectors import Nearby


class Retriever(Protocol):
    def search(self, ctx: Context, caller: Caller, request: SearchRequest) -> SearchAnswer | ShadowAnswer: ...

    def nearby(self, ctx: Context) -> Nearby | None:
        """The statement vector and nearest stored records for a write's duplicate check (None: lexical)."""
        ...

    def after_write(self, ctx: Context) -> int:
        """Called after every committed write (embed what is new); answers how many were embedded."""
        ...

    def forget_text(self, ctx: Context) -> None:
        """After a purge: forget every copy of memory text this process keeps to go faster (every
        cache; what `ctx`'s connection keeps) and release the memory that held them."""
        ...

    def reindex(self, ctx: Context) -> ReindexReport:
        """Embed every record that has no vector yet (written while embeddings were off)."""
        ...


class ServingHooks(Protocol):
    def expect(self, query: str) -> None:
        """A search for `query` is coming: its vector may start now (never loading a model)."""
        ...

    def expect_write(self, statement: str) -> None:
        """An assistant's add of `statement` (secrets check passed) is coming: its vector and nearest
        records may start now, for `nearby` to take (never loading a model)."""
        ...

    def warm(self, ctx: Context, caller: Caller) -> None:
        """Set up what `caller`'s searches need (a model, indexes) before the first one comes; writes nothing."""
        ...

    def embed_in_background(self) -> None:
        """From now on `after_write` embeds on a thread of its own (long-lived servers); searches wait for it."""
        ...

    def usage_after_answer(self) -> None:
        """From now on a search answers before its usage and log row are written (long-lived servers);
        the next use of the store writes them first if their thread has not."""
        ...

    def settle(self) -> None:
        """Wait for the background embedding asked for so far (nothing to wait for without it)."""
        ...


class Engine(Retriever, ServingHooks, Protocol):
    """A retrieval engine: both parts (pipeline.HybridRetriever)."""
