"""The resident process: a warm `deduce` that runs the commands a person types one after another.

A fresh process pays about half a second before a command that searches can start (importing NumPy,
pyarrow and Numba, setting up Numba's CPU target, loading the kernels and the Wordle files), more than
the command itself. At a terminal the first `hint`, `tree`, `review` or `play` starts a resident
process in the background and runs as before; later ones are handed to it (`forward`): it forks a copy
of itself for the command, with the library imported, the Wordle trees, books and rankings read and the
kernels loaded, and the copy runs the command on the caller's own standard input, output and error
(passed over a Unix socket), in its folder and environment, so that the output, the exit status and
Ctrl-C are those of the command run in place. Each command runs in a copy of its own: nothing one
command changes reaches the next.

`DEDUCE_RESIDENT` chooses: ``auto`` (the default) when standard input, output and error are all
terminals and CI is not set; ``1`` always (a script, the benchmarks); ``0`` never. The resident process
ends after DEDUCE_RESIDENT_IDLE seconds without a command (IDLE_SECONDS by default), when the package or
the files it read change (the command is then run in place), and on SIGTERM. There is one per user,
Python, installed package and environment: its socket, lock and log are in a folder only the user
can enter (``$XDG_RUNTIME_DIR/deduce``, else ``$TMPDIR/deduce-UID``). Anything unexpected on the way
(no such folder, a resident that is starting or refuses, a Python without `os.fork`) runs the command
in place, as without it.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import pkgutil
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.cli.lazy import lazy_module

# only the resident and a command run in place load these (the caller's side needs the standard library alone)
cli = lazy_module("solver.cli.main")
core = lazy_module("solver.core")
games = lazy_module("solver.games")
analysis = lazy_module("solver.analysis")
artifacts = lazy_module("solver.core.artifacts")
kernel_cache = lazy_module("solver.core.kernel_cache")
registry = lazy_module("solver.core.registry")
runtime = lazy_module("solver.core.runtime")

ENV, IDLE_ENV = "DEDUCE_RESIDENT", "DEDUCE_RESIDENT_IDLE"
IDLE_SECONDS = 900.0
COMMANDS = frozenset({"hint", "tree", "review", "play"})  # read-only, no dialogue on standard input
VOLATILE = frozenset({"_", "PWD", "OLDPWD", "COLUMNS", "LINES", "SHLVL"})  # differ between commands of a shell
HANDSHAKE_SECONDS = 5.0  # a resident that has not started the command by then is left alone
MAX_REQUEST = 1 << 22  # bytes: the command line, its folder and environment
REFUSAL_SECONDS = 3600.0  # a resident that could not start is not tried again for this long
MAX_SOCKET_PATH = 100  # bytes: a Unix socket's path is at most 107 on Linux, 103 on macOS
PACKAGE = Path(__file__).resolve().parents[1]  # the solver package: its sources decide whether a resident is stale
log = logging.getLogger(__name__)


# -- the caller's side: tiny, standard library only ------------------------------------------------
def wanted(argv: list[str], environ=os.environ) -> bool:
    """Return whether the command `argv` (without the program name) should go to a resident process."""
    setting = environ.get(ENV, "auto").strip().lower()
    if setting in ("0", "off", "no", "false") or not argv or argv[0] not in COMMANDS:
        return False
    if not hasattr(os, "fork") or not hasattr(socket, "send_fds"):
        return False
    if setting in ("1", "on", "yes", "true"):
        return True
    if setting != "auto" or environ.get("CI"):
        return False
    return all(os.isatty(fd) for fd in (0, 1, 2))


def folder(environ=os.environ) -> Path:
    """Return the folder of the resident's socket, lock and log (made, only this user may enter it), or
    raise OSError when it cannot be made or is not private."""
    runtime = environ.get("XDG_RUNTIME_DIR")
    place = Path(runtime) / "deduce" if runtime and os.path.isdir(runtime) \
        else Path(tempfile.gettempdir()) / f"deduce-{os.getuid()}"
    place.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = place.lstat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077 or not place.is_dir() or place.is_symlink():
        raise PermissionError(f"{place} is not a folder private to this user")
    return place


def key(environ=os.environ) -> str:
    """Return the name of the resident for this Python, package, user and environment (16 hex digits)."""
    settings = sorted((name, value) for name, value in environ.items() if name not in VOLATILE)
    text = json.dumps([sys.executable, str(PACKAGE), os.getuid(), settings])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _paths(place: Path, name: str) -> dict[str, Path]:
    return {kind: place / f"resident-{name}.{kind}" for kind in ("sock", "lock", "log", "refused")}


def forward(argv: list[str]) -> int | None:
    """Run the command `argv` in the resident process and return its exit status; None when it was not
    run there (no resident yet: one is started in the background; or not `wanted`): run it in place."""
    if not wanted(argv):
        return None
    try:
        paths = _paths(folder(), key())
        cwd = os.getcwd()
    except OSError:
        return None
    if len(os.fsencode(paths["sock"])) > MAX_SOCKET_PATH:  # a folder too deep for a socket: none
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(HANDSHAKE_SECONDS)
    try:
        conn.connect(str(paths["sock"]))
    except OSError:
        conn.close()
        start(paths)
        return None
    with conn:
        return _converse(conn, {"argv": argv, "cwd": cwd, "env": dict(os.environ)})


def _converse(conn: socket.socket, request: dict) -> int | None:
    """Send `request` with this process's standard streams; return the command's exit status, or None
    when the resident did not start it."""
    body = json.dumps(request).encode()
    try:
        socket.send_fds(conn, [struct.pack("!I", len(body))], [0, 1, 2])
        conn.sendall(body)
        reader = conn.makefile("rb")
        started = reader.readline()
    except OSError:
        return None
    if not started.startswith(b"pid "):
        return None  # a stale or refusing resident: nothing was run
    pid = int(started[4:])
    conn.settimeout(None)

    def relay(signum, frame):  # Ctrl-C and the like reach the command, which ends as it would in place
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    relayed = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    before = {signum: signal.signal(signum, relay) for signum in relayed}
    try:
        ended = reader.readline()
    except OSError:
        ended = b""
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if ended.startswith(b"exit "):
        return int(ended[5:])
    os.write(2, b"error: the resident deduce process ended during the command (DEDUCE_RESIDENT=0 runs commands "
                b"in their own process)\n")
    return 1


def start(paths: dict[str, Path]) -> None:
    """Start a resident process in the background, unless one holds the lock (starting, or serving) or
    one refused to start within REFUSAL_SECONDS."""
    try:
        if time.time() - paths["refused"].stat().st_mtime < REFUSAL_SECONDS:
            return
    except OSError:
        pass
    try:
        with open(paths["lock"], "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError: a resident holds it
            fcntl.flock(lock, fcntl.LOCK_UN)
        with open(paths["log"], "wb") as log_file:
            subprocess.Popen([sys.executable, "-m", "solver.cli.resident", str(paths["sock"])],
                             stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                             start_new_session=True, close_fds=True)
    except OSError:
        pass


def run_here(argv: list[str]) -> int:
    """Run the command `argv` in this process; return its exit status."""
    try:
        cli.app(args=argv, prog_name="deduce")
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            return exit_.code or 0
        print(exit_.code, file=sys.stderr)
        return 1
    return 0


def main() -> None:
    """The `deduce` program: the command in the resident process when there is one (`forward`), else here."""
    try:
        status = forward(sys.argv[1:])
    except KeyboardInterrupt:  # Ctrl-C before the command started (after, it reaches the command)
        sys.exit(130)
    sys.exit(run_here(sys.argv[1:]) if status is None else status)


# -- the resident's side ---------------------------------------------------------------------------
class Refused(Exception):
    """The resident cannot serve safely (the reason); it records that and ends."""


def warm_up() -> None:
    """Import what the commands use, read the Wordle files and load every cached serial kernel; raise
    Refused when that leaves the process unsafe to fork (a parallel kernel's threads started) or the
    library warned (a warning is printed once a process: a copy would not print it again)."""
    warnings: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            warnings.append(record.getMessage())

    collect = Collect(logging.WARNING)
    logging.getLogger("solver").addHandler(collect)
    try:
        with open(os.devnull, "w") as devnull:
            stdout, sys.stdout = sys.stdout, devnull
            try:
                for argv in (["hint", "wordle"], ["hint", "wordle", "--hard"], ["tree", "wordle"]):
                    run_here(argv)
                # the opener books, read when a history leaves the tree
                books = [runtime.get_solver(registry.get_game("wordle", variant)).book
                         for variant in ("normal", "hard")]
            finally:
                sys.stdout = stdout
        for package in (core, games, analysis):
            for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
                pkgutil.resolve_name(module.name)  # imports: defines their kernels (nothing is compiled at import)
        loaded = kernel_cache.load_cached_serial_kernels("solver.")
    finally:
        logging.getLogger("solver").removeHandler(collect)
    if warnings:
        raise Refused(f"the library warned while loading: {warnings[0]}")
    if kernel_cache.parallel_layer_started():
        raise Refused("a parallel kernel ran while loading: a copy of this process could not run one")
    log.info("warm: %d kernels loaded, opener books of %d states", loaded, sum(len(book) for book in books))


def fingerprint() -> str:
    """Return a digest of what a resident's answers depend on and may change under it: the package's
    sources and the artifact folders' files (names, sizes, times)."""
    seen = []
    for root, folders, files in os.walk(PACKAGE):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        seen += [os.path.join(root, name) for name in sorted(files) if name.endswith(".py")]
    for place in artifacts.search_dirs():
        try:
            seen += sorted(entry.path for entry in os.scandir(place) if entry.name.endswith(".parquet"))
        except OSError:
            seen.append(str(place))
    digest = hashlib.sha256()
    for path in seen:
        try:
            info = os.stat(path)
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ino}\n".encode())
        except OSError:
            digest.update(f"{path}\0-\n".encode())
    return digest.hexdigest()


def _recv_exactly(conn: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 16))
        if not chunk:
            raise ConnectionError("the caller left")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_request(conn: socket.socket) -> tuple[dict, list[int]]:
    """Return a caller's request and its three standard streams' descriptors; raise OSError or ValueError
    for anything else (another user, a malformed request)."""
    if hasattr(socket, "SO_PEERCRED"):
        _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        if uid != os.getuid():
            raise PermissionError(f"a caller of user {uid}")
    header, fds, _, _ = socket.recv_fds(conn, 4, 3)
    try:
        if len(header) != 4 or len(fds) != 3:
            raise ValueError("a request without its header or its three streams")
        size = struct.unpack("!I", header)[0]
        if size > MAX_REQUEST:
            raise ValueError(f"a request of {size} bytes")
        request = json.loads(_recv_exactly(conn, size))
        if not (isinstance(request, dict) and isinstance(request.get("argv"), list)
                and all(isinstance(a, str) for a in request["argv"]) and isinstance(request.get("cwd"), str)
                and isinstance(request.get("env"), dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in request["env"].items())):
            raise ValueError("a malformed request")
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def _reopen_standard_streams() -> None:
    """Point sys.stdin, sys.stdout and sys.stderr at descriptors 0, 1 and 2 anew, as Python opens them at
    start: line-buffered output on a terminal, and always on standard error."""
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        old = getattr(sys, name)
        line_buffered = fd == 2 or (fd == 1 and os.isatty(fd))
        stream = open(fd, "r" if fd == 0 else "w", buffering=1 if line_buffered else -1, closefd=False,
                      encoding=getattr(old, "encoding", None) or "utf-8", errors=getattr(old, "errors", None))
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


class Resident:
    """The resident process: accepts callers on `socket_path` and runs each command in a fork of itself."""

    def __init__(self, socket_path: Path, log_handler: logging.Handler | None = None):
        self.socket_path = socket_path
        self.log_handler = log_handler
        self.paths = _paths(socket_path.parent, socket_path.name.removeprefix("resident-").removesuffix(".sock"))
        try:
            self.idle = float(os.environ.get(IDLE_ENV, IDLE_SECONDS))
        except ValueError:
            self.idle = IDLE_SECONDS
        self.running: dict[int, socket.socket] = {}  # command's process -> its caller
        self.stale = False
        self.selector = selectors.DefaultSelector()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.bound = -1  # the socket file's inode once bound

    def serve(self) -> None:
        """Warm up, then serve until idle, stale or SIGTERM; leave nothing behind."""
        lock = open(self.paths["lock"], "a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # another resident of the same name is starting or serving
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n")  # who holds it (the tests end it so)
        lock.flush()
        os.chdir("/")
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, self._stop)
        try:
            warm_up()
            self.known = fingerprint()
        except Refused as err:
            self.paths["refused"].write_text(f"{err}\n")
            log.warning("not serving: %s", err)
            return
        self.paths["refused"].unlink(missing_ok=True)
        self.socket_path.unlink(missing_ok=True)  # a resident that died left it: the lock says none serves
        try:
            try:
                self.listener.bind(str(self.socket_path))
            except OSError as err:
                self.paths["refused"].write_text(f"{err}\n")
                log.warning("not serving: %s", err)
                return
            self.bound = os.stat(self.socket_path).st_ino
            os.chmod(self.socket_path, 0o600)
            self.listener.listen(16)
            self.selector.register(self.listener, selectors.EVENT_READ, "caller")
            log.info("serving on %s", self.socket_path)
            self._loop()
        except _Stop:
            log.info("stopped by a signal")
        finally:
            self._remove_socket()
            for pid in list(self.running):
                self._signal(pid, signal.SIGTERM)
            self.listener.close()

    def _remove_socket(self) -> None:
        """Remove the socket file if it is still this resident's (a later one may have replaced it)."""
        try:
            if os.stat(self.socket_path).st_ino == self.bound:
                self.socket_path.unlink()
        except OSError:
            pass

    def _stop(self, signum, frame) -> None:
        raise _Stop(signum)

    def _loop(self) -> None:
        last = time.monotonic()
        while True:
            if self.running:
                timeout = None
            else:
                if self.stale:
                    return
                timeout = self.idle - (time.monotonic() - last)
                if timeout <= 0:
                    log.info("idle for %.0f s: ending", self.idle)
                    return
            events = self.selector.select(timeout)
            if events:
                last = time.monotonic()
            for event, _ in events:
                if event.data == "caller":  # (data: "caller", or (what, pid))
                    self._accept()
                elif event.data[0] == "ended":  # the command's process ended: its end of the pipe closed
                    self._report(event.data[1], event.fileobj)
                else:  # a caller's socket: it left before its command ended (killed): end the command
                    self._signal(event.data[1], signal.SIGINT)
                    self.selector.unregister(event.fileobj)

    def _signal(self, pid: int, signum: int) -> None:
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    def _report(self, pid: int, done: int) -> None:
        """Tell the caller of the command's process `pid` its exit status (`done`: the pipe that said it ended)."""
        self.selector.unregister(done)
        os.close(done)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        conn = self.running.pop(pid)
        try:
            self.selector.unregister(conn)
        except (KeyError, ValueError):  # unregistered when the caller left
            pass
        try:
            conn.sendall(f"exit {code if code >= 0 else 128 - code}\n".encode())
        except OSError:
            pass
        conn.close()

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        conn.settimeout(HANDSHAKE_SECONDS)
        try:
            request, fds = _read_request(conn)
        except (OSError, ValueError) as err:
            log.info("caller refused: %s", err)
            conn.close()
            return
        try:
            if fingerprint() != self.known:
                self.stale = True
                log.info("the package or its files changed: ending")
                conn.sendall(b"stale\n")
                conn.close()
                return
            self._fork(conn, request, fds)
        finally:
            for fd in fds:
                os.close(fd)

    def _fork(self, conn: socket.socket, request: dict, fds: list[int]) -> None:
        go_read, go_write = os.pipe()
        done_read, done_write = os.pipe()  # the command's process holds the writing end until it ends
        pid = os.fork()
        if pid == 0:  # the command's process: never returns
            os.close(go_write)
            os.close(done_read)
            self._child(conn, request, fds, go_read)
        os.close(go_read)
        os.close(done_write)
        try:
            conn.sendall(f"pid {pid}\n".encode())
            os.write(go_write, b"g")
        except OSError:  # the caller left at once: the command does not start
            conn.close()
            conn = None
        finally:
            os.close(go_write)
        if conn is not None:
            log.info("%s: process %d", request["argv"][0] if request["argv"] else "(nothing)", pid)
            self.running[pid] = conn
            self.selector.register(conn, selectors.EVENT_READ, ("caller left", pid))
            self.selector.register(done_read, selectors.EVENT_READ, ("ended", pid))
        else:
            os.close(done_read)
            os.waitpid(pid, 0)

    def _child(self, conn: socket.socket, request: dict, fds: list[int], go_read: int) -> None:
        code = 1
        try:
            for signum in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(signum, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            if self.log_handler is not None:  # the command logs as in a process of its own
                log.removeHandler(self.log_handler)
                log.setLevel(logging.NOTSET)
                log.propagate = True
            self.selector.close()
            self.listener.close()
            for other in [conn, *self.running.values()]:
                other.close()
            if os.read(go_read, 1) != b"g":
                os._exit(0)
            os.close(go_read)
            for target, fd in zip((0, 1, 2), fds):
                os.dup2(fd, target)
            _reopen_standard_streams()
            os.environ.clear()
            os.environ.update(request["env"])
            try:
                os.chdir(request["cwd"])
            except OSError as err:
                print(f"error: {request['cwd']}: {err.strerror}", file=sys.stderr)
            else:
                sys.argv = ["deduce", *request["argv"]]
                code = run_here(request["argv"])
        except KeyboardInterrupt:
            code = 130
        except BaseException as err:  # noqa: BLE001 - the command's process ends here whatever happened
            print(f"error: {type(err).__name__}: {err}", file=sys.stderr)
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)


class _Stop(BaseException):
    """SIGTERM, SIGHUP or SIGINT reached the resident: it ends."""


def _log_to_stderr() -> logging.Handler:
    """Send this module's log (not the library's) to standard error, the resident's log file; return the handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return handler


if __name__ == "__main__":
    Resident(Path(sys.argv[1]), _log_to_stderr()).serve()
