"""Admission: at most ``Settings.active_requests`` API requests are worked on at once.

The others wait in arrival order, each with its body already received (a slow upload does not
hold a place). Without it every request starts at once and they share the cores, the GIL and the
worker pools however the scheduler decides; under a burst the requests of the kind whose
resource is scarcest (detector slots, advice workers) pile up behind it and take seconds while
the others come back in milliseconds. With one queue in front, the wait is shared fairly and
every request, once admitted, runs on an uncrowded server.

Only ``/v1/`` HTTP requests pass the gate: health checks, the page and WebSockets do not. A
request that goes on to wait for something outside this process (advice, computed by the
worker processes for up to ``advice_timeout``) gives its place up first (:func:`leave`), so a
few long searches cannot hold the gate shut for everyone else.

Camera frames and photos go first: a frame is worth something only while it is fresh (the live
page sends the next one when the answer comes), and a scan is short, so it jumps the queue of
state, event and advice requests, whose latency goals leave more room. Within a class the order
is arrival.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class Admission:
    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._gate = PriorityGate(limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        try:
            received = await _whole_body(receive)
        except HTTPException as e:  # over the size limit (BodyLimit)
            await send_json_error(send, e.status_code, str(e.detail))
            return
        await self._gate.acquire(priority(scope.get("method", ""), scope["path"]))
        ticket = _Ticket(self._gate)
        scope[_KEY] = ticket
        try:
            await self.app(scope, _replay(received, receive), send)
        finally:
            ticket.release()


_KEY = "piki.admission"
SCAN, OTHER = 0, 1  # priority classes, lower first


def priority(method: str, path: str) -> int:
    """SCAN for photos and camera frames (``POST /v1/scan``, ``…/frames``, ``…/detections``)."""
    if method == "POST" and (path == "/v1/scan" or path.endswith(("/frames", "/detections"))):
        return SCAN
    return OTHER


class PriorityGate:
    """A counting semaphore whose waiters are served by (priority, arrival)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.active = 0
        self._waiters: list[tuple[int, int, asyncio.Future]] = []
        self._order = itertools.count()

    async def acquire(self, prio: int) -> None:
        if self.active < self.limit and not self._waiters:
            self.active += 1
            return
        fut = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (prio, next(self._order), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # the place was handed over just as the client went away
            raise

    def release(self) -> None:
        while self._waiters:
            _, _, fut = heapq.heappop(self._waiters)
            if not fut.done():  # a cancelled waiter is skipped
                fut.set_result(None)  # the place passes on; ``active`` stays the same
                return
        self.active -= 1


class _Ticket:
    """A request's place in the gate, given back once (at the end, or earlier by ``leave``)."""

    def __init__(self, gate: PriorityGate) -> None:
        self._gate: PriorityGate | None = gate

    def release(self) -> None:
        if self._gate is not None:
            self._gate.release()
            self._gate = None


def leave(scope: Scope) -> None:
    """Give up the request's place in the gate (before a long wait elsewhere); no-op outside it."""
    ticket = scope.get(_KEY)
    if ticket is not None:
        ticket.release()


async def _whole_body(receive: Receive) -> list[Message]:
    messages = []
    while True:
        msg = await receive()
        messages.append(msg)
        if msg["type"] != "http.request" or not msg.get("more_body", False):
            return messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()  # after the body: a disconnect, when it comes

    return replay


async def send_json_error(send: Send, status: int, detail: str) -> None:
    """A ``{"detail": ...}`` JSON error straight from ASGI middleware (before FastAPI's handlers)."""
    import json

    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
