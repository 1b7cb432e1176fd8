"""Advice runs in worker processes, not in the server process.

The advisor is CPU-bound (its C solver lets go of the GIL, but its Python parts do not, and it
keeps both cores busy with its own solving threads); run in the server's threads it would slow
every other request (health checks, page files, typed events) while it thinks, and a runaway
search could not be stopped. A small pool of worker processes keeps the server responsive, bounds how many searches run at
once (``PIKI_ADVICE_WORKERS``, default: CPU cores - 1, at least 2), and gives up on a request
after ``advice_timeout`` seconds (answered 504): that worker is killed and replaced.

Deadline: bid and play advice treat their time budget as the time to the answer. A request that
waited for a free worker gets a budget shortened by that wait (at least ``MIN_SHARE`` of it), so
under load the answer still comes in about the budget, from fewer simulated deals; the answer
says so (``queued_s``, ``time_budget_s``; ``samples`` is the advisor's own count).

Priority: the workers run at ``PIKI_ADVICE_NICE`` niceness (default 0). A positive value lets
the server's own requests go first when the cores are busy; on a busy 2-core machine 5 left the
workers too little CPU and advice requests piled up (benchmarks/README.md, Load).
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .messages import message

# The advisor's own default budgets (advisor.advice), used when a request names none.
DEFAULT_BUDGET = {"play": 0.35, "bid": 0.7}
MIN_SHARE = 0.25  # a queued request still thinks for at least this share of its budget


class AdviceProblem(Exception):
    """An error answer computed in a worker: HTTP status, detail, extra fields."""

    def __init__(self, status: int, detail: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.extra = extra or {}


def _work(kind: str, record_json: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
    """In the worker: run one advice function; errors come back as data (always picklable)."""
    try:
        from advisor.record import HandRecord, RecordError
        from advisor.state import IllegalEvent
    except ImportError as e:  # pragma: no cover
        return {"error": {"status": 503, "detail": f"the advisor is not available ({e})"}}
    try:
        from advisor import advice
    except ImportError as e:
        return {"error": {"status": 503, "detail": f"the advisor is not available on this server ({e})"}}
    try:
        record = HandRecord.from_json(record_json)
        fn = {"bid": advice.bid_json, "play": advice.play_json, "review": advice.review_json}[kind]
        return {"ok": fn(record, **opts)}
    except RecordError as e:
        return {"error": {"status": 422, "detail": str(e)}}
    except IllegalEvent as e:
        lang = opts.get("lang", "en")
        return {"error": {"status": 409, "detail": e.describe(lang), "extra": {"error": e.to_json(lang)}}}
    except ValueError as e:  # e.g. bid advice asked after the bidding
        return {"error": {"status": 409, "detail": str(e) or "advice not possible here"}}


def _watch_parent() -> None:
    """In each worker: exit when the server process is gone (even after a SIGKILL)."""
    parent = os.getppid()

    def watch() -> None:
        import time

        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class _Worker:
    """One advice process, answering one job at a time over a pipe."""

    def __init__(self, ctx, nice: int = 0, threads: int | None = None) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, nice, threads), daemon=True, name="piki-advice")
        self.proc.start()
        child.close()

    def call(self, job: tuple) -> dict[str, Any]:
        self.conn.send(job)
        return self.conn.recv()

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


def _serve(conn, nice: int = 0, threads: int | None = None) -> None:
    """The worker's main loop."""
    _watch_parent()
    if threads:
        from advisor.search import set_search_threads
        set_search_threads(threads)
    if nice:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - not allowed here: run at the normal priority
            pass
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_work(*job))


def deadline_options(kind: str, opts: dict[str, Any], queued: float) -> tuple[dict[str, Any], float | None]:
    """The options for the worker after ``queued`` seconds in the queue, and the budget used."""
    if kind not in DEFAULT_BUDGET:  # a review's budget is per decision: no deadline
        return opts, opts.get("time_budget")
    asked = opts.get("time_budget") or DEFAULT_BUDGET[kind]
    budget = max(asked - queued, MIN_SHARE * asked)
    return {**opts, "time_budget": round(budget, 4)}, budget


def default_workers() -> int:
    """CPU cores - 1, but at least 2: on a busy 2-core machine one worker, sharing its core with
    the server, is too slow for the advice requests of 50 clients and they pile up behind it."""
    return max(2, (os.cpu_count() or 2) - 1)


class AdvicePool:
    """``workers`` advice processes. A request that runs past ``timeout`` is answered 504 and
    its worker is killed and replaced, so one runaway search cannot hold the pool."""

    def __init__(self, workers: int | None = None, timeout: float = 300.0, nice: int | None = None) -> None:
        env = os.environ.get("PIKI_ADVICE_WORKERS")
        self.workers = workers or (int(env) if env else default_workers())
        self.nice = nice if nice is not None else int(os.environ.get("PIKI_ADVICE_NICE") or 0)
        # The workers share the cores: each solves on its share of them (PIKI_ADVISOR_THREADS,
        # when given, decides instead), as the scan's detector runs on one thread a slot.
        from advisor.search import thread_share

        self.threads = None if os.environ.get("PIKI_ADVISOR_THREADS") else thread_share(self.workers)
        self.timeout = timeout
        self._ctx = mp.get_context("spawn")
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._sem: asyncio.Semaphore | None = None
        # Threads of its own that wait on the workers' pipes, so advice never waits for a thread
        # of the server's shared pool (busy with database and scan work under load); two spare
        # ones cover a killed worker whose waiting thread has not returned yet.
        self._threads = ThreadPoolExecutor(self.workers + 2, thread_name_prefix="piki-advice")

    def _spawn(self) -> _Worker:
        w = _Worker(self._ctx, self.nice, self.threads)
        with self._lock:
            self._all.add(w)
        return w

    def _drop(self, w: _Worker) -> None:
        with self._lock:
            self._all.discard(w)
        w.kill()

    async def run(self, kind: str, record_json: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        arrived = time.monotonic()
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.workers)
        async with self._sem:
            queued = time.monotonic() - arrived
            opts, budget = deadline_options(kind, opts, queued)
            with self._lock:
                w = self._idle.pop() if self._idle else None
            if w is None or not w.proc.is_alive():
                if w is not None:
                    await loop.run_in_executor(self._threads, self._drop, w)
                w = await loop.run_in_executor(self._threads, self._spawn)
            healthy = False
            try:
                out = await asyncio.wait_for(
                    loop.run_in_executor(self._threads, w.call, (kind, record_json, opts)), self.timeout)
                healthy = True
            except asyncio.TimeoutError:
                raise AdviceProblem(504, message(opts.get("lang", "en"), "advice_timeout",
                                                 seconds=f"{self.timeout:.0f}")) from None
            except (EOFError, OSError):
                raise AdviceProblem(503, message(opts.get("lang", "en"), "advice_worker_died")) from None
            finally:
                if healthy:
                    with self._lock:
                        self._idle.append(w)
                else:
                    await loop.run_in_executor(self._threads, self._drop, w)
        if "error" in out:
            e = out["error"]
            raise AdviceProblem(e["status"], e["detail"], e.get("extra"))
        answer = out["ok"]
        if kind in DEFAULT_BUDGET and isinstance(answer, dict):
            answer = {**answer, "queued_s": round(queued, 3), "time_budget_s": round(budget, 3)}
        return answer

    def close(self) -> None:
        with self._lock:
            workers = list(self._all)
            self._all.clear()
            self._idle.clear()
        for w in workers:
            w.kill()
        self._threads.shutdown(wait=False)
