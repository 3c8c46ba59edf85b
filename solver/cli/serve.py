"""`deduce serve`: the web page's server started from the command line.

The command line does not import the web app (a face of its own): uvicorn loads it by its import
string, `solver.web.app:create_app`, as `uvicorn --factory solver.web.app:create_app` would, and its
protocol (`solver.web.server:Protocol`: a deadline for the headers) likewise. The limits
(`solver.core.server_limits.Limits`, the app's own) reach the app through the environment
(DEDUCE_WEB_*) and uvicorn through its Config.
"""
from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any

from solver.core.search.live import stop_all
from solver.core.server_limits import Limits

WEB_APP = "solver.web.app:create_app"  # the application factory uvicorn imports
WEB_PROTOCOL = "solver.web.server:Protocol"  # uvicorn's h11 protocol with a header timeout
WEB_MODULES = ("fastapi", "starlette", "pydantic", "uvicorn")  # what the web extra installs


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
