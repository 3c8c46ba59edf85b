"""The web server's limits have one home (`solver.core.server_limits`, issue 62, item 3): what `deduce
serve` exports is what the web app reads back, with one set of defaults and one error text."""
from __future__ import annotations

import os

import pytest

from solver.cli import serve
from solver.core import defaults
from solver.core.server_limits import APP, ENV, Limits


def test_the_command_line_and_the_web_app_share_the_class():
    pytest.importorskip("fastapi", reason="the web app needs the web extra")
    from solver.web import admission, app, server

    assert serve.Limits is app.Limits is server.Limits is Limits
    assert not hasattr(admission, "Limits") and not hasattr(admission, "ENV")


def test_what_deduce_serve_exports_the_app_reads_back():
    given = Limits(live_workers=3, live_queue=7, header_timeout=2.5, body_timeout=4.0, keep_alive=1.5,
                   max_connections=9, max_header_bytes=1000)
    exported = given.environ()
    assert set(exported) == {ENV + name.upper() for name in APP}
    assert Limits.from_env(exported) == Limits(live_workers=3, live_queue=7, header_timeout=2.5, body_timeout=4.0)
    assert given.uvicorn() == {"timeout_keep_alive": 1.5, "limit_concurrency": 9, "h11_max_incomplete_event_size": 1000}


def test_defaults_resolve_alike_for_both():
    limits = Limits.from_env({})
    assert limits.environ() == {}  # nothing to export: the app resolves the same defaults
    assert limits.workers == (os.cpu_count() or 1) and limits.queue == defaults.QUEUE_PER_WORKER * limits.workers
    assert Limits(live_workers=3).queue == defaults.QUEUE_PER_WORKER * 3
    assert (limits.header_timeout, limits.body_timeout) == (defaults.HEADER_TIMEOUT, defaults.BODY_TIMEOUT)


@pytest.mark.parametrize("variable, text, message", [
    ("LIVE_QUEUE", "lots", "DEDUCE_WEB_LIVE_QUEUE must be a whole number, not 'lots'"),
    ("BODY_TIMEOUT", "soon", "DEDUCE_WEB_BODY_TIMEOUT must be a number of seconds, not 'soon'"),
    ("LIVE_WORKERS", "0", "live workers must be at least 1, not 0"),
    ("KEEP_ALIVE", "inf", "keep alive must be a positive, finite number of seconds, not inf"),
])
def test_one_error_text_names_what_is_wrong(variable, text, message):
    with pytest.raises(ValueError, match=message):
        Limits.from_env({ENV + variable: text})


def test_an_option_given_wins_over_its_variable():
    limits = Limits.from_env({ENV + "LIVE_QUEUE": "9", ENV + "LIVE_WORKERS": "2"}, live_queue=1, live_workers=None)
    assert (limits.workers, limits.queue) == (2, 1)
