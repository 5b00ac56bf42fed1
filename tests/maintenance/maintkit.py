"""Helpers for the maintenance tests: open any memvault file with the key and dump all of it.

A dump reads every real table of a database (FTS shadow tables included) with a
connection of its own that changes nothing, so a test can compare stores and
look for a marker's bytes in everything memvault keeps.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import sqlcipher3
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from memvault.core.runtime.paths import VaultPaths
from memvault.core.security import keys

# A fictional, distinctive marker. FTS leaves compress term prefixes, so tests look for its tail.
MARKER = "Quuxzorbmarker"
NEEDLE = b"zorbmarker"
SECRET_STATEMENT = f"Fictional: the {MARKER} lighthouse keeper retired in 1998 (made up for a test)"
DUMP_SKIPS = ("sqlite_stat",)


def store_key(home: Path) -> bytes:
    return keys.load_key(VaultPaths(home).key_file)


def open_db(path: Path, key: bytes) -> Any:
    conn = sqlcipher3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA cipher_log_level = NONE")
    conn.execute(f"PRAGMA key = \"x'{key.hex()}'\"")
    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return conn


def tables(conn: Any) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name"
    ).fetchall()
    return [r[0] for r in rows]


def dump_db(path: Path, key: bytes) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every real table, sorted (raises if the file does not open with `key`)."""
    conn = open_db(path, key)
    try:
        return {
            name: sorted((tuple(row) for row in conn.execute(f'SELECT * FROM "{name}"')), key=repr)
            for name in tables(conn)
        }
    finally:
        conn.close()


def as_bytes(data: dict[str, list[tuple[Any, ...]]]) -> bytes:
    parts = []
    for rows in data.values():
        for row in rows:
            for value in row:
                parts.append(value if isinstance(value, bytes) else str(value).encode())
    return b"\x00".join(parts)


def where_found(home: Path, key: bytes, extra: list[Path] = ()) -> list[str]:  # type: ignore[assignment]
    """Every file under `home` (and `extra`) whose content, decrypted where it is a store, holds NEEDLE.

    Databases are dumped table by table and every page is decrypted (free pages too); WAL frames
    are decrypted; every file's raw bytes are searched as well.
    Returns entries like 'backups/x.db:memory_fts_data' or 'exports/general.md'.
    """
    found = []
    files = sorted(p for p in home.rglob("*") if p.is_file()) + [p for p in extra if p.is_file()]
    for path in files:
        label = str(path.relative_to(home)) if path.is_relative_to(home) else str(path)
        raw = path.read_bytes()
        if NEEDLE in raw.lower():
            found.append(label)
        if path.name.endswith("-wal"):
            if NEEDLE in raw_wal_frames(path, key).lower():
                found.append(f"{label}:raw-frames")
            continue
        if path.name.endswith(("-shm", "-journal")):
            continue
        try:
            dumped = dump_db(path, key)
        except sqlcipher3.DatabaseError:
            continue
        if NEEDLE in raw_pages(path, key).lower():
            found.append(f"{label}:raw-pages")
        for table, rows in dumped.items():
            if NEEDLE in as_bytes({table: rows}).lower():
                found.append(f"{label}:{table}")
    return found


# SQLCipher 4 page layout (memvault's settings): AES-256-CBC over each page, a 16-byte salt in front of
# page 1, and a reserve of IV (16 bytes) + HMAC-SHA512 (64 bytes) at the end of every page.
PAGE_SIZE = 4096
RESERVE = 80
WAL_HEADER = 32
WAL_FRAME_HEADER = 24


def _decrypt_page(page: bytes, key: bytes, first: bool) -> bytes:
    body = page[16 if first else 0 : PAGE_SIZE - RESERVE]
    iv = page[PAGE_SIZE - RESERVE : PAGE_SIZE - RESERVE + 16]
    decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return decryptor.update(body) + decryptor.finalize()


def raw_pages(path: Path, key: bytes) -> bytes:
    """Every page of an encrypted database file decrypted, free pages and unused cell space included.

    Table dumps cannot see what a delete left in free pages; this can. Checked against the
    header SQLite writes on page 1 (page size 4096, 80 reserved bytes), so a wrong layout fails loudly.
    """
    data = path.read_bytes()
    if not data:
        return b""
    first = _decrypt_page(data[:PAGE_SIZE], key, True)
    assert first[:2] == PAGE_SIZE.to_bytes(2, "big") and first[4] == RESERVE, "unexpected SQLCipher page layout"
    pages = [first] + [
        _decrypt_page(data[i : i + PAGE_SIZE], key, False) for i in range(PAGE_SIZE, len(data), PAGE_SIZE)
    ]
    return b"".join(pages)


def raw_wal_frames(path: Path, key: bytes) -> bytes:
    """Every page image in a WAL file, decrypted (the WAL holds old versions of pages until it is truncated)."""
    data = path.read_bytes()
    frame = WAL_FRAME_HEADER + PAGE_SIZE
    out = []
    for start in range(WAL_HEADER, len(data) - frame + 1, frame):
        page_no = int.from_bytes(data[start : start + 4], "big")
        out.append(_decrypt_page(data[start + WAL_FRAME_HEADER : start + frame], key, page_no == 1))
    return b"".join(out)


def digests(home: Path) -> dict[str, str]:
    return {
        str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(home.rglob("*"))
        if p.is_file()
    }


def integrity_ok(path: Path, key: bytes) -> bool:
    conn = open_db(path, key)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def run_python(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def vocabulary(path: Path, key: bytes, table: str) -> set[str]:
    """Every term an FTS5 index of the store holds (deleted-but-unmerged entries included)."""
    conn = open_db(path, key)
    try:
        conn.execute(f"CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, {table}, 'row')")
        return {str(row[0]) for row in conn.execute("SELECT term FROM temp.vocab")}
    finally:
        conn.close()
