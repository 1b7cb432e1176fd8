"""Settings of the HTTP server (one object, passed to :func:`api.app.create_app`)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field


@dataclass
class Settings:
    db: str = "piki.db"  # SQLite file path, or a postgresql:// URL
    token: str | None = None  # when set, every /v1 request must present it
    max_upload_bytes: int = 10 * 1024 * 1024  # images (scan, frames)
    max_body_bytes: int = 1024 * 1024  # everything else (hand records, game events)
    max_image_pixels: int = 40_000_000  # decompression-bomb guard, checked before decoding
    max_image_side: int = 12_000
    cors_origins: list[str] = field(default_factory=list)  # CORS is off unless origins are given
    advice_time_budget: float | None = None  # default thinking time of advice requests
    max_time_budget: float = 30.0
    advice_timeout: float = 300.0  # a request waits at most this long for the advice workers
    stable_frames: int = 3  # frames a card must stay on the table to count as played
    active_requests: int = 3  # API requests worked on at once; the others queue (frames first)
    scan_slots: int = 2  # card detector runs at once (each on one core); more frames queue


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine."""
    h = host.strip().strip("[]").lower()
    if h in ("localhost", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False
