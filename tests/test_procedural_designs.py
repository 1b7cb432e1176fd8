"""Procedural card designs (vision.synth.procedural): deterministic, whole decks, labelled like the
real designs, usable by the scene renderer."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.synth.artwork import CARDS, load_design  # noqa: E402
from vision.synth.procedural import (font_files, is_procedural, procedural_design,  # noqa: E402
                                     procedural_name)
from vision.synth.scene import render_scene  # noqa: E402


def _ink(face: np.ndarray, box) -> np.ndarray:
    x1, y1, x2, y2 = box
    region = face[y1:y2, x1:x2]
    paper = np.median(face[face.shape[0] // 2 - 5:face.shape[0] // 2 + 5, 2:12, :3].reshape(-1, 3), axis=0)
    return (np.abs(region[:, :, :3].astype(int) - paper).sum(axis=2) > 120) & (region[:, :, 3] > 128)


@pytest.mark.parametrize("fonts", [(), None], ids=["hershey-only", "fonts-found"])
def test_a_design_is_a_pure_function_of_its_name(fonts):
    a = procedural_design("proc_17", fonts=fonts)
    b = procedural_design("proc_17", fonts=fonts)
    assert a.index_box == b.index_box and a.size == b.size
    assert all(np.array_equal(a.faces[c], b.faces[c]) for c in CARDS)
    other = procedural_design("proc_18", fonts=fonts)
    assert not np.array_equal(a.faces["7H"], other.faces["7H"])


@pytest.mark.parametrize("name", ["proc_0", "proc_5", "proc_41"])
def test_every_card_has_both_indices_inside_the_box(name):
    design = procedural_design(name, fonts=())
    w, h = design.size
    assert w == 200 and 1.3 * w <= h <= 1.6 * w
    x1, y1, x2, y2 = design.index_box
    assert 0 <= x1 < x2 < 0.4 * w and 0 <= y1 < y2 < 0.4 * h
    assert len(design.faces) == 52
    for code, face in design.faces.items():
        assert face.shape == (h, w, 4) and face.dtype == np.uint8
        top = _ink(face, design.index_box)
        assert top.mean() > 0.05, (name, code)  # a rank and a pip are printed there
        if code[0] in "23":  # their other pips sit in the middle column, away from the corners
            # the bottom-right index is the top-left one turned
            turned = _ink(face[::-1, ::-1], design.index_box)
            assert (top & turned).sum() >= 0.8 * top.sum(), (name, code)
            # and the box holds the whole index: nothing printed just under it
            below = _ink(face, (x1, y2, x2, min(h, y2 + 4)))
            assert below.mean() < 0.1, (name, code)
    # red suits are red, black suits are not
    for code, red in (("QH", True), ("5D", True), ("QS", False), ("5C", False)):
        face = design.faces[code]
        ink = _ink(face, design.index_box)
        bgr = face[design.index_box[1]:design.index_box[3], design.index_box[0]:design.index_box[2], :3][ink]
        redness = float(bgr[:, 2].mean()) - float(bgr[:, 0].mean())
        assert (redness > 80) == red, (name, code, redness)


def test_names_and_the_artwork_loader():
    assert procedural_name(12) == "proc_12" and is_procedural("proc_12")
    assert not is_procedural("proc_x") and not is_procedural("paris")
    with pytest.raises(ValueError, match="not a procedural design name"):
        procedural_design("paris")
    design = load_design("proc_3")
    assert design.name == "proc_3" and len(design.faces) == 52
    assert load_design("proc_3") is design  # kept for the next scene


def test_font_files_are_text_faces_only():
    for path in font_files():
        assert path.endswith((".ttf", ".otf"))
        assert "Italic" not in path and "Oblique" not in path and "Emoji" not in path


def test_a_scene_of_procedural_designs_labels_its_visible_corners():
    img, corners = render_scene(4242, ["proc_7", "proc_8"])
    assert img.ndim == 3 and corners
    cards = {c.card for c in corners}
    assert cards <= set(CARDS)
    for c in corners:
        x1, y1, x2, y2 = c.box
        assert 0 <= x1 < x2 <= img.shape[1] and 0 <= y1 < y2 <= img.shape[0]
    again, corners2 = render_scene(4242, ["proc_7", "proc_8"])
    assert np.array_equal(img, again) and [c.as_dict() for c in corners] == [c.as_dict() for c in corners2]


def test_a_quarter_of_the_decks_print_polish_letters_for_the_jack_and_queen():
    from vision.synth.procedural import POLISH_RANK_TEXT, polish_letters

    lettered = [s for s in range(400) if polish_letters(s)]
    assert 70 <= len(lettered) <= 130 and polish_letters(lettered[0])  # about 25%, the same each time
    assert POLISH_RANK_TEXT["J"] == "W" and POLISH_RANK_TEXT["Q"] == "D"
    # the same deck without the letters differs in its jacks and queens only
    import vision.synth.procedural as procedural

    seed = lettered[0]
    design = procedural_design(procedural_name(seed), fonts=())
    real = procedural.polish_letters
    procedural.polish_letters = lambda s: False
    try:
        plain = procedural_design(procedural_name(seed), fonts=())
    finally:
        procedural.polish_letters = real
    differ = {c for c in CARDS if not np.array_equal(design.faces[c], plain.faces[c])}
    assert differ == {c for c in CARDS if c[0] in "JQ"}


def test_decks_split_by_typeface_for_the_screen():
    from pathlib import Path

    from vision.synth.procedural import (TRAINING_FACES, _style, deck_seeds, face_group, font_files,
                                         polish_letters)

    def font_of(seed):
        return _style(np.random.default_rng([seed, 0x5EED]), font_files())["font"]

    names = {Path(f).name for f in font_files()}
    if not (names & TRAINING_FACES and names - TRAINING_FACES):
        pytest.skip("needs typefaces of both groups (fonts-dejavu-core has both)")
    training = deck_seeds(6, "training", lettered=False)
    screen = deck_seeds(6, "screen", lettered=False)
    hershey = deck_seeds(3, "hershey")
    assert all(not polish_letters(s) for s in training + screen)
    assert all(Path(font_of(s)).name in TRAINING_FACES for s in training)
    assert all(isinstance(font_of(s), str) and Path(font_of(s)).name not in TRAINING_FACES for s in screen)
    assert all(not isinstance(font_of(s), str) for s in hershey)
    assert len(set(training) | set(screen) | set(hershey)) == 15  # a deck is in one group only
    assert deck_seeds(2, "screen", start=screen[-1] + 1, lettered=False)[0] > screen[-1]
    # only the Hershey faces: every deck is of that group, none of the printed ones
    assert face_group(5, fonts=()) == "hershey"
    with pytest.raises(ValueError, match="no decks"):
        deck_seeds(1, "training", fonts=())
    with pytest.raises(ValueError, match="unknown typeface group"):
        deck_seeds(1, "italic")
