"""Measure how many copies of a purged record's words stay in a long-lived process's memory.

    python tests/bench/bench_purge_memory.py [--seed N] [--ops 30] [--purge-elsewhere] [--where] [--json]

A script, not a test (tests/maintenance/test_purge_leaves_memory.py runs it in a subprocess). This
process plays a long-lived server: a vault in a fresh fictional home (or --home), serving started,
a few fictional records; it adds one record holding a made-up word, searches for it, purges it
(here, or with --purge-elsewhere from another process, as `memvault purge` does beside a daemon),
then searches for something else and does --ops more operations. At each step it counts the
word's occurrences in its own memory: every readable region of /proc/self/maps, read through
/proc/self/mem. It prints the counts: before the purge, right after it, after the next search,
after the other operations. Linux only.

The word is generated from --seed in this process, into buffers whose own addresses are left out
of the count, so no constant of this file counts. Counted: the word as written (capitalised), its
lower-case form (what the word index keeps), and, apart, its last letters (an FTS5 leaf keeps a
term after the prefix it shares with the one before). --where shows where each copy is.

With allocators that overwrite what they free (PYTHONMALLOC=malloc
GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.perturb=165), a copy counted is one still
held (a cache, a statement, a page); with the ordinary ones, freed memory not yet reused counts too.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("MEMVAULT_PASSPHRASE", "fictional benchmark passphrase")
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
os.environ.pop("MEMVAULT_WRITE_MODE", None)

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import PurgeRequest
from memvault.core.vocabulary.search_request import SearchRequest

LETTERS = 12
TAIL = 9
CHUNK = 1 << 20
FILLER = (
    "Fictional: the allotment beds face south",
    "Fictional: prefers oolong in the afternoon",
    "Fictional: chose cedar planks for the raised beds",
    "Fictional: the choir rehearses on Thursday evenings",
    "Fictional: the kayak club meets at the quarry lake",
    "Fictional: the library renewal is due in March",
)
OPS = (
    "Fictional: the tram timetable changed in spring",
    "Fictional: the orchard needs pruning before the frost",
    "Fictional: the lantern festival is on the harbour",
)
STR_HEADER = sys.getsizeof("") - 1  # a compact ASCII str's characters follow its header
MAPS_LINE = re.compile(r"([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)")
# Purging from a process of its own, as `memvault purge` does beside a running daemon.
PURGE_ELSEWHERE = """
import sys
from memvault.core.vault import Vault
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import PurgeRequest
with Vault.open(sys.argv[1]) as vault:
    asked = vault.request_purge(OWNER, PurgeRequest.of(id=sys.argv[2], reason="privacy"))
    vault.confirm_purge(OWNER, asked["request_id"])
"""


class Needles:
    """The word's forms, held in buffers of their own (left out of every count), never as `str`."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.word = bytearray()
        self.word.append(ord("A") + rng.randrange(26))
        for _ in range(LETTERS - 1):
            self.word.append(ord("a") + rng.randrange(26))
        self.lower = bytearray(self.word)
        self.lower[0] += ord("a") - ord("A")
        self.tail = bytearray(self.word[-TAIL:])
        self.buffer = bytearray(CHUNK)
        self.own = [_span(b) for b in (self.word, self.lower, self.tail, self.buffer)]

    def text(self) -> str:
        return self.word.decode("ascii")

    def count(self, where: bool = False) -> dict[str, int]:
        """Occurrences of each form in this process's readable memory (the needles' own left out)."""
        found = {"word": 0, "lower": 0, "tail": 0}
        view = memoryview(self.buffer)
        overlap = len(self.word) - 1
        with open("/proc/self/maps") as maps:
            regions = maps.read().splitlines()
        with open("/proc/self/mem", "rb", buffering=0) as mem:
            for line in regions:
                parsed = MAPS_LINE.match(line)
                if parsed is None or not parsed.group(3).startswith("r") or parsed.group(4) == "[vvar]":
                    continue
                start, end = int(parsed.group(1), 16), int(parsed.group(2), 16)
                at = start
                while at < end:
                    size = min(CHUNK, end - at)
                    try:
                        mem.seek(at)
                        got = mem.readinto(view[:size]) or 0
                    except OSError:
                        break
                    last = at + got >= end
                    for name, needle in (("word", self.word), ("lower", self.lower), ("tail", self.tail)):
                        stop = got if last else got - overlap
                        i = self.buffer.find(needle, 0, got)
                        while 0 <= i < stop:
                            if not self._own(at + i):
                                found[name] += 1
                                if where:
                                    _describe(name, at + i, parsed.group(4), view, i)
                            i = self.buffer.find(needle, i + 1, got)
                    if last or got <= overlap:
                        break
                    at += got - overlap
        view[:] = bytes(len(view))  # the last chunk read holds copies
        return found

    def _own(self, address: int) -> bool:
        return any(lo <= address < hi for lo, hi in self.own)


def _span(buffer: bytearray) -> tuple[int, int]:
    address = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer))
    return address, address + len(buffer)


def _describe(name: str, address: int, region: str, view: memoryview, i: int) -> None:
    """One copy's place and surroundings, written raw from the read buffer (no Python copy of it:
    pipe stderr through `cat -v`). A copy that is a live `str` (its header names the type) says so."""
    header = bytes(view[i - STR_HEADER : i - STR_HEADER + 16]) if i >= STR_HEADER else b""
    refs, kind = int.from_bytes(header[:8], "little"), int.from_bytes(header[8:], "little")
    live = f" [a live str, {refs} references]" if len(header) == 16 and kind == id(str) and refs < 1 << 32 else ""
    sys.stderr.flush()
    os.write(2, f"  {name} at {address:#x} in {region or '[anon]'}{live}: ".encode())
    os.write(2, view[max(0, i - 48) : i + 64])
    os.write(2, b"\n")


def _settled(vault: Vault) -> None:
    vault.serving.settle()
    vault.ctx.write_queued()
    gc.collect()


def run(home: Path, seed: int, ops: int, elsewhere: bool, where: bool) -> dict[str, Any]:
    needles = Needles(seed)
    counts: dict[str, dict[str, int]] = {}

    def measure(step: str) -> None:
        if where:
            print(f"{step}:", file=sys.stderr)
        counts[step] = needles.count(where)

    with Vault.open(home, create=True) as vault:
        for statement in FILLER:  # before serving starts: the writer's detectors load here, not on a thread
            vault.add(OWNER, Draft.of(statement=statement))
        vault.serving.start()
        vault.serving.warm(LOCAL_ASSISTANT)
        statement = f"Fictional: the ferry to {needles.text()} leaves at dawn"
        target = str(vault.add(OWNER, Draft.of(statement=statement))["id"])
        query = f"when does the ferry to {needles.text()} leave"
        vault.serving.expect_search(query)
        vault.search(LOCAL_ASSISTANT, SearchRequest.of(query=query))
        del statement, query
        _settled(vault)
        measure("before")
        started = time.perf_counter()
        if elsewhere:
            subprocess.run([sys.executable, "-c", PURGE_ELSEWHERE, str(home), target], check=True)
        else:
            asked = vault.request_purge(OWNER, PurgeRequest.of(id=target, reason="privacy"))
            vault.confirm_purge(OWNER, asked["request_id"])
        purge_ms = (time.perf_counter() - started) * 1000
        _settled(vault)
        measure("after_purge")
        started = time.perf_counter()
        vault.search(LOCAL_ASSISTANT, SearchRequest.of(query="when does the choir rehearse"))
        next_search_ms = (time.perf_counter() - started) * 1000
        _settled(vault)
        measure("after_next_search")
        for n in range(ops):
            if n % 3 == 0:
                vault.add(OWNER, Draft.of(statement=f"{OPS[n // 3 % len(OPS)]} (note {n})"))
            else:
                vault.search(LOCAL_ASSISTANT, SearchRequest.of(query=f"what about the {FILLER[n % 6].split()[-1]}"))
        if ops:
            _settled(vault)
            measure(f"after_{ops}_ops")
    return {
        "counts": counts,
        "purge_ms": round(purge_ms, 1),
        "next_search_ms": round(next_search_ms, 1),
        "purged_by": "another process" if elsewhere else "this one",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(1 << 30))
    parser.add_argument("--home", type=Path, help="a memvault home to use (default: a fresh one)")
    parser.add_argument("--ops", type=int, default=30)
    parser.add_argument("--purge-elsewhere", action="store_true", help="purge from another process")
    parser.add_argument("--where", action="store_true", help="show where each copy is (stderr)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        print("Linux only: the count reads /proc/self/mem", file=sys.stderr)
        return 2
    home = args.home or Path(tempfile.mkdtemp(prefix="memvault-bench-purge-")) / "home"
    result = run(home, args.seed, args.ops, args.purge_elsewhere, args.where)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"purged by {result['purged_by']} in {result['purge_ms']} ms, next search {result['next_search_ms']} ms;"
            " occurrences (word / lower / tail):"
        )
        for step, found in result["counts"].items():
            print(f"  {step:<20} {found['word']:>3} {found['lower']:>3} {found['tail']:>3}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
