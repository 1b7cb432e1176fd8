"""Helpers of the API, storage and web tests: a real ``piki serve`` process on loopback.

(No tests here; the module is imported by tests/test_api*.py, test_storage*.py, test_web*.py.)
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PG_URL = os.environ.get("PIKI_TEST_PG_URL", "postgresql://piki:piki@127.0.0.1:5432/piki_test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m api.cli serve`` in a subprocess, with its own port; waits for /health."""

    def __init__(self, db: str, token: str | None = None, env: dict | None = None,
                 host: str = "127.0.0.1") -> None:
        self.db = db
        self.token = token
        self.host = host
        self.port = free_port()
        self.extra_env = env or {}
        self.proc: subprocess.Popen | None = None
        self.log_path = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, timeout: float = 30) -> "Server":
        cmd = [sys.executable, "-m", "api.cli", "serve", "--host", self.host,
               "--port", str(self.port), "--db", self.db]
        if self.token:
            cmd += ["--token", self.token]
        env = {**os.environ, "PYTHONUNBUFFERED": "1",
               "PIKI_ADVICE_TIMEOUT": os.environ.get("PIKI_TEST_ADVICE_TIMEOUT", "150"), **self.extra_env}
        if "PIKI_TOKEN" not in self.extra_env:
            env.pop("PIKI_TOKEN", None)
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.output()
                raise RuntimeError(f"server exited with {self.proc.returncode}: {out}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not answer /health in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing — as a crash."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def client(self, **kw) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, **kw)


def pg_url_or_skip() -> str:
    """The test PostgreSQL URL; skip when it is not running, fail instead under PIKI_REQUIRE_PG=1."""
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=3) as c:
            c.execute("SELECT 1")
    except Exception as e:  # noqa: BLE001 - any failure means: not reachable
        msg = (f"PostgreSQL is not reachable at {PG_URL} ({str(e).strip().splitlines()[0] if str(e).strip() else e}); "
               "run `sudo .ci/services.sh` to install and start it")
        if os.environ.get("PIKI_REQUIRE_PG") == "1":
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)
    return PG_URL


def deal(seed: int = 1) -> dict[str, list[str]]:
    import random

    from advisor.state import deal as _deal

    hands = _deal(random.Random(seed))
    return {s.name: [str(c) for c in cards] for s, cards in hands.items()}


def have_module(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False
