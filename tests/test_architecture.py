"""Layer boundaries, checked by parsing imports: core knows no Qt and no MCP; mcp_bridge knows no desktop; core's rooms
sit on floors; no module or room imports itself back through others."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "core": ("PySide6", "mcp", "memvault.mcp_bridge", "memvault.desktop", "sqlite3", "sqlcipher3", "psycopg"),
    "mcp_bridge": ("PySide6", "memvault.desktop", "sqlcipher3", "sqlite3", "psycopg"),
    "desktop": ("sqlcipher3", "sqlite3", "psycopg"),
}
DRIVERS = ("sqlite3", "sqlcipher3", "psycopg")
# Each engine's one module that opens connections may import its driver (sqlite3: for type hints).
DRIVER_ALLOWED = {Path("core/store/sqlcipher/connection.py"), Path("core/store/postgres/connection.py")}


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
                if path.relative_to(ROOT) in DRIVER_ALLOWED and banned in DRIVERS:
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


ENGINES = (ROOT / "core" / "store" / "sqlcipher", ROOT / "core" / "store" / "postgres")


SHARED_SQL = ROOT / "core" / "store" / "shared_sql.py"  # SQL both engines speak, written once


def in_an_engine(path: Path) -> bool:
    return path == SHARED_SQL or any(path.is_relative_to(engine) for engine in ENGINES)


def test_sql_lives_only_in_the_store_engines() -> None:
    """Above the seam (core/store/seam.py) nothing speaks a dialect; core/store's own modules neither."""
    offences = []
    for layer in ("core", "mcp_bridge", "desktop"):
        for path in sources(layer):
            if in_an_engine(path):
                continue
            offences += sql_offences(path)
    assert offences == []


ENGINE_PACKAGES = ("memvault.core.store.sqlcipher", "memvault.core.store.postgres")


def engine_reaches(path: Path, root: Path = ROOT) -> list[str]:
    """Imports of an engine's package from outside it."""
    return [
        f"{path.relative_to(root)} imports {module}"
        for module in imported_modules(path)
        if any(module == name or module.startswith(name + ".") for name in ENGINE_PACKAGES)
    ]


def test_only_the_engine_chooser_knows_the_engines() -> None:
    """Retrieval, the writer, the operations, the facade and the front ends hold a `Store` and never
    know which engine answers: only core/store/engines.py names one."""
    allowed = {ROOT / "core" / "store" / "engines.py"}
    offences = [
        hit
        for layer in ("core", "mcp_bridge", "desktop")
        for path in sources(layer)
        if not in_an_engine(path) and path not in allowed
        for hit in engine_reaches(path)
    ]
    assert offences == []


def test_the_engine_check_sees_a_reach(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from memvault.core.store.sqlcipher import memories\nfrom memvault.core.store.seam import Store\n")
    assert engine_reaches(bad, tmp_path) == ["bad.py imports memvault.core.store.sqlcipher"]


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


# Every import of our own modules, function-local and type-only ones included, resolved to the module
# it names (`from memvault.core import writes` names memvault.core.writes).
def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(["memvault", *(parts[:-1] if parts[-1] == "__init__" else parts)])


OUR_MODULES = {module_of(p): p for layer in ("core", "mcp_bridge", "desktop") for p in sources(layer)}


def our_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in OUR_MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named = {f"{node.module}.{alias.name}" for alias in node.names} & OUR_MODULES.keys()
            found |= named or ({node.module} & OUR_MODULES.keys())
    return found - {module_of(path)}


IMPORTS = {module: our_imports(path) for module, path in OUR_MODULES.items()}

# The floors of core, lowest first. A room imports only from its own floor and the floors below.
CORE_FLOORS = (
    ("vocabulary",),
    ("runtime",),
    ("security",),
    ("store",),
    ("retrieval",),
    ("writer",),
    ("importers", "consolidate", "maintenance"),
    ("operations",),
    ("vault",),
    ("bench",),
)
FLOOR_OF = {room: level for level, rooms in enumerate(CORE_FLOORS) for room in rooms}


def core_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "core" else None


def upward_imports(imports: dict[str, set[str]]) -> list[str]:
    offences = []
    for module, targets in sorted(imports.items()):
        room = core_room(module)
        for target in sorted(targets):
            other = core_room(target)
            if room and other and FLOOR_OF[other] > FLOOR_OF[room]:
                offences.append(f"{module} ({room}) imports {target} ({other}, a higher floor)")
    return offences


def test_every_core_room_has_a_floor() -> None:
    rooms = {core_room(module) for module in OUR_MODULES} - {None}
    assert rooms == set(FLOOR_OF)


def test_core_imports_only_its_own_floor_and_below() -> None:
    assert upward_imports(IMPORTS) == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def room_of(module: str) -> str:
    """A package below a layer is a room; a module directly in a layer's folder is one of its own."""
    return ".".join(module.split(".")[:3])


def test_no_import_cycles_between_modules() -> None:
    assert cycles(IMPORTS) == []


def test_no_import_cycles_between_rooms() -> None:
    rooms: dict[str, set[str]] = {}
    for module, targets in IMPORTS.items():
        rooms.setdefault(room_of(module), set()).update(room_of(t) for t in targets if room_of(t) != room_of(module))
    assert cycles(rooms) == []


def test_the_checks_see_a_cycle_and_an_upward_import() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert upward_imports({"memvault.core.store.rows": {"memvault.core.writer.writes"}}) == [
        "memvault.core.store.rows (store) imports memvault.core.writer.writes (writer, a higher floor)"
    ]


FACADE_INSIDES = {"ctx", "retriever"}


def reaches_through(path: Path, root: Path = ROOT) -> list[str]:
    """Attribute reads of the facade's insides (`vault.ctx`, `vault.retriever`) in a module above it."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.relative_to(root)}:{node.lineno} reaches .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in FACADE_INSIDES
    ]


def test_nothing_above_the_facade_reaches_its_insides() -> None:
    """The bridge and the desktop use `Vault` and its sub-APIs (`serving`, `imports`, ...), never its
    store context or its retrieval engine."""
    offences = [hit for layer in ("mcp_bridge", "desktop") for path in sources(layer) for hit in reaches_through(path)]
    assert offences == []


def test_the_facade_check_sees_a_reach_through(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("key = vault.ctx.key\nvault.retriever.settle()\n")
    assert sorted(hit.split(" ", 1)[1] for hit in reaches_through(bad, tmp_path)) == [
        "reaches .ctx",
        "reaches .retriever",
    ]
