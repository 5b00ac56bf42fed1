"""The integer rewrite of the embedding model: built once into the user's cache, reused without
onnx, a cache file that does not match its pin never run, and today's fp32 graph when the rewrite
cannot be had."""

from __future__ import annotations

import base64
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from memvault.core.retrieval import integer_model
from memvault.core.retrieval.embeddings import MODEL_SHA256, Embedder


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder for this test: where the rewritten model is kept."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return integer_model.cached_file(MODEL_SHA256)


def _first_reference() -> tuple[str, object]:
    reference = json.loads((Path(__file__).parent / "reference_vectors.json").read_text())["references"][0]
    return reference["text"], np.frombuffer(base64.b64decode(reference["vector_f32le_base64"]), dtype="<f4")


def _refuse_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(source: bytes) -> bytes:
        raise AssertionError("the model was rewritten again")

    monkeypatch.setattr(integer_model, "rewrite", refused)


def test_the_rewrite_is_built_once_kept_privately_and_reused(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not cache.exists()
    built = Embedder()
    assert built.compute == "int8"
    assert integer_model.sha256_of(cache.read_bytes()) == integer_model.CONVERTED_SHA256  # deterministic, pinned
    assert cache.stat().st_mode & 0o077 == 0 and cache.parent.parent.stat().st_mode & 0o077 == 0
    assert [p.name for p in cache.parent.iterdir()] == [cache.name]  # no temp file left behind
    modified = cache.stat().st_mtime_ns
    _refuse_rewrites(monkeypatch)
    again = Embedder()
    assert again.compute == "int8" and cache.stat().st_mtime_ns == modified
    text, _ = _first_reference()
    assert np.array_equal(built.embed_one(text), again.embed_one(text))


def test_loading_the_kept_rewrite_does_not_import_onnx(cache: Path) -> None:
    Embedder()  # builds the cache
    code = (
        "import sys; from memvault.core.retrieval.embeddings import Embedder; "
        "print(Embedder().compute, 'onnx' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ)
    assert out.stdout.split() == ["int8", "False"]


def test_a_cache_file_that_does_not_match_its_pin_is_rebuilt(cache: Path, caplog: pytest.LogCaptureFixture) -> None:
    Embedder()
    data = bytearray(cache.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit of one weight: would still load and run
    cache.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="memvault.retrieval"):
        assert Embedder().compute == "int8"
    assert integer_model.sha256_of(cache.read_bytes()) == integer_model.CONVERTED_SHA256
    assert "does not match its pinned sha256: rebuilding it" in caplog.text


def test_a_bad_cache_file_that_cannot_be_rebuilt_is_never_run(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Embedder()
    cache.write_bytes(b"not a model")
    monkeypatch.setitem(sys.modules, "onnx", None)  # onnx missing: no rebuild possible
    embedder = Embedder()
    assert embedder.compute == "fp32" and cache.read_bytes() == b"not a model"
    text, stored = _first_reference()
    assert float(embedder.embed_one(text) @ stored) >= 0.99999  # today's graph, today's vectors


def test_without_onnx_the_packaged_model_runs_and_a_warning_says_so(
    cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)
    with caplog.at_level(logging.WARNING, logger="memvault.retrieval"):
        embedder = Embedder()
    assert embedder.compute == "fp32" and not cache.exists()
    assert "the onnx package is not installed" in caplog.text
    text, stored = _first_reference()
    assert float(embedder.embed_one(text) @ stored) >= 0.99999


def test_a_graph_of_another_shape_is_not_rewritten(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rewrite that fails (here: a graph with no int8 weights) leaves the packaged model running."""
    import onnx  # noqa: PLC0415

    plain = onnx.helper.make_model(
        onnx.helper.make_graph(
            [onnx.helper.make_node("Relu", ["x"], ["y"])],
            "plain",
            [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])],
            [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])],
        )
    )
    with pytest.raises(integer_model.ConversionFailed):
        integer_model.rewrite(plain.SerializeToString())
    assert integer_model.build_and_keep(plain.SerializeToString(), MODEL_SHA256) is None
    assert not cache.exists()


def test_a_cache_that_cannot_be_written_still_gives_integer_compute(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache.parent.parent.parent.mkdir(parents=True)
    cache.parent.parent.write_text("a file where the folder would be")
    with caplog.at_level(logging.WARNING, logger="memvault.retrieval"):
        assert Embedder().compute == "int8"
    assert "integer embedding model not cached" in caplog.text


def test_building_removes_what_a_crash_or_an_old_converter_left(cache: Path) -> None:
    cache.parent.mkdir(parents=True)
    month_ago = time.time() - 31 * 86400
    old_version = cache.with_name(f"{integer_model.CACHE_PREFIX}0123456789abcdef-v0.onnx")
    crashed = cache.with_name(f"{cache.name}x7q.tmp")
    being_written = cache.with_name(f"{cache.name}k2p.tmp")
    recent_other = cache.with_name(f"{integer_model.CACHE_PREFIX}fedcba9876543210-v1.onnx")
    for path in (old_version, crashed, being_written, recent_other):
        path.write_bytes(b"left behind")
    for path in (old_version, crashed):
        os.utime(path, (month_ago, month_ago))
    assert Embedder().compute == "int8"
    assert sorted(p.name for p in cache.parent.iterdir()) == sorted([cache.name, being_written.name, recent_other.name])
