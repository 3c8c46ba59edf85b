"""The web server's limits, against a real `deduce serve` on a loopback port, spoken to in raw HTTP:
slow clients are cut off (headers that trickle, a body that stalls: 408 and the connection closed),
the connections over the limit refused (503 in JSON), bodies over the limit refused and closed, and
redirects with a relative Location whatever the Host header says. The limits are set small through
the DEDUCE_WEB_* variables that `deduce serve` reads."""
from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install '.[web]' (or '.[test]')")
pytest.importorskip("uvicorn", reason="deduce serve needs the web extra: pip install '.[web]'")

from solver.cli import serve as web
from tests.helpers import free_port

pytestmark = pytest.mark.slow  # tens of seconds in all: `make test` runs them, `make test-fast` does not

HOST = "127.0.0.1"
HEADER_TIMEOUT, BODY_TIMEOUT, MAX_CONNECTIONS = 3, 1, 12
GIVE_UP = 30.0  # seconds a test waits for the server to act: far past the limits (only reached when it never does)


@pytest.fixture(scope="module")
def server():
    port = free_port(HOST)
    env = os.environ | {"DEDUCE_WEB_HEADER_TIMEOUT": str(HEADER_TIMEOUT), "DEDUCE_WEB_BODY_TIMEOUT": str(BODY_TIMEOUT),
                        "DEDUCE_WEB_MAX_CONNECTIONS": str(MAX_CONNECTIONS)}
    process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--host", HOST, "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, _ = exchange(port, b"GET /api/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                if status == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "deduce serve did not answer within 60 s"
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=30)


def connect(port: int) -> socket.socket:
    sock = socket.create_connection((HOST, port), timeout=GIVE_UP)
    sock.settimeout(GIVE_UP)
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Read until the server closes the connection (socket.timeout after GIVE_UP if it never does)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one whole request on a new connection and read the answer until the server closes."""
    with connect(port) as sock:
        sock.sendall(request)
        return parse(read_all(sock))


def json_error_message(body: bytes, words: str) -> str:
    """Return the message of the JSON error `body`, asserting it is one line holding `words`."""
    message = json.loads(body)["error"]["message"]
    assert "\n" not in message and words in message, message
    return message


def closed_within(sock: socket.socket, seconds: float, trickle: bytes | None = None) -> tuple[bool, bytes]:
    """Return (whether the server closed the connection within `seconds`, what it sent), sending
    `trickle` every 0.2 s meanwhile (a client that keeps its headers coming)."""
    data, stop = b"", time.monotonic() + seconds
    while time.monotonic() < stop:
        ready, _, _ = select.select([sock], [], [], 0.2)
        if ready:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return True, data
            if not chunk:
                return True, data
            data += chunk
        elif trickle is not None:
            try:
                sock.sendall(trickle)
            except (BrokenPipeError, ConnectionResetError):
                return True, data
    return False, data


def test_headers_that_trickle_are_cut_off(server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n")
        closed, data = closed_within(sock, GIVE_UP, trickle=b"X")  # one byte at a time, never the end
    assert closed, "a connection trickling its headers stayed open"
    status, headers, body = parse(data)
    assert status == 408 and headers["connection"] == "close"
    json_error_message(body, "headers did not arrive")


def test_a_silent_connection_is_closed(server):
    with connect(server) as sock:
        closed, data = closed_within(sock, GIVE_UP)
    assert closed and parse(data)[0] == 408


@pytest.mark.parametrize("length, status, message", [
    (60000, 408, "body did not arrive"),  # a body that stalls after 1 KB
    (70000, 413, "over 64 KB"),  # a body announced over the limit
])
def test_a_stalled_or_oversized_body_is_refused_and_closed(server, length, status, message):
    with connect(server) as sock:
        sock.sendall(b"POST /api/next HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {length}\r\n\r\n".encode() + b'{"game": "wordle", ' + b" " * 1000)
        closed, data = closed_within(sock, GIVE_UP)
    assert closed, f"a connection whose body ({length} bytes announced) stalled stayed open"
    answered, headers, body = parse(data)
    assert answered == status and headers["connection"] == "close"
    json_error_message(body, message)


def test_connections_over_the_limit_are_refused(server):
    held = [connect(server) for _ in range(MAX_CONNECTIONS)]  # open, silent (until the header timeout)
    try:
        status, headers, body = exchange(server, b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n")
    finally:
        for sock in held:
            sock.close()
    assert status == 503 and int(headers["retry-after"]) >= 1
    json_error_message(body, f"limit of {MAX_CONNECTIONS} connections")


@pytest.mark.parametrize("path", [b"/index.html/..", b"//evil.example/..", b"/api/games/"])
def test_redirects_are_relative_whatever_the_host(server, path):
    request = b"GET " + path + b" HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"  # --path-as-is
    status, headers, _ = exchange(server, request)
    if 300 <= status < 400:
        location = headers["location"]
        assert location.startswith("/") and not location.startswith("//") and "evil.example" not in location, location
    else:
        assert status in (200, 404), status


def test_the_limits_are_checked_and_exported(monkeypatch):
    for wrong in ({"live_workers": 0}, {"live_queue": -1}, {"body_timeout": 0}, {"max_connections": 0}):
        with pytest.raises(ValueError, match=next(iter(wrong)).replace("_", " ")):
            web.Limits(**wrong)
    monkeypatch.setenv("DEDUCE_WEB_LIVE_WORKERS", "3")
    monkeypatch.setenv("DEDUCE_WEB_KEEP_ALIVE", "2.5")
    limits = web.Limits.from_env(live_queue=7)
    assert limits.environ() == {"DEDUCE_WEB_LIVE_WORKERS": "3", "DEDUCE_WEB_LIVE_QUEUE": "7"}
    assert limits.uvicorn()["timeout_keep_alive"] == 2.5 and limits.uvicorn()["limit_concurrency"] == 200
    monkeypatch.setenv("DEDUCE_WEB_MAX_CONNECTIONS", "many")
    with pytest.raises(ValueError, match="DEDUCE_WEB_MAX_CONNECTIONS must be a whole number"):
        web.Limits.from_env()


@pytest.mark.parametrize("text", ["inf", "nan", "0", "-3"])
def test_a_timeout_must_be_finite_and_positive(text):
    with pytest.raises(ValueError, match="positive, finite number of seconds"):
        web.Limits.from_env({"DEDUCE_WEB_HEADER_TIMEOUT": text})


@pytest.mark.parametrize("request_bytes", [
    b"NOT A REQUEST\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Length: x\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nab",
    b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-A: a\x00b\r\n\r\n",
    b"GET /api/games HTTP/1.1\r\n\r\n",  # no Host
    b"POST /api/games HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
])
def test_requests_http_cannot_parse_get_the_json_error_shape(server, request_bytes):
    status, headers, body = exchange(server, request_bytes)
    assert status == 400 and headers["content-type"] == "application/json", (status, headers, body)
    assert json.loads(body)["error"]["message"].startswith("the request is not valid HTTP/1.1")


def test_a_head_over_the_limit_is_refused_even_in_one_write(server):
    head = b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 70_000 + b"\r\nConnection: close\r\n\r\n"
    status, headers, body = exchange(server, head)
    assert status == 431 and json.loads(body)["error"]["message"].endswith("more than 16384 bytes")
