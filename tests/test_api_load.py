"""The server under load: the admission gate, the advice deadline, several server processes,
and the load benchmark's own HTTP client."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from api.gate import Admission, leave
from api.workers import DEFAULT_BUDGET, MIN_SHARE, deadline_options
from test_api_support import Server, have_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_http import RawClient  # noqa: E402

ADVICE = have_module("advisor.advice")


# ---------------------------------------------------------------- advice deadline
def test_deadline_shrinks_the_budget_by_the_wait_but_not_below_a_share():
    opts = {"time_budget": 0.4, "seed": 1, "lang": "en"}
    assert deadline_options("play", opts, 0.0) == (opts, 0.4)
    new, used = deadline_options("play", opts, 0.1)
    assert used == pytest.approx(0.3) and new["time_budget"] == pytest.approx(0.3)
    assert new["seed"] == 1 and opts["time_budget"] == 0.4  # the caller's dict is untouched
    _, used = deadline_options("bid", opts, 5.0)
    assert used == pytest.approx(MIN_SHARE * 0.4)
    # no budget asked: the advisor's own default is the deadline
    _, used = deadline_options("bid", {"time_budget": None}, 0.0)
    assert used == DEFAULT_BUDGET["bid"]
    # a review's budget is per decision: left alone
    assert deadline_options("review", {"time_budget": 0.1}, 9.0) == ({"time_budget": 0.1}, 0.1)


@pytest.mark.skipif(not ADVICE, reason="advisor not installed")
def test_default_budgets_are_the_advisors():
    from advisor.advice import DEFAULT_BID_BUDGET, DEFAULT_PLAY_BUDGET

    assert DEFAULT_BUDGET == {"play": DEFAULT_PLAY_BUDGET, "bid": DEFAULT_BID_BUDGET}


# ---------------------------------------------------------------- admission gate
def _http(path: str) -> dict:
    return {"type": "http", "path": path, "headers": []}


async def _noop_send(msg):
    pass


def _receive(body: bytes = b""):
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)

    return receive


def test_gate_admits_in_order_and_leave_frees_a_place():
    log: list[str] = []

    async def main():
        gates = {n: asyncio.Event() for n in "abc"}
        gates["h"] = asyncio.Event()
        gates["h"].set()

        async def app(scope, receive, send):
            name = scope["name"]
            msg = await receive()
            log.append(f"start {name} {msg['body'].decode()}")
            if name == "b":
                leave(scope)  # e.g. advice: waits outside the gate
                leave(scope)  # twice is harmless
            await gates[name].wait()
            log.append(f"end {name}")

        gate = Admission(app, limit=1)
        tasks = []
        for name in "abc":
            scope = {**_http("/v1/x"), "name": name}
            tasks.append(asyncio.create_task(gate(scope, _receive(name.encode()), _noop_send)))
            await asyncio.sleep(0.01)
        # a holds the only place; b and c wait (their bodies already read)
        assert log == ["start a a"]
        gates["a"].set()
        await asyncio.sleep(0.01)
        # b got in after a and left at once, so c runs while b still waits
        assert log[:4] == ["start a a", "end a", "start b b", "start c c"]
        # pages and health checks never queue
        await asyncio.wait_for(gate({**_http("/health"), "name": "h"}, _receive(), _noop_send), 1)
        gates["c"].set()
        await asyncio.sleep(0.01)
        gates["b"].set()
        await asyncio.gather(*tasks)

    asyncio.run(main())
    assert log[4:] == ["start h ", "end h", "end c", "end b"]


def test_gate_and_body_limit_refuse_an_oversized_chunked_body(tmp_path):
    srv = Server(str(tmp_path / "g.db")).start()
    try:
        def chunks():
            for _ in range(20):
                yield b"x" * 100_000

        import httpx

        r = httpx.post(srv.url + "/v1/state", content=chunks(),
                       headers={"content-type": "application/json"}, timeout=30)
        assert r.status_code == 413 and "over" in r.json()["detail"]
    finally:
        srv.stop()


# ---------------------------------------------------------------- several server processes
def test_two_server_processes_share_games_consistently(tmp_path):
    """--workers 2 (here PIKI_WORKERS): one database, events stored once each, in order, from
    requests that land on either process."""
    import httpx

    srv = Server(str(tmp_path / "two.db"), env={"PIKI_WORKERS": "2", "PIKI_ADVICE_WORKERS": "1"}).start()
    try:
        gid = httpx.post(srv.url + "/v1/games", json={"dealer": "N"}).json()["game_id"]
        results: list[int] = []

        def bidder():
            with httpx.Client(base_url=srv.url, timeout=30) as c:  # own connections
                for _ in range(4):
                    r = c.post(f"/v1/games/{gid}/bids", json={"bid": 3})
                    results.append(r.status_code)

        threads = [threading.Thread(target=bidder) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # four bids fit; every other try is refused as 409 (bidding over), never a 5xx
        assert results.count(200) == 4 and set(results) <= {200, 409}, results
        with httpx.Client(base_url=srv.url) as c:
            events = c.get(f"/v1/games/{gid}/events").json()["events"]
            assert [e["seat"] for e in events] == ["N", "E", "S", "W"]  # each seat once, in turn
            for _ in range(6):  # whichever process answers, the state is the same
                assert c.get(f"/v1/games/{gid}").json()["seq"] == 4
    finally:
        srv.stop()


@pytest.mark.parametrize("arg, env, word", [
    (["--workers", "0"], {}, "--workers"),
    ([], {"PIKI_WORKERS": "two"}, "PIKI_WORKERS"),
    ([], {"PIKI_ACTIVE_REQUESTS": "0"}, "PIKI_ACTIVE_REQUESTS"),
    ([], {"PIKI_SCAN_SLOTS": "x"}, "PIKI_SCAN_SLOTS"),
    ([], {"PIKI_ADVICE_NICE": "low"}, "PIKI_ADVICE_NICE"),
])
def test_serve_refuses_bad_load_settings(tmp_path, arg, env, word):
    import os

    p = subprocess.run([sys.executable, "-m", "api.cli", "serve", "--port", "1", *arg,
                        "--db", str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True,
                       timeout=60, env={**os.environ, **env})
    assert p.returncode == 2 and word in p.stderr and "Traceback" not in p.stderr, p.stderr


@pytest.mark.skipif(not ADVICE, reason="advisor not installed")
def test_advice_reports_its_wait_and_budget(tmp_path):
    import httpx

    srv = Server(str(tmp_path / "adv.db")).start()
    try:
        from test_api import late_position

        with httpx.Client(base_url=srv.url, timeout=120) as c:
            rec, hands = late_position(4)
            to_act = c.post("/v1/state", json=rec).json()["to_act"]
            rec["hands"] = {to_act: hands[to_act]}
            r = c.post("/v1/advice/play", params={"time_budget": 0.2, "seed": 1}, json=rec)
            assert r.status_code == 200, r.text
            out = r.json()
            assert out["queued_s"] >= 0 and 0.05 <= out["time_budget_s"] <= 0.2
            assert out["samples"] >= 1
    finally:
        srv.stop()


# ---------------------------------------------------------------- the benchmark's client
def test_raw_client_reads_length_and_chunked_answers():
    answers = [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
               b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
               b"HTTP/1.1 503 Busy\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"]
    seen: list[bytes] = []

    async def handle(reader, writer):
        for a in answers:
            head = await reader.readuntil(b"\r\n\r\n")
            n = int([h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")][0].split(b":")[1])
            seen.append(head.split(b"\r\n")[0] + b" " + await reader.readexactly(n))
            writer.write(a)
            await writer.drain()
        writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        c = RawClient(f"http://127.0.0.1:{port}", {"Authorization": "Bearer t"})
        assert await c.request("POST", "/a", b'{"x":1}') == (200, b"hi")
        assert await c.request("GET", "/b") == (201, b"abcde")
        assert await c.request("POST", "/c", b"z") == (503, b"")
        c.close()
        server.close()

    asyncio.run(main())
    assert seen == [b'POST /a HTTP/1.1 {"x":1}', b"GET /b HTTP/1.1 ", b"POST /c HTTP/1.1 z"]


def test_load_benchmark_smoke(tmp_path):
    p = subprocess.run([sys.executable, "benchmarks/load.py", "--clients", "4", "--seconds", "2",
                        "--mix", "state=2,check=1,game=2,scan=1", "--db", str(tmp_path / "l.db"), "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stdout + p.stderr
    out = json.loads(p.stdout)
    assert out["errors"] == 0 and out["requests"] > 0 and out["client"] == "raw"
    assert {k["kind"] for k in out["kinds"]} == {"state", "check", "game", "scan"}


def test_priority_gate_serves_frames_first_and_survives_cancelled_waiters():
    import asyncio

    from api.gate import OTHER, SCAN, PriorityGate, priority

    assert priority("POST", "/v1/scan") == SCAN
    assert priority("POST", "/v1/games/abc/frames") == SCAN
    assert priority("POST", "/v1/games/abc/detections") == SCAN
    assert priority("GET", "/v1/games/abc") == OTHER
    assert priority("POST", "/v1/advice/play") == OTHER

    async def run() -> list[str]:
        gate = PriorityGate(1)
        served: list[str] = []
        await gate.acquire(OTHER)  # the one place is taken

        async def request(name: str, prio: int) -> None:
            await gate.acquire(prio)
            served.append(name)
            await asyncio.sleep(0)
            gate.release()

        tasks = [asyncio.create_task(request(n, p)) for n, p in
                 (("state1", OTHER), ("gone", SCAN), ("state2", OTHER), ("frame", SCAN))]
        await asyncio.sleep(0)
        tasks[1].cancel()  # a client that went away while waiting
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert gate.active == 0
        return served

    assert asyncio.run(run()) == ["frame", "state1", "state2"]
