"""Load test of the HTTP API: N concurrent clients for T seconds against a server on loopback.

    python benchmarks/load.py [--clients 50] [--seconds 60] [--db PATH|postgresql://…]
                              [--url http://host:port] [--mix state=5,check=2,game=2,advice=1,scan=1]
                              [--advice-time 0.1] [--json] [--httpx]

Without ``--url`` it starts ``piki serve`` on a free loopback port with a fresh SQLite file (or
the ``--db`` given) and stops it at the end. Each client loops: it picks a kind of request by
the weights of ``--mix`` and waits for the answer before the next one.

Kinds: ``state`` (POST /v1/state, a hand in progress), ``check`` (POST /v1/check), ``game``
(a live game: create, four bids, then one play per request; every one a stored event),
``advice`` (POST /v1/advice/play late in a hand, ``time_budget`` = ``--advice-time``), ``scan``
(POST /v1/scan of a 1280x720 camera frame, as the live page sends them). Prints count, errors
and p50/p95/p99 latency per kind; an error is a transport failure, a timeout or an HTTP status
≥ 500 (503 "not available" for scan or advice is counted apart as ``unavailable``).

The clients share the machine with the server, so they are kept light: one keep-alive HTTP/1.1
connection each on asyncio streams (uvloop when installed), request bodies encoded once.
``--httpx`` uses httpx instead (about 3 ms of client CPU a request here, more than the server
spends on most requests).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402

from load_http import RawClient  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from advisor.state import deal  # noqa: E402

BIDS = {"N": 3, "E": 4, "S": 3, "W": 2}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def records(n: int = 20) -> tuple[list[dict], list[dict]]:
    """Hands in progress (for state/check) and late positions with one known hand (for advice)."""
    mid, late = [], []
    for seed in range(n):
        hands = {s.name: [str(c) for c in cs] for s, cs in deal(random.Random(seed)).items()}
        rec = {"format": "piki-hand/1", "dealer": "N", "hands": hands, "bids": BIDS, "plays": []}
        st = replay(HandRecord.from_json(rec))
        rng = random.Random(seed)
        while len(rec["plays"]) < 44:
            c = rng.choice(st.legal_cards())
            st.play(c)
            rec["plays"].append(str(c))
            if len(rec["plays"]) == 20:
                mid.append(json.loads(json.dumps(rec)))
        seat = st.to_act.name
        late.append({**rec, "hands": {seat: hands[seat]}})
    return mid, late


def jpeg() -> bytes:
    """A camera frame as the live page sends it: 1280x720, JPEG quality 80, the first live-page
    frame of benchmarks/scan.py (a rendered table of a held-out card design, a hand and loose
    cards, so that the scan reads its cards too)."""
    import cv2

    from scan import FRAME_SEED, frame

    ok, data = cv2.imencode(".jpg", frame(FRAME_SEED, 1280, 720), [cv2.IMWRITE_JPEG_QUALITY, 80])
    return data.tobytes()


class Stats:
    def __init__(self) -> None:
        self.lat: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.unavailable: dict[str, int] = {}
        self.client_errors: dict[str, int] = {}
        self.examples: list[str] = []

    def add(self, kind: str, seconds: float, status: int | None, detail: str = "") -> None:
        self.lat.setdefault(kind, []).append(seconds)
        if status is None or status >= 500:
            if status == 503:
                self.unavailable[kind] = self.unavailable.get(kind, 0) + 1
            else:
                self.errors[kind] = self.errors.get(kind, 0) + 1
                if len(self.examples) < 5:
                    self.examples.append(f"{kind}: {status} {detail[:200]}")
        elif status >= 400:
            self.client_errors[kind] = self.client_errors.get(kind, 0) + 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


async def client_loop(http, kinds: list[str], weights: list[float], until: float,
                      stats: Stats, data: dict, rng: random.Random, advice_time: float) -> None:
    """One closed-loop client: ``http.request(method, path, body, content_type)`` → (status, body)."""
    game: dict | None = None
    advice_path = f"/v1/advice/play?time_budget={advice_time}&seed=1"
    while time.monotonic() < until:
        kind = rng.choices(kinds, weights)[0]
        t0 = time.perf_counter()
        status, detail = None, ""
        try:
            if kind == "state":
                status, body = await http.request("POST", "/v1/state", rng.choice(data["mid"]))
            elif kind == "check":
                status, body = await http.request("POST", "/v1/check", rng.choice(data["mid"]))
            elif kind == "advice":
                status, body = await http.request("POST", advice_path, rng.choice(data["late"]))
            elif kind == "scan":
                status, body = await http.request("POST", "/v1/scan", data["scan"], data["scan_type"])
            else:  # game: one stored event per request
                if game is None or game.get("phase") == "done":
                    path, ev = "/v1/games", {"dealer": "N"}
                elif game["phase"] == "bidding":
                    path, ev = f"/v1/games/{game['game_id']}/bids", {"bid": BIDS[game["to_act"]]}
                else:
                    path, ev = f"/v1/games/{game['game_id']}/plays", {"card": game["_next"].pop(0)}
                status, body = await http.request("POST", path, json.dumps(ev).encode())
                if status < 300:
                    new = json.loads(body)
                    if game is None or new["game_id"] != game.get("game_id") or "_next" not in game:
                        new["_next"] = list(rng.choice(data["full"]))
                    else:
                        new["_next"] = game["_next"]
                    game = new
                else:
                    game = None
            if status >= 500:
                detail = body.decode(errors="replace")
        except (httpx.HTTPError, OSError, asyncio.TimeoutError, asyncio.IncompleteReadError,
                ValueError) as e:
            detail = f"{type(e).__name__}: {e}"
        stats.add(kind, time.perf_counter() - t0, status, detail)


class HttpxClient:
    """The same ``request`` on an httpx client (heavier: ``--httpx``)."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def request(self, method: str, path: str, body: bytes = b"",
                      content_type: str = "application/json") -> tuple[int, bytes]:
        r = await self.http.request(method, path, content=body, headers={"content-type": content_type})
        return r.status_code, r.content


def multipart(field: str, filename: str, payload: bytes, mime: str) -> tuple[bytes, str]:
    """A multipart/form-data body with one file, and its content type."""
    boundary = "piki-load-" + os.urandom(8).hex()
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: {mime}\r\n\r\n").encode()
    return head + payload + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def full_hands(n: int = 10) -> list[list[str]]:
    """Complete legal play sequences (52 cards) with hands unknown to the server."""
    out = []
    for seed in range(100, 100 + n):
        hands = {s.name: [str(c) for c in cs] for s, cs in deal(random.Random(seed)).items()}
        st = replay(HandRecord.from_json({"dealer": "N", "hands": hands, "bids": BIDS}))
        plays = []
        while not st.is_done:
            c = st.legal_cards()[0]
            st.play(c)
            plays.append(str(c))
        out.append(plays)
    return out


async def run(url: str, clients: int, seconds: float, mix: dict[str, float], advice_time: float,
              token: str | None, use_httpx: bool = False) -> Stats:
    mid, late = records()
    scan, scan_type = multipart("image", "f.jpg", jpeg(), "image/jpeg")
    data = {"mid": [json.dumps(r).encode() for r in mid], "late": [json.dumps(r).encode() for r in late],
            "scan": scan, "scan_type": scan_type, "full": full_hands()}
    stats = Stats()
    kinds = [k for k, w in mix.items() if w > 0]
    weights = [mix[k] for k in kinds]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    until = time.monotonic() + seconds

    async def loops(make) -> None:
        await asyncio.gather(*(client_loop(make(), kinds, weights, until, stats, data,
                                           random.Random(i), advice_time) for i in range(clients)))

    if use_httpx:
        limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
        async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(120, connect=10),
                                     limits=limits, headers=headers) as http:
            shared = HttpxClient(http)
            await loops(lambda: shared)
    else:
        conns: list[RawClient] = []

        def make() -> RawClient:
            conns.append(RawClient(url, headers, timeout=120, connect_timeout=10))
            return conns[-1]

        try:
            await loops(make)
        finally:
            for c in conns:
                c.close()
    return stats


def run_sync(*args, **kwargs) -> Stats:
    """``run`` on uvloop when it is installed (a lighter client), else on asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(*args, **kwargs))
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(run(*args, **kwargs))


def start_server(db: str, workers: int | None = None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    extra = ["--workers", str(workers)] if workers else []
    proc = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--db", db, *extra],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("load: the server did not start")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--url", default=None, help="an already running server (default: start one)")
    ap.add_argument("--db", default=None, help="database for the started server (default: a temp SQLite file)")
    ap.add_argument("--server-workers", type=int, default=None, metavar="N",
                    help="server processes of the started server (piki serve --workers; default: its own)")
    ap.add_argument("--mix", default="state=5,check=2,game=2,advice=1,scan=1")
    ap.add_argument("--advice-time", type=float, default=0.1)
    ap.add_argument("--token", default=os.environ.get("PIKI_TOKEN"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--httpx", action="store_true", help="clients on httpx (heavier) instead of raw HTTP/1.1")
    args = ap.parse_args(argv)
    mix = {}
    for part in args.mix.split(","):
        k, _, w = part.partition("=")
        if k not in ("state", "check", "game", "advice", "scan"):
            ap.error(f"unknown kind {k!r} in --mix")
        mix[k] = float(w or 1)
    proc = None
    tmp = None
    url = args.url
    if url is None:
        if args.db is None:
            tmp = tempfile.TemporaryDirectory()
            db = os.path.join(tmp.name, "load.db")
        else:
            db = args.db
        proc, url = start_server(db, args.server_workers)
    try:
        t0 = time.monotonic()
        stats = run_sync(url, args.clients, args.seconds, mix, args.advice_time, args.token,
                         use_httpx=args.httpx)
        wall = time.monotonic() - t0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(20)
        if tmp is not None:
            tmp.cleanup()
    rows = []
    for kind in mix:
        lat = stats.lat.get(kind, [])
        rows.append({"kind": kind, "requests": len(lat), "errors": stats.errors.get(kind, 0),
                     "unavailable": stats.unavailable.get(kind, 0),
                     "4xx": stats.client_errors.get(kind, 0),
                     "p50_ms": round(1000 * pct(lat, 50), 1), "p95_ms": round(1000 * pct(lat, 95), 1),
                     "p99_ms": round(1000 * pct(lat, 99), 1),
                     "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None})
    total = sum(r["requests"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    summary = {"clients": args.clients, "client": "httpx" if args.httpx else "raw", "seconds": round(wall, 1), "requests": total,
               "requests_per_s": round(total / wall, 1), "errors": errors, "kinds": rows,
               "error_examples": stats.examples}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{args.clients} clients, {wall:.1f} s, {total} requests ({total / wall:.1f}/s), {errors} errors")
        print(f"{'kind':8} {'n':>7} {'err':>5} {'503':>5} {'4xx':>5} {'p50 ms':>9} {'p95 ms':>9} {'p99 ms':>9}")
        for r in rows:
            print(f"{r['kind']:8} {r['requests']:7d} {r['errors']:5d} {r['unavailable']:5d} {r['4xx']:5d} "
                  f"{r['p50_ms']:9.1f} {r['p95_ms']:9.1f} {r['p99_ms']:9.1f}")
        for e in stats.examples:
            print("error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
