"""The authorization page: it names the client and the scopes, shows the pairing code, and waits.

It has no button and takes no input: the person answers in memvault (`memvault connections
approve|deny CODE`, or the app). The page reloads itself every few seconds (no script); once
answered, its next load sends the browser back to the client with `code`, `state` and `iss`
(RFC 9207), or with `error=access_denied`. Its address holds a secret (only its hash is
stored), is never sent on as a referrer, and the page cannot be framed.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import anyio.to_thread
from mcp.server.auth.provider import construct_redirect_uri
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from memvault.core.vocabulary.oauth import SCOPE_WORDS, PageAnswer

RELOAD_SECONDS = 2
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'"
    ),
}

STYLE = """
body{font:16px/1.5 system-ui,sans-serif;background:#f4f1ea;color:#222;margin:0}
main{max-width:34rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem 2.25rem;
box-shadow:0 2px 12px #0002}
h1{font-size:1.35rem;margin:0 0 1rem}
.code{font:700 2rem/1.2 ui-monospace,monospace;letter-spacing:.15em;background:#eef3f8;border-radius:8px;
padding:.5rem 1rem;display:inline-block;margin:.25rem 0 1rem}
.muted{color:#666;font-size:.9rem}
ul{padding-left:1.2rem}
pre{background:#222;color:#eee;border-radius:6px;padding:.6rem .8rem;overflow-x:auto}
.wait{display:inline-block;width:.7rem;height:.7rem;border-radius:50%;background:#3a7;margin-right:.4rem}
"""


def _page(title: str, body: str, *, reload: bool = False, status: int = 200) -> HTMLResponse:
    refresh = f'<meta http-equiv="refresh" content="{RELOAD_SECONDS}">' if reload else ""
    document = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{refresh}'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><main>{body}</main></body></html>"
    )
    return HTMLResponse(document, status_code=status, headers=HEADERS)


def waiting(answer: PageAnswer) -> HTMLResponse:
    request = answer["request"]
    assert request is not None
    name = html.escape(request["client_name"] or "An unnamed application")
    host = html.escape(request["redirect_host"])
    code = html.escape(request["id"])
    until = html.escape(request["expires_at"][11:16])
    scopes = "".join(
        f"<li><code>{html.escape(scope)}</code>: {html.escape(SCOPE_WORDS.get(scope, scope))}</li>"
        for scope in request["scopes"]
    )
    body = (
        f"<h1>{name} asks to connect to your memvault</h1>"
        f"<p>It will send you back to <b>{host}</b> (the name above is its own; this address is what"
        f" identifies it). It asks to:</p><ul>{scopes}</ul>"
        "<p>It would see only memories marked <code>remote_allowed</code>.</p>"
        "<p>Nothing on this page can approve it. Answer in memvault, where the waiting request shows"
        " this same code:</p>"
        f'<div class="code">{code}</div>'
        f"<pre>memvault connections approve {code}</pre>"
        f'<p class="muted">or <code>memvault connections deny {code}</code>, or open the memvault app. '
        "If you did not start this, deny it.</p>"
        f'<p class="muted"><span class="wait"></span>Waiting for your answer (until {until} UTC); '
        "this page checks every few seconds.</p>"
    )
    return _page("Connect to memvault?", body, reload=True)


def respond(answer: PageAnswer, issuer: str) -> Response:
    """The page for this look at a request: waiting, or the way back to the client."""
    status = answer["status"]
    if status == "pending":
        return waiting(answer)
    if status in ("approved", "denied") and answer["redirect_uri"]:
        if answer["code"]:
            target = construct_redirect_uri(
                answer["redirect_uri"], code=answer["code"], state=answer["state"], iss=issuer
            )
        else:
            target = construct_redirect_uri(
                answer["redirect_uri"],
                error="access_denied",
                error_description="the person denied this connection",
                state=answer["state"],
                iss=issuer,
            )
        return RedirectResponse(target, status_code=303, headers=HEADERS)
    if status == "answered":
        return _page("memvault", "<h1>This request was answered</h1><p>You can close this page.</p>")
    if status == "expired":
        return _page(
            "memvault", "<h1>This request expired</h1><p>Start connecting again from the application.</p>", status=410
        )
    return _page("memvault", "<h1>No such request</h1>", status=404)


async def consent(request: Request, look: Callable[[str], PageAnswer], issuer: str) -> Response:
    """GET /consent/{page}: `look(page)` reads (and, once answered, completes) the request."""
    answer = await anyio.to_thread.run_sync(look, str(request.path_params.get("page", "")))
    return respond(answer, issuer)
