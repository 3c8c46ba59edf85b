"""Where the pipeline's parallel tasks run: local worker processes (the default) or a Dask cluster.

The builds hand their coarse tasks (one root class or unit of a tree, one root child of a greedy
tree, one group of anagram openers) to the *current* backend (`current`, set by `open_backend` /
`using` around a build):

* `Local` (the default, no Dask needed): the builds keep their joblib processes (Numba on one
  thread in each); the opener ranking (`pipeline.builders.opener_ranking.rank_openers`) uses joblib's
  reusable executor, handing out tasks a few at a time with the current cut-off.
* `Dask` (`pip install 'deduce-solver[dask]'`): a `distributed.Client` on a running scheduler
  (``tcp://host:port``), or on a `LocalCluster` started here (worker processes on 127.0.0.1, one
  thread each). Tasks go to the scheduler one future each (`Client.submit`); a worker that dies
  loses only the tasks it held, which the scheduler gives to another worker (a task that kills
  three workers fails the run, Dask's ``allowed-failures``). Results come back to this process,
  which alone writes the artifacts and checkpoints.

What a task carries: the game's key (name, variant) and fingerprint when the game is registered
(the worker rebuilds it with `solver.core.registry.get_game` and checks the fingerprint, so a
worker with other word lists or rule code fails loudly instead of computing something else), the
pickled game otherwise; for the feedback table only its sha256 and the function that computes it,
which the caller passes (`make_table`, e.g. `pipeline.builders.feedback_tables.compute_table`): each worker process
computes the table once (kept per process, `worker_table`) and checks it against that digest. A
checkpoint folder of this machine (`Scratch` in the arguments) becomes a temporary folder of the
worker, removed after the task: the caller saves the returned result itself.

Worker processes run one task at a time (a lock per process: the search's per-process caches are
not thread-safe), so start Dask workers with one thread each (``dask worker --nthreads 1
--nworkers N``).
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import socket
import tempfile
import threading
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, CancelledError, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from solver.core.bounded_input import excerpt
from solver.core.game import Game
from solver.core.registry import UsageError, get_game, registered

BACKENDS = ("local", "dask")
MISSING_DASK = "--backend dask needs the dask extra: pip install 'deduce-solver[dask]'"
CONNECT_SECONDS = 10  # to reach a scheduler and have its answer (the handshake of Dask's protocol)
WORKER_SECONDS = 60  # for a first worker to join a scheduler that has none
SHARED_SECONDS = 5  # a task waits at most this long for a shared value (then keeps its own)
SHARED_FRESH = 0.5  # a worker reads a shared value again after this many seconds (else its last read)


class ClusterError(ValueError):
    """The cluster cannot run the pipeline's tasks (printed as one line by the command line, exit 1)."""


class MissingExtraError(ClusterError):
    """`--backend dask` without the dask extra installed."""


def check_options(backend: str, scheduler: str | None) -> None:
    """Raise UsageError for a backend name or option combination that makes no sense, and
    MissingExtraError for `dask` without the dask extra (before any work)."""
    if backend not in BACKENDS:
        raise UsageError(f"--backend is local or dask, not {excerpt(backend)}")
    if scheduler is not None and backend != "dask":
        raise UsageError("--scheduler needs --backend dask")
    if scheduler is not None and not scheduler.strip():
        raise UsageError("--scheduler is empty: give the scheduler's address, tcp://HOST:PORT")
    if scheduler is not None and not SCHEDULER_ADDRESS.fullmatch(scheduler.strip()):
        raise UsageError(f"--scheduler {excerpt(scheduler)} is not an address: give tcp://HOST:PORT (or tls://, or "
                         "HOST:PORT)")
    if backend == "dask":
        import_distributed()


def import_distributed():
    """Return the `distributed` module; MissingExtraError (one line) when the extra is not installed."""
    try:
        import distributed  # defers Dask (the dask extra) to --backend dask
    except ImportError:
        raise MissingExtraError(MISSING_DASK) from None
    return distributed


# -- what a task carries ------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class GameRef:
    """How a worker gets the task's game: by registry key (checked by fingerprint), or shipped."""

    key: tuple[str, str] | None
    fingerprint: str
    game: Game | None = None  # only for a game the registry does not know (user word lists, tests)

    @classmethod
    def of(cls, game: Game) -> "GameRef":
        key = registered(game)
        return cls(key, game.fingerprint(), None if key is not None else game)


@dataclass(frozen=True)
class Scratch:
    """Stands in a task's arguments for a checkpoint folder of this machine: the worker writes into
    a temporary folder of its own instead (the caller saves the returned result)."""


SCRATCH = Scratch()

_LOCK = threading.RLock()  # one task at a time per worker process
_GAMES: dict[str, Game] = {}
_TABLES: dict[tuple[str, str], np.ndarray] = {}
_SHARED: dict[str, tuple[Any, float]] = {}


TableRef = tuple[str, Callable[[Game], np.ndarray]]  # (the table's digest, the function that computes it)


def table_ref(table: np.ndarray | None, make_table: Callable[[Game], np.ndarray] | None) -> TableRef | None:
    """Return what a task carries of `table`: its digest and `make_table`, the caller's function that
    computes it in a worker (None without a table); ValueError for a table without that function."""
    if table is None:
        return None
    if make_table is None:
        raise ValueError("tasks given a feedback table need make_table, the function that computes it in a worker")
    return table_digest(table), make_table


def table_digest(table: np.ndarray | None) -> str | None:
    """Return the sha256 of a feedback table's shape, type and codes (None for no table)."""
    if table is None:
        return None
    digest = hashlib.sha256(f"{table.shape}|{table.dtype.str}".encode())
    digest.update(memoryview(np.ascontiguousarray(table)).cast("B"))
    return digest.hexdigest()


def worker_game(ref: GameRef) -> Game:
    """Return the task's game in this process (made once per fingerprint); ClusterError if this
    process's registry makes another game than the client's (other word lists or rule code)."""
    found = _GAMES.get(ref.fingerprint)
    if found is not None:
        return found
    if ref.key is None:
        game = ref.game
    else:
        game = get_game(*ref.key)
    if game.fingerprint() != ref.fingerprint:
        raise ClusterError(f"worker {_where()}: {game.key} has other word lists or rules than the client's "
                           "(install the same version of deduce on every worker)")
    if len(_GAMES) >= 8:
        _GAMES.clear()
    _GAMES[ref.fingerprint] = game
    return game


def worker_table(game: Game, table: TableRef | None) -> np.ndarray | None:
    """Return the game's full feedback table in this process (computed once by the caller's
    `make_table`, then kept; one table at a time, they are large), checked against the client's digest."""
    if table is None:
        return None
    digest, make_table = table
    key = (game.fingerprint(), digest)
    found = _TABLES.get(key)
    if found is None:
        _TABLES.clear()
        found = make_table(game)
        if table_digest(found) != digest:
            raise ClusterError(f"worker {_where()}: the feedback table of {game.key} differs from the client's "
                               "(install the same version of deduce on every worker)")
        _TABLES[key] = found
    return found


def _where() -> str:
    return f"{socket.gethostname()} (pid {os.getpid()})"


def _one_thread() -> None:
    try:
        import numba  # defers Numba to the compute path

        numba.set_num_threads(1)  # one process per core: no nested thread pools
    except ImportError:  # pragma: no cover
        pass


def run_task(fn: Callable, game_ref: GameRef | None, table: TableRef | None, args: tuple) -> Any:
    """Run one task in a worker: `fn(game, table, *args)` (`fn(*args)` without a game), with
    `Scratch` arguments replaced by a temporary folder removed afterwards."""
    with _LOCK:
        _one_thread()
        with tempfile.TemporaryDirectory(prefix="deduce-task-") as scratch:
            args = tuple(Path(scratch) if isinstance(a, Scratch) else a for a in args)
            if game_ref is None:
                return fn(*args)
            game = worker_game(game_ref)
            return fn(game, worker_table(game, table), *args)


def _probe() -> tuple[str, int]:
    from solver.core import artifacts  # defers pyarrow until an artifact is read or written

    return artifacts.CODE_VERSION, os.getpid()


def read_shared(name: str | None) -> Any:
    """In a task on a Dask worker: the current value of the run's shared variable `name` (None
    elsewhere, without a name, or when it cannot be read in time: the value is advisory)."""
    if name is None:
        return None
    try:
        from distributed import Variable, get_worker  # defers Dask (the dask extra) to --backend dask

        get_worker()
    except (ImportError, ValueError):
        return None

    known = _SHARED.get(name)
    if known is not None and time.monotonic() - known[1] < SHARED_FRESH:
        return known[0]
    try:
        value = Variable(name).get(timeout=SHARED_SECONDS)
    except Exception:  # noqa: BLE001 - a task keeps the value it was given
        return None
    _SHARED.clear()  # one run at a time
    _SHARED[name] = (value, time.monotonic())
    return value


# -- the backends -----------------------------------------------------------------------------
def _swap(args: tuple, scratch: Path | None) -> tuple:
    if scratch is None:
        return tuple(args)
    return tuple(SCRATCH if isinstance(a, Path) and a == scratch else a for a in args)


class Local:
    """This machine: the builds' joblib processes; `imap_unordered` on loky's reusable executor."""

    name = "local"
    distributed = False

    def __init__(self, jobs: int = 2):
        self.jobs = jobs

    @property
    def workers(self) -> int:
        return self.jobs

    def jobs_for(self, jobs: int) -> int:
        """Return the `jobs` a build should use with this backend."""
        return jobs

    def shared(self, value: Any) -> "Shared":
        """Return a channel for a value running tasks may read: none here (tasks get it as an argument)."""
        return Shared(None, None)

    def imap_unordered(self, fn: Callable, calls: Iterable[tuple], game: Game | None = None,
                       table: np.ndarray | None = None, window: int | None = None,
                       make_table: Callable[[Game], np.ndarray] | None = None) -> Iterator[Any]:
        """Yield the results of `fn(game, table, *args)` for each `args` of `calls`, as they finish.

        With a `table`, `make_table(game)` is the function that computes it in a worker process.

        `calls` is read lazily: at most `window` tasks (default twice the jobs) are out at once, and
        the next `args` is taken only after the previous result was handed out, so a caller that
        updates what `calls` yields (a cut-off) between results passes the update on.
        """
        if self.jobs == 1:
            for args in calls:
                yield fn(game, table, *args) if game is not None else fn(*args)
            return

        from joblib.executor import get_memmapping_executor  # defers joblib (0.3 s) to parallel runs

        # joblib's own reusable executor: loky's, taken directly, would replace the one joblib's
        # Parallel reuses by an executor without joblib's temporary-folder manager
        executor = get_memmapping_executor(self.jobs)
        ref = GameRef.of(game) if game is not None else None
        carried = table_ref(table, make_table)
        limit = window or 2 * self.jobs
        calls = iter(calls)
        pending: set = set()
        try:
            while True:
                while len(pending) < limit:
                    args = next(calls, None)
                    if args is None:
                        break
                    pending.add(executor.submit(run_task, fn, ref, carried, tuple(args)))
                if not pending:
                    return
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except KeyboardInterrupt:
            # Ctrl-C: the workers' kernels do not look at signals, so the tasks running would finish
            # first (a minute or more); they are stopped instead (the next run makes a new executor)
            executor.shutdown(wait=False, kill_workers=True)
            raise
        finally:
            for future in pending:
                future.cancel()


class Shared:
    """A value the client sets and running tasks read (`read_shared(name)`): a Dask `Variable`."""

    def __init__(self, name: str | None, variable):
        self.name, self._variable = name, variable

    def set(self, value: Any) -> None:
        if self._variable is not None:
            try:
                self._variable.set(value, timeout=SHARED_SECONDS)
            except Exception:  # noqa: BLE001 - advisory: tasks keep the value they were given
                pass

    def close(self) -> None:
        if self._variable is not None:
            try:
                self._variable.delete()
            except Exception:  # noqa: BLE001 - the cluster may be gone already
                pass


class Dask:
    """A Dask cluster reached through a `distributed.Client` (its own `LocalCluster` when `cluster`)."""

    name = "dask"
    distributed = True

    def __init__(self, client, cluster=None, quiet: "QuietLogs | None" = None):
        self.client, self.cluster, self._quiet = client, cluster, quiet
        self.address = str(getattr(getattr(client, "scheduler", None), "address", None) or "(unknown address)")

    @classmethod
    def connect(cls, scheduler: str | None = None, jobs: int = 2) -> "Dask":
        """Connect to the scheduler at `scheduler`, or start a LocalCluster of `jobs` worker processes
        (one thread each, on 127.0.0.1, the status page on a free loopback port); check the workers can run
        deduce's tasks.

        The scheduler must answer Dask's handshake within CONNECT_SECONDS (`handshake`: a port that
        accepts and never answers, such as the dashboard's, is refused then instead of waiting for
        ever), and a first worker join within WORKER_SECONDS; ClusterError (one line) otherwise. The
        `distributed` loggers are quiet while the backend is open: its failures end as one ClusterError."""
        distributed = import_distributed()
        cluster = None
        quiet = QuietLogs()
        try:
            if scheduler is None:
                cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                                   host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                                   silence_logs=logging.ERROR, memory_limit=0)
                client = distributed.Client(cluster, set_as_default=False)
            else:
                handshake(scheduler, CONNECT_SECONDS)
                try:
                    client = distributed.Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
                except (OSError, ValueError) as err:
                    raise ClusterError(f"cannot reach the Dask scheduler {excerpt(scheduler)}: "
                                       f"{' '.join(str(err).split())}") from None
        except BaseException:
            quiet.restore()
            raise
        backend = cls(client, cluster, quiet)
        try:
            backend.check()
        except BaseException:
            backend.close()
            raise
        return backend

    def check(self) -> None:
        """Wait for a first worker; ClusterError unless every worker runs this version of deduce."""
        from solver.core import artifacts  # defers pyarrow until an artifact is read or written

        try:
            self.client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except Exception:  # noqa: BLE001 - distributed's TimeoutError
            raise ClusterError(f"no Dask worker joined the scheduler {self.address} within {WORKER_SECONDS} s "
                               "(start some: dask worker ADDRESS --nthreads 1)") from None
        try:
            versions = self.client.run(_probe)
        except Exception as err:  # noqa: BLE001 - e.g. the workers cannot import deduce
            raise ClusterError(f"the Dask workers cannot run deduce's tasks ({type(err).__name__}: "
                               f"{' '.join(str(err).split())}): install deduce on every worker") from None
        other = sorted(address for address, (version, _) in versions.items() if version != artifacts.CODE_VERSION)
        if other:
            raise ClusterError(f"Dask workers {', '.join(other)} run another version of deduce than "
                               f"{artifacts.CODE_VERSION}")

    @property
    def workers(self) -> int:
        """Return the worker threads the scheduler knows now (at least 1)."""
        info = self.client.scheduler_info(n_workers=-1)["workers"]
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.values()))

    def jobs_for(self, jobs: int) -> int:
        """Return the `jobs` a build should use: the cluster's workers, at least 2 (so that every
        build takes its parallel path, which sends its tasks here)."""
        return max(2, self.workers)

    def worker_pids(self) -> dict[str, int]:
        """Return {worker address: process id} (the tests kill one)."""
        return self.client.run(os.getpid)

    def shared(self, value: Any) -> Shared:
        """Return a new shared variable set to `value` (`read_shared(shared.name)` in the tasks)."""
        from distributed import Variable  # defers Dask (the dask extra) to --backend dask

        name = f"deduce-shared-{uuid.uuid4().hex}"
        variable = Variable(name, client=self.client)
        variable.set(value)
        return Shared(name, variable)

    def _submit(self, fn: Callable, ref, carried, args: tuple):
        name = getattr(fn, "__name__", "task").strip("_") or "task"
        return self.client.submit(run_task, fn, ref, carried, tuple(args), pure=False,
                                  key=f"deduce-{name}-{uuid.uuid4().hex}")

    @contextmanager
    def failures(self) -> Iterator[None]:
        """Turn the cluster's own failures within the block into one ClusterError: the scheduler lost
        (stopped, killed, the network gone) and a task whose workers all died running it (killed, or
        over their memory limit: Dask's KilledWorker); a task's own error passes unchanged."""
        from distributed.scheduler import KilledWorker  # defers Dask (the dask extra) to --backend dask

        try:
            yield
        except KilledWorker as err:
            tries = err.allowed_failures + 1
            who = "the Dask worker running it" if tries == 1 else f"each of the {tries} Dask workers that ran it"
            raise ClusterError(f"a task was lost: {who} died ({getattr(err.last_worker, 'address', '?')} last), "
                               "killed or over its memory limit (give workers more memory, dask worker "
                               "--memory-limit, or start fewer per machine); what was finished is kept: run the "
                               "command again to resume") from None
        except CancelledError as err:
            raise self._lost(getattr(err, "reason", None) or "its tasks were cancelled") from None
        except Exception as err:
            if self.client.status in ("running", "newly-created"):
                raise  # the task's own error
            raise self._lost(f"{type(err).__name__}: {' '.join(str(err).split())}") from None

    def _lost(self, why: str) -> ClusterError:
        return ClusterError(f"lost the Dask scheduler {self.address} during the run ({why}): what was finished is "
                            "kept: run the command again to resume")

    def imap_unordered(self, fn: Callable, calls: Iterable[tuple], game: Game | None = None,
                       table: np.ndarray | None = None, window: int | None = None,
                       scratch: Path | None = None,
                       make_table: Callable[[Game], np.ndarray] | None = None) -> Iterator[Any]:
        """Yield the results of `fn(game, table, *args)` for each `args` of `calls`, as they finish
        (`fn(*args)` without a game); `window`: at most this many tasks out at once (default: all),
        `calls` read lazily as in `Local.imap_unordered`. Arguments equal to `scratch` (a checkpoint
        folder) become a worker's temporary folder. A task's error is raised here; the tasks not
        finished are cancelled when the generator is closed."""
        from distributed import as_completed  # defers Dask (the dask extra) to --backend dask

        ref = GameRef.of(game) if game is not None else None
        carried = table_ref(table, make_table)
        calls = iter(calls)
        running = as_completed(loop=self.client.loop)
        out = []

        def fill() -> None:
            while window is None or running.count() < window:
                args = next(calls, None)
                if args is None:
                    return
                future = self._submit(fn, ref, carried, _swap(args, scratch))
                out.append(future)
                running.add(future)

        try:
            with self.failures():
                fill()
            while not running.is_empty():
                with self.failures():
                    future = next(running)
                    result = future.result()
                    future.release()
                yield result
                with self.failures():
                    fill()
        finally:
            for future in out:
                if not future.done():
                    future.cancel()

    def map(self, fn: Callable, calls: Iterable[tuple], game: Game | None = None, table: np.ndarray | None = None,
            scratch: Path | None = None, make_table: Callable[[Game], np.ndarray] | None = None) -> Iterator[Any]:
        """Yield the results of every call in the order of `calls` (all submitted at once)."""
        ref = GameRef.of(game) if game is not None else None
        carried = table_ref(table, make_table)
        with self.failures():
            futures = [self._submit(fn, ref, carried, _swap(args, scratch)) for args in calls]
        try:
            for future in futures:
                with self.failures():
                    result = future.result()
                    future.release()
                yield result
        finally:
            for future in futures:
                if not future.done():
                    future.cancel()

    def close(self) -> None:
        """Disconnect (and stop the LocalCluster this backend started)."""
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # noqa: BLE001 - closing what may be broken already
                    pass
        if self._quiet is not None:
            self._quiet.restore()


class QuietLogs:
    """The `distributed` loggers set to CRITICAL until `restore` (their levels are put back then): a
    lost scheduler or a dying worker would print their own log lines besides deduce's one-line error."""

    def __init__(self):
        names = ["distributed"] + [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
        self._levels = {name: logging.getLogger(name).level for name in names}
        for name in names:
            logging.getLogger(name).setLevel(logging.CRITICAL)

    def restore(self) -> None:
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)
        self._levels = {}


# scheme://HOST:PORT or HOST:PORT (Dask's tcp by default); HOST a name, an IPv4 address or [an IPv6 one]
SCHEDULER_ADDRESS = re.compile(r"(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}")


def _refused(address: str, seconds: float) -> None:
    """Raise ClusterError when nothing listens at a tcp address (the connection is refused at once):
    Dask's own connect would retry until its timeout and say the scheduler did not answer."""
    match = re.fullmatch(r"(?:tcp://)?\[?([^\]/]+?)\]?:([0-9]+)", address.strip())
    if match is None:  # another scheme (tls://, ...): Dask's handshake says what is wrong
        return
    try:
        socket.create_connection((match[1], int(match[2])), timeout=seconds).close()
    except ConnectionRefusedError:
        raise ClusterError(f"the Dask scheduler {excerpt(address)} refused the connection: is a scheduler running "
                           "there (dask scheduler)?") from None
    except OSError:  # unreachable, a name that does not resolve, a timeout: the handshake reports it
        return


def handshake(address: str, seconds: float) -> None:
    """Raise ClusterError unless a Dask server at `address` answers the handshake of Dask's protocol
    within `seconds`. `distributed.Client(timeout=...)` bounds the TCP connection but then waits for
    that answer without a bound, so an address that accepts and never answers (a wrong port, the
    dashboard's) would hang it for ever. The exchange runs on an event loop of its own in a thread
    (the caller may be inside a running loop); `asyncio.wait_for` ends it at `seconds`."""
    from distributed.comm import connect  # defers Dask (the dask extra) to --backend dask
    from distributed.security import Security  # defers Dask (the dask extra) to --backend dask

    async def exchange() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=seconds,
                                              **Security().get_connection_args("client")), seconds)
        await comm.close()

    _refused(address, seconds)
    with ThreadPoolExecutor(1, thread_name_prefix="deduce-handshake") as pool:
        try:
            pool.submit(asyncio.run, exchange()).result()
        except asyncio.TimeoutError:
            raise ClusterError(f"the Dask scheduler {excerpt(address)} accepted the connection but did not answer "
                               f"within {seconds:g} s: is it the scheduler's port (default 8786, not the dashboard's)?"
                               ) from None
        except (OSError, ValueError, TypeError) as err:
            raise ClusterError(f"cannot reach the Dask scheduler {excerpt(address)}: "
                               f"{' '.join(str(err).split()) or type(err).__name__}") from None


_current: Local | Dask = Local()


def current() -> Local | Dask:
    """Return the backend the builds hand their tasks to (default: `Local`)."""
    return _current


@contextmanager
def using(backend: Local | Dask) -> Iterator[Local | Dask]:
    """Make `backend` the current one within the block."""
    global _current
    before, _current = _current, backend
    try:
        yield backend
    finally:
        _current = before


@contextmanager
def open_backend(kind: str = "local", scheduler: str | None = None, jobs: int = 2) -> Iterator[Local | Dask]:
    """Yield the backend named `kind` as the current one: `local` with `jobs` processes, or `dask`
    on the scheduler at `scheduler` (None: a LocalCluster of `jobs` workers, closed at the end)."""
    check_options(kind, scheduler)
    if kind == "local":
        with using(Local(jobs)) as backend:
            yield backend
        return
    backend = Dask.connect(scheduler, jobs)
    try:
        with using(backend):
            yield backend
    finally:
        backend.close()
