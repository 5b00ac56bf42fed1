"""The password of a shared (PostgreSQL) store: in the OS keyring, never in a file memvault writes.

A store's URL is written to the home without its password (`engines.join`); the password goes
to the keyring under the URL it belongs to. Where only an unsafe keyring exists, memvault refuses to
keep it and says how libpq can be given one instead (a ~/.pgpass the person keeps, 0600).
"""

from __future__ import annotations

import contextlib

from memvault.core.security.keys import keyring_backend_name
from memvault.core.vocabulary.errors import KeyUnavailable

KEYRING_SERVICE = "memvault-store-password"


def check_keepable() -> None:
    """Refuse a password that could not be kept, before anything is done with it."""
    if keyring_backend_name() is None:
        raise KeyUnavailable(
            "no usable OS keyring here to keep the store's password: leave it out of the URL and give it "
            "to PostgreSQL's client another way (a ~/.pgpass file readable by you alone)"
        )


def keep(url: str, password: str) -> None:
    check_keepable()
    import keyring  # noqa: PLC0415 - importing keyring probes D-Bus

    keyring.set_password(KEYRING_SERVICE, url, password)


def forget(url: str) -> None:
    """Drop the kept password of the store at `url`, if one is kept."""
    if keyring_backend_name() is None:
        return
    import keyring  # noqa: PLC0415
    from keyring.errors import PasswordDeleteError  # noqa: PLC0415

    with contextlib.suppress(PasswordDeleteError):  # none was kept
        keyring.delete_password(KEYRING_SERVICE, url)


def password_for(url: str) -> str | None:
    """The kept password of the store at `url` (without its password), or None."""
    if keyring_backend_name() is None:
        return None
    import keyring  # noqa: PLC0415

    return keyring.get_password(KEYRING_SERVICE, url)
