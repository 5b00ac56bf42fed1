"""Client ID metadata documents: a client whose `client_id` is an HTTPS URL, describing itself
in the JSON document at that URL (the MCP authorization revision's preferred registration).

Fetching a URL is network use at run time, which memvault otherwise never does: the server
fetches a document only when started with `--client-metadata-documents`. Without it, metadata
does not advertise support, and clients register dynamically (RFC 7591) instead.

What a fetch accepts: HTTPS only, no redirects, 5 s, 64 KiB, JSON whose `client_id` is the URL
itself and whose redirect URIs are listed exactly. The client is public (no secret: PKCE
protects its codes). A fetched document is kept in the store like a registration.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlsplit

import httpx2

log = logging.getLogger("memvault.oauth")

MAX_DOCUMENT = 64 * 1024
TIMEOUT = 5.0
KEPT = ("client_name", "client_uri", "logo_uri", "redirect_uris", "scope", "software_id", "software_version")


def is_document_client_id(client_id: str) -> bool:
    parts = urlsplit(client_id)
    return parts.scheme == "https" and bool(parts.netloc) and parts.path not in ("", "/") and not parts.fragment


class ClientDocuments:
    """Fetches and checks client metadata documents."""

    async def fetch(self, client_id: str) -> dict[str, Any] | None:
        try:
            async with (
                httpx2.AsyncClient(timeout=TIMEOUT, follow_redirects=False) as http,
                http.stream("GET", client_id, headers={"Accept": "application/json"}) as answer,
            ):
                if answer.status_code != 200:
                    log.info("oauth: client metadata document answered HTTP %d", answer.status_code)
                    return None
                body = b""
                async for chunk in answer.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_DOCUMENT:
                        log.info("oauth: client metadata document larger than %d bytes", MAX_DOCUMENT)
                        return None
        except httpx2.HTTPError as exc:
            log.info("oauth: client metadata document not fetched (%s)", type(exc).__name__)
            return None
        return checked_document(client_id, body)


def checked_document(client_id: str, body: bytes) -> dict[str, Any] | None:
    """The registration a document stands for, or None when it does not describe `client_id`."""
    try:
        document = json.loads(body)
    except ValueError:
        return None
    if not isinstance(document, dict) or document.get("client_id") != client_id:
        log.info("oauth: client metadata document does not name its own URL as client_id")
        return None
    uris = document.get("redirect_uris")
    if not isinstance(uris, list) or not uris or not all(isinstance(uri, str) and uri for uri in uris):
        return None
    kept = {key: document[key] for key in KEPT if key in document}
    return {
        **kept,
        "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
    }
