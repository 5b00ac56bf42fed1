"""Layer boundaries, checked by parsing imports: core knows no Qt and no MCP; mcp_bridge knows no desktop."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "core": ("PySide6", "mcp", "memvault.mcp_bridge", "memvault.desktop", "sqlite3", "sqlcipher3"),
    "mcp_bridge": ("PySide6", "memvault.desktop", "sqlcipher3", "sqlite3"),
    "desktop": ("sqlcipher3", "sqlite3"),
}
# The one module that opens connections may import the driver (and sqlite3 for its type hints).
DRIVER_ALLOWED = {Path("core/store/connection.py")}


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def sources(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer: str) -> None:
    offences = []
    for path in sources(layer):
        for module in imported_modules(path):
            for banned in FORBIDDEN[layer]:
                if path.relative_to(ROOT) in DRIVER_ALLOWED and banned in ("sqlite3", "sqlcipher3"):
                    continue
                if module == banned or module.startswith(banned + "."):
                    offences.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offences == []


def test_repository_imports_go_through_the_memvault_namespace() -> None:
    """`import core` from the repo root would load a second copy of the package."""
    offences = []
    for layer in ("core", "mcp_bridge", "desktop", "tests"):
        for path in sources(layer):
            for module in imported_modules(path):
                if module.split(".")[0] in ("core", "mcp_bridge", "desktop"):
                    offences.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offences == []


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtWidgets import QWidget\nimport mcp.server\n")
    assert imported_modules(bad) == ["PySide6.QtWidgets", "mcp.server"]


# SQL is written in capitals here: statements, and the transaction words alone in a string.
SQL_TEXT = re.compile(
    r"\b(SELECT\b.+\bFROM|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|PRAGMA\s+\w+|ATTACH\s+DATABASE"
    r"|CREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL))\b"
    r"|^\s*(BEGIN|COMMIT|ROLLBACK|VACUUM)\b[A-Z ]*;?\s*$",
    re.DOTALL,
)
DRIVER_CALLS = {"execute", "executemany", "executescript"}


def sql_offences(path: Path, root: Path = ROOT) -> list[str]:
    """Calls of the driver's execute methods and string constants that are SQL statements."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DRIVER_CALLS:
            found.append(f"{path.relative_to(root)}:{node.lineno} calls {node.func.attr}()")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and SQL_TEXT.search(node.value)
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno} holds SQL")
    return found


def test_sql_lives_only_in_core_store() -> None:
    offences = []
    for layer in ("core", "mcp_bridge", "desktop"):
        for path in sources(layer):
            if path.is_relative_to(ROOT / "core" / "store"):
                continue
            offences += sql_offences(path)
    assert offences == []


def test_the_sql_checker_sees_sql(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('"""Docstring: SELECT x FROM y is prose here."""\nconn.execute("SELECT id FROM memories")\n')
    assert sorted(line.split(" ", 1)[1] for line in sql_offences(bad, tmp_path)) == ["calls execute()", "holds SQL"]


def test_qt_lives_only_in_the_gui_folder() -> None:
    """PySide6 only under desktop/gui/: the CLI, the daemon and `memvault mcp` start without Qt."""
    gui = ROOT / "desktop" / "gui"
    offences = []
    for layer in ("core", "mcp_bridge", "desktop"):
        for path in sources(layer):
            if path.is_relative_to(gui):
                continue
            offences += [
                f"{path.relative_to(ROOT)} imports {m}" for m in imported_modules(path) if m.split(".")[0] == "PySide6"
            ]
    assert offences == []


def test_the_gui_never_reaches_the_store_directly() -> None:
    """desktop/gui goes through Vault: no store modules, no driver, no SQL of its own."""
    offences = []
    for path in sorted((ROOT / "desktop" / "gui").rglob("*.py")):
        for module in imported_modules(path):
            if module.startswith(("memvault.core.store", "memvault.core.store.context")):
                offences.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offences == []
