"""The vector index's fast first pass: each stored vector as int8 codes, scanned in integer arithmetic.

An exact scan streams every float32 vector (1.5 KB each) for one query: ~0.8 ms at 10k vectors and
~9 ms at 100k on one core, bound by memory. The codes hold each vector as int8 with one scale of
its own (a quarter of the bytes), one column per vector, so that onnxruntime's integer MatMul
(`resources/models/int8_scan.onnx`) reads them as its second operand: ~0.15 ms at 10k and ~3 ms at
100k, measured on the bench machine. The query goes in as 7-bit codes shifted by 64 (its fast
kernel is uint8 x int8, and with a zero point it would sum every column again per query); the
shift is taken off with each row's codes' sum, kept beside them. A coded dot
product is off by ~2e-3, so the codes only choose candidates: `VectorIndex.search` rescores a few
times as many as it returns with the float32 vectors, and answers exact cosines.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]
else:
    Matrix = Any

LEVELS = 127  # int8 codes in [-127, 127]: symmetric, so a vector and its negation code alike
# The query's codes are in [-63, 63], + SHIFT its uint8 input in [1, 127]. On a CPU without AVX-512
# VNNI the kernel sums pairs of uint8 x int8 products in int16, which saturates past 32,767: with
# 8-bit query codes (up to 255 x 127 twice) a coded dot product was off by up to 0.04 (measured on an
# AVX2 VM), and one at the codes' peaks came out at 0.008 for 1.
QUERY_LEVELS = 63
SHIFT = 64


class VectorCodes:
    """int8 codes of the index's rows, `dimensions` x capacity, with a float32 scale per row and
    what the query's shift adds to the row's scaled dot product (SHIFT x its codes' sum x scale)."""

    def __init__(self, dimensions: int) -> None:
        import numpy as np  # noqa: PLC0415 - numpy only once vectors are used

        self._np = np
        self._codes = np.zeros((dimensions, 0), dtype=np.int8)
        self._scales: Matrix = np.zeros(0, dtype=np.float32)
        self._offsets: Matrix = np.zeros(0, dtype=np.float32)  # what the query's shift adds, scaled

    def grow(self, capacity: int, kept: int) -> None:
        """Room for `capacity` rows, the first `kept` rows carried over."""
        np = self._np
        codes = np.zeros((self._codes.shape[0], capacity), dtype=np.int8)
        codes[:, :kept] = self._codes[:, :kept]
        scales = np.zeros(capacity, dtype=np.float32)
        scales[:kept] = self._scales[:kept]
        offsets = np.zeros(capacity, dtype=np.float32)
        offsets[:kept] = self._offsets[:kept]
        self._codes, self._scales, self._offsets = codes, scales, offsets

    def put(self, rows: Any, vectors: Matrix) -> None:
        """Code `vectors` (one per row) into the columns `rows` (an index array or a slice)."""
        np = self._np
        peaks = np.abs(vectors).max(axis=1)
        scales = np.where(peaks > 0, peaks / LEVELS, 1.0).astype(np.float32)
        codes = np.rint(vectors / scales[:, None]).astype(np.int8)
        self._codes[:, rows] = codes.T
        self._scales[rows] = scales
        self._offsets[rows] = SHIFT * codes.sum(axis=1, dtype=np.int32) * scales

    def scan(self, query: Matrix, size: int) -> Matrix:
        """Approximate dot products of `query` with the first `size` rows.

        The whole capacity is scanned (rows not written yet are zero): a slice of the columns
        would not be contiguous, and copying it costs more than the spare columns."""
        np = self._np
        peak = float(np.abs(query).max()) or 1.0
        shifted = (np.rint(query * (QUERY_LEVELS / peak)) + SHIFT).astype(np.uint8)
        (dots,) = _scan_session().run(["dots"], {"query": shifted[None, :], "codes": self._codes})
        approx: Matrix = np.multiply(dots[0, :size], self._scales[:size], dtype=np.float32)
        approx -= self._offsets[:size]
        approx *= peak / QUERY_LEVELS
        return approx


@functools.cache
def _scan_session() -> Any:
    """One onnxruntime session per process for the scan graph (it holds no weights)."""
    from memvault.core.runtime.no_telemetry import import_onnxruntime  # noqa: PLC0415 - heavy

    onnxruntime = import_onnxruntime()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # a second thread would compete with the model on two cores
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    graph = resources.files("memvault.resources").joinpath("models/int8_scan.onnx").read_bytes()
    return onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
