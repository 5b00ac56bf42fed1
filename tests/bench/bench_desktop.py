"""Benchmark the desktop app on 10,000 fictional records: window ready, search as you type, opening a
record, panning a 2,000-node graph, and the app's memory with the embedding model loaded.

    python tests/bench/bench_desktop.py [--records 10000] [--home DIR] [--json]

A script, not a test. It fills a fresh encrypted store (or reuses `--home` when it holds one) with
generated fictional records, embeds them, then starts a child process that launches the app's main
window (the shell's `MainWindow` when present, else the three views) offscreen and measures:

- window ready: from the child's process start (interpreter, imports, unlock) to the first rows painted,
  and the same without the unlock (the passphrase's KDF; a keyring key or the running daemon skips it);
- search as you type: from each keystroke to the rows of that text painted (debounce included);
- opening a record: from choosing a row to its detail pane painted;
- graph: frame time while panning 2,000+ nodes (synchronous repaints after each scroll step);
- memory: resident set size after a semantic search has loaded the embedding model.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.pop("MEMVAULT_WRITE_MODE", None)

from bench_vault import PEOPLE, generate  # the same fictional records as the vault benchmark
from PySide6.QtCore import QEvent, QObject
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from memvault.core.drafts import Draft
from memvault.core.model import OWNER
from memvault.core.search_request import SearchRequest
from memvault.core.vault import Vault
from memvault.desktop.gui.operations import Operations
from memvault.desktop.gui.windows.graph import GraphView
from memvault.desktop.gui.windows.memories import MemoriesView

try:  # the shell's main window, when this checkout has it
    from memvault.desktop.gui.main_window import MainWindow
    from memvault.desktop.gui.tray import Tray
except ImportError:
    MainWindow = None

TYPED = ("kitchen worktop", "night train", "sourdough proof", "savings goal", "violin")
GRAPH_NODES = 2000


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(samples), "median_ms": round(statistics.median(samples), 1), "p95_ms": round(p95, 1)}


# -- the store ---------------------------------------------------------------------------------
def fill(home: Path, n: int, seed: int) -> dict[str, Any]:
    """Add n records lexically (fast), with entities and links for the graph, then embed them in batches."""
    rng = random.Random(seed)  # fictional data, not security
    started = time.perf_counter()
    os.environ["MEMVAULT_EMBEDDINGS"] = "off"
    ids: list[str] = []
    with Vault.open(home, create=True) as vault:
        for i, record in enumerate(generate(rng, n), start=1):
            record["entities"] = [p for p in PEOPLE if re.search(rf"\b{p}\b", record["statement"])][:1]
            if ids and i % 3 == 0:
                link_type = rng.choice(("relates_to", "depends_on"))
                record["links"] = [{"type": link_type, "target_id": rng.choice(ids[-300:])}]
            result = vault.add(OWNER, Draft.of(**record))
            if result["outcome"] == "added":
                ids.append(result["id"])
            if i % 2000 == 0:
                print(f"added {i}/{n}", file=sys.stderr)
        added = time.perf_counter() - started
        del os.environ["MEMVAULT_EMBEDDINGS"]
        embedded = vault.reindex(OWNER)
    embed_s = time.perf_counter() - started - added
    return {"added": len(ids), "add_s": round(added, 1), "embed_s": round(embed_s, 1), **embedded}


# -- the app, in a child process ---------------------------------------------------------------
def process_age_s() -> float:
    """Seconds since this process started (Linux: /proc), so "ready" counts start-up and imports."""
    ticks = os.sysconf("SC_CLK_TCK")
    started = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19]) / ticks
    return float(Path("/proc/uptime").read_text().split()[0]) - started


def rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024  # type: ignore[union-attr]


def opened(memories: MemoriesView) -> str | None:
    detail = memories.detail.detail
    return None if detail is None else str(detail.memory["id"])


def child(home: Path) -> dict[str, Any]:
    imported_s = process_age_s()  # interpreter start and imports (Qt, numpy, memvault)
    app = QApplication([])

    class Painted(QObject):
        """Notes when a widget was last painted."""

        at = 0.0

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                Painted.at = time.perf_counter()
            return False

    def wait(done: Callable[[], bool], seconds: float = 30) -> None:
        limit = time.perf_counter() + seconds
        while not done():
            if time.perf_counter() > limit:
                raise SystemExit("timed out waiting for the window")
            app.processEvents()
            time.sleep(0.0005)

    unlock_started = time.perf_counter()
    vault = Vault.open(home)
    unlock_s = time.perf_counter() - unlock_started
    ops = Operations(vault)
    if MainWindow is not None:
        window: Any = MainWindow(ops, Tray(ops))
        memories = window.pages["Memories"]
    else:
        window = memories = MemoriesView(ops)
    built = type(window).__name__
    window.show()
    painted = Painted()
    memories.table.viewport().installEventFilter(painted)
    wait(lambda: memories.model.rowCount() > 0 and Painted.at > 0)
    ready_s = process_age_s()

    search_ms = []
    for words in TYPED:
        memories.search.clear()
        wait(lambda: memories.shown_query is not None and memories.shown_query.text == "")
        for char in words:
            Painted.at = 0.0
            started = time.perf_counter()
            QTest.keyClick(memories.search, char)
            text = memories.search.text()
            wait(lambda t=text: memories.shown_query is not None and memories.shown_query.text == t and Painted.at > 0)
            search_ms.append((Painted.at - started) * 1000)

    open_ms = []
    detail_viewport = memories.detail.page.viewport()
    detail_viewport.installEventFilter(painted)
    for row in range(min(30, memories.filtered.rowCount())):
        Painted.at = 0.0
        started = time.perf_counter()
        memories.table.selectRow(row)
        wanted = memories.model.row_at(memories.filtered.mapToSource(memories.filtered.index(row, 0)).row())["id"]
        wait(lambda w=wanted: opened(memories) == w and Painted.at > 0)
        open_ms.append((Painted.at - started) * 1000)

    graph = GraphView(ops)
    graph.limit.setValue(GRAPH_NODES)
    graph.resize(1280, 800)
    graph.show()
    layout_started = time.perf_counter()
    graph.refresh()
    wait(lambda: graph.data is not None, seconds=300)
    layout_s = time.perf_counter() - layout_started
    canvas = graph.canvas
    canvas.zoom(4)  # close enough that panning moves over many nodes, edges and labels
    frame_ms = []
    bar = canvas.horizontalScrollBar()
    for step in range(120):
        bar.setValue(bar.minimum() + (step * 37) % max(1, bar.maximum() - bar.minimum()))
        started = time.perf_counter()
        canvas.viewport().repaint()
        frame_ms.append((time.perf_counter() - started) * 1000)

    vault.search(
        OWNER, SearchRequest.of(query="what did we decide about the billing pipeline")
    )  # loads the embedding model
    result = {
        "built": built,
        "imports_s": round(imported_s, 2),
        "unlock_s": round(unlock_s, 2),
        "window_ready_s": round(ready_s, 2),
        "window_ready_after_unlock_s": round(ready_s - unlock_s, 2),
        "search_as_you_type": summary(search_ms),
        "open_record": summary(open_ms),
        "graph": {
            "nodes": len(graph.data.kinds),
            "edges": len(graph.data.edges),
            "layout_s": round(layout_s, 1),
            "pan_frame": summary(frame_ms),
        },
        "rss_mb_with_model": round(rss_mb(), 1),
        "embeddings": vault.get_setting("embeddings"),
    }
    ops.shutdown()
    vault.close()
    return result


def machine() -> dict[str, Any]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())  # fmt: skip
    return {"cpu": cpu, "cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--home", type=Path, help="reuse (or keep) the store here instead of a temp folder")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)), flush=True)
        os._exit(0)  # measured and printed: skip tearing down Qt objects in garbage-collection order
    home = args.home or Path(tempfile.mkdtemp(prefix="memvault-bench-desktop-"))
    try:
        filled = {"reused": True} if (home / "memvault.db").exists() else fill(home, args.records, args.seed)
        done = subprocess.run(
            [sys.executable, __file__, "--child", str(home)], capture_output=True, text=True, timeout=1800, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"the app child failed: {done.stderr[-2000:]}")
        measured = json.loads(done.stdout.splitlines()[-1])
        report = {"machine": machine(), "records": args.records, "store": filled, **measured}
    finally:
        if not args.home:
            shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(json.dumps(report["machine"]))
    keys = ("built", "store", "imports_s", "unlock_s", "window_ready_s", "window_ready_after_unlock_s")
    for key in (*keys, "search_as_you_type", "open_record", "graph"):
        print(f"{key}: {report[key]}")
    print(f"rss_mb_with_model: {report['rss_mb_with_model']} (embeddings {report['embeddings']})")


if __name__ == "__main__":
    main()
