"""The store seam: every engine implements every repository with the signatures the layers above are
type-checked against (`core/store/repositories.py`), and its `Store` answers as the protocol says."""

from __future__ import annotations

import importlib
import inspect
import typing
from types import ModuleType
from typing import Any

import pytest

from memvault.core.store import repositories
from memvault.core.store.bound import Bound
from memvault.core.store.seam import Store
from memvault.core.store.sqlcipher.store import ENGINE, SQLCipherStore
from memvault.core.vault import Vault

REPOSITORIES = {name: getattr(repositories, kind) for name, kind in Store.__annotations__.items()}
# The PostgreSQL engine's module for each repository.
POSTGRES_MODULES = {
    "settings": "settings_table",
    "events": "events",
    "changes": "change_rows",
    "proposals": "proposals",
    "migrations": "migrations",
    "memories": "memories",
    "record_kinds": "record_kinds",
    "stamps": "store_stamps",
    "vectors": "vector_rows",
    "search": "search",
    "maintenance": "maintenance_rows",
    "tombstones": "tombstone_checks",
    "imports": "import_rows",
    "conversations": "conversation_rows",
    "word_index": "word_index_rows",
    "principals": "principals",
    "oauth": "oauth_rows",
    "backups": "backup_rows",
    "domains": "domain_rows",
    "views": "view_queries",
    "neighbours": "neighbour_rows",
    "shadow_log": "shadow_log",
    "transfer": "transfer_rows",
}


def _without_first(signature: inspect.Signature, first: str) -> list[tuple[str, Any, Any, Any]]:
    params = list(signature.parameters.values())
    if not params or params[0].name != first:
        return [("(the first parameter is not the " + first + ")", None, None, None)]
    return [(p.name, p.kind, p.default, p.annotation) for p in params[1:]]


def mismatches(protocol: type, module: ModuleType) -> list[str]:
    """How `module` (functions of the connection first) differs from `protocol` (methods of `self`)."""
    found = []
    for name, method in vars(protocol).items():
        if name.startswith("_") or not callable(method):
            continue
        implemented = getattr(module, name, None)
        if implemented is None:
            found.append(f"{module.__name__} lacks {name}")
            continue
        wanted, given = inspect.signature(method), inspect.signature(implemented)
        returns = given.return_annotation
        if hasattr(implemented, "__wrapped__"):  # a @contextmanager generator: it returns a context manager
            returns = returns.replace("Iterator[", "AbstractContextManager[", 1)
        if _without_first(wanted, "self") != _without_first(given, "conn") or wanted.return_annotation != returns:
            found.append(f"{module.__name__}.{name}{given} is not {protocol.__name__}.{name}{wanted}")
    return found


@pytest.fixture
def store(vault: Vault) -> SQLCipherStore:
    opened = vault.ctx.store
    assert isinstance(opened, SQLCipherStore)
    return opened


def test_the_store_protocol_names_every_repository() -> None:
    assert len(REPOSITORIES) == 23
    assert all(inspect.isclass(kind) and kind.__module__ == repositories.__name__ for kind in REPOSITORIES.values())


@pytest.mark.parametrize("name", sorted(REPOSITORIES))
def test_the_sqlcipher_engine_implements_each_repository_as_declared(store: SQLCipherStore, name: str) -> None:
    bound = getattr(store, name)
    assert isinstance(bound, Bound)
    assert mismatches(REPOSITORIES[name], bound._module) == []


def test_the_postgresql_engine_has_a_module_for_every_repository() -> None:
    assert set(POSTGRES_MODULES) == set(REPOSITORIES)


@pytest.mark.parametrize("name", sorted(POSTGRES_MODULES))
def test_the_postgresql_engine_implements_each_repository_as_declared(name: str) -> None:
    module = importlib.import_module(f"memvault.core.store.postgres.{POSTGRES_MODULES[name]}")
    assert mismatches(REPOSITORIES[name], module) == []


def test_the_check_sees_a_missing_function_and_a_changed_signature() -> None:
    wrong = ModuleType("wrong")

    def record(conn: object, caller: object, action: str) -> None: ...

    wrong.record = record  # type: ignore[attr-defined]
    found = mismatches(repositories.EventRows, wrong)
    assert [line.split(" ")[0] for line in found] == ["wrong.record(conn:", "wrong"]
    assert found[1] == "wrong lacks for_memory"


def test_a_bound_function_is_the_module_function_with_the_connection_filled_in(store: SQLCipherStore) -> None:
    first = typing.cast(Any, store.settings.read)
    assert first.func.__module__.endswith("sqlcipher.settings_table") and first.args == (store.raw,)
    assert store.settings.read("write_mode") is None
    assert not hasattr(store.maintenance, "ALIAS")  # only what the protocol declares is handed out


def test_a_write_transaction_commits_and_rolls_back_as_a_whole(store: SQLCipherStore) -> None:
    with store.write_transaction() as writing:
        writing.settings.write("write_mode", "manual")
    assert store.settings.read("write_mode") == "manual"
    with pytest.raises(RuntimeError), store.write_transaction() as writing:
        writing.settings.write("write_mode", "automatic")
        raise RuntimeError("undo")
    assert store.settings.read("write_mode") == "manual" and not store.in_transaction


def test_a_savepoint_undoes_its_part_only(store: SQLCipherStore) -> None:
    with store.write_transaction() as writing:
        writing.settings.write("write_mode", "manual")
        with writing.savepoint() as undo:
            writing.settings.write("write_mode", "automatic")
            undo()
    assert store.settings.read("write_mode") == "manual"


def test_the_engine_says_what_it_is(store: SQLCipherStore) -> None:
    assert store.engine is ENGINE and ENGINE.name == "sqlcipher"
    assert store.migrations.current_version() == ENGINE.latest_schema
    assert all(issubclass(kind, Exception) for kind in ENGINE.errors)
