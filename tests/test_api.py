"""The HTTP API through a real ``piki serve`` process on loopback with a real SQLite file."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib

import httpx
import pytest

from test_api_support import ROOT, Server, deal, have_module

BIDS4 = {"N": 3, "E": 4, "S": 3, "W": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("api") / "piki.db"
    srv = Server(str(db)).start()
    yield srv
    srv.stop()


@pytest.fixture()
def client(server):
    with server.client() as c:
        yield c


def assert_error(r: httpx.Response, status: int, *words: str) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert isinstance(body["detail"], str) and body["detail"]
    for w in words:
        assert w.lower() in body["detail"].lower(), body["detail"]
    return body


def png_bytes(w: int = 8, h: int = 8) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (w, h), (0, 128, 0)).save(buf, "PNG")
    return buf.getvalue()


def png_header_only(w: int, h: int) -> bytes:
    """A PNG whose header claims w x h pixels (a decompression bomb's first bytes)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------- health, state, check
def test_health(client):
    r = client.get("/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok"
    assert r.json()["storage"] == "sqlite"


def test_state_follows_the_record(client):
    r = client.post("/v1/state", json={"format": "piki-hand/1", "dealer": "N", "bids": BIDS4,
                                       "plays": ["5H", "KH"]})
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["phase"] == "play" and st["to_act"] == "S"
    assert st["current_trick"] == [{"seat": "N", "card": "5H"}, {"seat": "E", "card": "KH"}]
    assert st["played"] == ["5H", "KH"] and st["spades_broken"] is False
    assert st["tricks"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert st["game_over"] is False and st["winner"] is None


def test_state_accepts_other_notations(client):
    r = client.post("/v1/state", json={"dealer": "n", "bids": BIDS4, "plays": ["10d", "♠A"]})
    assert r.status_code == 200, r.text
    assert r.json()["played"] == ["TD", "AS"]


def test_state_of_a_full_hand_has_a_score(client):
    hands = deal(7)
    st = client.post("/v1/state", json={"dealer": "N", "hands": hands, "bids": BIDS4}).json()
    plays = []
    while st["phase"] == "play":
        plays.append(st["legal"][0])
        st = client.post("/v1/state", json={"dealer": "N", "hands": hands, "bids": BIDS4,
                                            "plays": plays}).json()
    assert len(plays) == 52 and st["phase"] == "done"
    assert set(st["score"]) == {"NS", "EW"}
    assert {"hand_points", "points", "bags"} <= set(st["score"]["NS"])
    assert sum(st["tricks"].values()) == 13


@pytest.mark.parametrize("body, words", [
    ({"dealer": "X"}, ["dealer", "seat"]),
    ({}, ["dealer"]),
    ({"dealer": "N", "plays": ["ZZ"]}, ["plays[0]", "ZZ"]),
    ({"dealer": "N", "hands": {"N": ["AS", "AS"]}}, ["AS", "twice"]),
    ({"dealer": "N", "hands": {"N": ["AS"], "E": ["AS"]}}, ["two hands"]),
    ({"dealer": "N", "hands": {"N": [f"{r}{s}" for s in "SH" for r in "23456789"][:14]}}, ["13"]),
    ({"dealer": "N", "bids": {"N": 14}}, ["bid"]),
    ({"dealer": "N", "format": "other/9"}, ["format"]),
    ({"dealer": "N", "rules": "nosuchpreset"}, []),
    ({"dealer": "N", "plays": "5H"}, ["plays"]),
    ({"dealer": "N", "score_before": {"XX": 3}}, ["XX"]),
])
def test_malformed_records_are_422_with_a_reason(client, body, words):
    for path in ("/v1/state", "/v1/check"):
        assert_error(client.post(path, json=body), 422, *words)


def test_numbers_beyond_any_game_are_422_also_for_advice(client):
    # a score of 1e20 once reached the advice's 64-bit arithmetic: 503, the advice worker failed
    for body, words in (({"dealer": "N", "score_before": {"EW": -10**20}}, ["score_before.EW", "between"]),
                        ({"dealer": "N", "rules": {"preset": "piki", "win_at": 10**20}}, ["win_at", "between"])):
        for path in ("/v1/state", "/v1/advice/bid", "/v1/advice/play", "/v1/review"):
            assert_error(client.post(path, json=body), 422, *words)


def test_bad_json_and_wrong_types_are_422(client):
    assert_error(client.post("/v1/state", content=b'{"dealer": ', headers={
        "content-type": "application/json"}), 422, "JSON")
    assert_error(client.post("/v1/state", json=[1, 2]), 422)
    assert_error(client.post("/v1/state", json="N"), 422)
    assert_error(client.post("/v1/state", content=b"\xff\xfe", headers={
        "content-type": "application/json"}), 422)


def test_illegal_record_state_409_check_200(client):
    rec = {"dealer": "N", "hands": {"E": ["2H", "3C"]}, "bids": BIDS4, "plays": ["5H", "3C"]}
    body = assert_error(client.post("/v1/state", json=rec), 409, "must follow hearts")
    assert body["error"]["index"] == 1 and body["error"]["seat"] == "E"
    r = client.post("/v1/check", json=rec)
    assert r.status_code == 200
    out = r.json()
    assert out["legal"] is False
    assert out["errors"][0]["card"] == "3C" and out["errors"][0]["seat"] == "E"
    assert "hearts" in out["errors"][0]["reason"]
    ok = client.post("/v1/check", json={"dealer": "N", "bids": BIDS4, "plays": ["5H"]}).json()
    assert ok == {"legal": True, "errors": [], "notes": []}
    noted = client.post("/v1/check?lang=pl", json={"dealer": "N", "bids": BIDS4, "plays": ["5H"],
                                                   "bags": {"NS": 9}}).json()
    assert noted["legal"] is True and noted["notes"] == [
        'pole "bags" nie należy do formatu piki-hand/1 i nie jest czytane: czy chodziło o "bags_before"?']


def test_refusals_in_polish(client):
    rec = {"dealer": "N", "hands": {"E": ["2H", "3C"]}, "bids": BIDS4, "plays": ["5H", "3C"]}
    body = assert_error(client.post("/v1/state?lang=pl", json=rec), 409,
                        "niedozwolone zagranie (E): E musi dołożyć do koloru (kiery): ma 2H")
    assert body["error"]["code"] == "must_follow" and body["error"]["reason"].startswith("E musi")
    out = client.post("/v1/check?lang=pl", json=rec).json()
    assert out["errors"][0]["reason"] == "E musi dołożyć do koloru (kiery): ma 2H"
    assert client.post("/v1/check?lang=de", json=rec).status_code == 422  # a language it lacks
    # the advice's 409 too (checked before the workers), and a live game's refusals
    assert_error(client.post("/v1/advice/play?lang=pl", json=rec), 409, "musi dołożyć")
    gid = new_game(client)["game_id"]
    assert_error(client.post(f"/v1/games/{gid}/undo?lang=pl"), 409, "nie ma czego cofnąć")
    assert_error(client.post(f"/v1/games/{gid}/bids?lang=pl", json={"bid": 3, "seat": "S"}), 409,
                 "teraz licytuje N, nie S")
    assert_error(client.post(f"/v1/games/{gid}/questions/7?lang=pl", json={"accept": False}), 409,
                 "nie ma otwartego pytania 7")
    # input not understood: 422, in Polish where its words have been written
    assert_error(client.post(f"/v1/games/{gid}/plays?lang=pl", json={"card": "XX"}), 422,
                 "card: nieznana karta 'XX'")
    assert_error(client.put(f"/v1/games/{gid}/hand?lang=pl", json={"cards": ["AS", "as"], "seat": "N"}),
                 422, "cards: AS występuje dwa razy")
    assert_error(client.post("/v1/state?lang=pl", json={"dealer": "Q"}), 422, "dealer: nieznane miejsce 'Q'")
    # without ?lang the words stay English
    assert_error(client.post(f"/v1/games/{gid}/undo"), 409, "nothing to undo")
    assert_error(client.post(f"/v1/games/{gid}/plays", json={"card": "XX"}), 422, "card: unknown card 'XX'")


def test_request_body_cap(client):
    big = {"dealer": "N", "pad": "x" * 2_000_000}
    assert_error(client.post("/v1/state", json=big), 413)


def test_request_body_cap_without_content_length(client):
    def chunks():
        for _ in range(40):
            yield b" " * 65536

    r = client.post("/v1/state", content=chunks(), headers={"content-type": "application/json"})
    assert_error(r, 413)


def test_cors_is_off_by_default(client):
    r = client.options("/v1/state", headers={"Origin": "https://evil.example",
                                             "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in {k.lower() for k in r.headers}
    r = client.post("/v1/state", json={"dealer": "N"}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 200 and "access-control-allow-origin" not in {k.lower() for k in r.headers}


def test_unknown_route_and_method_are_json(client):
    assert_error(client.get("/v1/nothing"), 404)
    assert_error(client.get("/v1/state"), 405)


# ---------------------------------------------------------------- advice and review
ADVICE = have_module("advisor.advice")
SLOW = httpx.Timeout(600, connect=10)  # the advisor thinks; on a busy CI machine for a while


def late_position(seed: int, tricks: int = 11) -> tuple[dict, dict]:
    """A hand with ``tricks`` tricks already played (lowest legal card each time), all hands known."""
    from advisor.record import HandRecord, replay

    hands = deal(seed)
    rec = {"dealer": "N", "hands": hands, "bids": BIDS4, "plays": []}
    st = replay(HandRecord.from_json(rec))
    while len(rec["plays"]) < 4 * tricks:
        c = st.legal_cards()[0]
        st.play(c)
        rec["plays"].append(str(c))
    return rec, hands


def test_advice_bid(client):
    hands = deal(3)
    rec = {"dealer": "N", "hands": {"N": hands["N"]}}
    r = client.post("/v1/advice/bid", params={"time_budget": 0.2, "seed": 1}, json=rec, timeout=SLOW)
    if not ADVICE:
        assert_error(r, 503, "advisor")
        return
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["bid"] == "blind_nil" or 0 <= out["bid"] <= 13
    assert out["candidates"] and {"bid", "expected_points"} <= set(out["candidates"][0])
    assert isinstance(out["explanation"], str)


def test_advice_play(client):
    rec, hands = late_position(3)
    to_act = client.post("/v1/state", json=rec).json()["to_act"]
    rec["hands"] = {to_act: hands[to_act]}  # only the player's own hand is known
    r = client.post("/v1/advice/play", params={"time_budget": 0.2, "seed": 1}, json=rec, timeout=SLOW)
    if not ADVICE:
        assert_error(r, 503, "advisor")
        return
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["card"] in hands[to_act] and out["card"] not in rec["plays"]
    assert out["candidates"] and "card" in out["candidates"][0]


def test_advice_in_the_wrong_phase_or_illegal_record_is_4xx(client):
    # illegal record: rejected before the advisor runs, whether or not it is installed
    rec = {"dealer": "N", "hands": {"E": ["2H", "3C"]}, "bids": BIDS4, "plays": ["5H", "3C"]}
    for path in ("/v1/advice/bid", "/v1/advice/play", "/v1/review"):
        assert_error(client.post(path, json=rec), 409, "hearts")
        assert_error(client.post(path, json={"dealer": "Q"}), 422, "dealer")
    assert_error(client.post("/v1/advice/bid", params={"lang": "de"}, json={"dealer": "N"}), 422, "lang")
    assert_error(client.post("/v1/advice/bid", params={"time_budget": -1}, json={"dealer": "N"}), 422)
    if ADVICE:
        r = client.post("/v1/advice/bid", json={"dealer": "N", "bids": BIDS4, "hands": deal(2)},
                        timeout=SLOW)
        assert_error(r, 409, "bidding is over")


def test_review(client):
    rec, hands = late_position(5, 13)
    r = client.post("/v1/review", params={"time_budget": 0.02, "seed": 1, "seat": "S"}, json=rec,
                    timeout=SLOW)
    if not ADVICE:
        assert_error(r, 503, "advisor")
        return
    assert r.status_code == 200, r.text
    out = r.json()
    assert "decisions" in out and "summary" in out
    assert all(d["seat"] == "S" for d in out["decisions"])
    assert_error(client.post("/v1/review", params={"seat": "X"}, json=rec), 422, "seat")


@pytest.mark.skipif(not ADVICE, reason="advisor not installed")
def test_advice_timeout_is_504_and_frees_the_worker(tmp_path):
    import time

    srv = Server(str(tmp_path / "slow.db"), env={"PIKI_ADVICE_TIMEOUT": "3",
                                                  "PIKI_ADVICE_WORKERS": "1"}).start()
    try:
        with srv.client() as c:
            t0 = time.monotonic()
            # a review's budget is per decision: 60 decisions at up to 10 s each, far past 3 s
            # however fast the search is (a single bid may use up all its deals in 3 s)
            rec, _ = late_position(6, 13)
            r = c.post("/v1/review", params={"time_budget": 10}, json=rec)
            assert_error(r, 504, "did not answer within 3 s")
            assert time.monotonic() - t0 < 30
            r = c.post("/v1/review", params={"time_budget": 10, "lang": "pl"}, json=rec)
            assert_error(r, 504, "doradca nie odpowiedział w ciągu 3 s")
            # the runaway search was killed: the one worker is free for the next request
            rec, hands = late_position(6)
            to_act = c.post("/v1/state", json=rec).json()["to_act"]
            rec["hands"] = {to_act: hands[to_act]}
            r = c.post("/v1/advice/play", params={"time_budget": 0.1}, json=rec, timeout=SLOW)
            assert r.status_code in (200, 504), r.text
            if r.status_code == 200:
                assert r.json()["card"] in hands[to_act]
            assert c.get("/health").status_code == 200
    finally:
        srv.stop()


# ---------------------------------------------------------------- scan: upload guards
def test_scan_refuses_non_images(client):
    assert_error(client.post("/v1/scan", files={"image": ("a.jpg", b"hello", "image/jpeg")}), 415, "image")
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(300)  # a header, no picture
    assert_error(client.post("/v1/scan", files={"image": ("IMG_0001.HEIC", heic, "image/heic")}), 422,
                 "HEIC", "cannot be decoded")
    assert_error(client.post("/v1/scan", files={"image": ("a.jpg", b"", "image/jpeg")}), 422, "empty")
    assert_error(client.post("/v1/scan", files={"other": ("a.jpg", png_bytes(), "image/png")}), 422, "image")
    assert_error(client.post("/v1/scan", json={"image": "x"}), 422)
    # in Polish where asked, the detector's own words included
    assert_error(client.post("/v1/scan?lang=pl", files={"image": ("a.jpg", b"hello", "image/jpeg")}), 415,
                 "to nie jest obraz: wyślij plik JPEG, PNG, WebP albo HEIC")
    assert_error(client.post("/v1/scan?lang=pl", files={"image": ("IMG_0001.HEIC", heic, "image/heic")}),
                 422, "obraz to plik HEIC/HEIF, którego nie da się zdekodować")
    assert_error(client.post("/v1/scan?lang=pl", files={"image": ("a.jpg", b"", "image/jpeg")}), 422,
                 "obraz jest pusty")


def test_scan_refuses_decompression_bombs_and_huge_uploads(client):
    assert_error(client.post("/v1/scan", files={"image": ("b.png", png_header_only(60000, 60000),
                                                          "image/png")}), 413, "pixels")
    big = b"\xff\xd8\xff" + b"\0" * (11 * 1024 * 1024)
    r = client.post("/v1/scan", files={"image": ("big.jpg", big, "image/jpeg")})
    assert_error(r, 413)


def test_scan_of_a_real_image(client):
    r = client.post("/v1/scan", files={"image": ("green.png", png_bytes(64, 48), "image/png")})
    if r.status_code == 503:
        pytest.skip(f"card detector not installed here: {assert_error(r, 503, 'not available')['detail']}")
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["image"] == "green.png"
    assert isinstance(out["cards"], list) and "hand" in out and "table" in out
    assert out["cards"] == [] and out["warnings"] == ["no cards found: frame the cards so their corner"
                                                      " indices are sharp and well lit"]
    # the warnings in Polish on request (the web page asks in its own language)
    r = client.post("/v1/scan", params={"lang": "pl"}, files={"image": ("green.png", png_bytes(64, 48), "image/png")})
    assert r.status_code == 200 and r.json()["warnings"][0].startswith("nie znaleziono kart")
    assert_error(client.post("/v1/scan", params={"lang": "de"},
                             files={"image": ("green.png", png_bytes(64, 48), "image/png")}), 422, "lang")


def rendered_table():
    """A 640x480 picture of four cards lying on a table, and where each card lies."""
    from PIL import Image

    art = ROOT / "datasets" / "artwork" / "raster" / "anglo"
    if not art.is_dir():
        pytest.skip("card pictures not available")
    im = Image.new("RGB", (640, 480), (22, 110, 62))
    cards = {"AS": (245, 10), "KH": (460, 135), "7D": (245, 262), "TC": (30, 135)}
    for code, spot in cards.items():
        pic = Image.open(art / f"{code}.png").convert("RGB")
        im.paste(pic.resize((150, int(150 * pic.height / pic.width))), spot)
    return im, cards


def scan_of_the_rendered_table(client, name: str, data: bytes, mime: str) -> dict:
    """POST the picture of :func:`rendered_table` (as ``data``): its four cards on the table, each
    box around its card on the picture as shown (640x480)."""
    _, cards = rendered_table()
    r = client.post("/v1/scan", files={"image": (name, data, mime)})
    if r.status_code == 503:
        pytest.skip(assert_error(r, 503, "not available")["detail"])
    assert r.status_code == 200, r.text
    out = r.json()
    assert sorted(out["table"]) == sorted(cards) and out["hand"] == []
    for c in out["cards"]:
        x1, y1, x2, y2 = c["box"]
        sx, sy = cards[c["card"]]
        assert sx - 10 <= x1 < x2 <= sx + 160 and sy - 10 <= y1 < y2 <= sy + 240
        assert 0 < c["confidence"] <= 1 and c["zone"] == "table"
    assert out["width"] == 640 and out["height"] == 480
    return out


def test_scan_finds_the_cards_of_a_rendered_table(client):
    im, _ = rendered_table()
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    scan_of_the_rendered_table(client, "table.jpg", buf.getvalue(), "image/jpeg")


def test_scan_reads_an_iphone_heic_photo_the_way_it_is_shown(client):
    pillow_heif = pytest.importorskip("pillow_heif")
    from PIL import Image

    im, _ = rendered_table()
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways, "turn 90 degrees clockwise to show", as an iPhone does
    buf = io.BytesIO()
    pillow_heif.from_pillow(im.transpose(Image.Transpose.ROTATE_90)).save(buf, quality=90, exif=exif.tobytes())
    scan_of_the_rendered_table(client, "IMG_0003.HEIC", buf.getvalue(), "image/heic")


def test_heic_upload_where_pillow_heif_is_missing_says_what_to_send(monkeypatch):
    import sys

    from api.config import Settings
    from api.errors import ImageRejected
    from api.images import check_image

    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as if it were not installed
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(300)
    with pytest.raises(ImageRejected) as e:
        check_image(heic, Settings())
    assert e.value.status == 415 and "send it as JPEG or PNG" in e.value.detail


# ---------------------------------------------------------------- live games
def new_game(client, **body) -> dict:
    r = client.post("/v1/games", json={"dealer": "N", **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_game_ids_are_unguessable(client):
    ids = {new_game(client)["game_id"] for _ in range(5)}
    assert len(ids) == 5 and all(len(i) >= 20 for i in ids)


def test_create_game_validation(client):
    assert_error(client.post("/v1/games", json={}), 422, "dealer")
    assert_error(client.post("/v1/games", json={"dealer": "Z"}), 422, "seat")
    assert_error(client.post("/v1/games", json={"dealer": "N", "user_seat": "Q"}), 422, "user_seat")
    assert_error(client.post("/v1/games", json={"dealer": "N", "hand": ["AS"]}), 422, "user_seat")
    assert_error(client.post("/v1/games", json={"dealer": "N", "user_seat": "S",
                                                "hand": ["AS", "XX"]}), 422, "XX")
    assert_error(client.post("/v1/games", json={"dealer": "N", "bogus": 1}), 422, "bogus")
    assert_error(client.post("/v1/games", json={"dealer": "N", "rules": {"preset": "nope"}}), 422)


def test_game_bids_plays_undo_state(client):
    hands = deal(11)
    g = new_game(client, user_seat="S", hand=hands["S"], score_before={"NS": 100, "EW": 50},
                 name="friday")
    gid = g["game_id"]
    assert g["phase"] == "bidding" and g["to_act"] == "N" and g["user_seat"] == "S"
    assert g["hand_number"] == 1 and g["name"] == "friday"
    assert sorted(g["user_hand"]) == sorted(hands["S"])
    assert_error(client.post(f"/v1/games/{gid}/bids", json={"bid": 3, "seat": "E"}), 409, "N's turn")
    assert_error(client.post(f"/v1/games/{gid}/bids", json={"bid": 15}), 422, "bid")
    assert_error(client.post(f"/v1/games/{gid}/bids", json={"bid": "blind_nil"}), 409, "blind nil")
    assert_error(client.post(f"/v1/games/{gid}/plays", json={"card": "5H"}), 409, "bidding")
    for seat, b in (("N", 3), ("E", 4), ("S", "nil"), ("W", 2)):
        r = client.post(f"/v1/games/{gid}/bids", json={"bid": b, "seat": seat})
        assert r.status_code == 200, r.text
    st = r.json()
    assert st["phase"] == "play" and st["bids"] == {"N": 3, "E": 4, "S": 0, "W": 2}
    assert_error(client.post(f"/v1/games/{gid}/bids", json={"bid": 3}), 409, "bidding is over")
    # N leads a card it does not hold? N's hand is unknown, so any unseen card is accepted,
    # but not one in S's known hand
    assert_error(client.post(f"/v1/games/{gid}/plays", json={"card": hands["S"][0]}), 409,
                 "S's hand")
    lead = next(c for c in hands["N"] if c[1] != "S")
    r = client.post(f"/v1/games/{gid}/plays", json={"card": lead, "seat": "N"})
    assert r.status_code == 200 and r.json()["current_trick"] == [{"seat": "N", "card": lead}]
    assert_error(client.post(f"/v1/games/{gid}/plays", json={"card": lead}), 409, "already played")
    assert_error(client.post(f"/v1/games/{gid}/plays", json={"card": "ZZ"}), 422, "ZZ")
    assert_error(client.post(f"/v1/games/{gid}/plays", json={"card": lead, "seat": "W"}), 409,
                 "E's turn")
    st = client.get(f"/v1/games/{gid}").json()
    assert st["to_act"] == "E" and st["seq"] == 5 and st["can_undo"]
    assert client.get(f"/v1/games/{gid}/state").json()["played"] == [lead]
    r = client.post(f"/v1/games/{gid}/undo")
    assert r.status_code == 200 and r.json()["played"] == [] and r.json()["to_act"] == "N"
    r = client.post(f"/v1/games/{gid}/undo")
    assert r.json()["phase"] == "bidding" and r.json()["to_act"] == "W"
    log = client.get(f"/v1/games/{gid}/events").json()
    assert [e["type"] for e in log["events"]] == ["bid"] * 4 + ["play", "undo", "undo"]
    assert log["events"][4]["seat"] == "N"


def test_undo_with_nothing_to_undo(client):
    gid = new_game(client)["game_id"]
    assert_error(client.post(f"/v1/games/{gid}/undo"), 409, "nothing to undo")


def test_unknown_and_malformed_game_ids(client):
    assert_error(client.get("/v1/games/AAAAAAAAAAAAAAAAAAAAAA"), 404, "no game")
    assert_error(client.get("/v1/games/AAAAAAAAAAAAAAAAAAAAAA?lang=pl"), 404, "nie ma gry o takim identyfikatorze")
    assert_error(client.post("/v1/games/AAAAAAAAAAAAAAAAAAAAAA/bids", json={"bid": 1}), 404)
    assert_error(client.get("/v1/games/short"), 422)
    assert_error(client.get("/v1/games/bad%20id%20with%20spaces"), 422)


def test_set_hand(client):
    hands = deal(12)
    gid = new_game(client, user_seat="E")["game_id"]
    r = client.put(f"/v1/games/{gid}/hand", json={"cards": hands["E"]})
    assert r.status_code == 200 and sorted(r.json()["user_hand"]) == sorted(hands["E"])
    r = client.put(f"/v1/games/{gid}/hand", json={"cards": hands["N"], "seat": "N"})
    assert r.status_code == 200
    assert_error(client.put(f"/v1/games/{gid}/hand", json={"cards": hands["E"][:2], "seat": "W"}),
                 422, "two hands")
    assert_error(client.put(f"/v1/games/{gid}/hand", json={"cards": ["AS"] * 2}), 422, "twice")
    g2 = new_game(client)["game_id"]
    assert_error(client.put(f"/v1/games/{g2}/hand", json={"cards": ["AS"]}), 422, "seat")
    # a hand that leaves out a card the seat already played is refused
    g3 = new_game(client)["game_id"]
    bid_all(client, g3)
    lead = next(c for c in hands["N"] if c[1] != "S")
    client.post(f"/v1/games/{g3}/plays", json={"card": lead}).raise_for_status()
    assert_error(client.put(f"/v1/games/{g3}/hand", json={"cards": hands["E"], "seat": "N"}), 409,
                 "does not hold")
    assert client.get(f"/v1/games/{g3}").json()["record"]["hands"]["N"] == []


def play_out(client, gid: str, hands: dict, first_bids=BIDS4) -> dict:
    for s in "NESW":
        client.put(f"/v1/games/{gid}/hand", json={"cards": hands[s], "seat": s}).raise_for_status()
    st = client.get(f"/v1/games/{gid}").json()
    while st["phase"] == "bidding":
        st = client.post(f"/v1/games/{gid}/bids", json={"bid": first_bids[st["to_act"]]}).json()
    while st["phase"] == "play":
        r = client.post(f"/v1/games/{gid}/plays", json={"card": st["legal"][0], "seat": st["to_act"]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st


def test_hands_of_a_game_score_carried_dealer_rotated(client):
    g = new_game(client, user_seat="S", score_before={"NS": 10, "EW": 20}, bags_before={"NS": 2, "EW": 0})
    gid = g["game_id"]
    assert_error(client.post(f"/v1/games/{gid}/hands", json={}), 409, "not over")
    st = play_out(client, gid, deal(21))
    assert st["phase"] == "done" and st["can_start_next_hand"]
    score = st["score"]
    nxt = deal(22)
    r = client.post(f"/v1/games/{gid}/hands", json={"cards": nxt["S"]})
    assert r.status_code == 201, r.text
    st2 = r.json()
    assert st2["hand_number"] == 2 and st2["dealer"] == "E" and st2["phase"] == "bidding"
    assert st2["to_act"] == "E"
    assert st2["record"]["score_before"] == {"NS": score["NS"]["points"], "EW": score["EW"]["points"]}
    assert st2["record"]["bags_before"] == {"NS": score["NS"]["bags"], "EW": score["EW"]["bags"]}
    assert sorted(st2["user_hand"]) == sorted(nxt["S"])
    hl = client.get(f"/v1/games/{gid}/hands").json()["hands"]
    assert [h["hand_number"] for h in hl] == [1, 2]
    assert hl[0]["phase"] == "done" and hl[0]["score"] == score
    assert hl[0]["score_before"] == {"NS": 10, "EW": 20}
    assert hl[1]["dealer"] == "E" and hl[1]["score"] is None
    # undo goes back to the end of hand 1
    r = client.post(f"/v1/games/{gid}/undo")
    assert r.json()["hand_number"] == 1 and r.json()["phase"] == "done"


def test_game_over_refuses_next_hand(client):
    g = new_game(client, score_before={"NS": 495, "EW": 0})
    st = play_out(client, g["game_id"], deal(4), {"N": 1, "E": 1, "S": 1, "W": 1})
    if st["game_over"]:
        assert_error(client.post(f"/v1/games/{g['game_id']}/hands", json={}), 409, "game is over")


def test_game_advice(client):
    from advisor.record import HandRecord, replay

    rec, hands = late_position(31, 10)
    full = replay(HandRecord.from_json(rec))
    g = new_game(client, user_seat="N", hand=hands["N"])
    gid = g["game_id"]
    assert_error(client.get(f"/v1/games/{gid}/advice", params={"lang": "xx"}), 422)
    for s in "NESW":
        client.post(f"/v1/games/{gid}/bids", json={"bid": BIDS4[s]}).raise_for_status()
    plays = list(rec["plays"])
    if full.to_act.name == "N":  # make it another seat's turn first
        c = full.legal_cards()[0]
        full.play(c)
        plays.append(str(c))
    for card in plays:
        client.post(f"/v1/games/{gid}/plays", json={"card": card}).raise_for_status()
    # another seat to act, its hand unknown to the game: a clear refusal
    r = client.get(f"/v1/games/{gid}/advice", params={"time_budget": 0.2}, timeout=SLOW)
    if not ADVICE:
        assert_error(r, 503, "advisor")
        return
    assert_error(r, 409, "not known")
    while full.to_act.name != "N":
        c = full.legal_cards()[0]
        full.play(c)
        client.post(f"/v1/games/{gid}/plays", json={"card": str(c)}).raise_for_status()
    st = client.get(f"/v1/games/{gid}").json()
    assert st["to_act"] == "N" and st["user_to_act"]
    r = client.get(f"/v1/games/{gid}/advice", params={"time_budget": 0.2, "seed": 2, "lang": "pl"},
                   timeout=SLOW)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["kind"] == "play" and out["seat"] == "N" and out["user_to_act"] is True
    assert out["card"] in st["legal"] and out["explanation"]


# ---------------------------------------------------------------- frames (tracker through the API)
def bid_all(client, gid):
    for b in (3, 4, 3, 2):
        client.post(f"/v1/games/{gid}/bids", json={"bid": b}).raise_for_status()


def det(*cards, zone="table"):
    return {"cards": [{"card": c, "zone": zone, "confidence": 0.9, "box": [10, 10, 50, 80]}
                      for c in cards]}


def test_frames_confirm_a_card_only_when_stable(client):
    hands = deal(41)
    g = new_game(client, user_seat="S", hand=hands["S"])
    gid = g["game_id"]
    bid_all(client, gid)
    lead = next(c for c in hands["N"] if c[1] != "S")
    statuses = []
    for _ in range(3):
        r = client.post(f"/v1/games/{gid}/detections", json=det(lead))
        assert r.status_code == 200, r.text
        statuses.append([(e["status"], e["card"]) for e in r.json()["events"] if e["type"] == "play"])
    assert statuses == [[("proposed", lead)], [("proposed", lead)], [("confirmed", lead)]]
    out = r.json()
    assert out["game"]["played"] == [lead]
    log = client.get(f"/v1/games/{gid}/events").json()["events"]
    assert log[-1] == {"type": "play", "seat": "N", "card": lead, "source": "camera"}
    # the same card in later frames is not played again
    r = client.post(f"/v1/games/{gid}/detections", json=det(lead))
    assert r.json()["game"]["played"] == [lead] and not r.json()["events"]
    # a card flickering in for one frame only is never recorded
    other = next(c for c in hands["E"] if c[1] == lead[1]) if any(c[1] == lead[1] for c in hands["E"]) else hands["E"][0]
    client.post(f"/v1/games/{gid}/detections", json=det(lead, other))
    client.post(f"/v1/games/{gid}/detections", json=det(lead))
    client.post(f"/v1/games/{gid}/detections", json=det(lead))
    assert client.get(f"/v1/games/{gid}").json()["played"] == [lead]


def test_frames_ambiguous_become_questions(client):
    hands = deal(42)
    g = new_game(client, user_seat="S", hand=hands["S"])
    gid = g["game_id"]
    bid_all(client, gid)
    a, b = [c for c in hands["N"] if c[1] != "S"][:2]
    for _ in range(3):
        r = client.post(f"/v1/games/{gid}/detections", json=det(a, b))
    out = r.json()
    assert out["game"]["played"] == []
    q = out["questions"][0]
    assert q["kind"] == "several" and sorted(q["cards"]) == sorted([a, b])
    # a card from the user's own hand when it is N's turn: illegal, asked, not stored
    mine = hands["S"][0]
    for _ in range(3):
        r = client.post(f"/v1/games/{gid}/detections", json=det(a, b, mine))
    qs = r.json()["questions"]
    assert qs and qs[0]["kind"] == "illegal" and qs[0]["cards"] == [mine] and "S's hand" in qs[0]["reason"]
    open_q = client.get(f"/v1/games/{gid}").json()["questions"]
    assert len(open_q) == 2
    # the user answers: the first question was about a and b: N played a
    assert_error(client.post(f"/v1/games/{gid}/questions/{q['id']}", json={"accept": True}), 409, "which card")
    r = client.post(f"/v1/games/{gid}/questions/{q['id']}", json={"accept": True, "card": a})
    assert r.status_code == 200, r.text
    assert r.json()["played"] == [a] and len(r.json()["questions"]) == 1
    r = client.post(f"/v1/games/{gid}/questions/{qs[0]['id']}", json={"accept": False})
    assert r.status_code == 200 and r.json()["questions"] == [] and r.json()["played"] == [a]
    assert_error(client.post(f"/v1/games/{gid}/questions/999", json={"accept": False}), 409, "no open question")
    # a question keeps its words in each language; a frame's reasons follow ?lang
    assert "S" in qs[0]["reasons"]["pl"] and "nie może jej zagrać" in qs[0]["reasons"]["pl"]
    assert qs[0]["reasons"]["en"] == qs[0]["reason"]


def test_frames_propose_the_users_hand(client):
    hands = deal(45)
    gid = new_game(client, user_seat="W")["game_id"]
    for _ in range(3):
        r = client.post(f"/v1/games/{gid}/detections", json=det(*hands["W"], zone="hand"))
    q = r.json()["questions"][0]
    assert q["kind"] == "hand" and q["seat"] == "W" and sorted(q["cards"]) == sorted(hands["W"])
    r = client.post(f"/v1/games/{gid}/questions/{q['id']}", json={"accept": True})
    assert r.status_code == 200, r.text
    assert sorted(r.json()["user_hand"]) == sorted(hands["W"]) and r.json()["questions"] == []
    # known now: not asked again
    for _ in range(3):
        r = client.post(f"/v1/games/{gid}/detections", json=det(*hands["W"], zone="hand"))
    assert r.json()["questions"] == []


def test_frames_trick_closes_when_the_table_clears(client):
    hands = deal(43)
    g = new_game(client)
    gid = g["game_id"]
    for s in "NESW":
        client.put(f"/v1/games/{gid}/hand", json={"cards": hands[s], "seat": s}).raise_for_status()
    bid_all(client, gid)
    seen: list[str] = []
    for _ in range(4):
        st = client.get(f"/v1/games/{gid}").json()
        card = st["legal"][0]
        seen.append(card)
        for _ in range(3):
            r = client.post(f"/v1/games/{gid}/detections", json=det(*seen))
        assert r.json()["game"]["played"][-1] == card, r.json()
    st = r.json()["game"]
    assert st["tricks"][st["to_act"]] == 1 and st["current_trick"] == []
    # next leader's card while the old trick still lies there: waits
    nxt = st["legal"][0]
    for _ in range(3):
        r = client.post(f"/v1/games/{gid}/detections", json=det(*seen, nxt))
    assert [e["status"] for e in r.json()["events"]] == ["waiting"]
    assert r.json()["game"]["played"] == seen
    assert r.json()["events"][0]["reason"] == "the last trick is still on the table"
    r = client.post(f"/v1/games/{gid}/detections?lang=pl", json=det(*seen, nxt))
    assert r.json()["events"][0]["reason"] == "poprzednia lewa wciąż leży na stole"
    # the table clears (only the new lead stays): trick_closed, then the lead is taken
    events = []
    for _ in range(5):
        events += client.post(f"/v1/games/{gid}/detections", json=det(nxt)).json()["events"]
    kinds = [(e["type"], e["status"]) for e in events]
    assert ("trick_closed", "confirmed") in kinds and ("play", "confirmed") in kinds
    assert client.get(f"/v1/games/{gid}").json()["played"] == seen + [nxt]


def test_frames_reject_bad_images_and_bad_detections(client):
    gid = new_game(client)["game_id"]
    assert_error(client.post(f"/v1/games/{gid}/frames", files={"image": ("f.jpg", b"xx", "image/jpeg")}),
                 415)
    assert_error(client.post("/v1/games/AAAAAAAAAAAAAAAAAAAAAA/frames",
                             files={"image": ("f.png", png_bytes(), "image/png")}), 404)
    assert_error(client.post(f"/v1/games/{gid}/detections", json={"cards": [{"card": 5}]}), 422)
    assert_error(client.post(f"/v1/games/{gid}/detections", json={"cards": [{"card": "AS", "zone": "floor"}]}), 422)
    # an unknown card name in detections is ignored, not a crash
    r = client.post(f"/v1/games/{gid}/detections", json={"cards": [{"card": "XX"}]})
    assert r.status_code == 200
    r = client.post(f"/v1/games/{gid}/frames", files={"image": ("f.png", png_bytes(32, 32), "image/png")})
    if r.status_code == 503:
        assert_error(r, 503, "not available")
    else:
        assert r.status_code == 200 and "events" in r.json()


def test_websocket_frames(server, client):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    hands = deal(44)
    g = new_game(client)
    gid = g["game_id"]
    bid_all(client, gid)
    lead = next(c for c in hands["N"] if c[1] != "S")
    with connect(f"{server.ws_url}/v1/games/{gid}/frames") as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(10)) == {"type": "pong"}
        ws.send(b"not a jpeg")
        bad = json.loads(ws.recv(10))
        assert bad["status"] == 415 and "image" in bad["error"]
        ws.send("hello")
        assert json.loads(ws.recv(10))["status"] == 400
        outs = []
        for _ in range(3):
            ws.send(json.dumps({"type": "detections", **det(lead)}))
            outs.append(json.loads(ws.recv(10)))
        assert [e["status"] for e in outs[-1]["events"]] == ["confirmed"]
        assert outs[-1]["boxes"] == [[10, 10, 50, 80]]
        assert outs[-1]["game"]["played"] == [lead]
        ws.send(json.dumps({"type": "detections", "cards": "nope"}))
        assert json.loads(ws.recv(10))["status"] == 422
        ws.send(png_bytes(16, 16))
        out = json.loads(ws.recv(30))
        assert "events" in out or (out["status"] == 503 and "not available" in out["error"])
    assert client.get(f"/v1/games/{gid}").json()["played"] == [lead]
    # ?lang=pl: the reasons of a frame's events in Polish (a card of the user's hand on N's turn)
    g = new_game(client, user_seat="S", hand=hands["S"])
    bid_all(client, g["game_id"])
    with connect(f"{server.ws_url}/v1/games/{g['game_id']}/frames?lang=pl") as ws:
        ws.send(json.dumps({"type": "detections", **det(hands["S"][0])}))
        ev = json.loads(ws.recv(10))["events"][0]
    assert ev["status"] == "proposed" and ev["reason"] == f"{hands['S'][0]} jest w ręce S, więc N nie może jej zagrać"
    with connect(f"{server.ws_url}/v1/games/AAAAAAAAAAAAAAAAAAAAAA/frames") as ws:
        assert json.loads(ws.recv(10))["status"] == 404
        with pytest.raises(ConnectionClosed) as e:
            ws.recv(10)
        assert e.value.rcvd.code == 4404


# ---------------------------------------------------------------- token, serve options
def test_token_required_when_set(tmp_path):
    srv = Server(str(tmp_path / "t.db"), token="s3cret-token").start()
    try:
        assert httpx.get(srv.url + "/health").status_code == 200
        assert httpx.get(srv.url + "/").status_code == 200
        r = httpx.post(srv.url + "/v1/state", json={"dealer": "N"})
        assert_error(r, 401, "token")
        r = httpx.post(srv.url + "/v1/state", json={"dealer": "N"}, headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 401
        assert_error(httpx.post(srv.url + "/v1/state?lang=pl", json={"dealer": "N"}), 401, "brak tokenu dostępu")
        ok = httpx.post(srv.url + "/v1/state", json={"dealer": "N"},
                        headers={"Authorization": "Bearer s3cret-token"})
        assert ok.status_code == 200
        assert httpx.post(srv.url + "/v1/state", json={"dealer": "N"},
                          headers={"X-Piki-Token": "s3cret-token"}).status_code == 200
        assert httpx.post(srv.url + "/v1/games?token=s3cret-token", json={"dealer": "N"}).status_code == 201
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        with connect(f"{srv.ws_url}/v1/games/AAAAAAAAAAAAAAAAAAAAAA/frames") as ws:
            assert json.loads(ws.recv(10))["status"] == 401
            with pytest.raises(ConnectionClosed) as e:
                ws.recv(10)
            assert e.value.rcvd.code == 4401
        with connect(f"{srv.ws_url}/v1/games/AAAAAAAAAAAAAAAAAAAAAA/frames?lang=pl") as ws:
            assert "brak tokenu" in json.loads(ws.recv(10))["error"]
        with connect(f"{srv.ws_url}/v1/games/AAAAAAAAAAAAAAAAAAAAAA/frames?lang=pl&token=s3cret-token") as ws:
            answer = json.loads(ws.recv(10))
            assert answer == {"error": "nie ma gry o takim identyfikatorze", "status": 404}
    finally:
        srv.stop()


def test_serve_refuses_non_loopback_without_token(tmp_path):
    p = subprocess.run([sys.executable, "-m", "api.cli", "serve", "--host", "0.0.0.0", "--port", "1",
                        "--db", str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True,
                       timeout=60, env={k: v for k, v in __import__("os").environ.items() if k != "PIKI_TOKEN"})
    assert p.returncode == 2
    assert "token" in p.stderr and "Traceback" not in p.stderr


def test_serve_reports_a_bad_database(tmp_path):
    p = subprocess.run([sys.executable, "-m", "api.cli", "serve", "--port", "1",
                        "--db", str(tmp_path / "no" / "such" / "dir" / "x.db")], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "does not exist" in p.stderr and "Traceback" not in p.stderr


def test_serve_reports_an_unsupported_database_url(tmp_path):
    p = subprocess.run([sys.executable, "-m", "api.cli", "serve", "--port", "1",
                        "--db", "mysql://me:secret@db/piki"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=60, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 2 and "unsupported database URL" in p.stderr
    assert "secret" not in p.stderr and "Traceback" not in p.stderr
    assert not list(tmp_path.iterdir())  # no file made under the URL's name


def test_serve_reports_a_port_in_use(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = subprocess.run([sys.executable, "-m", "api.cli", "serve", "--port", str(port),
                            "--db", str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    assert "already in use" in p.stderr and "serving on" not in p.stderr and "Traceback" not in p.stderr


def test_blind_nil_is_not_advised_once_the_cards_are_seen(client):
    """Trailing by 200 near the end, blind nil is advised from the score alone; a client that says
    the cards were seen (typed in, photographed), or a game that holds them, gets the hand's bid."""
    if not ADVICE:
        pytest.skip("no advisor")
    cards = "AS KS QS JS TS 9S AH AD AC KH KD KC QC".split()
    rec = {"dealer": "N", "score_before": {"NS": 290, "EW": 490}, "hands": {"N": cards}}
    params = {"time_budget": 0.2, "seed": 1}
    assert client.post("/v1/advice/bid", params=params, json=rec, timeout=SLOW).json()["bid"] == "blind_nil"
    seen = client.post("/v1/advice/bid", params={**params, "cards_seen": "true"}, json=rec, timeout=SLOW).json()
    assert seen["bid"] != "blind_nil" and "before looking" in seen["explanation"]
    for hand, blind in ((None, True), (cards, False)):
        game = {"dealer": "N", "user_seat": "N", "score_before": {"NS": 290, "EW": 490}}
        gid = client.post("/v1/games", json=game | ({"hand": hand} if hand else {})).json()["game_id"]
        advice = client.get(f"/v1/games/{gid}/advice", params=params, timeout=SLOW).json()
        assert (advice["bid"] == "blind_nil") == blind, advice


def test_a_game_offers_the_known_cards_when_the_users_hand_is_partly_known(client):
    """The contract's "legal" needs the whole hand; with a card the camera missed the game view
    still lists which of the user's known cards may be played (for the page's card buttons)."""
    hands = deal(8)
    lead = next(c for c in hands["N"] if c[1] != "S")
    suit = lead[1]
    known = [c for c in hands["E"] if c[1] == suit][1:] + [c for c in hands["E"] if c[1] != suit]
    for cards, expect_partial in ((hands["E"], False), (known, True)):
        gid = client.post("/v1/games", json={"dealer": "N", "user_seat": "E", "hand": cards}).json()["game_id"]
        for s in "NESW":
            client.post(f"/v1/games/{gid}/bids", json={"bid": BIDS4[s]}).raise_for_status()
        st = client.post(f"/v1/games/{gid}/plays", json={"card": lead}).json()
        if expect_partial:
            assert st["legal"] is None
            follow = sorted(c for c in known if c[1] == suit)
            assert sorted(st["user_legal_known"]) == (follow or sorted(known))
        else:
            assert st["legal"] and st["user_legal_known"] is None


def test_openapi_documents_the_endpoints(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for p in ("/health", "/v1/scan", "/v1/state", "/v1/check", "/v1/advice/bid", "/v1/advice/play",
              "/v1/review", "/v1/games", "/v1/games/{game_id}", "/v1/games/{game_id}/bids",
              "/v1/games/{game_id}/plays", "/v1/games/{game_id}/frames", "/v1/games/{game_id}/undo",
              "/v1/games/{game_id}/hands", "/v1/games/{game_id}/advice"):
        assert p in paths, p


def test_sideways_phone_photos_are_scanned_upright():
    """A JPEG with EXIF orientation 6 is turned before detection, as browsers show it, so the
    boxes drawn on the page line up."""
    from PIL import Image

    from api.images import _upright

    buf = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° clockwise to view
    Image.new("RGB", (40, 20), (200, 10, 10)).save(buf, "JPEG", exif=exif)
    arr, size = _upright(buf.getvalue())
    assert size == (20, 40) and arr.shape == (40, 20, 3)
    assert arr[0, 0, 2] > 150 and arr[0, 0, 0] < 80  # BGR order: red in the last channel
    plain = io.BytesIO()
    Image.new("RGB", (40, 20)).save(plain, "JPEG")
    assert _upright(plain.getvalue()) is None


def test_page_and_card_pictures(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200
    r = client.get("/cards/TD.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/")
    assert_error(client.get("/cards/1X.svg"), 404)
    assert_error(client.get("/cards/..%2F..%2Fpyproject.toml"), 404)
    from api.routers.web import drawn_card

    assert "10" in drawn_card("TD") and "♦" in drawn_card("TD")
