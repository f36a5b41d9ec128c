"""Running a plan: serially, over local worker processes, or over Dask.

A *task* is a picklable object with ``play(jobs) -> list`` (one result per
job, in order); ``rallyforge.engine.analysis.balance.play.RaceTask`` is the real one. The plan's
jobs are cut into chunks; chunks run wherever the backend puts them, and
results come back in plan order, so whatever is built from them is the same
for every backend and worker count.

Progress: ``progress(done, total, elapsed_s)`` after each chunk, counting
races (time-trial jobs are not counted). Stopping: ``should_stop()`` is
asked between chunks, and every ``POLL_S`` seconds while waiting for worker
processes (a Cancel button sets a flag it reads); Ctrl+C in the calling
process does the same. Either way ``run`` returns what was played,
in plan order, with ``cancelled`` set; chunks still running are dropped.

Folding: with ``fold``, ``run`` hands each chunk's (job, result) pairs to
it in plan order as soon as the chunks before it are in, and keeps none:
a balance run counts its races as they come (aggregate.py ``Tally``), so
its memory does not grow with its races. A chunk done early waits for
those before it (at most the chunks done while an earlier one still runs).

Where the worker processes come from: forked from the calling process
itself where that is safe, a process with no other thread (the command
line): they have the engine it imported, at no cost, and nothing else
starts. Next to threads (the editor's) a fork could copy a lock held
by another thread, so they come from a fork server ("forkserver", started
with the engine imported), else "spawn".
Either way they ignore SIGINT from their start (forked with it ignored,
or from a fork server started ignoring it), so Ctrl+C reaches only the
parent, which stops cleanly.

Dask: ``scheduler="local"`` starts a LocalCluster of `workers` single-thread
workers (``local_processes=False`` makes them threads in this process, which
is what the tests use to stay quick); any other value is a scheduler address
such as ``tcp://10.0.0.5:8786``, whose workers must have this package
installed. Dask is imported only then (``pip install .[cluster]``).
"""
from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Protocol, overload

from rallyforge.engine import ctrl_c
from rallyforge.engine.analysis.balance.plan import Job, Jobs, RACE


# What a task makes of one job (a balance run's race or trial summary, a
# suggestion's measures): the runner only hands it back, paired with its job.
JobResult = Any


class Task(Protocol):
    """What runs the jobs: picklable, one result per job, in order."""

    def play(self, jobs: list[Job]) -> list[JobResult]: ...


# Called with a chunk's number and its results, as each chunk is done.
OnChunk = Callable[[int, list[JobResult]], None]
# Given a chunk's (job, result) pairs, chunk by chunk in plan order.
Fold = Callable[[list[tuple[Job, JobResult]]], None]


Progress = Callable[[int, int, float], None]

# How often the process pool's wait for chunks asks ``should_stop``, in seconds.
POLL_S = 0.05


class BackendError(Exception):
    """The Dask backend cannot be used: not installed, a bad address, or no
    scheduler there. ``usage`` is True for a malformed address."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


@dataclass
class RunOutcome:
    # in plan order (none kept when a fold took them)
    results: list[tuple[Job, JobResult]] = field(default_factory=list)
    cancelled: bool = False
    elapsed_s: float = 0.0
    planned: int = 0


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                               # not on Linux
        return max(1, os.cpu_count() or 1)


class Chunks(Sequence[list[Job]]):
    """The jobs cut into chunks of `size`, each made when first asked for (a
    plan's jobs are: engine/analysis/balance/plan.py ``Jobs``) and kept until
    ``pop``: a chunk is asked for when it is sent, when its results come
    back and when they are paired with it, for the last time."""

    def __init__(self, jobs: Sequence[Job], size: int):
        self.jobs, self.size = jobs, size
        self._made: dict[int, list[Job]] = {}

    def __len__(self) -> int:
        return -(-len(self.jobs) // self.size)

    @overload
    def __getitem__(self, index: int) -> list[Job]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[Job]]: ...

    def __getitem__(self, index: int | slice) -> list[Job] | list[list[Job]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError("chunk index out of range")
        made = self._made.get(index)
        if made is None:
            made = self._made[index] = list(self.jobs[index * self.size:(index + 1) * self.size])
        return made

    def pop(self, index: int) -> list[Job]:
        """Chunk `index`, asked for the last time: forgotten (a run's memory
        does not grow with its chunks)."""
        made = self[index]
        del self._made[index]
        return made


def races_in(jobs: Sequence[Job]) -> int:
    """How many of the jobs are races (a plan's ``Jobs`` know without counting)."""
    return jobs.races if isinstance(jobs, Jobs) else sum(1 for j in jobs if j.kind == RACE)


def default_chunk_size(jobs: int, workers: int) -> int:
    """About eight chunks per worker (smooth progress and quick cancel),
    at most 25 jobs each."""
    return max(1, min(25, math.ceil(jobs / (max(1, workers) * 8))))


def start_workers_soon(workers: int, scheduler: str | None = None) -> None:
    """Start now, when ``run`` may play on local worker processes (more than
    one worker, no Dask) that come from a fork server, the server: it
    imports the engine first (0.25 s), meanwhile the caller reads its
    course. (``run`` starts it otherwise; forked from this process, the
    workers need nothing started.)"""
    if workers > 1 and not scheduler:
        _context()


def run(task: Task, jobs: Sequence[Job], *, workers: int = 1, scheduler: str | None = None,
        chunk_size: int | None = None, progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
        local_processes: bool = True, meanwhile: Callable[[], None] | None = None,
        fold: Fold | None = None) -> RunOutcome:
    """Play the jobs (see the module's notes). `meanwhile` is work of the
    caller's done while worker processes start (from a fork server, which
    takes a moment to import the engine) or, forked from this process, on a
    thread of its own while they play (what it raises, ``run`` raises); not
    at all when there are none. With `fold` the results go to it, not into
    the outcome."""
    workers = max(1, workers)
    size = chunk_size or default_chunk_size(len(jobs), workers)
    chunks = Chunks(jobs, size)
    outcome = RunOutcome(planned=races_in(jobs))
    started = time.perf_counter()
    finished: dict[int, list[JobResult]] = {}       # done, not yet folded or returned
    done = folded = races_done = 0

    def on_chunk(index: int, results: list[JobResult]) -> None:
        nonlocal done, folded, races_done
        finished[index] = results
        done += 1
        races_done += sum(1 for j in chunks[index] if j.kind == RACE)
        while fold is not None and folded in finished:
            fold(list(zip(chunks.pop(folded), finished.pop(folded))))
            folded += 1
        if progress is not None:
            progress(races_done, outcome.planned, time.perf_counter() - started)

    pressed = threading.Event()

    def stop() -> bool:
        return (pressed.is_set() or ctrl_c.pressed.is_set()
                or bool(should_stop and should_stop()))

    try:
        with _ctrl_c_noted(pressed):
            _run_on(task, chunks, workers, scheduler, local_processes, on_chunk, stop, meanwhile)
    except KeyboardInterrupt:
        outcome.cancelled = True
    outcome.cancelled = outcome.cancelled or done < len(chunks)
    for i in sorted(finished):          # (after a stop, chunks done past one that was not)
        if fold is not None:
            fold(list(zip(chunks.pop(i), finished[i])))
        else:
            outcome.results.extend(zip(chunks.pop(i), finished[i]))
    outcome.elapsed_s = time.perf_counter() - started
    return outcome


def _run_on(task: Task, chunks: Chunks, workers: int, scheduler: str | None, local_processes: bool,
            on_chunk: OnChunk, stop: Callable[[], bool],
            meanwhile: Callable[[], None] | None) -> None:
    if scheduler:
        _run_dask(task, chunks, workers, scheduler, local_processes, on_chunk, stop)
    elif workers == 1 or len(chunks) <= 1:
        for i, chunk in enumerate(chunks):
            if stop():
                break
            on_chunk(i, task.play(chunk))
    else:
        _run_pool(task, chunks, workers, on_chunk, stop, meanwhile)


@contextlib.contextmanager
def _ctrl_c_noted(pressed: threading.Event) -> Iterator[None]:
    """Ctrl+C inside also sets `pressed`, which ``stop`` reads: the run
    stops at its next look even where the KeyboardInterrupt raised by the
    press is lost (raised in code whose exceptions Python drops, such as a
    finalizer the garbage collector runs: about 1 press in 25 went on racing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):          # ignored, or the default (killed): nothing to note
        yield
        return

    def noted(signum: int, frame: FrameType | None) -> None:
        pressed.set()
        previous(signum, frame)

    signal.signal(signal.SIGINT, noted)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is noted:    # (else the press changed it: kept)
            signal.signal(signal.SIGINT, previous)


# ---------------------------------------------------------------- local processes

_worker_task: Task | None = None


def _init_worker(task: Task) -> None:
    global _worker_task
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_task = task


def _play_in_worker(jobs: list[Job]) -> list[JobResult]:
    assert _worker_task is not None, "the pool's initializer sets the task"
    return _worker_task.play(jobs)


def _context() -> multiprocessing.context.BaseContext:
    """Where the worker processes come from (see the module's notes)."""
    if _alone():
        return multiprocessing.get_context("fork")
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["rallyforge.engine.analysis.balance.play"])
        _start_deaf_forkserver()
        return ctx
    return multiprocessing.get_context("spawn")


def _alone() -> bool:
    """Whether this process may fork its workers: it has no thread but the
    one running (native ones counted, e.g. OpenBLAS's or Qt's, which
    ``threading`` does not see), as Linux lists them. Elsewhere, never
    (macOS's system libraries are not safe to use after a fork)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


# True while this process forks its workers: each starts ignoring Ctrl+C
# before it runs a line of its own (it had this process's handler).
_forking_workers = False


def _deaf_if_worker() -> None:
    if _forking_workers:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


os.register_at_fork(after_in_child=_deaf_if_worker)


@contextlib.contextmanager
def _forking_deaf_workers() -> Iterator[None]:
    global _forking_workers
    _forking_workers = True
    try:
        yield
    finally:
        _forking_workers = False


def _start_deaf_forkserver() -> None:
    """Start the fork server, when it is not running yet, with Ctrl+C ignored.
    It keeps that, and the workers it forks have it from their first
    instruction: a press while the pool starts (the server importing the
    engine, a worker before its initializer ran) printed their
    KeyboardInterrupt tracebacks. This process still gets the press."""
    from multiprocessing import forkserver
    if threading.current_thread() is not threading.main_thread():
        return                  # (signals are the main thread's: no press lands here)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_pool(task: Task, chunks: Chunks, workers: int, on_chunk: OnChunk, stop: Callable[[], bool],
              meanwhile: Callable[[], None] | None) -> None:
    window = 2 * workers
    pending: dict[Future[list[JobResult]], int] = {}
    next_chunk = 0

    def fill(pool: ProcessPoolExecutor) -> None:
        nonlocal next_chunk
        while next_chunk < len(chunks) and len(pending) < window and not stop():
            pending[pool.submit(_play_in_worker, chunks[next_chunk])] = next_chunk
            next_chunk += 1

    ended = False
    pool = None
    aside: _Aside | None = None
    try:
        with _ctrl_c_deferred():    # the workers start (first submits) whole, then a press counts
            context = _context()
            forked = context.get_start_method() == "fork"
            if meanwhile is not None and not forked:
                meanwhile()             # (while the fork server imports the engine)
            pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)),
                                       mp_context=context, initializer=_init_worker,
                                       initargs=(task,))
            with _forking_deaf_workers():
                fill(pool)              # (forked: all of them at the first submit)
            if meanwhile is not None and forked:
                # on a thread of its own, while this one keeps the workers fed:
                # they would play their first chunks and wait
                aside = _Aside(meanwhile)
        while pending:
            # a short timeout, so that a cancel is noticed while chunks run
            done, _ = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=pending.__getitem__):
                on_chunk(pending.pop(future), future.result())
            if stop():
                break
            fill(pool)
        if aside is not None:
            aside.join_raising()
        ended = True
    finally:
        if aside is not None:
            aside.join()
        # chunks still pending are dropped with their workers, stopped rather
        # than waited for (a chunk can take minutes on a big course, and the
        # interpreter would wait at exit); after a Ctrl+C too, so that none is
        # left starting up with this process gone (it printed a traceback).
        # The pool fails the dropped chunks' futures itself: cancelled first,
        # its thread failed on them with a traceback (InvalidStateError).
        if pool is not None and (pending or not ended):
            _stop_workers(pool)
            pool.shutdown(wait=False)
        elif pool is not None:
            pool.shutdown()


class _Aside(threading.Thread):
    """`work` run on a thread of its own, started at once; join_raising()
    waits for it and raises what it raised."""

    def __init__(self, work: Callable[[], None]):
        super().__init__(name="rallyforge-meanwhile")
        self.work = work
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.work()
        except BaseException as exc:        # raised again in the caller's thread
            self.error = exc

    def join_raising(self) -> None:
        self.join()
        if self.error is not None:
            raise self.error


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Ctrl+C pressed inside is acted on as it ends, not in the middle (of
    starting worker processes: one half started, this process gone, failed
    with a traceback)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[FrameType | None] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed and callable(previous):
        previous(signal.SIGINT, pressed[0])
    elif pressed and previous != signal.SIG_IGN:
        raise KeyboardInterrupt


# How long stopped workers get to end before they are killed, and the pool's
# thread to end after them, in seconds.
STOP_S = 2.0


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's workers, whatever they were doing, and see that the
    pool's thread ends too, within a bounded time: a worker stopped part-way
    through sending a result left the thread reading the rest of it for
    ever, and the interpreter waits for that thread at exit (Ctrl+C hung).
    Once every worker is gone, this process's end of the result pipe is
    closed too: the pipe has no writer left, and the read ends."""
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        _quiet_when_failing(manager)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        try:
            process.terminate()
        except (OSError, ValueError):       # already gone
            pass
    # (their sentinels, not join(): the pool's thread may be reaping them)
    running = {process.sentinel: process for process in processes}
    for last_resort in (False, True):
        for gone in multiprocessing.connection.wait(list(running), STOP_S):
            running.pop(gone)
        if not running or last_resort:
            break
        for process in running.values():
            with contextlib.suppress(OSError, ValueError):
                process.kill()
    results = getattr(pool, "_result_queue", None)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    if manager is not None and manager.is_alive():
        manager.join(STOP_S)


# The threads of pools whose workers were stopped on purpose. What such a
# thread fails with as its workers vanish under it (a pipe broken, a future
# already cancelled: rare, a matter of timing) is no news to the designer,
# who pressed Cancel or Ctrl+C: it printed a traceback after the report.
_STOPPED: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
_other_hook = threading.excepthook


def _quiet_when_failing(thread: threading.Thread) -> None:
    global _other_hook
    if threading.excepthook is not _unless_stopped:
        _other_hook, threading.excepthook = threading.excepthook, _unless_stopped
    _STOPPED.add(thread)


def _unless_stopped(args: threading.ExceptHookArgs) -> None:
    """``threading.excepthook``: silent for the threads of stopped pools."""
    if args.thread not in _STOPPED:
        _other_hook(args)


# ---------------------------------------------------------------- dask

def _play_on_dask(task: Task, jobs: list[Job]) -> list[JobResult]:
    return task.play(jobs)


@contextlib.contextmanager
def _ctrl_c_for_this_process_only() -> Iterator[None]:
    """Worker processes started inside ignore SIGINT (they inherit it): Ctrl+C
    at a terminal reaches the whole process group, and only this process
    should act on it (stop and report), not every worker with a traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield                   # (signals are the main thread's; none arrive here)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# Loggers of the Dask client and its event loop in this process.
_DASK_LOGGERS = ("distributed", "tornado")


@contextlib.contextmanager
def _dask_quiet_after_ctrl_c() -> Iterator[None]:
    """From the press of Ctrl+C on, the Dask client's and its event loop's
    logs are silenced: stopping, they report the scheduler going away, and
    when the press lands before distributed's sync() has made its future,
    sync's cancel callback fails with a NameError that tornado logs as a
    traceback. What the run played is reported by the runner."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    silenced: list[tuple[logging.Logger, int]] = []
    previous = signal.getsignal(signal.SIGINT)

    def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
        if previous == signal.SIG_IGN:
            return
        names = [name for name in list(logging.root.manager.loggerDict)
                 if name.split(".")[0] in _DASK_LOGGERS]
        for log in map(logging.getLogger, names):     # (Dask sets levels on some children)
            silenced.append((log, log.level))
            log.setLevel(logging.CRITICAL + 1)
        sys.unraisablehook = _without_dask(sys.unraisablehook)
        if callable(previous):
            previous(signum, frame)
        else:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is on_ctrl_c:
            signal.signal(signal.SIGINT, previous)
        for log, level in reversed(silenced):
            log.setLevel(level)


def _without_dask(hook: Callable[[sys.UnraisableHookArgs], object]
                  ) -> Callable[[sys.UnraisableHookArgs], None]:
    """`hook` for what cannot be raised, but silent on Dask's: a future the
    press interrupted half made fails in its __del__ once collected, which
    may be after the run (kept for the rest of the process, which is stopping)."""
    def unraisable(info: sys.UnraisableHookArgs) -> None:
        if not getattr(info.object, "__module__", "").startswith("distributed"):
            hook(info)
    return unraisable


def _run_dask(task: Task, chunks: Chunks, workers: int, scheduler: str, local_processes: bool,
              on_chunk: OnChunk, stop: Callable[[], bool]) -> None:
    with _dask_quiet_after_ctrl_c():
        _run_on_dask(task, chunks, workers, scheduler, local_processes, on_chunk, stop)


def _run_on_dask(task: Task, chunks: Chunks, workers: int, scheduler: str, local_processes: bool,
                 on_chunk: OnChunk, stop: Callable[[], bool]) -> None:
    try:
        from distributed import Client, LocalCluster, wait as dask_wait
    except ImportError as exc:
        raise BackendError(f"--scheduler needs Dask: pip install .[cluster] ({exc})") from None

    cluster = None
    if scheduler == "local":
        with _ctrl_c_for_this_process_only():      # (the workers' failures come back by the futures)
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                   processes=local_processes, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except ValueError as exc:
            raise BackendError(f"--scheduler {scheduler}: {exc}", usage=True) from None
        except OSError as exc:
            raise BackendError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    pending: dict[Any, int] = {}       # dask futures: chunk number
    shared = None
    try:
        shared = client.scatter(task, broadcast=True)
        window = 2 * max(workers, len(client.scheduler_info().get("workers", {})) or 1)
        next_chunk = 0
        while next_chunk < len(chunks) or pending:
            while next_chunk < len(chunks) and len(pending) < window and not stop():
                future = client.submit(_play_on_dask, shared, chunks[next_chunk], pure=False)
                pending[future] = next_chunk
                next_chunk += 1
            if not pending:
                break
            done = dask_wait(list(pending), return_when="FIRST_COMPLETED").done
            for future in sorted(done, key=pending.__getitem__):
                on_chunk(pending.pop(future), future.result())
                future.release()
            if stop():
                break
        if pending:
            client.cancel(list(pending))
    finally:
        # Futures released while their client is open are done with: after a
        # Ctrl+C, collected once it is closed, they would print tracebacks.
        for future in [shared, *pending]:
            if future is not None:
                future.release()
        client.close()
        if cluster is not None:
            cluster.close()
