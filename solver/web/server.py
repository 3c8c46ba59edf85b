"""How uvicorn serves the app: its h11 protocol with a deadline for each request's headers, and its
connection limit answered in the API's JSON. `deduce serve` names it by its import string (as
`uvicorn --http solver.web.server:Protocol` would).

uvicorn closes a connection that stays idle `timeout_keep_alive` seconds after a response, but any
byte restarts that wait, and a new connection has none: a client trickling its headers a byte at a
time held its connection for ever. Here the headers of each request must all arrive within the
header timeout (`solver.core.server_limits.Limits`, DEDUCE_WEB_HEADER_TIMEOUT) of the connection's opening or of the
previous response, else the server answers 408 and closes. uvicorn answers the requests over its
`limit_concurrency` (connections or requests at once) with a plain-text 503; here it is the API's
one-line JSON error with Retry-After. And once many connections have closed (a crowd of slow
clients cut off), the C heap they used is handed back to the system (glibc's `malloc_trim`: freed
buffers are otherwise kept by the process for ever).
"""
from __future__ import annotations

import ctypes
import json
from functools import cache

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from solver.core.server_limits import Limits

RETRY_AFTER = 1  # seconds, when the connections are over the limit
TRIM_AFTER = 100  # connections closed since the most open at once: then the C heap is trimmed
TRIM_DELAY = 1.0  # seconds after that (the closing connections' buffers freed by then; at most one trim a second)
_TRIM = getattr(ctypes.CDLL(None), "malloc_trim", None)  # glibc's; elsewhere nothing to trim with


@cache
def header_timeout() -> float:
    """Return the header timeout of this process (read from the environment once)."""
    return Limits.from_env().header_timeout


def _error(status: int, reason: str, message: str) -> bytes:
    """Return a whole HTTP/1.1 response of the API's JSON error that closes the connection."""
    body = json.dumps({"error": {"field": None, "message": message}}, separators=(",", ":")).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n").encode("ascii") + body


HEAD_LIMIT = 16384  # bytes of a request's line and headers (h11's own limit holds only while they arrive)


class Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a limit on a request's head however it arrives, a
    JSON 503 over the connection limit, and the API's JSON error shape for requests HTTP cannot parse."""

    peak = 0  # the most connections open at once since the last trim (of this process)
    trimming = False  # whether a trim is due

    def __init__(self, config, server_state, app_state, _loop=None):
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout = header_timeout()
        self._header_timer = None
        limit, self.limit_concurrency = self.limit_concurrency, None  # checked by _Admit instead
        if limit is not None:
            self.app = _Admit(self.app, limit, self.connections, self.tasks)

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        Protocol.peak = max(Protocol.peak, len(self.connections))
        self._head = 0  # bytes of the current request's head seen so far (None: the head has ended)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._head = 0
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._head is not None:
            end = data.find(b"\r\n\r\n")
            seen = self._head + (end + 4 if end >= 0 else len(data))
            if seen > HEAD_LIMIT:
                self.transport.write(_error(431, "Request Header Fields Too Large",
                                            f"the request line and headers take more than {HEAD_LIMIT} bytes"))
                self.transport.close()
                return
            self._head = None if end >= 0 else seen
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        """Answer a request that HTTP cannot parse (a bad request line, Content-Length or chunk size, a
        NUL in a header, no Host) in the API's JSON error shape, and close the connection."""
        self.transport.write(_error(400, "Bad Request", f"the request is not valid HTTP/1.1 ({msg.rstrip('.')})"))
        self.transport.close()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)
        if _TRIM is not None and not Protocol.trimming and Protocol.peak - len(self.connections) >= TRIM_AFTER:
            Protocol.trimming = True
            self.loop.call_later(TRIM_DELAY, self._trim)

    def _trim(self) -> None:
        """Hand the C heap's free memory back to the system."""
        _TRIM(0)
        Protocol.peak, Protocol.trimming = len(self.connections), False

    def _arm(self) -> None:
        """Start the wait for the next request's headers."""
        self._disarm()
        if not self.transport.is_closing():
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        """The header timeout since the connection opened or the last response: close the connection
        unless a request's headers have arrived since (its body has a timeout of its own)."""
        self._header_timer = None
        if self.transport.is_closing() or (self.cycle is not None and not self.cycle.response_complete):
            return
        if self.conn.their_state is h11.IDLE:
            self.transport.write(_error(408, "Request Timeout", f"the request headers did not arrive within "
                                                                f"{self.header_timeout:g} s"))
        elif self.conn.their_state is not h11.SEND_BODY:  # SEND_BODY: answered, the body still trickling
            return
        self.transport.close()


class _Admit:
    """The app behind uvicorn's connection limit: over it (as uvicorn counts), a JSON 503."""

    def __init__(self, app, limit: int, connections: set, tasks: set):
        self.app, self.limit, self.connections, self.tasks = app, limit, connections, tasks

    async def __call__(self, scope, receive, send) -> None:
        # uvicorn counts before the request's task is added; here it is among the tasks
        if scope["type"] == "http" and (len(self.connections) >= self.limit or len(self.tasks) > self.limit):
            body = json.dumps({"error": {"field": None, "message": (
                f"the server is at its limit of {self.limit} connections and requests at once: retry in "
                f"{RETRY_AFTER} s")}}, separators=(",", ":")).encode()
            await send({"type": "http.response.start", "status": 503, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER).encode()), (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)
