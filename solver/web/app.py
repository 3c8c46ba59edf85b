"""The ASGI application: the API router, JSON errors, a body-size limit and the page's static files.

Every error is `{"error": {"field": ..., "message": ...}}` on one line: FastAPI's validation errors
become 422 naming the field (400 for malformed JSON), unknown paths 404, wrong methods 405, bodies
over MAX_BODY 413; a bug answers a generic 500 (the traceback goes to the server's log only).
"""
from __future__ import annotations

import logging
import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles

from solver.web import service
from solver.web.api import router
from solver.web.service import FieldError

MAX_BODY = 64 * 1024  # bytes of a request body
STATIC = Path(__file__).with_name("static")  # the page (index.html, scripts, styles)
MESSAGE_LIMIT = 300  # characters of an error message
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
        message = "malformed request body: send JSON in UTF-8"
    else:
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
    return error(exc.status_code, None, message, exc.headers)


def field_error(request: Request, exc: FieldError) -> JSONResponse:
    return error(exc.status, exc.field, str(exc))


def value_error(request: Request, exc: ValueError) -> JSONResponse:
    """A ValueError the service did not attribute to a field: still an input error."""
    return error(422, None, str(exc))


def internal_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug: a generic message (the traceback is logged by the server, never sent)."""
    return error(500, None, "internal error: the request could not be answered")


class BodyLimit:
    """ASGI middleware: read the body first and answer 413 when it is over `limit` bytes."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._too_large(scope, receive, send)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                return await self._too_large(scope, receive, send)
            if not message.get("more_body"):
                break
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, scope, receive, send) -> None:
        await error(413, None, f"the request body is over {self.limit // 1024} KB")(scope, receive, send)


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


def create_app() -> FastAPI:
    """Return the application: /api (documented at /docs and /openapi.json), the page at /."""
    app = FastAPI(title="deduce", lifespan=_lifespan,
                  summary="Deduction-game solvers played from precomputed decision trees.",
                  description="The JSON API of `deduce serve`. Every error is `{\"error\": {\"field\": ..., "
                              "\"message\": ...}}`; `field` names the request field at fault.")
    app.include_router(router)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(FieldError, field_error)
    app.add_exception_handler(ValueError, value_error)
    app.add_exception_handler(Exception, internal_error)
    app.add_middleware(BodyLimit)
    app.router.default = _fallback(STATIC, app.router.not_found)
    return app
