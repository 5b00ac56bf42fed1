"""Where memvault keeps things: one folder (MEMVAULT_HOME) holding the store and its companions."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

STORE_FILE = "memvault.db"
KEY_FILE = "memvault.key.json"


def default_home() -> Path:
    """Where memvault keeps its folder when neither --home nor MEMVAULT_HOME says otherwise."""
    return Path(platformdirs.user_data_dir("memvault")).expanduser().resolve()


def demo_home() -> Path:
    """Where `memvault demo` (and the app's "try the demo") keeps the fictional demo store."""
    return Path(platformdirs.user_data_dir("memvault-demo"))


@dataclass(frozen=True)
class VaultPaths:
    home: Path

    @classmethod
    def from_env(cls, home: str | os.PathLike[str] | None = None) -> VaultPaths:
        chosen = home or os.environ.get("MEMVAULT_HOME")
        return cls(Path(chosen).expanduser().resolve() if chosen else default_home())

    @property
    def store(self) -> Path:
        return self.home / STORE_FILE

    @property
    def key_file(self) -> Path:
        return self.home / KEY_FILE

    @property
    def exports(self) -> Path:
        return self.home / "exports"

    @property
    def backups(self) -> Path:
        return self.home / "backups"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def imports(self) -> Path:
        return self.home / "imports"

    def ensure(self) -> None:
        """Create the folders private to the user (0700), tightening existing ones."""
        for folder in (self.home, self.exports, self.backups, self.logs, self.imports):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
