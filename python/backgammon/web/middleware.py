"""ASGI middleware in front of every route: limits on what a request may
send, the Host check (a loopback server answers only loopback names, a
guard against DNS rebinding), the refusal of state-changing requests from
other pages (JSON content type and same origin required), and the
security headers of every answer."""
from __future__ import annotations

import json

__all__ = ["BodyLimit", "with_headers", "send_error", "CSP", "COMMON_HEADERS", "MAX_BODY", "MAX_QUERY"]

#: Largest request body accepted (bytes), and the longest query string.
MAX_BODY = 64 * 1024
MAX_QUERY = 4096
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


def _foreign(scope) -> tuple[int, str, str] | None:
    """Why a state-changing request is refused, or None.  Another web page
    can make a browser send a POST anywhere, but not with a JSON content
    type (that needs a CORS preflight, which this server never grants) nor
    with this server's origin: so every POST must say ``application/json``
    and come from this origin or from no page at all."""
    headers = {k.lower(): v for k, v in scope.get("headers", [])}
    kind = headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()
    if kind != "application/json":
        return 415, (f"a request that changes state must send Content-Type: application/json, "
                     f"not {kind[:60] or 'none'!r}"), "json_required"
    origin = headers.get(b"origin")
    if origin is not None:
        host = headers.get(b"host", b"").decode("latin-1").lower()
        scheme = scope.get("scheme", "http")
        if origin.decode("latin-1").lower() != f"{scheme}://{host}":
            return 403, f"requests from another page ({origin.decode('latin-1')[:80]!r}) may not change games here", \
                "foreign_origin"
    if headers.get(b"sec-fetch-site") == b"cross-site":
        return 403, "requests from another site may not change games here", "foreign_origin"
    return None


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413) and query strings
    over ``MAX_QUERY`` (414), before any handler reads them."""

    def __init__(self, app, limit: int, allowed_hosts=None):
        self.app = app
        self.limit = limit
        self.hosts = None if not allowed_hosts else {h.lower() for h in allowed_hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        send = with_headers(send, scope.get("path", "").startswith("/api/"))
        if self.hosts is not None:
            host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.hosts and host not in self.hosts:
                return await send_error(send, 400, f"this server answers requests for {', '.join(sorted(self.hosts))}, "
                                                    f"not for host {host[:80]!r}", "wrong_host")
        if len(scope.get("query_string", b"")) > MAX_QUERY:
            return await send_error(send, 414, f"the query string is longer than {MAX_QUERY} bytes", "query_too_long",
                                    {"limit": MAX_QUERY})
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None:
            if not length.isdigit():
                return await send_error(send, 400, "Content-Length is not a number", "bad_length")
            if int(length) > self.limit:
                return await send_error(send, 413, f"the request body is larger than {self.limit} bytes", "body_too_large",
                                        {"limit": self.limit})
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        refusal = _foreign(scope)
        if refusal is not None:
            return await send_error(send, *refusal)
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                return await send_error(send, 413, f"the request body is larger than {self.limit} bytes", "body_too_large",
                                        {"limit": self.limit})
            if not message.get("more_body"):
                break
        done = False

        async def replay():
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)


COMMON_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                   (b"cache-control", b"no-store")]


def with_headers(send, api: bool):
    """``send`` adding the security headers (and the page's CSP) to the response."""
    extra = COMMON_HEADERS if api else COMMON_HEADERS + [(b"content-security-policy", CSP.encode())]

    async def wrapped(message):
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            message = dict(message)
            message["headers"] = list(message.get("headers", [])) + [(k, v) for k, v in extra if k not in names]
        await send(message)

    return wrapped


async def send_error(send, status: int, message: str, code: str, params: dict | None = None) -> None:
    data = json.dumps({"error": message, "status": status, "code": code, "params": params or {}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
