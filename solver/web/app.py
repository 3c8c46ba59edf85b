"""The ASGI application: the API router, JSON errors, the body's limits and the page's static files.

Every error is `{"error": {"field": ..., "message": ...}}` on one line: FastAPI's validation errors
become 422 naming the field (400 for malformed JSON), unknown paths 404, wrong methods 405, a body
that does not arrive within the body timeout 408, bodies over MAX_BODY 413, a full live pool 503 with
Retry-After (`admission`); a bug answers a generic 500 (the traceback goes to the server's log only).
Redirects (a directory's slash, a path's trailing slash) have a relative Location: never one built
from the request's Host header, which the client chooses.
"""
from __future__ import annotations

import json
import logging
import sys
import threading
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles

try:  # Swagger UI and ReDoc from an installed copy (the web extra), so /docs and /redoc work offline
    import fastapi_offline
    from fastapi_offline import FastAPIOffline
except ImportError:  # without it FastAPI's own pages would load their scripts from a CDN: no pages then
    FastAPIOffline = None

from solver.core.defaults import BODY_TIMEOUT
from solver.core.search.live import Stopped
from solver.core.server_limits import Limits
from solver.web import service
from solver.web.admission import QUICK_QUEUE, QUICK_SECONDS, QUICK_WAIT, QUICK_WORKERS, Busy, LivePool
from solver.web.api import router
from solver.web.service import FieldError

MAX_BODY = 64 * 1024  # bytes of a request body
DOCS_ASSETS = "/docs-assets"  # where /docs and /redoc find their scripts and styles (fastapi-offline's)
REDOC_JS = "/redoc-assets/redoc.standalone.js"  # ReDoc's script without its one request to a CDN (`redoc_script`)
REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"  # the logo ReDoc's script fetches for its sidebar's credit
STATIC = Path(__file__).with_name("static")  # the page (index.html, scripts, styles)
MESSAGE_LIMIT = 300  # characters of an error message
BODY_KEY = "deduce.body"  # where BodyLimit leaves the body it read in the request's scope (for error messages)
_LOCATIONS = ("body", "query", "path", "header", "cookie")
_TYPE_TAGS = {"str", "int", "float", "bool", "list", "dict", "none"}  # pydantic's names of union members
log = logging.getLogger(__name__)


def error(status: int, field: str | None, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """Return the JSON error response every failure gives."""
    text = " ".join(str(message).split())
    text = text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT - 3] + "..."
    return JSONResponse({"error": {"field": field, "message": text}}, status_code=status, headers=headers)


def field_path(loc: tuple[Any, ...]) -> tuple[str | None, bool]:
    """Return the request field of a validation error's location ("history[0].guess"; None for the
    whole body), and whether the location went on into a union member (`feedback`'s str | list)."""
    parts = list(loc[1:] if loc and loc[0] in _LOCATIONS else loc)
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier() and part not in _TYPE_TAGS:
            out += ("." if out else "") + part
        else:
            return out or None, True
    return out or None, False


def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """Answer FastAPI's validation errors: 400 for malformed JSON, else 422 naming the first bad field."""
    first = exc.errors()[0]
    if first.get("type") == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "not JSON")
        return error(400, None, f"malformed JSON: {reason} at character {first['loc'][-1]}")
    field, union = field_path(tuple(first.get("loc", ())))
    if first.get("type") in ("unicode_text", "string_unicode") and field is not None:
        detail = first.get("msg", "") if first.get("type") == "unicode_text" else "not Unicode text (a lone surrogate)"
        return error(422, field, f"{field}: {detail}; send text in UTF-8")
    if field is None:
        missing = first.get("type") == "missing"
        return error(422, None, "the request needs a JSON body" if missing else
                     "the body must be a JSON object (Content-Type: application/json)")
    if union and field.endswith("feedback"):
        return error(422, field, f"{field}: feedback must be a string like GYRRR or 0,1,0, or a list of integers")
    return error(422, field, f"{field}: {first.get('msg', 'invalid value')}")


def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Answer Starlette's HTTP errors (404, 405, a body FastAPI could not read) in the JSON shape."""
    if exc.status_code == 404:
        message = f"no such page or API endpoint: {request.url.path[:100]}"
    elif exc.status_code == 405:
        message = f"{request.method} is not allowed here: use {(exc.headers or {}).get('Allow', 'another method')}"
    elif exc.status_code == 400:
        return body_error(request, exc.__cause__)
    else:
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
    return error(exc.status_code, None, message, exc.headers)


class _Digits:
    """A JSON integer too long to read (`sys.get_int_max_str_digits`), found by `_long_number`."""

    def __init__(self, text: str):
        self.digits = len(text.lstrip("-"))


def _long_number(body: bytes) -> tuple[str | None, int] | None:
    """Return (the field, its digits) of the first integer of a JSON body too long to read, or None."""
    limit = sys.get_int_max_str_digits() or float("inf")
    try:
        document = json.loads(body, parse_int=lambda text: _Digits(text) if len(text) > limit else 0)
    except (ValueError, RecursionError):
        return None
    todo: list[tuple[str, Any]] = [("", document)]
    while todo:
        path, value = todo.pop(0)
        if isinstance(value, _Digits):
            return path or None, value.digits
        if isinstance(value, dict):
            todo.extend((f"{path}.{key}" if path else str(key), item) for key, item in value.items())
        elif isinstance(value, list):
            todo.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
    return None


def body_error(request: Request, cause: BaseException | None) -> JSONResponse:
    """Answer a body FastAPI could not parse (it says only "error parsing the body"), saying why."""
    if isinstance(cause, UnicodeDecodeError):
        return error(400, None, f"the body is not UTF-8: byte 0x{cause.object[cause.start]:02x} at position "
                                f"{cause.start} ({cause.reason}); send JSON in UTF-8")
    if isinstance(cause, RecursionError):
        return error(400, None, "the JSON body nests too deeply")
    long = _long_number(request.scope.get(BODY_KEY, b""))
    if long is not None:
        field, digits = long
        where = f"{field}: " if field else ""
        return error(422, field, f"{where}a number of {digits} digits: at most {sys.get_int_max_str_digits()} "
                                 "digits are read")
    return error(400, None, "malformed request body: send JSON in UTF-8")


def busy_error(request: Request, exc: Busy) -> JSONResponse:
    return error(503, None, str(exc), {"Retry-After": str(exc.retry_after)})


def stopping_error(request: Request, exc: Stopped) -> JSONResponse:
    return error(503, None, str(exc), {"Connection": "close"})


def field_error(request: Request, exc: FieldError) -> JSONResponse:
    return error(exc.status, exc.field, str(exc))


def value_error(request: Request, exc: ValueError) -> JSONResponse:
    """A ValueError the service did not attribute to a field: still an input error."""
    return error(422, None, str(exc))


def internal_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug: a generic message (the traceback is logged by the server, never sent)."""
    return error(500, None, "internal error: the request could not be answered")


class BodyLimit:
    """ASGI middleware: read the body first, answering 413 when it is over `limit` bytes and 408 when
    it has not all arrived `timeout` seconds after the headers (uvicorn waits for a body forever). Both
    close the connection: the rest of the body is not read. The body read is kept in the scope
    (BODY_KEY) for `body_error`."""

    def __init__(self, app, limit: int = MAX_BODY, timeout: float = BODY_TIMEOUT):
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._too_large(scope, receive, send)
        chunks, size, complete = [], 0, False
        with anyio.move_on_after(self.timeout):
            while size <= self.limit:
                message = await receive()
                if message["type"] != "http.request":  # the client went away
                    return None
                chunks.append(message.get("body", b""))
                size += len(chunks[-1])
                if not message.get("more_body"):
                    complete = True
                    break
        if size > self.limit:
            return await self._too_large(scope, receive, send)
        if not complete:
            return await _closing(error(408, None, f"the request body did not arrive within {self.timeout:g} s"),
                                  scope, receive, send)
        body = scope[BODY_KEY] = b"".join(chunks)
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, scope, receive, send) -> None:
        await _closing(error(413, None, f"the request body is over {self.limit // 1024} KB"), scope, receive, send)


async def _closing(response: JSONResponse, scope, receive, send) -> None:
    """Send `response` asking the server to close the connection (a body left unread cannot be skipped)."""
    response.headers["connection"] = "close"
    await response(scope, receive, send)


def relative_location(location: str) -> str:
    """Return a redirect's Location as a path and query only: no scheme, no host (taken from the Host
    header, a client's choice), one leading slash ("//host" would name a host) and no dot segments."""
    parts = urlsplit(location)
    segments: list[str] = []
    for segment in parts.path.replace("\\", "/").split("/"):
        if segment == "..":
            segments = segments[:-1]
        elif segment not in ("", "."):
            segments.append(segment)
    path = "/" + "/".join(segments)
    if parts.path.endswith(("/", "/.", "/..")) and segments:
        path += "/"
    return path + (f"?{parts.query}" if parts.query else "")


class RelativeRedirects:
    """ASGI middleware: every redirect's Location made relative (`relative_location`)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_relative(message) -> None:
            if message["type"] == "http.response.start" and 300 <= message["status"] < 400:
                headers = [(name, relative_location(value.decode("latin-1")).encode("latin-1"))
                           if name.lower() == b"location" else (name, value) for name, value in message["headers"]]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_relative)


def _fallback(folder: Path, not_found):
    """Return the router's default: the page's files from `folder` outside /api (when the folder
    exists: the app starts without it), else 404."""
    static = StaticFiles(directory=folder, html=True, check_dir=False)

    async def default(scope, receive, send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http":
            return await not_found(scope, receive, send)
        if path == "/api" or path.startswith("/api/") or not folder.is_dir():
            raise HTTPException(404)
        await static(scope, receive, send)  # raises HTTPException 404 / 405 itself

    return default


@asynccontextmanager
async def _lifespan(app: FastAPI):
    """At startup, run a first kernel on this (the main) thread, then build the games list and load
    the kernels in the background (`service.prime_kernels`, `service.warm`)."""
    service.prime_kernels()
    threading.Thread(target=service.warm, name="deduce-warm", daemon=True).start()
    yield


@lru_cache(maxsize=1)
def redoc_script() -> bytes:
    """Return fastapi-offline's copy of ReDoc's script without the CDN address of the logo in its sidebar's
    credit (a console error offline): given no address, ReDoc drops the image and keeps the credit's text."""
    script = (Path(fastapi_offline.__file__).with_name("static") / "redoc.standalone.js").read_bytes()
    return script.replace(REDOC_LOGO, b"")


def add_redoc(app: FastAPI, path: str = "/redoc") -> None:
    """Serve ReDoc at `path` from `redoc_script`: no request leaves the server."""

    @app.get(path, include_in_schema=False)
    async def redoc_page(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - ReDoc",
                              redoc_js_url=f"{root}{REDOC_JS}", redoc_favicon_url=f"{root}{DOCS_ASSETS}/favicon.png",
                              with_google_fonts=False)

    @app.get(REDOC_JS, include_in_schema=False)
    async def redoc_js() -> Response:
        return Response(redoc_script(), media_type="text/javascript")


def create_app(limits: Limits | None = None) -> FastAPI:
    """Return the application: /api (documented at /openapi.json, /docs and /redoc), the page at /;
    `limits` (default: from the environment, `Limits.from_env`) bound its live pool and body timeout.
    /docs and /redoc load Swagger UI and ReDoc from DOCS_ASSETS (the package fastapi-offline), never
    from a CDN (ReDoc's script from REDOC_JS: `redoc_script`); without that package they are absent (404)."""
    limits = Limits.from_env() if limits is None else limits
    about = dict(title="deduce", lifespan=_lifespan,
                 summary="Deduction-game solvers played from precomputed decision trees.",
                 description="The JSON API of `deduce serve`. Every error is `{\"error\": {\"field\": ..., "
                             "\"message\": ...}}`; `field` names the request field at fault.",
                 swagger_ui_parameters={"validatorUrl": None})  # Swagger UI's validator badge is online
    if FastAPIOffline is None:
        app = FastAPI(**about, docs_url=None, redoc_url=None)
    else:
        app = FastAPIOffline(**about, static_url=DOCS_ASSETS, redoc_url=None)
        add_redoc(app)
    app.state.live = LivePool(limits.workers, limits.queue, service.LIVE_SECONDS, release_when_idle=True)
    # the quick answers of the requests the live pool refuses (`api.Job.quick`): one more thread, briefly
    app.state.quick = LivePool(QUICK_WORKERS, QUICK_QUEUE, QUICK_SECONDS, QUICK_WAIT)
    app.state.limits = limits
    app.include_router(router)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(Busy, busy_error)
    app.add_exception_handler(Stopped, stopping_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(FieldError, field_error)
    app.add_exception_handler(ValueError, value_error)
    app.add_exception_handler(Exception, internal_error)
    app.add_middleware(BodyLimit, timeout=limits.body_timeout)
    app.add_middleware(RelativeRedirects)
    app.router.default = _fallback(STATIC, app.router.not_found)
    return app
