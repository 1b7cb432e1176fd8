"""Advice runs in worker processes, not in the server process.

The advisor is CPU-bound and its C solver holds the GIL for whole searches; run in the server's
threads it would freeze every other request (health checks, page files, typed events) while it
thinks. A small process pool keeps the server responsive, bounds how many searches run at once
(``PIKI_ADVICE_WORKERS``, default: CPU cores - 1, at least 1), and lets a request give up after
``advice_timeout`` seconds (answered 504) while the worker finishes in the background.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
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


class AdvicePool:
    def __init__(self, workers: int | None = None, timeout: float = 300.0) -> None:
        env = os.environ.get("PIKI_ADVICE_WORKERS")
        self.workers = workers or (int(env) if env else max(1, (os.cpu_count() or 2) - 1))
        self.timeout = timeout
        self._pool: cf.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _get(self) -> cf.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=mp.get_context("spawn"),
                                                    initializer=_watch_parent)
            return self._pool

    def _reset(self) -> None:
        """Stop the pool; running searches are abandoned (their workers terminated)."""
        with self._lock:
            if self._pool is not None:
                procs = list((getattr(self._pool, "_processes", None) or {}).values())
                self._pool.shutdown(wait=False, cancel_futures=True)
                for p in procs:
                    if p.is_alive():
                        p.terminate()
            self._pool = None

    async def run(self, kind: str, record_json: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        try:
            fut = loop.run_in_executor(self._get(), _work, kind, record_json, opts)
            out = await asyncio.wait_for(fut, self.timeout)
        except asyncio.TimeoutError:
            raise AdviceProblem(504, f"the advisor did not answer within {self.timeout:.0f} s; "
                                     "try a smaller time_budget") from None
        except cf.process.BrokenProcessPool:
            self._reset()
            raise AdviceProblem(503, "the advice worker stopped unexpectedly; try again") from None
        if "error" in out:
            e = out["error"]
            raise AdviceProblem(e["status"], e["detail"], e.get("extra"))
        return out["ok"]

    def close(self) -> None:
        self._reset()
