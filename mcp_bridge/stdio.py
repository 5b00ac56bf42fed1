"""`memvault mcp`: what MCP clients spawn. Relay to the daemon when it answers, else serve from the store.

Start-up cost matters (every client start pays it), so nothing heavy is imported
until it is needed: the relay path imports only the standard library and the
store's folder rules; the MCP SDK, the store driver and the server code load
only on the embedded path. stdout carries JSON-RPC and nothing else; logs go to
stderr and `MEMVAULT_HOME/logs/mcp.log`.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import sys
from pathlib import Path

from memvault.core.runtime.paths import VaultPaths
from memvault.mcp_bridge import relay

log = logging.getLogger("memvault.bridge")

LOG_BYTES = 1024 * 1024
LOG_BACKUPS = 3


def setup_logging(paths: VaultPaths, filename: str, *, verbose: bool = False) -> None:
    """Log to stderr (warnings, or everything with `verbose`) and to a private, rotated file in logs/."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler(sys.stderr))
    for handler in root.handlers:
        handler.setLevel(logging.INFO if verbose else logging.WARNING)
    root.setLevel(logging.INFO)
    if not paths.home.is_dir():
        return
    try:
        paths.logs.mkdir(mode=0o700, exist_ok=True)
        target = paths.logs / filename
        if not target.exists():
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        handler = logging.handlers.RotatingFileHandler(target, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS)
    except OSError as exc:
        log.warning("no log file (%s); logging to stderr only", exc.strerror)
        return
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"))
    handler.setLevel(logging.INFO)
    root.addHandler(handler)


def run(home: str | os.PathLike[str] | None = None, *, verbose: bool = False, embedded_only: bool = False) -> int:
    """Serve one MCP session on this process's stdio; returns when the client closes stdin."""
    paths = VaultPaths.from_env(home)
    setup_logging(paths, "mcp.log", verbose=verbose)
    if not embedded_only:
        sock = relay.connect(relay.DaemonAddress.for_home(paths.home))
        if sock is not None:
            log.info("bridge: relaying to the daemon")
            sent = relay.pipe(sock, sys.stdin.fileno(), sys.stdout.fileno())
            log.info("bridge: relay closed after %d bytes to the client", sent)
            return 0
    return run_embedded(paths.home)


def run_embedded(home: Path) -> int:
    """No daemon: open the store in this process and serve as the local assistant."""
    log.info("bridge: no daemon answered; serving from the store")
    # Until the MCP transport owns stdout, anything a library prints goes to stderr, never onto the wire.
    with contextlib.redirect_stdout(sys.stderr):
        from memvault.core.vocabulary.model import LOCAL_ASSISTANT  # noqa: PLC0415 - only the embedded path pays for these
        from memvault.mcp_bridge.not_ready import open_or_explain, serve_not_ready  # noqa: PLC0415
        from memvault.mcp_bridge.readiness import NotReady  # noqa: PLC0415
        from memvault.mcp_bridge.server import run_stdio  # noqa: PLC0415

        opened = open_or_explain(home)
    if isinstance(opened, NotReady):
        # No store yet, locked, or too new: the session still starts and every call says what to run.
        log.warning("bridge: the store cannot be opened (%s): answering not_ready", opened.reason)
        return serve_not_ready(home, LOCAL_ASSISTANT, opened)
    with opened:
        run_stdio(opened, LOCAL_ASSISTANT)
        opened.serving.settle()  # the last add's embedding, still on its thread, lands before the store closes
    log.info("bridge: session ended")
    return 0
