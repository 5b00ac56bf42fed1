"""A shared store run by the least-privileged role docs/postgresql.md ("What the server needs") describes:
a login role that is no superuser and may create neither databases nor roles, owning the database (and
so memvault's tables); `CREATE EXTENSION vector` made once by a superuser. The role's password is checked
by the server (scram-sha-256 for this role alone) and given as `init --store` takes it: in the URL, then
from the keyring. Every operation memvault runs on the database works as that role; and two homes on
one database refuse a correction made with a revision another home already changed."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast
from urllib.parse import quote

import psycopg
import pytest
from psycopg import sql

from memvault.core.maintenance import migrate, restore
from memvault.core.runtime.paths import VaultPaths
from memvault.core.store import engines
from memvault.core.store.postgres import credentials
from memvault.core.store.postgres.connection import without_password
from memvault.core.store.postgres.maintenance_rows import PURGED_TABLES
from memvault.core.vault import Vault
from memvault.core.vocabulary.clock import SystemClock
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import Conflict, NotFound, StoreUnavailable
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.requests import CorrectRequest, PurgeRequest
from memvault.core.vocabulary.results import SearchAnswer
from memvault.core.vocabulary.search_request import SearchRequest

pytestmark = pytest.mark.usefixtures("memory_keyring")  # init --store keeps the password there

CLOCK = SystemClock()
SCRYPT_N = 2**12  # as tests/conftest.py: scrypt at test cost
ROLE = "memvault_app"
PASSWORD = "lp-fictional/Pa55@word"  # fictional; needs percent-encoding in a URL


def _admin(postgres_server: str) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(postgres_server, autocommit=True)


def _url(postgres_server: str, database: str, password: str | None = PASSWORD) -> str:
    """`database` on the test server as ROLE, over the server's Unix socket (the form pgserver's URL has)."""
    query = postgres_server.partition("?")[2]
    secret = f":{quote(password, safe='')}" if password is not None else ""
    return f"postgresql://{ROLE}{secret}@/{database}?{query}"


def _password_is_checked(postgres_server: str) -> bool:
    try:
        psycopg.connect(_url(postgres_server, "postgres", "not-the-password"), connect_timeout=5).close()
    except psycopg.OperationalError:
        return True
    return False


@pytest.fixture(scope="module")
def app_role(postgres_server: str) -> Iterator[str]:
    """ROLE, made by the superuser as the docs say, its password required by the server (pgserver
    trusts every local connection otherwise); the server's pg_hba.conf put back afterwards."""
    with _admin(postgres_server) as admin:
        found = admin.execute("SHOW hba_file").fetchone()
        assert found is not None
        hba = Path(str(found[0]))
        original = hba.read_text()
        admin.execute(
            sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} NOSUPERUSER NOCREATEDB NOCREATEROLE").format(
                sql.Identifier(ROLE), sql.Literal(PASSWORD)
            )
        )
        hba.write_text(f"local all {ROLE} scram-sha-256\n{original}")  # the first matching line decides
        admin.execute("SELECT pg_reload_conf()")
    try:
        deadline = time.monotonic() + 10
        while not _password_is_checked(postgres_server):  # the reload is asynchronous
            assert time.monotonic() < deadline, "the server did not start checking the role's password"
            time.sleep(0.05)
        yield ROLE
    finally:
        with _admin(postgres_server) as admin:
            hba.write_text(original)
            admin.execute("SELECT pg_reload_conf()")
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(ROLE)))


@pytest.fixture
def make_database(postgres_server: str, app_role: str) -> Iterator[Callable[[], str]]:
    """Makes databases owned by ROLE with the vector extension made by the superuser (the docs' three
    commands: createdb --owner, psql -c 'CREATE EXTENSION vector;'); answers the URL as ROLE, with its
    password. Dropped after the test."""
    made: list[str] = []

    def make() -> str:
        name = f"lp_{uuid.uuid4().hex[:12]}"
        with _admin(postgres_server) as admin:
            admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(app_role)))
        made.append(name)
        base, _, query = postgres_server.partition("?")
        with psycopg.connect(f"{base.rsplit('/', 1)[0]}/{name}?{query}", autocommit=True) as superuser:
            superuser.execute("CREATE EXTENSION vector")
        return _url(postgres_server, name)

    yield make
    with _admin(postgres_server) as admin:
        for name in made:
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def _assert_least_privileged(url: str) -> None:
    """As the role memvault connects as: no superuser, no CREATEDB, no CREATEROLE; and it owns every
    table memvault made (memvault's own connections made them)."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT current_user, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls"
            " FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
        assert row == (ROLE, False, False, False, False)
        owners = conn.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'").fetchall()
        assert owners == [(ROLE,)]
        extension = conn.execute(
            "SELECT r.rolname FROM pg_extension e JOIN pg_roles r ON r.oid = e.extowner WHERE e.extname = 'vector'"
        ).fetchone()
        assert extension is not None and extension[0] != ROLE  # made by the superuser, as the docs say


def _vacuumed(url: str) -> set[str]:
    """The tables VACUUMed by hand (not autovacuum) in the database at `url`."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL").fetchall()
    return {str(row[0]) for row in rows}


def _add(vault: Vault, statement: str) -> str:
    return str(vault.add(OWNER, Draft.of(statement=statement))["id"])


def _ids(vault: Vault, query: str) -> list[str]:
    answer = cast("SearchAnswer", vault.search(OWNER, SearchRequest.of(query=query).browsing()))
    return [str(hit["id"]) for hit in answer["results"]]


def test_the_role_the_docs_describe_runs_every_operation(tmp_path: Path, make_database: Callable[[], str]) -> None:
    url = make_database()
    home = tmp_path / "laptop"
    with pytest.raises(StoreUnavailable, match="could not be reached"):  # the server does check the password
        Vault.open(tmp_path / "refused", create=True, shared_store=url.replace(quote(PASSWORD, safe=""), "wrong"))

    with Vault.open(home, create=True, shared_store=url, scrypt_n=SCRYPT_N) as vault:
        assert vault.engine_name == "postgresql"
        kept = (home / engines.SHARED_STORE).read_text("utf-8").strip()
        assert "Pa55" not in kept and credentials.password_for(kept) == PASSWORD
        canoe = _add(vault, "The canoe club meets at Heronmere lake on Saturdays")
        key = _add(vault, "The boathouse spare key is under the blue flowerpot")
        vault.add(OWNER, Draft.of(statement="Bring the red paddles to the canoe club", tags=["project:Canoe"]))
        assert canoe in _ids(vault, "canoe club")
        revision = vault.get(OWNER, canoe)["memory"]["revision"]
        sundays = str(
            vault.correct(
                OWNER,
                CorrectRequest.of(
                    id=canoe, statement="The canoe club meets at Heronmere lake on Sundays", expected_revision=revision
                ),
            )["id"]
        )
        with pytest.raises(Conflict, match="has changed"):
            vault.correct(
                OWNER,
                CorrectRequest.of(
                    id=canoe, statement="The canoe club meets at Heronmere on Fridays", expected_revision=revision
                ),
            )
        assert not _vacuumed(url) & set(PURGED_TABLES)
        asked = vault.request_purge(OWNER, PurgeRequest.parse({"id": key, "reason": "privacy"}))
        report = vault.confirm_purge(OWNER, asked["request_id"])  # VACUUMs the touched tables, as their owner
        assert report["backups"]["failed"] == []
        assert _vacuumed(url) >= set(PURGED_TABLES)  # not skipped (a VACUUM a role may not run only warns)
        with pytest.raises(NotFound):
            vault.get(OWNER, key)
        assert _ids(vault, "spare key flowerpot") == []
        backup = Path(vault.backup(OWNER)["path"])
        later = _add(vault, "The canoe club's boathouse code is on the noticeboard")
        assert vault.status(OWNER)["counts"]["current"] == 3

    restored = restore.restore_backup(backup, home, clock=CLOCK)  # TRUNCATEs every table, then copies back
    assert restored["records"] == 3  # the two current ones and the corrected one's old version
    with Vault.open(home) as vault:
        assert vault.get(OWNER, sundays)["memory"]["statement"].endswith("on Sundays")
        with pytest.raises(NotFound):
            vault.get(OWNER, later)
        assert vault.status(OWNER)["counts"]["current"] == 2
    _assert_least_privileged(url)


def test_a_store_file_moves_into_a_database_the_role_owns_and_back(
    home: Path, make_database: Callable[[], str]
) -> None:
    """`memvault migrate --to URL` into a second database owned by the role, then `--to local`."""
    with Vault.open(home) as vault:
        canoe = _add(vault, "The canoe club meets at Heronmere lake on Saturdays")
        vault.backup(OWNER)
    url = make_database()
    moved = migrate.to_shared(home, url, clock=CLOCK)
    assert moved["engine"] == "postgresql" and moved["store"] == without_password(url)[0]
    with Vault.open(home) as vault:
        assert vault.engine_name == "postgresql"
        assert _ids(vault, "canoe club") == [canoe]
        vault.add(OWNER, Draft.of(statement="The canoe club's boathouse code is on the noticeboard"))
    _assert_least_privileged(url)
    back = migrate.to_local(home)
    assert back["engine"] == "sqlcipher" and not engines.is_shared(VaultPaths.from_env(home))
    with Vault.open(home) as vault:
        assert vault.status(OWNER)["counts"]["current"] == 2


def test_two_homes_refuse_a_correction_made_with_a_revision_the_other_home_changed(
    tmp_path: Path, make_database: Callable[[], str]
) -> None:
    url = make_database()
    laptop = Vault.open(tmp_path / "laptop", create=True, shared_store=url, scrypt_n=SCRYPT_N)
    desktop = Vault.open(tmp_path / "desktop", create=True, shared_store=url, scrypt_n=SCRYPT_N)
    try:
        record = _add(laptop, "The ferry to Skerryvore leaves at 9:15")
        read = desktop.get(OWNER, record)["memory"]["revision"]  # what the desktop saw
        assert laptop.get(OWNER, record)["memory"]["revision"] == read
        newer = str(
            laptop.correct(
                OWNER,
                CorrectRequest.of(
                    id=record, statement="The ferry to Skerryvore leaves at 9:45", expected_revision=read
                ),
            )["id"]
        )
        with pytest.raises(Conflict, match="has changed") as refused:
            desktop.correct(
                OWNER,
                CorrectRequest.of(
                    id=record, statement="The ferry to Skerryvore leaves at 10:00", expected_revision=read
                ),
            )
        assert refused.value.code == "conflict"
        # nothing of the refused correction was written, on either home
        for vault in (laptop, desktop):
            assert vault.get(OWNER, record)["memory"]["status"] == "superseded"
            assert vault.status(OWNER)["counts"]["current"] == 1
            assert vault.get(OWNER, newer)["memory"]["statement"].endswith("9:45")
    finally:
        laptop.close()
        desktop.close()


@pytest.mark.parametrize(
    ("owned", "extension", "fix"), [(True, False, "CREATE EXTENSION vector"), (False, True, "own")]
)
def test_a_database_set_up_short_of_the_docs_is_refused_with_the_fix(
    tmp_path: Path, postgres_server: str, app_role: str, owned: bool, extension: bool, fix: str
) -> None:
    name = f"lp_{uuid.uuid4().hex[:12]}"
    owner = app_role if owned else "postgres"
    base, _, query = postgres_server.partition("?")
    with _admin(postgres_server) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
        if not owned:
            admin.execute(
                sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(name), sql.Identifier(app_role))
            )
    try:
        if extension:
            with psycopg.connect(f"{base.rsplit('/', 1)[0]}/{name}?{query}", autocommit=True) as superuser:
                superuser.execute("CREATE EXTENSION vector")
        with pytest.raises(StoreUnavailable, match=fix):
            Vault.open(tmp_path / "home", create=True, shared_store=_url(postgres_server, name))
        assert not (tmp_path / "home" / "shared-store.url").exists()  # nothing was written to the home
    finally:
        with _admin(postgres_server) as admin:
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
