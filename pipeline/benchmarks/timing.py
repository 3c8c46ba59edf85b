"""Timing helpers shared by the benchmark sections (figures are printed, never asserted)."""
from __future__ import annotations

import os
import socket
import statistics
import time
from pathlib import Path

WARM_RUNS = 5


def median_time(fn, runs: int = WARM_RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def free_port() -> int:
    """Return a TCP port free on 127.0.0.1 (bound to port 0, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """Return the CPU seconds (user + system) process `pid` has used (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)]


def wait_until_serving(client, server, errors, seconds: float = 60.0) -> None:
    """Wait until the `deduce serve` process `server` answers GET /api/games through the httpx `client`;
    SystemExit with the end of its stderr (the file `errors`) if it exits or does not answer within
    `seconds`."""
    import httpx  # defers httpx (a test extra) to the web sections

    start = time.perf_counter()
    while True:
        try:
            client.get("/api/games").raise_for_status()
            return
        except httpx.TransportError:
            if server.poll() is not None or time.perf_counter() - start > seconds:
                errors.seek(0)
                raise SystemExit(f"deduce serve did not start: {errors.read().decode()[-500:]}") from None
            time.sleep(0.1)
