"""Who may talk to the GUI at all: the hosts it serves, checked on every request.

A web page on another site can reach a server on 127.0.0.1 through DNS rebinding: its own
name made to resolve to 127.0.0.1, so that the browser sends the page's requests, with the
page's name in ``Host`` and ``Origin``, to us.  Comparing ``Origin`` with ``Host`` does not
see it (they agree); the ``Host`` a request names does.  ``HostGuard`` wraps the whole app
and answers every HTTP request and WebSocket handshake whose ``Host`` is not one of ours with
403 before anything else runs: ours are ``127.0.0.1``, ``localhost``, ``[::1]`` and the
``--host`` given (for an address of every interface, ``0.0.0.0`` or ``::``, also this
machine's own names and addresses), each with the port served.

A WebSocket opened by a page must also come from one of our own pages: its ``Origin`` (the
page's scheme, host and port) is ``http://`` and the ``Host`` it names (``https://`` behind TLS,
a ``wss`` request), nothing more (``same_origin``; a script on this machine sends no ``Origin``
and is let in).  An ``https://`` page of the same host and port is another origin: comparing
the host and port alone let it in (issue 37).

Starlette's own ``TrustedHostMiddleware`` does not fit the ``Host`` check: it compares the name
alone and lets any port through (``127.0.0.1:8001`` reaches a server on 8000), cuts an IPv6
``Host`` at its first colon, reads only the first of two ``Host`` headers, answers 400 and sends
an HTTP response in a WebSocket's scope (an ASGI error, not a refusal); and it has no ``Origin``
check at all.
"""
from __future__ import annotations

import ipaddress
import socket
from typing import Iterable
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
HTTP_PORT = 80


def host_name(host: str) -> str:
    """A host as a ``Host`` header writes it: lower case, an IPv6 address in brackets."""
    host = host.strip().lower().rstrip(".")
    try:
        if ipaddress.ip_address(host.strip("[]")).version == 6:
            return f"[{host.strip('[]')}]"
    except ValueError:
        pass
    return host


def machine_names() -> set[str]:
    """This machine's own names and addresses (the hosts a page reaches a server on every
    interface by)."""
    names = {socket.gethostname(), socket.getfqdn()}
    try:
        names |= {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)}
    except OSError:
        pass
    return {host_name(n) for n in names if n}


def served_hosts(host: str, port: int) -> frozenset[str]:
    """Every ``Host`` header value the server at ``host:port`` answers."""
    names = set(LOOPBACK) | ({host_name(host)} if host not in WILDCARDS else machine_names())
    values = {f"{name}:{port}" for name in names}
    if port == HTTP_PORT:
        values |= names
    return frozenset(values)


def same_origin(origin: str | None, host: str, scheme: str) -> bool:
    """Whether a WebSocket request's ``Origin`` is the page of this server that it names in
    ``Host``, reached with ``scheme`` (``ws``: an ``http://`` page; ``wss``: ``https://``): the
    same scheme, host and port.  No ``Origin`` (not a browser) is let in; ``null`` (a sandboxed
    page, a file) is not."""
    if origin is None:
        return True
    page_scheme = {"ws": "http", "wss": "https"}.get(scheme)
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if page_scheme is None or parts.scheme != page_scheme or parts.path or parts.query or "@" in parts.netloc:
        return False
    return parts.netloc.lower() == host.strip().lower() != ""


class HostGuard:
    """ASGI middleware: a request whose ``Host`` is not served gets 403 (a WebSocket handshake
    is refused with 403 too) and reaches nothing behind it."""

    def __init__(self, app, hosts: Iterable[str]):
        self.app = app
        self.hosts = frozenset(hosts)

    def allows(self, scope) -> bool:
        """Whether the request's ``Host`` header is one of the served hosts."""
        values = [v for k, v in scope.get("headers", ()) if k == b"host"]
        if len(values) != 1:
            return False
        return values[0].decode("latin-1").strip().lower() in self.hosts

    async def __call__(self, scope, receive, send) -> None:
        """Refuse a request of another host; pass every other one on."""
        if scope["type"] in ("http", "websocket") and not self.allows(scope):
            if scope["type"] == "http":
                response = PlainTextResponse("403: this server answers only the hosts it serves "
                                             "(127.0.0.1, localhost, [::1] and its --host)", status_code=403)
                await response(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})     # before the accept: an HTTP 403
            return
        await self.app(scope, receive, send)
