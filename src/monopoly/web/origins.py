"""Which ``Host`` headers and which web origins the server answers.

DNS rebinding: a page of ``evil.example`` whose name later points at 127.0.0.1 reaches a
server on the player's own machine as a page of the same origin, and the browser sends
``Host: evil.example``. So, as Django's ``ALLOWED_HOSTS`` does, a request is answered
only if its ``Host`` names this server: the host of ``--public-url``, the address it was
bound to (``--host``), a name given with ``--allowed-host``, or the loopback names when
it listens on loopback or on every address. A server bound to every address also
answers any IP address (a rebinding needs a name). The port is not compared.

A browser's WebSocket carries its page's ``Origin``; it is accepted from the public
URL's origin, the ``--allow-origin`` ones, and, without ``--public-url``, from a page of
the address the browser connected to with the same scheme (``https`` pages for a
``wss`` connection, ``http`` for ``ws``).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

WILDCARDS = frozenset({"", "0.0.0.0", "::", "*"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def origin_of(url: str) -> str:
    """``scheme://host:port`` of a URL, in lower case."""
    parts = urlsplit(url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def host_name(host: str) -> str | None:
    """The name or address in a ``Host`` header, without its port (None: not a host)."""
    try:
        name = urlsplit(f"//{host.strip()}").hostname
    except ValueError:
        return None
    return name.rstrip(".").lower() if name else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    return name == "localhost" or (_is_ip(name) and ipaddress.ip_address(name).is_loopback)


class Origins:
    """The hosts and origins of one server (see the module's docstring)."""

    def __init__(
        self,
        bound_host: str,
        public_url: str | None,
        allowed_hosts: tuple[str, ...],
        allowed_origins: tuple[str, ...],
    ) -> None:
        bound = bound_host.strip("[]").lower()
        self.public_url = public_url
        self.any_ip = bound in WILDCARDS
        names = {name.lower().rstrip(".") for name in allowed_hosts}
        names |= {host_name(urlsplit(url).netloc) or "" for url in allowed_origins}
        if public_url:
            names.add(host_name(urlsplit(public_url).netloc) or "")
        if not self.any_ip:
            names.add(bound)
        if self.any_ip or _is_loopback(bound):
            names |= LOOPBACK_NAMES
        self.names = frozenset(names - {""})
        self.origins = frozenset(origin_of(url) for url in allowed_origins)

    def host_allowed(self, host: str | None) -> bool:
        if host is None:  # HTTP/1.0 without Host: nothing a browser sends
            return True
        name = host_name(host)
        if name is None:
            return False
        return name in self.names or (self.any_ip and _is_ip(name))

    def origin_allowed(self, origin: str, host: str | None, secure: bool, public: str) -> bool:
        """Whether a page of ``origin`` may open a WebSocket reaching ``host``
        (``secure``: over TLS; ``public``: the URL players use)."""
        wanted = origin_of(origin)
        if wanted == origin_of(public) or wanted in self.origins:
            return True
        if self.public_url is None and host:
            scheme = "https" if secure else "http"
            return wanted == f"{scheme}://{host.strip().lower()}"
        return False
