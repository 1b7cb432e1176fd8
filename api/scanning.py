"""Detector runs off the event loop, at most ``Settings.scan_slots`` at once.

A scan is the heaviest request (tens of ms of CPU). Run in the shared thread pool, a burst of
frames would start many detector runs side by side, each slowed by the others, while rules and
database requests wait for threads; here frames queue for a few slots of their own instead.
"""

from __future__ import annotations

from typing import Any

from anyio import to_thread

from .config import Settings
from .images import scan_bytes


async def scan_upload(app, data: bytes, settings: Settings) -> dict[str, Any]:
    """``scan_bytes`` in a thread, holding one of the app's scan slots while it runs."""
    limiter = getattr(app.state, "scan_limiter", None)  # set up by the app's lifespan
    return await to_thread.run_sync(scan_bytes, data, settings, limiter=limiter)
