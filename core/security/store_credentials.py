"""The password of a shared (PostgreSQL) store: in the OS keyring, never in a file memvault writes.

A store's URL is written to the home without its password (`engines.point_at`); the password goes to
the keyring under the URL it belongs to. Where only an unsafe keyring exists, memvault refuses to
keep it and says how libpq can be given one instead (a ~/.pgpass the person keeps, 0600).
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from memvault.core.security.keys import keyring_backend_name
from memvault.core.vocabulary.errors import KeyUnavailable

KEYRING_SERVICE = "memvault-store-password"


def without_password(url: str) -> tuple[str, str | None]:
    """The URL with its password taken out, and the password (None when it had none)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    if ":" in (parts.hostname or ""):
        host = f"[{parts.hostname}]" + (f":{parts.port}" if parts.port else "")
    netloc = f"{user}@{host}" if user else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), parts.password


def keep(url: str, password: str) -> None:
    if keyring_backend_name() is None:
        raise KeyUnavailable(
            "no usable OS keyring here to keep the store's password: leave it out of the URL and give it "
            "to PostgreSQL's client another way (a ~/.pgpass file readable by you alone)"
        )
    import keyring  # noqa: PLC0415 - importing keyring probes D-Bus

    keyring.set_password(KEYRING_SERVICE, url, password)


def password_for(url: str) -> str | None:
    """The kept password of the store at `url` (without its password), or None."""
    if keyring_backend_name() is None:
        return None
    import keyring  # noqa: PLC0415

    return keyring.get_password(KEYRING_SERVICE, url)
