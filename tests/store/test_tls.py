"""A shared store reached over TLS that verifies the server (`sslmode=verify-full` with the URL's
`sslrootcert`), as docs/postgresql.md asks of another machine, against servers that hold a certificate
from a CA made here:

- a real PostgreSQL server with `ssl = on` that these tests start on 127.0.0.1 (the machine's own
  PostgreSQL: pgserver's binaries are built without OpenSSL and refuse `ssl = on`). The session memvault
  opens is TLS as the server sees it (pg_stat_ssl);
- a TLS front to pgserver's PostgreSQL 16, the one with pgvector here: it answers PostgreSQL's
  SSLRequest, completes the handshake with its certificate and refuses any connection that is not TLS,
  so a store that works through it worked over verified TLS, end to end (add, search).

A CA the URL does not name, or a certificate for another name, is refused with StoreUnavailable, which
quotes neither the URL nor the password. Everything is in the test's folder; nothing leaves loopback."""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import select
import shutil
import socket
import ssl
import struct
import subprocess
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from urllib.parse import quote

import psycopg
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from memvault.core.store.postgres import connection
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import StoreUnavailable
from memvault.core.vocabulary.model import OWNER
from memvault.core.vocabulary.results import SearchAnswer
from memvault.core.vocabulary.search_request import SearchRequest

pytestmark = pytest.mark.usefixtures("memory_keyring")  # init --store keeps the password there

SCRYPT_N = 2**12  # as tests/conftest.py: scrypt at test cost
ROLE = "memvault_tls"
PASSWORD = "tls-fictional/Pa55@word"  # fictional; needs percent-encoding in a URL
DATABASE = "memory"
SSL_REQUEST = 80877103  # PostgreSQL's SSLRequest and GSSENCRequest codes (protocol "Message Formats")
GSSENC_REQUEST = 80877104


# --- a throwaway CA and server certificates ----------------------------------------------------------


@dataclass(frozen=True)
class Authority:
    key: ec.EllipticCurvePrivateKey
    cert: x509.Certificate
    pem: Path  # the CA certificate, for sslrootcert


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _authority(folder: Path, common: str) -> Authority:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(_name(common))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    pem = folder / "ca.pem"
    pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return Authority(key, cert, pem)


def _server_certificate(ca: Authority, folder: Path, dns: list[str], ips: list[str]) -> tuple[Path, Path]:
    """A server certificate signed by `ca` for these names; its (certificate, key) files in `folder`."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    names: list[x509.GeneralName] = [x509.DNSName(name) for name in dns]
    names += [x509.IPAddress(ipaddress.ip_address(ip)) for ip in ips]
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(dns[0]))
        .issuer_name(ca.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.key.public_key()), critical=False)
        .sign(ca.key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    cert_file, key_file = folder / "server.crt", folder / "server.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    key_file.chmod(0o600)  # PostgreSQL refuses a key others may read
    return cert_file, key_file


@dataclass(frozen=True)
class Certificates:
    ca: Authority  # signed both server certificates
    other_ca: Authority  # signed nothing the servers hold
    localhost: tuple[Path, Path]  # DNS localhost, IP 127.0.0.1
    elsewhere: tuple[Path, Path]  # DNS db.example.internal only


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    folder = tmp_path_factory.mktemp("certs")
    ca = _authority(folder / "ca", "memvault test CA")
    other = _authority(folder / "other-ca", "another test CA")
    return Certificates(
        ca=ca,
        other_ca=other,
        localhost=_server_certificate(ca, folder / "localhost", ["localhost"], ["127.0.0.1"]),
        elsewhere=_server_certificate(ca, folder / "elsewhere", ["db.example.internal"], []),
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _url(port: int, rootcert: Path, database: str = DATABASE, user: str = ROLE) -> str:
    return (
        f"postgresql://{user}:{quote(PASSWORD, safe='')}@localhost:{port}/{database}"
        f"?sslmode=verify-full&sslrootcert={rootcert}&connect_timeout=10"
    )


# --- a real PostgreSQL server with ssl = on ------------------------------------------------------------


def _tls_postgres_bin() -> Path | None:
    """The bin folder of a PostgreSQL server built with OpenSSL: the one on PATH, or Debian's."""
    candidates: list[Path] = []
    if found := shutil.which("pg_config"):
        with contextlib.suppress(subprocess.CalledProcessError, OSError):
            out = subprocess.run([found, "--bindir"], check=True, capture_output=True, text=True).stdout
            candidates.append(Path(out.strip()))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for folder in candidates:
        postgres = folder / "postgres"
        if (folder / "initdb").exists() and postgres.exists() and b"SSL_CTX_new" in postgres.read_bytes():
            return folder
    return None


@dataclass(frozen=True)
class Server:
    port: int
    socket_dir: Path
    vector: bool  # whether the server offers pgvector

    def admin(self, database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
        """The superuser, over the server's Unix socket (trusted)."""
        return psycopg.connect(
            host=str(self.socket_dir), port=self.port, user="postgres", dbname=database, autocommit=True
        )


@contextlib.contextmanager
def _postgres_with_tls(folder: Path, cert: Path, key: Path) -> Iterator[Server]:
    """A PostgreSQL server of its own in `folder`: TCP on 127.0.0.1 with TLS only (hostssl, a password
    checked by scram-sha-256), its Unix socket trusted for the superuser; ROLE owns DATABASE."""
    binaries = _tls_postgres_bin()
    if binaries is None:
        pytest.skip("no PostgreSQL server built with OpenSSL here (Debian: apt install postgresql)")
    run_as: str | None = None  # the system user that runs the server
    if os.geteuid() == 0:  # postgres refuses root: run it as pgserver does, as the 'pgserver' user
        from pgserver.utils import ensure_prefix_permissions, ensure_user_exists  # noqa: PLC0415

        ensure_user_exists("pgserver")
        folder.mkdir(parents=True, exist_ok=True)
        ensure_prefix_permissions(folder)
        folder.chmod(0o755)
        run_as = "pgserver"
    tls = folder / "tls"
    tls.mkdir(parents=True)
    shutil.copy(cert, tls / "server.crt")
    shutil.copy(key, tls / "server.key")
    (tls / "server.key").chmod(0o600)
    if run_as:
        for path in (folder, tls, tls / "server.crt", tls / "server.key"):
            shutil.chown(path, "pgserver", "pgserver")
    data, log, port = folder / "data", folder / "server.log", _free_port()
    subprocess.run(
        [binaries / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "--locale=C", "-E", "UTF8", "-N"],
        check=True,
        capture_output=True,
        user=run_as,
        group=run_as,
    )
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(
            f"listen_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = '{folder}'\n"
            f"ssl = on\nssl_cert_file = '{tls / 'server.crt'}'\nssl_key_file = '{tls / 'server.key'}'\n"
            "password_encryption = 'scram-sha-256'\nfsync = off\n"
        )
    # The first matching line decides: TCP only over TLS, with the role's password; no plain `host` line.
    (data / "pg_hba.conf").write_text("local all postgres trust\nhostssl all all 127.0.0.1/32 scram-sha-256\n")
    ctl: list[str | Path] = [binaries / "pg_ctl", "-D", data, "-l", log, "-w", "-t", "30"]
    started = subprocess.run([*ctl, "start"], check=False, capture_output=True, text=True, user=run_as, group=run_as)
    assert started.returncode == 0, f"the TLS server did not start: {log.read_text() if log.exists() else started}"
    try:
        server = Server(port=port, socket_dir=folder, vector=False)
        with server.admin() as admin:
            admin.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(ROLE), sql.Literal(PASSWORD))
            )
            admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(DATABASE), sql.Identifier(ROLE)))
            offered = admin.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        if offered is not None:
            with server.admin(DATABASE) as superuser:
                superuser.execute("CREATE EXTENSION vector")
        yield Server(port=port, socket_dir=folder, vector=offered is not None)
    finally:
        subprocess.run([*ctl, "-m", "fast", "stop"], check=False, capture_output=True, user=run_as, group=run_as)


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory, certificates: Certificates) -> Iterator[Server]:
    with _postgres_with_tls(tmp_path_factory.mktemp("tls-pg"), *certificates.localhost) as server:
        yield server


# --- a TLS front to pgserver's PostgreSQL (the one with pgvector) ---------------------------------------


class TlsFront:
    """Listens on 127.0.0.1: answers a client's SSLRequest with 'S', completes the TLS handshake with
    its certificate, then relays the session to the PostgreSQL behind it (a Unix socket). A client that
    does not ask for TLS is cut off before any byte reaches PostgreSQL."""

    def __init__(self, upstream: str, cert: Path, key: Path) -> None:
        self.upstream = upstream
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.tls_sessions = 0  # handshakes completed
        self.relayed = 0  # sessions whose bytes reached PostgreSQL
        self.refused_plain = 0  # connections that did not ask for TLS
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._closed = True
        self.listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client:
            while True:
                head = client.recv(8, socket.MSG_WAITALL)
                if len(head) < 8:
                    return
                _, code = struct.unpack("!ii", head)
                if code == GSSENC_REQUEST:
                    client.sendall(b"N")
                    continue
                if code != SSL_REQUEST:
                    self.refused_plain += 1
                    return
                client.sendall(b"S")
                break
            try:
                tls = self.context.wrap_socket(client, server_side=True)
            except (ssl.SSLError, OSError):
                return  # the client refused our certificate
            self.tls_sessions += 1
            with tls, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
                try:  # libpq checks the certificate's name once the handshake is done: it may hang up now
                    first = tls.recv(65536)
                except (ssl.SSLError, OSError):
                    return
                if not first:
                    return
                self.relayed += 1
                server.connect(self.upstream)
                server.sendall(first)
                self._relay(tls, server)

    @staticmethod
    def _relay(tls: ssl.SSLSocket, server: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while True:
                ready, _, _ = select.select([tls, server], [], [])
                for source in ready:
                    target = server if source is tls else tls
                    data = source.recv(65536)
                    if not data:
                        return
                    target.sendall(data)
                    while source is tls and tls.pending():
                        target.sendall(tls.recv(65536))


def _pgserver_socket(postgres_server: str) -> str:
    options = conninfo_to_dict(postgres_server)
    return os.path.join(str(options["host"]), f".s.PGSQL.{options.get('port') or 5432}")


@pytest.fixture
def front_database(postgres_server: str) -> Iterator[str]:
    """A database of its own on pgserver's server with the vector extension (made by the superuser)."""
    name = f"tls_{uuid.uuid4().hex[:12]}"
    base, _, query = postgres_server.partition("?")
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    with psycopg.connect(f"{base.rsplit('/', 1)[0]}/{name}?{query}", autocommit=True) as superuser:
        superuser.execute("CREATE EXTENSION vector")
    yield name
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def front(postgres_server: str, certificates: Certificates) -> Iterator[Callable[[tuple[Path, Path]], TlsFront]]:
    made: list[TlsFront] = []

    def make(cert: tuple[Path, Path]) -> TlsFront:
        made.append(TlsFront(_pgserver_socket(postgres_server), *cert))
        return made[-1]

    yield make
    for each in made:
        each.close()


def _ids(vault: Vault, query: str) -> list[str]:
    answer = cast("SearchAnswer", vault.search(OWNER, SearchRequest.of(query=query).browsing()))
    return [str(hit["id"]) for hit in answer["results"]]


def _add_and_search(home: Path, url: str) -> None:
    with Vault.open(home, create=True, shared_store=url, scrypt_n=SCRYPT_N) as vault:
        assert vault.engine_name == "postgresql"
        canoe = str(vault.add(OWNER, Draft.of(statement="The canoe club meets at Heronmere lake on Saturdays"))["id"])
        vault.add(OWNER, Draft.of(statement="The boathouse spare key is under the blue flowerpot"))
        assert _ids(vault, "canoe club") == [canoe]
    with Vault.open(home) as vault:  # the home kept the URL (verify-full, sslrootcert), the password in the keyring
        assert _ids(vault, "canoe club") == [canoe]
        assert vault.status(OWNER)["counts"]["current"] == 2


def _assert_refused_quietly(home: Path, url: str) -> StoreUnavailable:
    with pytest.raises(StoreUnavailable, match="could not be reached") as refused:
        Vault.open(home, create=True, shared_store=url, scrypt_n=SCRYPT_N)
    message = str(refused.value)
    assert PASSWORD not in message and quote(PASSWORD, safe="") not in message and "Pa55" not in message
    assert url not in message and "postgresql://" not in message and "sslrootcert" not in message
    assert not (home / "shared-store.url").exists()  # nothing was kept in the home
    return refused.value


# --- the real TLS server ---------------------------------------------------------------------------


def test_verify_full_to_a_real_tls_server_is_a_tls_session(
    tmp_path: Path, tls_server: Server, certificates: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _url(tls_server.port, certificates.ca.pem)
    with tls_server.admin() as admin:  # the server refuses TCP without TLS (no `host` line): TLS is not optional
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(url.replace("sslmode=verify-full", "sslmode=disable"), connect_timeout=5).close()
        assert admin.execute("SHOW ssl").fetchone() == ("on",)
    if tls_server.vector:
        _add_and_search(tmp_path / "home", url)
    else:  # memvault got through TLS and the password, then named what the server lacks
        with pytest.raises(StoreUnavailable, match="does not offer pgvector"):
            Vault.open(tmp_path / "home", create=True, shared_store=url, scrypt_n=SCRYPT_N)
        monkeypatch.setattr(connection, "check_server", lambda conn: None)
    conn = connection.open_connection(url)  # memvault's own connection, as the store opens it
    try:
        row = conn.execute("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()").fetchone()
        assert row is not None and row["ssl"] is True and str(row["version"]).startswith("TLSv1.")
        assert conn.execute("SELECT current_user AS who").fetchone() == {"who": ROLE}
        assert conn.info.pgconn.ssl_in_use
    finally:
        conn.close()


def test_a_real_tls_server_signed_by_another_ca_is_refused(
    tmp_path: Path, tls_server: Server, certificates: Certificates
) -> None:
    _assert_refused_quietly(tmp_path / "home", _url(tls_server.port, certificates.other_ca.pem))


def test_a_real_tls_server_certified_for_another_name_is_refused(tmp_path: Path, certificates: Certificates) -> None:
    with _postgres_with_tls(tmp_path / "pg", *certificates.elsewhere) as server:
        url = _url(server.port, certificates.ca.pem)  # the right CA; the name is not localhost
        refused = _assert_refused_quietly(tmp_path / "home", url)
        assert "localhost" in str(refused) or "certificate" in str(refused)  # libpq's reason, no secrets
        verify_ca = url.replace("sslmode=verify-full", "sslmode=verify-ca")  # the CA alone would have let it in
        psycopg.connect(verify_ca).close()


# --- end to end with pgvector, through the TLS front -----------------------------------------------------


def test_verify_full_end_to_end_through_tls(
    tmp_path: Path,
    front: Callable[[tuple[Path, Path]], TlsFront],
    front_database: str,
    certificates: Certificates,
) -> None:
    relay = front(certificates.localhost)
    url = _url(relay.port, certificates.ca.pem, front_database, user="postgres")
    with pytest.raises(StoreUnavailable):  # no TLS, no store: the front lets nothing else through
        Vault.open(tmp_path / "plain", create=True, shared_store=url.replace("verify-full", "disable"))
    assert relay.refused_plain >= 1 and relay.relayed == 0
    _add_and_search(tmp_path / "home", url)
    assert relay.relayed >= 2 and relay.relayed == relay.tls_sessions  # each open went through TLS
    conn = connection.open_connection(url)
    try:
        assert conn.info.pgconn.ssl_in_use
    finally:
        conn.close()


@pytest.mark.parametrize("case", ["another CA", "another name"])
def test_verify_full_refuses_through_tls(
    tmp_path: Path,
    front: Callable[[tuple[Path, Path]], TlsFront],
    front_database: str,
    certificates: Certificates,
    case: str,
) -> None:
    if case == "another CA":
        relay, rootcert = front(certificates.localhost), certificates.other_ca.pem
    else:
        relay, rootcert = front(certificates.elsewhere), certificates.ca.pem
    _assert_refused_quietly(tmp_path / "home", _url(relay.port, rootcert, front_database, user="postgres"))
    assert relay.relayed == 0  # refused by the client at the handshake: no byte of the session crossed
