"""The embedding model rewritten to run its MatMuls in integer arithmetic, built once and cached.

The packaged model stores its weights as int8 with one fp32 scale per output column, then turns
them into fp32 in the graph (Cast, Mul); onnxruntime folds that at load, so every query streams
~90 MB of fp32 weights. The rewrite keeps the same int8 weights and scales (nothing new is
shipped or downloaded) and changes only how they are used:
- each weight MatMul becomes `DynamicQuantizeMatMul`: the activations are quantised to uint8 with
  one scale and zero point over the whole input tensor, multiplied with the weights (onnxruntime's
  u8 x s8 GEMM), then scaled by the column's scale. One scale over the tensor means a batch would
  change a text's vector: the embedder runs each text alone;
- the weights are narrowed from 8 to 7 bits (each halved and rounded, its column's scale doubled).
  On AVX2, and AVX-512 without VNNI, the u8 x s8 GEMM adds pairs of products in 16 bits and
  saturates when a pair passes 32,767; VNNI and arm64 do not. With |w| <= 64 a pair stays within
  255 x 64 x 2 = 32,640, so every CPU computes the same exact integers and a text gets the same
  vector everywhere (docs/decisions/0001-embedding-model-form.md has the measurements);
- the word and position embedding tables are gathered as int8 rows and scaled after the
  gather (exactly the fp32 values, ~35 MB less resident).

The rewrite needs the `onnx` package and runs once: its output is pinned (CONVERTED_SHA256) and
kept in the user's cache folder under a name holding the source's digest and CONVERTER_VERSION,
written atomically. Loading checks the cached bytes against the pin and never imports onnx; a
file that does not match is rebuilt, never run. When the rewrite cannot be had, the caller falls
back to the packaged model (fp32 compute).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import platformdirs

log = logging.getLogger("memvault.retrieval")

CONVERTER_VERSION = 3
CACHE_PREFIX = "minilm-l6-int8-matmul-"
STALE_TEMP_S = 3600
STALE_REWRITE_S = 30 * 86400
# The largest weight magnitude kept: no pair of u8 x s8 products passes int16 on any CPU.
SEVEN_BITS = 64
CONVERTED_SHA256 = "acf22a820a0c849567df413bb0544cdf62653ed17f2a1f3e715a6efb0477d7f6"


class ConversionFailed(Exception):
    """The packaged graph is not the shape the rewrite expects."""


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cached_file(source_sha256: str) -> Path:
    """Where the rewritten model of this source, by this converter version, is kept."""
    folder = Path(platformdirs.user_cache_dir("memvault")) / "models"
    return folder / f"{CACHE_PREFIX}{source_sha256[:16]}-v{CONVERTER_VERSION}.onnx"


def cached_model(source_sha256: str) -> Path | None:
    """The cached rewrite when the file is there and matches its pin; None otherwise.

    The session loads the file by path: from bytes, onnxruntime keeps ~22 MB more (measured)."""
    path = cached_file(source_sha256)
    try:
        digest = file_sha256(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("integer embedding model cache unreadable (%s): rebuilding it", type(error).__name__)
        return None
    if digest != CONVERTED_SHA256:
        log.warning("integer embedding model cache does not match its pinned sha256: rebuilding it")
        return None
    return path


def build_and_keep(source: bytes, source_sha256: str) -> Path | bytes | None:
    """Rewrite the source model and keep the result: its file, or its bytes when the cache cannot
    be written; None (logged) when onnx is missing or the rewrite fails."""
    try:
        data = rewrite(source)
    except ImportError:
        log.warning("the onnx package is not installed: the embedding model computes in fp32")
        return None
    except Exception as error:  # any failure leaves the packaged model running
        log.warning("rewriting the embedding model failed (%s): it computes in fp32", type(error).__name__)
        return None
    if sha256_of(data) != CONVERTED_SHA256:
        log.warning("the rewritten embedding model does not match its pinned sha256: it computes in fp32")
        return None
    path = cached_file(source_sha256)
    try:
        _write_atomically(path, data)
    except OSError as error:  # a cache that cannot be written costs a rewrite per process, nothing else
        log.warning("integer embedding model not cached (%s)", type(error).__name__)
        return data
    _remove_stale(path)
    return path


def _remove_stale(kept: Path) -> None:
    """Temp files a crash left (an hour old: one being written now is younger) and rewrites of
    another source or converter version unused for a month (another install still using one
    rebuilds it at most monthly) go."""
    now = time.time()
    for other in kept.parent.glob(f"{CACHE_PREFIX}*"):
        age = STALE_REWRITE_S if other.suffix == ".onnx" else STALE_TEMP_S
        try:
            if other != kept and other.stat().st_mtime < now - age:
                other.unlink()
        except OSError:  # removed meanwhile by another process, or not ours to remove
            continue


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # memvault's cache folder: private
    path.parent.mkdir(mode=0o700, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def rewrite(source: bytes) -> bytes:
    """The source model's bytes with integer MatMuls and int8 embedding gathers (deterministic)."""
    import onnx  # noqa: PLC0415 - only to build the cache, never to load it

    model = onnx.load_from_string(source)
    graph = model.graph
    weights = {tensor.name: tensor for tensor in graph.initializer}
    users: dict[str, list[Any]] = defaultdict(list)
    for node in graph.node:
        for name in node.input:
            users[name].append(node)
    replaced: dict[int, list[Any]] = {}
    dropped: set[int] = set()
    added: list[Any] = []
    for cast in graph.node:
        if cast.op_type != "Cast" or cast.input[0] not in weights:
            continue
        scale_mul = _only(users[cast.output[0]], "Mul")
        consumer = _only(users[scale_mul.output[0]], "MatMul", "Gather")
        if list(consumer.input).index(scale_mul.output[0]) != (0 if consumer.op_type == "Gather" else 1):
            raise ConversionFailed("an int8 weight in an unexpected input")
        quantized, scale = cast.input[0], scale_mul.input[1]
        dropped |= {id(cast), id(scale_mul)}
        if consumer.op_type == "Gather":
            replaced[id(consumer)] = _int8_gather(quantized, scale, consumer)
        else:
            nodes, tensors = _integer_matmul(weights[quantized], weights[scale], consumer)
            replaced[id(consumer)] = nodes
            added += tensors
    if not replaced:
        raise ConversionFailed("no int8 weights found")
    _replace_nodes(graph, replaced, dropped)
    _keep_used_initializers(graph, added)
    model.opset_import.append(onnx.helper.make_opsetid("com.microsoft", 1))
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString(deterministic=True))


def _only(nodes: list[Any], *kinds: str) -> Any:
    if len(nodes) != 1 or nodes[0].op_type not in kinds:
        raise ConversionFailed(f"expected one {'/'.join(kinds)} after an int8 weight")
    return nodes[0]


def _int8_gather(quantized: str, scale: str, gather: Any) -> list[Any]:
    """Gather int8 rows and their scales, then dequantize only the rows gathered."""
    from onnx import TensorProto, helper  # noqa: PLC0415

    if _attribute(gather, "axis", 0) != 0:
        raise ConversionFailed("an embedding gather along another axis")
    out, ids = gather.output[0], gather.input[1]
    return [
        helper.make_node("Gather", [quantized, ids], [f"{out}_int8"], axis=0),
        helper.make_node("Gather", [scale, ids], [f"{out}_scale"], axis=0),
        helper.make_node("Cast", [f"{out}_int8"], [f"{out}_f32"], to=TensorProto.FLOAT),
        helper.make_node("Mul", [f"{out}_f32", f"{out}_scale"], [out]),
    ]


def _integer_matmul(quantized: Any, scale: Any, matmul: Any) -> tuple[list[Any], list[Any]]:
    """DynamicQuantizeMatMul over the weights narrowed to 7 bits, with the column scales as a vector."""
    import numpy as np  # noqa: PLC0415
    from onnx import helper, numpy_helper  # noqa: PLC0415

    weight = numpy_helper.to_array(quantized)
    scales = numpy_helper.to_array(scale).astype(np.float32).reshape(-1)
    if weight.dtype != np.int8 or weight.ndim != 2 or scales.size != weight.shape[1]:
        raise ConversionFailed("an int8 weight without one scale per output column")
    narrowed = np.clip(np.rint(weight.astype(np.float32) / 2), -SEVEN_BITS, SEVEN_BITS).astype(np.int8)
    weight_name, scales_name = f"{quantized.name}_7bit", f"{scale.name}_columns"
    node = helper.make_node(
        "DynamicQuantizeMatMul",
        [matmul.input[0], weight_name, scales_name],
        [matmul.output[0]],
        domain="com.microsoft",
    )
    return [node], [numpy_helper.from_array(narrowed, weight_name), numpy_helper.from_array(scales * 2, scales_name)]


def _attribute(node: Any, name: str, default: int) -> int:
    for attribute in node.attribute:
        if attribute.name == name:
            return int(attribute.i)
    return default


def _replace_nodes(graph: Any, replaced: dict[int, list[Any]], dropped: set[int]) -> None:
    """Each consumer gives way to its replacement in place (the graph stays topologically sorted)."""
    nodes: list[Any] = []
    for node in graph.node:
        if id(node) in replaced:
            nodes += replaced[id(node)]
        elif id(node) not in dropped:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)


def _keep_used_initializers(graph: Any, added: list[Any]) -> None:
    used = {name for node in graph.node for name in node.input}
    kept = [tensor for tensor in [*graph.initializer, *added] if tensor.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
