"""Start memvault's MCP server exactly as a client will, and ask it for `memory_status`.

After `memvault install codex|claude` writes a registration, this reads it back from the
client's own config file (command, arguments, environment, working folder) and spawns
the server the way that client does, through the official MCP client: Codex passes only
a short list of variables plus the names in `env_vars` and the values in `env`; Claude
Code passes its whole environment plus `env`. What a person would otherwise first see
as "handshaking with MCP server failed" shows up here, with the command that fixes it.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from typing import Any

from memvault.desktop import clients

# What Codex passes to every MCP server it spawns on Linux and macOS (its DEFAULT_ENV_VARS).
CODEX_BASE_ENV = (
    *("HOME", "LOGNAME", "PATH", "SHELL", "USER", "__CF_USER_TEXT_ENCODING"),
    *("LANG", "LC_ALL", "TERM", "TMPDIR", "TZ"),
)
CODEX_STARTUP_TIMEOUT = 10.0  # Codex's default `startup_timeout_sec`
CHECK_TIMEOUT = 60.0  # our own patience: a loaded machine can take longer than the client would wait


@dataclass(frozen=True)
class Launch:
    """How a client will start the server it has registered as `memvault`."""

    client: str
    command: str
    args: tuple[str, ...]
    env: dict[str, str] = field(repr=False)
    cwd: str | None = None
    startup_timeout: float = CODEX_STARTUP_TIMEOUT


@dataclass
class CheckResult:
    ready: bool
    seconds: float
    status: dict[str, Any] | None = None  # memory_status's answer, when the server answered
    problem: str | None = None  # what went wrong, for people
    command: str | None = None  # the one command that fixes it, when the server named one

    def as_dict(self) -> dict[str, Any]:
        return {
            "ready": self.ready,
            "seconds": round(self.seconds, 2),
            "status": self.status,
            "problem": self.problem,
            "command": self.command,
        }


def registered_launch(client: str, environ: dict[str, str] | None = None) -> Launch | None:
    """The launch the client's config file holds for `memvault`, or None when nothing is registered."""
    environ = dict(os.environ if environ is None else environ)
    if client == "codex":
        text = clients.read_text(clients.codex_config())
        entry = tomllib.loads(text).get("mcp_servers", {}).get(clients.SERVER_NAME) if text else None
        return None if not isinstance(entry, dict) else codex_launch(entry, environ)
    text = clients.read_text(clients.claude_config())
    entry = json.loads(text).get("mcpServers", {}).get(clients.SERVER_NAME) if text else None
    return None if not isinstance(entry, dict) else claude_launch(entry, environ)


def codex_launch(entry: dict[str, Any], environ: dict[str, str]) -> Launch:
    names = [*CODEX_BASE_ENV, *entry.get("env_vars", [])]
    env = {name: environ[name] for name in names if name in environ}
    env.update({str(k): str(v) for k, v in entry.get("env", {}).items()})
    timeout = float(entry.get("startup_timeout_sec", CODEX_STARTUP_TIMEOUT))
    return Launch("codex", entry["command"], tuple(entry.get("args", [])), env, entry.get("cwd"), timeout)


def claude_launch(entry: dict[str, Any], environ: dict[str, str]) -> Launch:
    env = {**environ, **{str(k): str(v) for k, v in entry.get("env", {}).items()}}
    return Launch("claude", entry["command"], tuple(entry.get("args", [])), env)


def check(launch: Launch, timeout: float = CHECK_TIMEOUT) -> CheckResult:
    """Spawn the server as `launch` says, complete the handshake, ask for memory_status."""
    import anyio  # noqa: PLC0415 - the MCP client is loaded only for the check
    import mcp.client.stdio  # noqa: F401, PLC0415 - loaded before the clock starts: the client pays this, not the server

    started = time.perf_counter()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            status = anyio.run(_ask_status, launch, errlog, timeout)
        except Exception as exc:  # the server failed to start or answer: that is the finding
            errlog.seek(0)
            tail = errlog.read()[-600:].strip()
            problem = f"the server did not answer ({type(exc).__name__})" + (f": {tail}" if tail else "")
            return CheckResult(False, time.perf_counter() - started, problem=problem)
    return _judge(status, time.perf_counter() - started, launch)


async def _ask_status(launch: Launch, errlog: Any, timeout: float) -> dict[str, Any]:
    import anyio  # noqa: PLC0415
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415

    params = StdioServerParameters(command=launch.command, args=list(launch.args), env=launch.env, cwd=launch.cwd)
    with anyio.fail_after(timeout):
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("memory_status", {})
    if result.is_error or not isinstance(result.structured_content, dict):
        text = "".join(getattr(block, "text", "") for block in result.content)
        return {"error": json.loads(text).get("error", {}) if text.startswith("{") else {"message": text}}
    return result.structured_content


def _judge(status: dict[str, Any], seconds: float, launch: Launch) -> CheckResult:
    if "error" in status:
        return CheckResult(False, seconds, problem=str(status["error"].get("message", "memory_status failed")))
    if status.get("ready") is False:
        not_ready = status.get("not_ready", {})
        return CheckResult(False, seconds, status, not_ready.get("message"), not_ready.get("command"))
    result = CheckResult(True, seconds, status)
    if seconds > launch.startup_timeout:
        result.problem = (
            f"it took {seconds:.1f} s to answer; {launch.client} waits {launch.startup_timeout:.0f} s at start "
            "(`memvault daemon` makes every start fast)"
        )
    return result
