"""Storage of live games on both backends: a real SQLite file and a real PostgreSQL server.

PostgreSQL tests use the loopback URL that ``.ci/services.sh`` sets up
(``postgresql://piki:piki@127.0.0.1:5432/piki_test``, or ``PIKI_TEST_PG_URL``). When it is not
running they are skipped, except under ``PIKI_REQUIRE_PG=1`` (CI), where they fail.
"""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from api.storage import Conflict, NotFound, PostgresStorage, SQLiteStorage, StorageError, open_storage
from test_api_support import Server, deal, pg_url_or_skip


@pytest.fixture()
def storage(db_url):
    s = open_storage(db_url)
    yield s
    s.close()


def test_open_storage_picks_the_backend(db_url):
    s = open_storage(db_url)
    try:
        assert isinstance(s, PostgresStorage if db_url.startswith("postgresql") else SQLiteStorage)
        assert s.ping()
    finally:
        s.close()


def test_games_and_events_round_trip(storage):
    from api.games import new_game_id

    gid = new_game_id()
    storage.create_game(gid, {"dealer": "N", "name": "zażółć"})
    row = storage.game(gid)
    assert row.id == gid and row.meta == {"dealer": "N", "name": "zażółć"} and row.tracker is None
    assert storage.events(gid) == []
    storage.append_event(gid, 0, {"type": "bid", "bid": 3})
    storage.append_event(gid, 1, {"type": "play", "card": "AS"})
    assert storage.events(gid) == [{"type": "bid", "bid": 3}, {"type": "play", "card": "AS"}]
    with pytest.raises(Conflict):
        storage.append_event(gid, 1, {"type": "play", "card": "KS"})
    assert len(storage.events(gid)) == 2
    storage.set_tracker(gid, {"frame": 4})
    assert storage.game(gid).tracker == {"frame": 4}
    assert gid in [g.id for g in storage.list_games(1000)]


def test_unknown_game(storage):
    with pytest.raises(NotFound):
        storage.game("no-such-game-id")
    with pytest.raises(NotFound):
        storage.append_event("no-such-game-id", 0, {"type": "undo"})


def test_concurrent_writers_never_interleave(db_url):
    """Many threads (each with its own storage object, as separate processes would have) race to
    append at the next position; every position is taken exactly once."""
    from api.games import new_game_id

    main = open_storage(db_url)
    gid = new_game_id()
    main.create_game(gid, {})
    stores = [open_storage(db_url) for _ in range(4)]
    won: list[int] = []
    lock = threading.Lock()

    def writer(store, k):
        for _ in range(15):
            for _ in range(50):
                seq = len(store.events(gid))
                try:
                    store.append_event(gid, seq, {"writer": k, "seq": seq})
                except Conflict:
                    continue
                with lock:
                    won.append(seq)
                break

    threads = [threading.Thread(target=writer, args=(s, k)) for k, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = main.events(gid)
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert sorted(won) == list(range(len(events))) and len(events) == 60
    for s in stores + [main]:
        s.close()


def test_bad_locations_are_clear_errors(tmp_path):
    with pytest.raises(StorageError, match="does not exist"):
        open_storage(str(tmp_path / "missing" / "x.db"))
    with pytest.raises(StorageError, match="cannot connect"):
        open_storage("postgresql://nobody:pw@127.0.0.1:1/nothing")


def test_sqlite_uses_wal(tmp_path):
    import sqlite3

    path = tmp_path / "w.db"
    open_storage(str(path)).close()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# ---------------------------------------------------------------- crash safety, real servers
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_mid_game_loses_no_acknowledged_event(backend, tmp_path):
    db = str(tmp_path / "crash.db") if backend == "sqlite" else pg_url_or_skip()
    srv = Server(db).start()
    hands = deal(99)
    try:
        with srv.client() as c:
            g = c.post("/v1/games", json={"dealer": "N", "user_seat": "S", "hand": hands["S"]}).json()
            gid = g["game_id"]
            for s in "NEW":
                c.put(f"/v1/games/{gid}/hand", json={"cards": hands[s], "seat": s}).raise_for_status()
            for b in (3, 4, 3, 2):
                c.post(f"/v1/games/{gid}/bids", json={"bid": b}).raise_for_status()
        # a client keeps playing while the server is killed under it
        acked: list[dict] = []
        failure: list[BaseException] = []

        def run():
            try:
                with srv.client() as c:
                    st = c.get(f"/v1/games/{gid}").json()
                    while st["phase"] == "play":
                        card = st["legal"][0]
                        r = c.post(f"/v1/games/{gid}/plays", json={"card": card, "seat": st["to_act"]})
                        if r.status_code != 200:
                            failure.append(AssertionError(r.text))
                            return
                        acked.append({"card": card, "seat": st["to_act"]})
                        st = r.json()
            except httpx.HTTPError:
                return  # the server died mid-request: that play was never acknowledged

        t = threading.Thread(target=run)
        t.start()
        deadline = time.monotonic() + 60
        while len(acked) < 10 and time.monotonic() < deadline and t.is_alive():
            time.sleep(0.01)
        srv.kill()
        t.join(30)
        assert not failure, failure
        assert 10 <= len(acked) < 52
        srv2 = Server(db).start()
        try:
            with srv2.client() as c:
                st = c.get(f"/v1/games/{gid}").json()
                assert st["bids"] == {"N": 3, "E": 4, "S": 3, "W": 2}
                played = st["played"]
                # every acknowledged play is there, in order; at most the one in flight is extra
                assert played[:len(acked)] == [a["card"] for a in acked]
                assert len(played) - len(acked) in (0, 1)
                log = c.get(f"/v1/games/{gid}/events").json()["events"]
                assert [e["card"] for e in log if e["type"] == "play"] == played
                # and the game goes on
                r = c.post(f"/v1/games/{gid}/plays", json={"card": st["legal"][0]})
                assert r.status_code == 200 and len(r.json()["played"]) == len(played) + 1
        finally:
            srv2.stop()
    finally:
        srv.stop()


def test_two_server_processes_share_one_postgresql():
    url = pg_url_or_skip()
    a, b = Server(url).start(), Server(url).start()
    try:
        with a.client() as ca, b.client() as cb:
            gid = ca.post("/v1/games", json={"dealer": "E"}).json()["game_id"]
            assert cb.post(f"/v1/games/{gid}/bids", json={"bid": 2}).status_code == 200
            assert ca.post(f"/v1/games/{gid}/bids", json={"bid": 5}).status_code == 200
            # the same seat's bid sent to both: only one can win
            r1 = cb.post(f"/v1/games/{gid}/bids", json={"bid": 1, "seat": "W"})
            r2 = ca.post(f"/v1/games/{gid}/bids", json={"bid": 1, "seat": "W"})
            assert sorted([r1.status_code, r2.status_code]) == [200, 409]
            st = ca.get(f"/v1/games/{gid}").json()
            assert st["bids"] == {"E": 2, "S": 5, "W": 1} and st["to_act"] == "N"
            assert cb.get(f"/v1/games/{gid}").json()["seq"] == 3
            assert ca.get("/health").json()["storage"] == "postgresql"
    finally:
        a.stop()
        b.stop()


def test_two_server_processes_share_one_sqlite_file(tmp_path):
    db = str(tmp_path / "shared.db")
    a, b = Server(db).start(), Server(db).start()
    try:
        with a.client() as ca, b.client() as cb:
            gid = ca.post("/v1/games", json={"dealer": "N"}).json()["game_id"]
            for i, c in enumerate((ca, cb, ca, cb)):
                assert c.post(f"/v1/games/{gid}/bids", json={"bid": i + 1}).status_code == 200
            assert cb.get(f"/v1/games/{gid}").json()["bids"] == {"N": 1, "E": 2, "S": 3, "W": 4}
    finally:
        a.stop()
        b.stop()
