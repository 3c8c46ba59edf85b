"""`deduce serve`: the web page's server started from the command line.

The command line does not import the web app (a face of its own): uvicorn loads it by its import
string, `solver.web.app:create_app`, as `uvicorn --factory solver.web.app:create_app` would, and its
protocol (`solver.web.server:Protocol`: a deadline for the headers) likewise. The limits (`Limits`)
reach the app through the environment (DEDUCE_WEB_*, read by `solver.web.admission`) and uvicorn
through its Config.
"""
from __future__ import annotations

import math
import os
import socket
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping

from solver.core.defaults import KEEP_ALIVE, MAX_CONNECTIONS
from solver.core.search.live import stop_all

WEB_APP = "solver.web.app:create_app"  # the application factory uvicorn imports
WEB_PROTOCOL = "solver.web.server:Protocol"  # uvicorn's h11 protocol with a header timeout
ENV = "DEDUCE_WEB_"  # the prefix of the variables solver.web.admission reads
WEB_MODULES = ("fastapi", "starlette", "pydantic", "uvicorn")  # what the web extra installs


@dataclass(frozen=True)
class Limits:
    """What one `deduce serve` process bounds (docs, "The web page"); each may also be given as the
    environment variable DEDUCE_WEB_<NAME> (`from_env`). None: the web app's own default (the
    defaults' constants are in `solver.core.defaults`)."""

    live_workers: int | None = None  # live computations at once (default: the CPU count)
    live_queue: int | None = None  # live requests waiting for a worker, more: 503 (default: QUEUE_PER_WORKER x the workers)
    header_timeout: float | None = None  # seconds for a request's headers, else 408 and closed (default: HEADER_TIMEOUT)
    body_timeout: float | None = None  # seconds for a request's body, else 408 and closed (default: BODY_TIMEOUT)
    keep_alive: float = KEEP_ALIVE  # seconds an idle connection stays open after a response
    max_connections: int = MAX_CONNECTIONS  # connections and requests at once, more: 503 (uvicorn's limit_concurrency)
    max_header_bytes: int = 16 * 1024  # of a request's headers, more: 400 (h11_max_incomplete_event_size)

    def __post_init__(self) -> None:
        """ValueError naming a limit out of range."""
        least = {"live_workers": 1, "live_queue": 0, "max_connections": 1, "max_header_bytes": 1}
        for item in fields(self):
            value, label = getattr(self, item.name), item.name.replace("_", " ")
            if value is None:
                continue
            if item.name in least and value < least[item.name]:
                raise ValueError(f"{label} must be at least {least[item.name]}, not {value}")
            if item.name not in least and not 0 < value < math.inf:
                raise ValueError(f"{label} must be a positive, finite number of seconds, not {value}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> "Limits":
        """Return the limits `given` (None: not given), the others from the DEDUCE_WEB_* variables set,
        else the defaults; ValueError naming a variable that is not a number."""
        environ = os.environ if environ is None else environ
        values = {}
        for item in fields(cls):
            if given.get(item.name) is not None:
                values[item.name] = given[item.name]
                continue
            text = environ.get(ENV + item.name.upper(), "").strip()
            if text:
                kind = float if "timeout" in item.name or item.name == "keep_alive" else int
                try:
                    values[item.name] = kind(text)
                except ValueError:
                    what = "a whole number" if kind is int else "a number of seconds"
                    raise ValueError(f"{ENV + item.name.upper()} must be {what}, not {text[:40]!r}") from None
        return cls(**values)

    def environ(self) -> dict[str, str]:
        """Return the DEDUCE_WEB_* variables of the limits given (the app's own)."""
        return {ENV + name.upper(): str(getattr(self, name)) for name in ("live_workers", "live_queue",
                                                                           "header_timeout", "body_timeout")
                if getattr(self, name) is not None}

    def uvicorn(self) -> dict[str, Any]:
        """Return uvicorn.Config's arguments of the limits that uvicorn applies."""
        return {"timeout_keep_alive": self.keep_alive, "limit_concurrency": self.max_connections,
                "h11_max_incomplete_event_size": self.max_header_bytes}


def installed() -> bool:
    """Return whether the web extra's packages can be imported."""
    try:
        import fastapi  # noqa: F401  (deferred: the web extra is optional, and slow to import)
        import uvicorn  # noqa: F401
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] not in WEB_MODULES:
            raise
        return False
    return True


def listening_socket(host: str, port: int) -> socket.socket:
    """Return a socket bound to host:port; ValueError when the address cannot be listened on (in use,
    unknown host)."""
    sock = None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as err:
        if sock is not None:
            sock.close()
        raise ValueError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    return sock


def serve(host: str, port: int, announce: Callable[[str], Any], limits: Limits | None = None) -> None:
    """Listen on host:port, `announce` the address, and serve until interrupted (one process), within
    `limits` (default: `Limits.from_env()`).

    ValueError when the address cannot be listened on, a limit is out of range or a DEDUCE_WEB_*
    variable is not a number.
    """
    import uvicorn  # deferred: the web extra (checked by `installed`)

    limits = Limits.from_env() if limits is None else limits
    os.environ.update(limits.environ())  # read by the app factory and the protocol (solver.web.admission)
    sock = listening_socket(host, port)
    config = uvicorn.Config(WEB_APP, factory=True, http=WEB_PROTOCOL, log_level="warning", access_log=False,
                            **limits.uvicorn())
    config.load()  # import the app before announcing it, so that a broken app fails here
    shown = f"[{host}]" if ":" in host else host
    announce(f"Serving on http://{shown}:{port} (Ctrl-C to stop)")

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            stop_all()  # the live searches end at once: their requests get a JSON 503, the workers are free
            super().handle_exit(sig, frame)

    Server(config).run(sockets=[sock])
