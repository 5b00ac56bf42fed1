"""The single-instance lock (core/runtime/instance_lock.py): a second process is refused while the
first holds it, reads what the holder recorded, and takes it once the holder is gone, however it ended."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memvault.core.runtime import instance_lock
from memvault.core.runtime.instance_lock import InstanceLock

# A holder in another process: takes the lock, records a line, says so, then holds it until its stdin ends.
HOLDER = """
import sys
from pathlib import Path
from memvault.core.runtime.instance_lock import InstanceLock
lock = InstanceLock.acquire(Path(sys.argv[1]))
if lock is None:
    print("refused", flush=True)
    raise SystemExit(0)
lock.record("4242\\nholder\\n")
print("held", flush=True)
sys.stdin.read()
if sys.argv[2] == "release":
    lock.release()
"""


def _holder(path: Path, ending: str = "release") -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), ending],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "held"
    return child


def _end(child: subprocess.Popen[str]) -> None:
    assert child.stdin is not None
    child.stdin.close()
    assert child.wait(30) == 0


def test_a_second_process_is_refused_while_the_first_holds_it(tmp_path: Path) -> None:
    path = tmp_path / "daemon.lock"
    child = _holder(path)
    try:
        assert instance_lock.held(path)
        assert InstanceLock.acquire(path) is None
        assert instance_lock.read_lines(path) == ["4242", "holder"]  # readable while held (Windows too: see the module)
        other = subprocess.run(
            [sys.executable, "-c", HOLDER, str(path), "release"], capture_output=True, text=True, timeout=30, check=True
        )
        assert other.stdout.strip() == "refused"
    finally:
        _end(child)
    assert not instance_lock.held(path)
    assert instance_lock.read_lines(path) == []  # released: no stale record
    lock = InstanceLock.acquire(path)
    assert lock is not None
    lock.release()


@pytest.mark.parametrize("ending", ["exit", "kill"])
def test_the_lock_goes_with_its_holder_however_it_ends(tmp_path: Path, ending: str) -> None:
    """A holder that exits without releasing, or is killed, leaves nothing that blocks the next one."""
    path = tmp_path / "daemon.lock"
    child = _holder(path, ending)
    if ending == "kill":
        child.kill()  # SIGKILL; TerminateProcess on Windows
        child.wait(30)
    else:
        _end(child)
    assert not instance_lock.held(path)
    lock = InstanceLock.acquire(path)
    assert lock is not None
    try:
        assert instance_lock.held(path)  # a probe through another descriptor is refused, in this process too
        lock.record("1\n")
        assert instance_lock.read_lines(path) == ["1"]
    finally:
        lock.release()


def test_the_file_is_private_and_the_probe_takes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "daemon.lock"
    assert not instance_lock.held(path) and not path.exists()  # probing creates nothing
    lock = InstanceLock.acquire(path)
    assert lock is not None
    lock.release()
    if sys.platform != "win32":
        assert os.stat(path).st_mode & 0o777 == 0o600
    for _ in range(2):  # a probe lets go of what it took
        assert not instance_lock.held(path)
    again = InstanceLock.acquire(path)
    assert again is not None
    again.release()
