"""``piki advise PHOTO``: a rendered photo of a hand through the real scanner, then the bid advice."""
from __future__ import annotations

import json

import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from api.advise_photo import hand_from_scan  # noqa: E402
from api.cli import main  # noqa: E402
from vision.synth.artwork import HELD_OUT  # noqa: E402
from vision.synth.scene import render_scene  # noqa: E402


@pytest.fixture(scope="module")
def hand_photo(tmp_path_factory):
    """A 1280-px render of the held-out designs showing a hand of 10+ cards and nothing else."""
    for seed in range(1_500_000, 1_500_200):
        img, corners = render_scene(seed, list(HELD_OUT), scale=2)
        cards = {c.card for c in corners}
        if len(cards) >= 10 and all(c.zone == "hand" for c in corners):
            path = tmp_path_factory.mktemp("photo") / "hand.jpg"
            cv2.imwrite(str(path), img)
            return path, cards
    pytest.fail("no hand-only scene among 200 seeds")


def test_advise_reads_the_hand_and_advises_a_bid(hand_photo, capsys):
    path, truth = hand_photo
    assert main(["advise", str(path), "--seat", "E", "--dealer", "N", "--bids", "N:3",
                 "--time", "0.2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    hand = set(out["hand"])
    assert len(hand) == len(out["hand"]) and hand <= truth
    assert len(hand) >= 0.8 * len(truth)
    bid = out["advice"]["bid"]
    assert bid in ("nil", "blind_nil") or 0 <= int(bid) <= 13
    assert any(f"{len(hand)} of 13 cards found" in w for w in out["warnings"]) == (len(hand) != 13)
    # the cards found decide the bid, also when some are missing (the rest is sampled)
    assert out["advice"]["hand_cards_known"] == len(hand)
    assert ("partly known" in out["advice"]["explanation"]) == (len(hand) != 13)


def test_advise_never_says_blind_nil_for_a_photographed_hand(hand_photo, capsys):
    path, _ = hand_photo  # trailing by 200 with the opponents near the goal: blind nil's score
    assert main(["advise", str(path), "--score", "NS:290,EW:490", "--time", "0.2", "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)["advice"]
    assert advice["bid"] != "blind_nil" and advice["bid"] == advice["bid_after_looking"]
    assert "before looking at the cards" in advice["explanation"]


def test_advise_a_photo_without_cards_exits_2(tmp_path, capsys):
    import numpy as np

    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((600, 800, 3), 90, np.uint8))  # an empty table
    assert main(["advise", str(path), "--time", "0.2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no cards found" in captured.err


def test_advise_text_output_names_the_hand(hand_photo, capsys):
    path, _ = hand_photo
    assert main(["advise", str(path), "--time", "0.2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("hand (")


def test_advise_in_polish_says_everything_in_polish(hand_photo, tmp_path, capsys):
    path, _ = hand_photo
    assert main(["advise", str(path), "--time", "0.2", "--lang", "pl"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("ręka (") and "\ndeklaruj " in text and " pkt" in text
    assert "warning:" not in text and "points" not in text
    # a photo of no cards: the reason in Polish too
    import numpy as np

    empty = tmp_path / "table.png"
    cv2.imwrite(str(empty), np.full((600, 800, 3), 90, np.uint8))
    assert main(["advise", str(empty), "--time", "0.2", "--lang", "pl"]) == 2
    assert "nie znaleziono kart" in capsys.readouterr().err


@pytest.mark.parametrize("extra, message", [
    (["--bids", "N3"], "KEY:VALUE"),
    (["--score", "NS:lots"], "not a whole number"),
    (["--seat", "W", "--dealer", "N", "--bids", "N:3"], "turn to bid"),
    (["--seat", "S", "--dealer", "N", "--bids", "N:nil,E:3,S:2,W:4"], "already has S's own bid"),
])
def test_advise_bad_arguments_exit_2_with_the_reason(hand_photo, capsys, extra, message):
    path, _ = hand_photo
    assert main(["advise", str(path), "--time", "0.2", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_advise_a_file_that_is_no_image_exits_2(tmp_path, capsys):
    bad = tmp_path / "hand.jpg"
    bad.write_bytes(b"\x00\x01 not an image")
    assert main(["advise", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "hand.jpg" in err and "Traceback" not in err


def _scan(*cards):
    return {"cards": [{"card": c, "zone": z, "confidence": p} for c, z, p in cards], "warnings": ["w"]}


def test_every_card_in_view_is_the_hand_up_to_thirteen():
    hand, warnings = hand_from_scan(_scan(("AS", "hand", 0.9), ("KS", "table", 0.7), ("2D", "hand", 0.8)))
    assert hand == ["AS", "KS", "2D"] and warnings == ["w"]


def test_beyond_thirteen_the_hand_zone_and_the_most_confident():
    ranks = "23456789TJQKA"
    cards = [(r + "S", "hand", 0.9) for r in ranks] + [(r + "H", "hand", 0.5) for r in "234"]
    cards += [("AD", "table", 0.99)]
    hand, warnings = hand_from_scan(_scan(*cards))
    assert hand == [r + "S" for r in ranks]
    assert "17 cards in view" in warnings[-1] and "AD" in warnings[-1] and "4H" in warnings[-1]
    # in Polish the scan's own warnings are given again from its cards: the three unsure hearts
    # (read at 0.5), the 16 cards in the hand zone, then this choice's own
    hand, warnings = hand_from_scan(_scan(*cards), "pl")
    assert hand == [r + "S" for r in ranks]
    assert warnings[:3] == [f"{r}H niepewna (0,50): zrób zdjęcie z bliska" for r in "234"]
    assert warnings[3] == "kart w strefie ręki: 16, a ręka ma najwyżej 13"
    assert warnings[4].startswith("kart w kadrze: 17") and "AD" in warnings[4]


def test_module_examples():
    import doctest

    import api.advise_photo

    result = doctest.testmod(api.advise_photo)
    assert result.attempted > 0 and result.failed == 0
