"""A force-directed graph layout (Fruchterman-Reingold), vectorised with numpy.

Every pair of nodes repels (k²/d), every edge attracts (d²/k), a weak pull towards the centre
keeps separate components on screen, and a temperature that cools linearly caps each step.
Repulsion is computed in row blocks so 2,000 nodes need a few MB, not a full n*n*2 array.
Pure numpy, no Qt: it runs on a worker thread and is tested on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

Positions = npt.NDArray[np.float64]
EdgeArray = npt.NDArray[np.int64]

SPACING = 48.0  # the ideal edge length k, in scene units
BLOCK = 512  # rows of the repulsion matrix computed at once
GRAVITY = 0.02  # pull towards the centre, relative to the attraction of one edge


def frame_side(n: int, spacing: float = SPACING) -> float:
    """The side of the square the layout fills: about `spacing` of room per node."""
    return spacing * max(1.0, float(np.sqrt(n))) * 1.6


def _repulsion(pos: Positions, k: float) -> Positions:
    """Σ k²·Δ/|Δ|² over every other node; float32 and x/y apart keep it memory-light and quick."""
    x, y = pos[:, 0].astype(np.float32), pos[:, 1].astype(np.float32)
    push = np.zeros_like(pos)
    for start in range(0, len(pos), BLOCK):
        dx = x[start : start + BLOCK, None] - x[None, :]
        dy = y[start : start + BLOCK, None] - y[None, :]
        weight = dx * dx
        weight += dy * dy
        np.maximum(weight, np.float32(1e-2), out=weight)
        np.divide(np.float32(k * k), weight, out=weight)
        push[start : start + BLOCK, 0] = np.einsum("ij,ij->i", dx, weight)
        push[start : start + BLOCK, 1] = np.einsum("ij,ij->i", dy, weight)
    return push


def _attraction(pos: Positions, edges: EdgeArray, k: float) -> Positions:
    pull = np.zeros_like(pos)
    if len(edges):
        delta = pos[edges[:, 0]] - pos[edges[:, 1]]
        force = delta * (np.sqrt((delta**2).sum(axis=1)) / k)[:, None]
        np.add.at(pull, edges[:, 0], -force)
        np.add.at(pull, edges[:, 1], force)
    return pull


def _start_from(
    pos: Positions, known: Mapping[int, tuple[float, float]], pairs: EdgeArray, rng: np.random.Generator, spacing: float
) -> None:
    """Known nodes where they were; a new node beside a known neighbour (else where chance put it)."""
    for index, xy in known.items():
        pos[index] = xy
    for a, b in pairs.tolist():
        for new, old in ((a, b), (b, a)):
            if new not in known and old in known:
                pos[new] = pos[old] + rng.normal(0, spacing / 2, 2)


def layout(
    n: int,
    edges: EdgeArray | Sequence[tuple[int, int]],
    *,
    known: Mapping[int, tuple[float, float]] | None = None,
    iterations: int = 60,
    seed: int = 7,
    spacing: float = SPACING,
    stop: threading.Event | None = None,
) -> Positions:
    """Positions (n x 2) centred on the origin for nodes 0..n-1 joined by `edges` (m x 2 node indices).

    `known` holds positions from an earlier layout (e.g. before a record was added): those nodes
    start there and the layout only settles, cooler and shorter, so the picture does not jump.
    `stop`, once set, ends the work after the current step (the app is quitting; the result is dropped).
    """
    if n == 0:
        return np.zeros((0, 2))
    side = frame_side(n, spacing)
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-side / 2, side / 2, size=(n, 2))
    heat = side / 8
    pairs = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    if known:
        _start_from(pos, known, pairs, rng, spacing)
        heat, iterations = spacing / 4, max(10, iterations // 4)
    k = spacing
    for step in range(iterations):
        if stop is not None and stop.is_set():
            break
        temperature = heat * (1 - step / iterations) + spacing / 20
        move = _repulsion(pos, k) + _attraction(pos, pairs, k) - pos * (GRAVITY * np.hypot(*pos.T) / k)[:, None]
        length = np.maximum(np.hypot(*move.T), 1e-9)
        pos += move * (np.minimum(length, temperature) / length)[:, None]
        np.clip(pos, -side, side, out=pos)
    centred: Positions = pos - pos.mean(axis=0) if not known else pos
    return centred


def grid_beside(placed: Positions, count: int, spacing: float = SPACING) -> Positions:
    """Positions (count x 2) for nodes with no links: a tidy block right of the `placed` nodes, not a ring
    the force layout would fling them into."""
    if count == 0:
        return np.zeros((0, 2))
    columns = max(1, int(np.ceil(np.sqrt(count))))
    left = (placed[:, 0].max() + spacing * 2) if len(placed) else 0.0
    top = placed[:, 1].min() if len(placed) else 0.0
    index = np.arange(count)
    block: Positions = np.column_stack(
        (left + (index % columns) * spacing * 0.8, top + (index // columns) * spacing * 0.8)
    ).astype(np.float64)
    return block
