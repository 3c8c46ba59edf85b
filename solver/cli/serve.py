"""`deduce serve`: the web page's server started from the command line.

The command line does not import the web app (a face of its own): uvicorn loads it by its import
string, `solver.web.app:create_app`, as `uvicorn --factory solver.web.app:create_app` would.
"""
from __future__ import annotations

import socket
from typing import Any, Callable

WEB_APP = "solver.web.app:create_app"  # the application factory uvicorn imports
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


def serve(host: str, port: int, announce: Callable[[str], Any]) -> None:
    """Listen on host:port, `announce` the address, and serve until interrupted (one process).

    ValueError when the address cannot be listened on.
    """
    import uvicorn  # deferred: the web extra (checked by `installed`)

    sock = listening_socket(host, port)
    config = uvicorn.Config(WEB_APP, factory=True, log_level="warning", access_log=False)
    config.load()  # import the app before announcing it, so that a broken app fails here
    shown = f"[{host}]" if ":" in host else host
    announce(f"Serving on http://{shown}:{port} (Ctrl-C to stop)")
    uvicorn.Server(config).run(sockets=[sock])
