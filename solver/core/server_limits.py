"""The limits of one web server process, and the DEDUCE_WEB_* variables that set them: one definition
for both faces that read them, `deduce serve` (`solver.cli.serve`, which puts its options there) and
the web app (`solver.web.admission`, `solver.web.server`), so that `uvicorn --factory
solver.web.app:create_app` honours them too. The defaults a person sees in the help are in
`solver.core.defaults`.

    DEDUCE_WEB_LIVE_WORKERS      live computations at once (default: the CPU count)
    DEDUCE_WEB_LIVE_QUEUE        live requests waiting for a worker, more: 503 (default: QUEUE_PER_WORKER x the workers)
    DEDUCE_WEB_HEADER_TIMEOUT    seconds for a request's headers, else 408 and closed (HEADER_TIMEOUT)
    DEDUCE_WEB_BODY_TIMEOUT      seconds for a request's body, else 408 and closed (BODY_TIMEOUT)
    DEDUCE_WEB_KEEP_ALIVE        seconds an idle connection stays open after a response (KEEP_ALIVE)
    DEDUCE_WEB_MAX_CONNECTIONS   connections and requests at once, more: 503 (MAX_CONNECTIONS)
    DEDUCE_WEB_MAX_HEADER_BYTES  of a request's headers, more: 400 (MAX_HEADER_BYTES)
"""
from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from solver.core.defaults import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    KEEP_ALIVE,
    MAX_CONNECTIONS,
    QUEUE_PER_WORKER,
)

ENV = "DEDUCE_WEB_"  # the prefix of the variables
MAX_HEADER_BYTES = 16 * 1024  # of a request's headers, more: 400 (uvicorn's h11_max_incomplete_event_size)
LEAST = {"live_workers": 1, "live_queue": 0, "max_connections": 1, "max_header_bytes": 1}  # the whole numbers
SECONDS = ("header_timeout", "body_timeout", "keep_alive")  # positive, finite
APP = ("live_workers", "live_queue", "header_timeout", "body_timeout")  # the app's own; the others are uvicorn's


@dataclass(frozen=True)
class Limits:
    """What one server process bounds (the module's docstring); `workers` and `queue` resolve the two
    defaults given as None."""

    live_workers: int | None = None  # None: the CPU count
    live_queue: int | None = None  # None: QUEUE_PER_WORKER x live_workers
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    keep_alive: float = KEEP_ALIVE
    max_connections: int = MAX_CONNECTIONS
    max_header_bytes: int = MAX_HEADER_BYTES

    def __post_init__(self) -> None:
        """ValueError naming a limit out of range."""
        for name in (*LEAST, *SECONDS):
            value, label = getattr(self, name), name.replace("_", " ")
            if name in LEAST and value is not None and value < LEAST[name]:
                raise ValueError(f"{label} must be at least {LEAST[name]}, not {value}")
            if name in SECONDS and not 0 < value < math.inf:
                raise ValueError(f"{label} must be a positive, finite number of seconds, not {value}")

    @property
    def workers(self) -> int:
        """Return the live computations at once: `live_workers`, else the CPU count."""
        return self.live_workers if self.live_workers is not None else os.cpu_count() or 1

    @property
    def queue(self) -> int:
        """Return the live requests that may wait for a worker: `live_queue`, else QUEUE_PER_WORKER x the workers."""
        return self.live_queue if self.live_queue is not None else QUEUE_PER_WORKER * self.workers

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> Limits:
        """Return the limits `given` (None: not given), the others from the DEDUCE_WEB_* variables set
        (`environ`, default: the process's), else the defaults; ValueError naming a variable that is not
        a number, or a limit out of range."""
        environ = os.environ if environ is None else environ
        values = {}
        for item in fields(cls):
            if given.get(item.name) is not None:
                values[item.name] = given[item.name]
                continue
            variable = ENV + item.name.upper()
            text = environ.get(variable, "").strip()
            if text:
                kind = float if item.name in SECONDS else int
                try:
                    values[item.name] = kind(text)
                except ValueError:
                    what = "a whole number" if kind is int else "a number of seconds"
                    raise ValueError(f"{variable} must be {what}, not {text[:40]!r}") from None
        return cls(**values)

    def environ(self) -> dict[str, str]:
        """Return the DEDUCE_WEB_* variables of the app's limits (APP) that are not the defaults: what
        `deduce serve` exports for the app (uvicorn gets the others through its Config, `uvicorn`)."""
        return {ENV + item.name.upper(): str(value) for item in fields(self)
                if item.name in APP and (value := getattr(self, item.name)) is not None and value != item.default}

    def uvicorn(self) -> dict[str, Any]:
        """Return uvicorn.Config's arguments of the limits that uvicorn applies."""
        return {"timeout_keep_alive": self.keep_alive, "limit_concurrency": self.max_connections,
                "h11_max_incomplete_event_size": self.max_header_bytes}
