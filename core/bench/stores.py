"""An isolated, throw-away encrypted store per benchmark condition, loaded with the data set.

Each store lives in its own temporary MEMVAULT_HOME, keyed by a random passphrase (never the
OS keyring: nothing of a benchmark outlives it), and is removed when the run ends.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from memvault.core.bench.dataset import BenchRecord, DataSet
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import CorrectRequest

BENCH_SCRYPT_N = 2**12  # fictional data in a store deleted after the run: a cheap KDF is enough


@dataclass
class BenchStore:
    home: Path
    passphrase: str
    ids: dict[str, str] = field(default_factory=dict)  # data set key -> record id

    @property
    def env(self) -> dict[str, str]:
        """What a `memvault mcp` child needs to open this store."""
        return {
            "MEMVAULT_HOME": str(self.home),
            "MEMVAULT_PASSPHRASE": self.passphrase,
            "MEMVAULT_KEY_BACKEND": "passphrase",
        }

    def keys_by_id(self) -> dict[str, str]:
        return {memory_id: key for key, memory_id in self.ids.items()}

    def open(self) -> Vault:
        return Vault.open(self.home, passphrase=self.passphrase)

    def size_bytes(self) -> int:
        return folder_bytes(self.home)


@contextmanager
def temporary_home(prefix: str) -> Iterator[Path]:
    home = Path(tempfile.mkdtemp(prefix=f"memvault-bench-{prefix}-"))
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


@contextmanager
def loaded_store(data: DataSet, home: Path) -> Iterator[BenchStore]:
    """A new store in `home` holding every record of `data` (written by the person: no approval)."""
    store = BenchStore(home / "store", secrets.token_urlsafe(24))
    with Vault.open(store.home, create=True, scrypt_n=BENCH_SCRYPT_N, passphrase=store.passphrase) as vault:
        for record in data.records:
            store.ids[record.key] = _write(vault, record, store.ids)
    yield store


def _write(vault: Vault, record: BenchRecord, ids: dict[str, str]) -> str:
    fields = dict(record.fields)
    if record.corrects is not None:
        correction = CorrectRequest.of(
            id=ids[record.corrects],
            statement=record.statement,
            reason=fields.get("reason"),
            valid_from=fields.get("valid_from"),
        )
        return _written_id(vault.correct(OWNER, correction), record.key)
    links = [{"type": link["type"], "target_id": ids[link["to"]]} for link in fields.pop("links", [])]
    draft = Draft.of(**fields, links=links, source="memvault-bench", source_reference=f"bench:{record.key}")
    return _written_id(vault.add(OWNER, draft), record.key)


def _written_id(answer: Mapping[str, object], key: str) -> str:
    if answer.get("outcome") == "duplicate":
        return str(answer["duplicate_of"])  # a restatement the writer recognised: it stays one record
    if answer.get("outcome") not in ("added", "superseded"):
        raise InvalidArgument(f"bench data set: record {key} was not written ({answer.get('outcome')})")
    return str(answer["id"])


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
