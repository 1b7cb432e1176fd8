"""The web page in a real browser (Chromium driven by Playwright) against a real server.

Needs /usr/bin/chromium (``.ci/services.sh`` installs it) and the ``playwright`` Python package;
skipped when either is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from test_api_support import Server, deal

CHROMIUM = os.environ.get("PIKI_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-dev-shm-usage"]

pytestmark = pytest.mark.skipif(
    not (shutil.which(CHROMIUM) or os.path.exists(CHROMIUM)), reason=f"{CHROMIUM} not installed "
    "(run .ci/services.sh)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("web") / "web.db")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def pw():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p


def launch(pw, *extra):
    return pw.chromium.launch(executable_path=CHROMIUM, args=ARGS + list(extra))


@pytest.fixture(scope="module")
def browser(pw):
    b = launch(pw)
    yield b
    b.close()


@pytest.fixture()
def page(browser, server):
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the page's CSP forbids;
    # test_page_works_under_its_content_security_policy runs without the bypass.
    ctx = browser.new_context(base_url=server.url, locale="en-US", bypass_csp=True)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()


def poll(page, js: str, timeout: float = 20.0) -> None:
    """Wait until ``js`` is true, without string evaluation inside the page (CSP-safe)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(js):
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {js}")


def played_record(seed: int = 3) -> dict:
    """A complete, legal hand: each seat plays its lowest legal card."""
    from advisor.record import HandRecord, replay

    hands = deal(seed)
    rec = {"format": "piki-hand/1", "rules": "piki", "dealer": "N", "hands": hands,
           "bids": {"N": 3, "E": 4, "S": 3, "W": 2}, "plays": []}
    st = replay(HandRecord.from_json(rec))
    while not st.is_done:
        card = st.legal_cards()[0]
        st.play(card)
        rec["plays"].append(str(card))
    return rec


def test_page_loads_and_switches_language(page):
    page.goto("/")
    assert page.title().startswith("piki")
    assert page.locator("nav button[data-view=review]").inner_text() == "Review"
    page.select_option("#lang-select", "pl")
    assert page.locator("nav button[data-view=review]").inner_text() == "Analiza"
    assert page.evaluate("document.documentElement.lang") == "pl"
    page.reload()
    assert page.locator("nav button[data-view=live]").inner_text() == "Gra na żywo"
    page.select_option("#lang-select", "en")
    assert page.locator("nav button[data-view=live]").inner_text() == "Live game"
    assert not page.errors


def test_page_works_under_its_content_security_policy(browser, server, tmp_path):
    ctx = browser.new_context(base_url=server.url, locale="en-US")
    page = ctx.new_page()
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        r = page.goto("/")
        assert "default-src 'self'" in r.headers["content-security-policy"]
        path = tmp_path / "hand.json"
        path.write_text(json.dumps(played_record(4)))
        page.click("nav button[data-view=review]")
        page.set_input_files("#review-file", str(path))
        page.locator("#review-table tbody tr").nth(12).wait_for(timeout=20_000)
        poll(page, "() => document.querySelectorAll('#review-chart svg polyline').length === 2")
        poll(page, """() => [...document.querySelectorAll('#review-table img.card')]
                        .every(i => i.complete && i.naturalWidth > 0)""")
        assert not problems, problems
    finally:
        ctx.close()


def test_review_upload_shows_the_trick_table(page, tmp_path):
    rec = played_record()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec))
    page.goto("/#review")
    page.select_option("#review-seat", "S")
    page.set_input_files("#review-file", str(path))
    rows = page.locator("#review-table tbody tr")
    rows.first.wait_for(timeout=20_000)
    assert rows.count() == 13
    first = rows.nth(0)
    # the leader and the four cards of trick 1, as pictures named by their codes
    assert first.locator("td").nth(1).inner_text() == "N"
    titles = [first.locator("img.card").nth(i).get_attribute("title") for i in range(4)]
    assert sorted(titles) == sorted(rec["plays"][:4])
    assert page.locator("#review-table td.winner").count() == 13
    # the chart: two team lines
    assert page.locator("#review-chart svg polyline").count() == 2
    # card pictures really load
    page.wait_for_function("""() => [...document.querySelectorAll('#review-table img.card')]
                              .every(i => i.complete && i.naturalWidth > 0)""", timeout=20_000)
    # then the advisor's review of S arrives: a summary (and marks on S's mistakes, if any)
    page.wait_for_function("document.querySelector('#review-status').textContent === ''",
                           timeout=240_000)
    lines = page.locator("#review-summary p").all_inner_texts()
    assert lines[0].startswith("S: ") and ("costly decision" in lines[0] or "no costly decisions" in lines[0])
    # the review is the same every time: lowest-card play costs S marked tricks in this hand
    assert page.locator("#review-table td.mistake").count() >= 3
    for cell in page.locator("#review-table td.mistake").all():
        assert "−" in cell.inner_text()
        title = cell.get_attribute("title")
        assert "Better: " in title  # what the card did, and what the best would do
        assert " pts, −" in title and " tricks" in title  # the cost in points and the tricks lost
        assert re.search(r"\(± [\d.]+ pts over \d+ simulated deals\)", title), title  # and how sure
    assert not page.errors


def test_review_of_an_overbid_says_how_often_the_contract_makes(page, tmp_path):
    rec = played_record()
    rec["bids"]["S"] = 9  # with N's 3, a contract of 12: far beyond what these cards take
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec))
    page.goto("/#review")
    page.select_option("#review-seat", "S")
    page.set_input_files("#review-file", str(path))
    page.wait_for_function("document.querySelector('#review-summary').textContent.includes('S: Bid 9')",
                           timeout=240_000)
    summary = page.locator("#review-summary").inner_text()
    assert "With 9, your team's contract makes in about" in summary and "; with " in summary
    assert re.search(r"S: Bid 9 → best: \d+ \(−[\d.]+ pts: With 9, .*\) \?$", summary, re.M), summary  # marked
    assert not page.errors


def test_review_of_malformed_json_shows_an_error(page):
    page.goto("/#review")
    page.fill("#review-text", '{"dealer": ')
    page.click("#review-run")
    err = page.locator("#global-error")
    err.wait_for(state="visible")
    assert "JSON" in err.inner_text()
    page.fill("#review-text", '{"dealer": "N", "plays": ["XX"]}')
    page.click("#review-run")
    page.wait_for_function("document.querySelector('#global-error').textContent.includes('XX')")


def test_camera_permission_denied_shows_a_clear_message(pw, server):
    b = launch(pw, "--use-fake-device-for-media-stream")
    try:
        ctx = b.new_context(base_url=server.url, locale="en-US", bypass_csp=True)  # no camera permission
        page = ctx.new_page()
        page.goto("/#live")
        page.click("#live-new button[type=submit]")
        page.locator("#live-game").wait_for(state="visible")
        page.click("#cam-start")
        msg = page.locator("#camera-msg")
        msg.wait_for(state="visible", timeout=15_000)
        text = msg.inner_text()
        assert "denied" in text and "type the bids and cards" in text
        # in Polish too
        page.select_option("#lang-select", "pl")
        page.click("#cam-start")
        page.wait_for_function("document.querySelector('#camera-msg').textContent.includes('Odmówiono')")
    finally:
        b.close()


def test_no_camera_shows_a_clear_message(pw, server):
    b = launch(pw, "--use-fake-ui-for-media-stream")  # allowed, but there is no device
    try:
        ctx = b.new_context(base_url=server.url, locale="en-US", permissions=["camera"], bypass_csp=True)
        page = ctx.new_page()
        page.goto("/#live")
        page.click("#live-new button[type=submit]")
        page.locator("#live-game").wait_for(state="visible")
        page.click("#cam-start")
        msg = page.locator("#camera-msg")
        msg.wait_for(state="visible", timeout=15_000)
        assert "camera" in msg.inner_text().lower()
    finally:
        b.close()


def test_live_game_typed_by_hand(page, server):
    hands = deal(8)
    page.goto("/#live")
    page.select_option("#live-new select[name=dealer]", "N")
    page.select_option("#live-new select[name=seat]", "E")
    page.fill("#live-new input[name=hand]", " ".join(hands["E"]))
    page.click("#live-new button[type=submit]")
    page.locator("#live-game").wait_for(state="visible")
    gid = page.locator("#live-id").inner_text()
    assert len(gid) >= 20
    for seat, bid in zip("NESW", ("3", "4", "3", "2")):  # the dealer bids first
        page.select_option("#live-manual select[name=bid]", bid)
        page.click("#add-bid")
        page.wait_for_function(f"document.querySelector('#live-state').textContent.includes('{seat} {bid}')")
    page.wait_for_function("document.querySelector('#live-state').textContent.includes('Phase: play')")
    lead = next(c for c in hands["N"] if c[1] != "S")
    page.fill("#live-manual input[name=card]", lead)
    page.click("#add-card")
    page.locator("#live-state .trick-now img.card").first.wait_for()
    # E (the user) to act: only legal cards are clickable; click one
    legal = page.locator("#live-state button.card-btn.legal")
    legal.first.wait_for()
    card = legal.first.get_attribute("title")
    legal.first.click()
    page.wait_for_function("document.querySelectorAll('#live-state .trick-now img.card').length === 2")
    with server.client() as c:
        st = c.get(f"/v1/games/{gid}").json()
    assert st["played"] == [lead, card]
    # an illegal card typed in gets the server's reason, nothing stored
    page.fill("#live-manual input[name=card]", lead)
    page.click("#add-card")
    page.wait_for_function("document.querySelector('#live-msg').textContent.includes('already played')")
    # in Polish, the server's refusal comes in Polish
    page.select_option("#lang-select", "pl")
    page.fill("#live-manual input[name=card]", lead)
    page.click("#add-card")
    page.wait_for_function("document.querySelector('#live-msg').textContent.includes('została już zagrana w lewie 1')")
    assert "niedozwolone zagranie" in page.locator("#live-msg").inner_text()
    page.select_option("#lang-select", "en")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#live-state .trick-now img.card').length === 1")
    # a reload resumes the same game
    page.reload()
    page.wait_for_function(f"document.querySelector('#live-id').textContent === '{gid}'")
    assert not page.errors


def test_an_answer_that_arrives_late_does_not_undo_a_later_action(page, server):
    """Two bids in flight, the first answer held back until the second is shown: the screen keeps
    the newer state (both bids), not the one that arrived last."""
    page.goto("/#live")
    page.select_option("#live-new select[name=dealer]", "N")
    page.select_option("#live-new select[name=seat]", "E")
    page.fill("#live-new input[name=hand]", " ".join(deal(9)["E"]))
    page.click("#live-new button[type=submit]")
    page.locator("#live-game").wait_for(state="visible")
    gid = page.locator("#live-id").inner_text()
    msg = page.evaluate("""async () => {
      const real = api;
      let n = 0, stored;
      const firstStored = new Promise(ok => { stored = ok; });
      api = async (...args) => {  // the first answer is held back until after the second
        const first = n++ === 0, answer = await real(...args);
        if (first) { stored(); await new Promise(ok => setTimeout(ok, 500)); }
        return answer;
      };
      try {
        const one = liveAction("POST", "/bids", { bid: 3 });
        await firstStored;
        await Promise.all([one, liveAction("POST", "/bids", { bid: 4 })]);
      } finally { api = real; }
      return document.querySelector("#live-msg").textContent;
    }""")
    with server.client() as c:
        events = c.get(f"/v1/games/{gid}/events").json()["events"]
    bids = [e for e in events if e["type"] == "bid"]
    assert [e["bid"] for e in bids] == [3, 4], msg
    shown = page.locator("#live-state").inner_text()
    assert all(f"{e['seat']} {e['bid']}" in shown for e in bids)
    assert not page.errors


def test_a_frames_warnings_show_in_the_pages_language(page, server):
    """A played card seen on the table again: the server's warning, in Polish, in the camera's
    status line (an empty table's "no cards found" is not shown)."""
    with server.client() as c:
        gid = c.post("/v1/games", json={"dealer": "N"}).json()["game_id"]
        for bid in (3, 3, 3, 3):
            c.post(f"/v1/games/{gid}/bids", json={"bid": bid}).raise_for_status()
        for card in ("2H", "3H", "4H", "5H"):
            c.post(f"/v1/games/{gid}/plays", json={"card": card}).raise_for_status()
        empty = {"cards": []}
        seen = {"cards": [{"card": "3H", "zone": "table", "confidence": 0.9}]}
        for _ in range(3):  # the first trick leaves the table
            out_empty = c.post(f"/v1/games/{gid}/detections?lang=pl", json=empty).json()
        out = c.post(f"/v1/games/{gid}/detections?lang=pl", json=seen).json()
    assert out["warnings"] == ["3H leży na stole, ale została zagrana we wcześniejszej lewie"]
    page.goto("/#live")
    page.select_option("#lang-select", "pl")
    status = page.evaluate("(out) => { onFrameResult(out); return document.querySelector('#frame-status').textContent; }", out)
    assert "3H leży na stole, ale została zagrana we wcześniejszej lewie" in status
    status = page.evaluate("(out) => { onFrameResult(out); return document.querySelector('#frame-status').textContent; }",
                           {**out_empty, "warnings": ["nie znaleziono kart"]})
    assert "nie znaleziono kart" not in status
    assert not page.errors


def test_advice_for_another_seat_says_whose_it_is(page):
    page.goto("/#live")
    page.select_option("#live-new select[name=dealer]", "N")
    page.select_option("#live-new select[name=seat]", "E")  # N, the dealer, bids first
    page.fill("#live-new input[name=hand]", " ".join(deal(11)["E"]))
    page.click("#live-new button[type=submit]")
    page.locator("#live-game").wait_for(state="visible")
    page.click("#ask-advice")
    page.wait_for_function("document.querySelector('#live-advice .candidates')", timeout=60_000)
    assert page.locator("#live-advice .note").inner_text() == "For N, whose turn it is (not yours):"
    for seat, bid in (("N", "3"), ("E", "4"), ("S", "2")):  # E is the player
        page.select_option("#live-manual select[name=bid]", bid)
        page.click("#add-bid")
        page.wait_for_function(f"document.querySelector('#live-state').textContent.includes('{seat} {bid}')")
    page.select_option("#lang-select", "pl")
    page.click("#ask-advice")
    page.wait_for_function("document.querySelector('#live-advice .candidates')", timeout=60_000)
    assert page.locator("#live-advice .note").inner_text() == "Dla W, który ma teraz ruch (nie dla ciebie):"
    assert not page.errors


def test_advice_that_arrives_after_the_game_moved_on_is_not_shown(page):
    """Advice asked for, then a bid before it comes back: the stale advice is dropped and the box
    emptied (the next turn is not the user's), instead of advising a decision already made."""
    page.goto("/#live")
    page.select_option("#live-new select[name=dealer]", "N")
    page.select_option("#live-new select[name=seat]", "N")  # the dealer bids first
    page.fill("#live-new input[name=hand]", " ".join(deal(10)["N"]))
    page.click("#live-new button[type=submit]")
    page.locator("#live-game").wait_for(state="visible")
    page.wait_for_function("document.querySelector('#live-advice').children.length > 0", timeout=60_000)
    shown = page.evaluate("""async () => {
      const real = api;
      api = async (method, path, ...rest) => {
        const answer = await real(method, path, ...rest);
        if (path.endsWith("/advice")) await new Promise(ok => setTimeout(ok, 800));
        return answer;
      };
      try {
        const asked = askAdvice();
        await liveAction("POST", "/bids", { bid: 3 });
        await asked;
      } finally { api = real; }
      return document.querySelector("#live-advice").textContent;
    }""")
    assert shown == ""
    assert "N 3" in page.locator("#live-state").inner_text()  # the bid itself went through
    assert not page.errors


def test_photo_upload_draws_and_reports(page, tmp_path):
    from PIL import Image

    path = tmp_path / "table.png"
    Image.new("RGB", (320, 240), (20, 120, 70)).save(path)
    page.goto("/#photo")
    page.set_input_files("#photo-file", str(path))
    page.wait_for_function("""() => document.querySelector('#photo-status').textContent.includes('recognised')
                              || !document.querySelector('#global-error').hidden""", timeout=60_000)
    if page.locator("#global-error").is_visible():
        assert "not available" in page.locator("#global-error").inner_text()
    else:
        assert page.evaluate("document.querySelector('#photo-canvas').width") == 320


def fill_bid_form(page, dealer: str = "N", seat: str = "S",
                  cards: str = "AS KS 7S 4S AH QH 5H KD 9D 3D 8C 6C 2C") -> None:
    page.goto("/#photo")
    page.select_option("#bid-form select[name=dealer]", dealer)
    page.select_option("#bid-form select[name=seat]", seat)
    page.fill("#bid-form input[name=hand]", cards)


def test_bid_advice_lists_each_bid_with_its_chances(page):
    fill_bid_form(page)
    page.select_option("#bid-form select[name=bid_N]", "4")
    page.select_option("#bid-form select[name=bid_E]", "3")
    page.click("#bid-form button[type=submit]")
    table = page.locator("#bid-advice table.candidates")
    table.wait_for(timeout=60_000)
    heads = [h.inner_text() for h in table.locator("th").all()]
    assert heads == ["Bid", "expected points", "chance to win the game", "contract makes"]
    for row in table.locator("tbody tr").all():
        bid, points, won, makes = [c.inner_text() for c in row.locator("td").all()]
        assert won.endswith("%") and re.fullmatch(r"-?\d+\.\d", points)
        assert makes.endswith("%") if bid != "0 (nil)" else makes == ""  # a nil has no contract to make
    text = page.locator("#bid-advice").inner_text()
    assert "makes in about" in text and "Counting your hand alone" in text
    # in Polish the whole table is, decimal commas included
    page.select_option("#lang-select", "pl")
    page.click("#bid-form button[type=submit]")
    page.wait_for_function("document.querySelector('#bid-advice th') &&"
                           " document.querySelector('#bid-advice th').innerText === 'Deklaracja'", timeout=60_000)
    points = [row.locator("td").nth(1).inner_text() for row in table.locator("tbody tr").all()]
    assert points and all(re.fullmatch(r"-?\d+,\d", p) for p in points)
    assert page.locator("#bid-form select[name=bid_W] option[value=blind_nil]").inner_text() == "zero w ciemno"
    assert page.locator("#live-manual select[name=bid] option[value='0']").inner_text() == "0 (zero)"
    page.select_option("#lang-select", "en")
    assert page.locator("#bid-form select[name=bid_W] option[value=blind_nil]").inner_text() == "blind nil"
    assert page.locator("#bid-form select[name=bid_W] option[value='0']").inner_text() == "0 (nil)"
    assert not page.errors


def test_bid_advice_when_it_is_not_the_players_turn_says_whose_it_is(page):
    # The dealer (N) bids first: S with no bids entered is not to bid yet, and the advice for N
    # (whose cards the page does not have) must not be shown as S's.
    fill_bid_form(page)
    page.click("#bid-form button[type=submit]")
    error = page.locator("#bid-advice .error")
    error.wait_for(timeout=30_000)
    assert "It is N's turn to bid, not yours" in error.inner_text()
    assert page.locator("#bid-advice table.candidates").count() == 0
    for s in "NEW":
        page.select_option(f"#bid-form select[name=bid_{s}]", "3")
    page.select_option("#bid-form select[name=bid_S]", "3")
    page.click("#bid-form button[type=submit]")
    page.wait_for_function("document.querySelector('#bid-advice').innerText.includes('All four bids are in')")
    assert not page.errors


def test_a_photo_too_large_for_the_server_is_shrunk_before_it_is_sent(page, server, tmp_path):
    """A 50-megapixel phone photo (a hand fanned on a wide table) is over the server's 40
    megapixels: the page sends it shrunk to 4032 px and draws the boxes on the photo shown."""
    import cv2

    from vision.synth.artwork import HELD_OUT
    from vision.synth.scene import render_scene

    scene, corners = render_scene(1_500_001, list(HELD_OUT), scale=4)  # 2560 px, 12 cards
    big = cv2.resize(scene, (8160, 6120), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "IMG_50MP.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 80])
    with server.client() as c:  # sent as it is, the server refuses it
        r = c.post("/v1/scan", files={"image": (path.name, path.read_bytes(), "image/jpeg")})
    assert r.status_code == 413, r.text
    page.goto("/#photo")
    page.set_input_files("#photo-file", str(path))
    page.wait_for_function("""() => document.querySelector('#photo-status').textContent.includes('recognised')
                              || !document.querySelector('#global-error').hidden""", timeout=90_000)
    assert not page.locator("#global-error").is_visible(), page.locator("#global-error").inner_text()
    hand = page.evaluate("document.querySelector('#bid-form input[name=hand]').value").split()
    truth = {c.card for c in corners}
    assert len(hand) >= 8 and set(hand) <= truth, (hand, sorted(truth))
    assert page.evaluate("document.querySelector('#photo-canvas').width") == 1000
    assert not page.errors


@pytest.mark.parametrize("kind", ["jpg", "heic"])
def test_photo_of_a_hand_fills_the_bid_form(page, tmp_path, kind):
    """A rendered photo (held-out designs) of a hand and a few loose cards, 13 or fewer in all,
    through the real scanner: every card read goes into the bid form's hand, whatever its zone
    (nothing is played before the bidding ends). Also as an iPhone's HEIC file, which Chromium
    cannot show: the boxes are drawn on a plain ground at the photo's shown size."""
    import cv2

    from vision.scan import scan_image
    from vision.synth.artwork import HELD_OUT
    from vision.synth.scene import render_scene

    for seed in range(1_500_000, 1_500_400):
        img, corners = render_scene(seed, list(HELD_OUT), scale=2)
        truth = {c.card for c in corners}
        zones = {c.zone for c in corners}
        if 10 <= len(truth) <= 13 and zones == {"hand", "table"}:
            break
    path = tmp_path / f"hand.{kind}"
    if kind == "heic":
        pillow_heif = pytest.importorskip("pillow_heif")
        pillow_heif.from_bytes("RGB", (img.shape[1], img.shape[0]), img[:, :, ::-1].tobytes()).save(
            str(path), quality=90)
    else:
        cv2.imwrite(str(path), img)
    read = scan_image(str(path))
    assert read["table"] and read["hand"]  # both zones in the scan: the form must take them all
    page.goto("/#photo")
    page.set_input_files("#photo-file", str(path))
    page.wait_for_function("""() => document.querySelector('#photo-status').textContent.includes('recognised')
                              || !document.querySelector('#global-error').hidden""", timeout=60_000)
    assert not page.locator("#global-error").is_visible()
    hand = page.evaluate("document.querySelector('#bid-form input[name=hand]').value").split()
    assert sorted(hand) == sorted(c["card"] for c in read["cards"])
    assert set(hand) <= truth
    assert page.evaluate("document.querySelector('#photo-canvas').width") == 1000  # 1280 px shown at 1000
    assert not page.errors
