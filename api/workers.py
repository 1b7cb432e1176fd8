"""Advice runs in worker processes, not in the server process.

The advisor is CPU-bound and its C solver holds the GIL for whole searches; run in the server's
threads it would freeze every other request (health checks, page files, typed events) while it
thinks. A small pool of worker processes keeps the server responsive, bounds how many searches run at
once (``PIKI_ADVICE_WORKERS``, default: CPU cores - 1, at least 1), and gives up on a request
after ``advice_timeout`` seconds (answered 504): that worker is killed and replaced.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import threading
from typing import Any


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
        return {"error": {"status": 409, "detail": f"illegal {e.kind} by {e.seat.name}: {e.reason}",
                          "extra": {"error": e.to_json()}}}
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

    def __init__(self, ctx) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True, name="piki-advice")
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


def _serve(conn) -> None:
    """The worker's main loop."""
    _watch_parent()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_work(*job))


class AdvicePool:
    """``workers`` advice processes. A request that runs past ``timeout`` is answered 504 and
    its worker is killed and replaced, so one runaway search cannot hold the pool."""

    def __init__(self, workers: int | None = None, timeout: float = 300.0) -> None:
        env = os.environ.get("PIKI_ADVICE_WORKERS")
        self.workers = workers or (int(env) if env else max(1, (os.cpu_count() or 2) - 1))
        self.timeout = timeout
        self._ctx = mp.get_context("spawn")
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._sem: asyncio.Semaphore | None = None

    def _spawn(self) -> _Worker:
        w = _Worker(self._ctx)
        with self._lock:
            self._all.add(w)
        return w

    def _drop(self, w: _Worker) -> None:
        with self._lock:
            self._all.discard(w)
        w.kill()

    async def run(self, kind: str, record_json: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
        from starlette.concurrency import run_in_threadpool

        if self._sem is None:
            self._sem = asyncio.Semaphore(self.workers)
        async with self._sem:
            with self._lock:
                w = self._idle.pop() if self._idle else None
            if w is None or not w.proc.is_alive():
                if w is not None:
                    self._drop(w)
                w = await run_in_threadpool(self._spawn)
            healthy = False
            try:
                out = await asyncio.wait_for(run_in_threadpool(w.call, (kind, record_json, opts)),
                                             self.timeout)
                healthy = True
            except asyncio.TimeoutError:
                raise AdviceProblem(504, f"the advisor did not answer within {self.timeout:.0f} s; "
                                         "try a smaller time_budget") from None
            except (EOFError, OSError):
                raise AdviceProblem(503, "the advice worker stopped unexpectedly; try again") from None
            finally:
                if healthy:
                    with self._lock:
                        self._idle.append(w)
                else:
                    await run_in_threadpool(self._drop, w)
        if "error" in out:
            e = out["error"]
            raise AdviceProblem(e["status"], e["detail"], e.get("extra"))
        return out["ok"]

    def close(self) -> None:
        with self._lock:
            workers = list(self._all)
            self._all.clear()
            self._idle.clear()
        for w in workers:
            w.kill()
