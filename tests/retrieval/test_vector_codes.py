"""The vector index's int8 first pass: the scan graph shipped, and how close its dot products are."""

from __future__ import annotations

from importlib import resources

import numpy as np
from onnx import TensorProto, helper

from memvault.core.retrieval.vector_codes import VectorCodes


def _scan_graph() -> bytes:
    """How resources/models/int8_scan.onnx was made: uint8 query (1 x dims) times int8 codes (dims x rows)."""
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["query", "codes"], ["dots"])],
        "int8_scan",
        [
            helper.make_tensor_value_info("query", TensorProto.UINT8, [1, "dims"]),
            helper.make_tensor_value_info("codes", TensorProto.INT8, ["dims", "rows"]),
        ],
        [helper.make_tensor_value_info("dots", TensorProto.INT32, [1, "rows"])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="memvault")
    model.ir_version = 8
    return model.SerializeToString()


def test_the_shipped_scan_graph_is_the_one_described() -> None:
    shipped = resources.files("memvault.resources").joinpath("models/int8_scan.onnx").read_bytes()
    assert shipped == _scan_graph()


def _unit(rng: np.random.Generator, count: int) -> np.ndarray:
    vectors = rng.normal(size=(count, 384)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_coded_dot_products_are_close_to_the_exact_ones_and_follow_rewrites() -> None:
    rng = np.random.default_rng(3)
    vectors = _unit(rng, 300)
    codes = VectorCodes(384)
    codes.grow(200, 0)
    codes.put(np.arange(200), vectors[:200])
    codes.grow(400, 200)  # rows kept across growth; spare columns are scanned as zeros
    codes.put(np.arange(200, 300), vectors[200:])
    query = vectors[7] + 0.5 * vectors[250]
    approx = codes.scan(query, 300)
    assert approx.shape == (300,) and approx.dtype == np.float32
    # Per-row scale, 127 levels: ~1e-3 off for unit vectors, far less than neighbours differ by.
    assert np.abs(approx - vectors @ query).max() < 0.01
    codes.put(np.array([7]), vectors[[9]])  # a record embedded again: its row is coded again
    assert abs(float(codes.scan(vectors[9], 300)[7]) - 1.0) < 0.01


def test_products_at_the_codes_peaks_do_not_saturate() -> None:
    """Every component at its peak: each pair of products is as large as it gets. Without AVX-512
    VNNI the kernel adds two uint8 x int8 products in int16; 8-bit query codes overflowed it there
    (this dot product of 1 came out at 0.008), 7-bit ones cannot."""
    flat = np.full((2, 384), 384**-0.5, dtype=np.float32)
    flat[1] *= -1
    codes = VectorCodes(384)
    codes.grow(2, 0)
    codes.put(np.arange(2), flat)
    assert np.allclose(codes.scan(flat[0], 2), [1.0, -1.0], atol=0.01)


def test_a_zero_vector_codes_as_zeros() -> None:
    codes = VectorCodes(384)
    codes.grow(2, 0)
    codes.put(np.arange(2), np.zeros((2, 384), dtype=np.float32))
    assert codes.scan(np.ones(384, dtype=np.float32), 2).tolist() == [0.0, 0.0]
