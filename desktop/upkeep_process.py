"""The daemon's upkeep in a short-lived child process: the daily backup, domain upkeep, consolidation,
then merging the word index's segments (core/maintenance/word_index.py); and, in a pass of its own,
the dry runs of exports dropped into imports/inbox (core/importers/watched_folder.py).

On 10,000 records a pass reads every record, clusters and judges them: ~90 MB at its peak and up to
minutes of CPU. In the daemon's own process (the app) that peak stayed resident for the process's
whole life, and the work held the GIL the sessions and the window need; a child gives it all back
when it exits.

- The key: the daemon writes the store's raw key to the child's stdin, a pipe only the two hold
  (argv and the environment can be read by the person's other processes). The child opens the store
  with it (`Vault.with_key`): no KDF, no keyring, no passphrase prompt. The same line may go on, after
  a space, with a JSON object naming the jobs (`{"jobs": ["inbox"], "paths": [...]}`); without it the
  child runs the hourly jobs.
- Dropped exports: reading a large export and judging its candidates takes memory and minutes of CPU,
  and in the daemon it held the store's lock (every session's call waited). The daemon only watches
  the folder and runs an `inbox` pass here for the files dropped; its sessions never wait for it.
- Stopping: the daemon's stop sends SIGTERM (on Windows, where `terminate` ends a process at once,
  it closes the child's stdin instead, which the child takes as below); the child raises SystemExit
  at its next Python instruction, so an open transaction rolls back. The backup alone is let finish
  first: its file and its row in `backups` (which a later purge follows) must not be parted, and an
  interrupted export would leave a file the store does not know. After STOP_GRACE_S the child is
  killed; SQLite then discards an open transaction at the next open. Every job writes in transactions.
- When the daemon dies without stopping it, the child's stdin ends and it stops as on SIGTERM.
- The jobs run as the owner's housekeeping (HOUSEKEEPER) and read the settings from the store, as
  they did inside the daemon: the kill switch, which stops assistants, does not stop them.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from memvault.core.runtime.paths import VaultPaths
from memvault.core.vocabulary.model import HOUSEKEEPER, Caller
from memvault.desktop.self_command import this_memvault
from memvault.mcp_bridge.stdio import setup_logging

if TYPE_CHECKING:
    from anyio.abc import Process

    from memvault.core.vault import Vault

log = logging.getLogger("memvault.daemon")

UPKEEP_FLAG = "--upkeep"  # `memvault daemon --upkeep`: the child's command (hidden from --help)
# Windows has no SIGHUP (a closed terminal); Ctrl+Break in a console is SIGBREAK there.
if sys.platform == "win32":
    STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGBREAK)
else:
    STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STOP_GRACE_S = 10.0  # after SIGTERM, how long the child may take to finish a backup, roll back, close
STOPPED = 3  # the child's exit code when it was stopped before it finished
HOURLY = ("backup", "domains", "consolidation", "word index")
INBOX = "inbox"  # the dry runs of dropped exports (a pass of its own, when files arrive)


async def run_upkeep(
    paths: VaultPaths, key: bytes, jobs: Sequence[str] = HOURLY, inbox_paths: Sequence[str] | None = None
) -> int:
    """One upkeep pass in a child process; returns its exit code. Cancelled, it stops the child first.
    `inbox_paths`: for the inbox job, the dropped files (None: every file in the inbox)."""
    import anyio  # noqa: PLC0415 - the daemon's imports stay out of the CLI's start-up

    command = [*this_memvault(), "--home", str(paths.home), "daemon", UPKEEP_FLAG]
    process = await anyio.open_process(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=None)
    try:
        assert process.stdin is not None
        request = "" if tuple(jobs) == HOURLY else " " + json.dumps({"jobs": list(jobs), "paths": inbox_paths})
        await process.stdin.send(key.hex().encode() + request.encode() + b"\n")
        return await process.wait()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)
            await process.aclose()


async def _stop(process: Process) -> None:
    """SIGTERM, a grace period to roll back and close, then SIGKILL."""
    import anyio  # noqa: PLC0415

    if process.returncode is not None:
        return
    if sys.platform == "win32":  # terminate() is TerminateProcess there: no rollback, a backup cut short
        if process.stdin is not None:
            await process.stdin.aclose()  # the child stops as when the daemon goes
    else:
        process.terminate()
    with anyio.move_on_after(STOP_GRACE_S):
        await process.wait()
    if process.returncode is None:
        log.warning("daemon: the upkeep process did not stop within %.0f s; killed", STOP_GRACE_S)
        process.kill()
        await process.wait()


# -- the child ---------------------------------------------------------------------------------
def child(home: str | os.PathLike[str] | None) -> int:
    """`memvault daemon --upkeep`: read the key from stdin, run each job once, exit."""
    from memvault.core.vault import Vault  # noqa: PLC0415

    paths = VaultPaths.from_env(home)
    setup_logging(paths, "daemon.log")
    stops = StopSignals()
    stops.install()
    log.info("daemon: upkeep process %d started", os.getpid())
    try:
        key, jobs, inbox_paths = _request(sys.stdin.buffer.readline())
        if not key:
            log.error("daemon: the upkeep process got no key; nothing done")
            return STOPPED
        threading.Thread(target=_stop_when_the_daemon_goes, name="memvault-upkeep-parent", daemon=True).start()
        with Vault.with_key(paths, key) as vault:
            _run_jobs(vault, stops, jobs, inbox_paths)
    except SystemExit:
        log.info("daemon: upkeep stopped before it finished")
        return STOPPED
    what = "upkeep" if jobs == HOURLY else f"{', '.join(jobs)} pass"  # "upkeep done" means the hourly pass
    peak = _peak_mb()
    log.info(
        "daemon: %s done (process %d, peak %s)", what, os.getpid(), "not measured" if peak is None else f"{peak:.0f} MB"
    )
    return 0


def _run_jobs(vault: Vault, stops: StopSignals, jobs: Sequence[str], inbox_paths: list[str] | None) -> None:
    table: list[tuple[str, Callable[[Caller], object]]] = [
        ("backup", vault.scheduled_backup),
        ("domains", vault.maintain_domains),
        ("consolidation", vault.consolidation.scheduled),
        # each dropped file's dry run reads it in the child; its proposal is one short transaction
        (INBOX, lambda caller: vault.imports.stage_inbox(caller, inbox_paths)),
        ("word index", vault.tidy_word_index),  # last: after the pass's own writes
    ]
    for name, job in table:
        if name not in jobs:
            continue
        if name == "backup":  # its file and its row are never parted
            with stops.deferred():
                _run_job(name, job)
        else:
            _run_job(name, job)


def _request(line: bytes) -> tuple[bytes, tuple[str, ...], list[str] | None]:
    """The key, the jobs and the inbox's files from the daemon's one line (`KEYHEX[ {json}]`)."""
    text = line.decode("utf-8").strip()
    key_hex, _, spec = text.partition(" ")
    request = json.loads(spec) if spec else {}
    paths = request.get("paths")
    return bytes.fromhex(key_hex), tuple(request.get("jobs") or HOURLY), None if paths is None else list(paths)


def _peak_mb() -> float | None:
    """This process's peak resident size (Windows: its peak working set), or None when not told."""
    if sys.platform == "win32":
        return _peak_working_set_mb()
    import resource  # noqa: PLC0415 - POSIX only

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes on macOS, KiB elsewhere


if sys.platform == "win32":

    def _peak_working_set_mb() -> float | None:
        """`PeakWorkingSetSize` of PROCESS_MEMORY_COUNTERS (psapi.h), through kernel32."""
        import ctypes  # noqa: PLC0415
        from ctypes import wintypes  # noqa: PLC0415

        class Counters(ctypes.Structure):
            _fields_ = [
                ("cb", wintypes.DWORD),
                ("PageFaultCount", wintypes.DWORD),
                ("PeakWorkingSetSize", ctypes.c_size_t),
                ("WorkingSetSize", ctypes.c_size_t),
                ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPagedPoolUsage", ctypes.c_size_t),
                ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
                ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                ("PagefileUsage", ctypes.c_size_t),
                ("PeakPagefileUsage", ctypes.c_size_t),
            ]

        try:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            current = kernel32.GetCurrentProcess
            current.restype = wintypes.HANDLE
            memory_info = kernel32.K32GetProcessMemoryInfo
            memory_info.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
            memory_info.restype = wintypes.BOOL
            counters = Counters()
            counters.cb = ctypes.sizeof(Counters)
            if not memory_info(current(), ctypes.byref(counters), counters.cb):
                return None
        except (OSError, AttributeError):
            return None
        peak: int = counters.PeakWorkingSetSize
        return peak / (1024 * 1024)


def _run_job(name: str, job: Callable[[Caller], object]) -> None:
    try:
        job(HOUSEKEEPER)
    except Exception as exc:  # the next job still runs; the type only (a message could quote a record)
        log.error("daemon: %s upkeep failed: %s", name, type(exc).__name__)


class StopSignals:
    """SIGTERM, SIGINT and SIGHUP raise SystemExit where the child is, except inside `deferred()`,
    whose end then raises it."""

    def __init__(self) -> None:
        self._deferring = False
        self._pending = False

    def install(self) -> None:
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._on_signal)

    @contextmanager
    def deferred(self) -> Iterator[None]:
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False
        if self._pending:
            self._stop()

    def _on_signal(self, signum: int, frame: Any) -> None:
        if self._deferring:
            self._pending = True
        else:
            self._stop()

    @staticmethod
    def _stop() -> None:
        """Unwind from wherever the jobs are: open transactions roll back."""
        for other in STOP_SIGNALS:  # a second signal must not interrupt that clean-up
            signal.signal(other, signal.SIG_IGN)
        raise SystemExit(STOPPED)


def _stop_when_the_daemon_goes() -> None:
    """The daemon holds our stdin open while it lives; its end means the daemon is gone.

    Read from the file descriptor, not `sys.stdin`: a thread blocked in the buffered reader holds
    its lock, and the interpreter's exit then aborts."""
    while os.read(sys.stdin.fileno(), 4096):
        pass
    if sys.platform == "win32":  # os.kill is TerminateProcess there; this runs the handler, as a signal would
        signal.raise_signal(signal.SIGTERM)
    else:
        os.kill(os.getpid(), signal.SIGTERM)
