"""Card detector: synthetic scene generator, image input errors, the shipped ONNX models, CLI."""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from vision.errors import ImageError  # noqa: E402
from vision.image_io import load_image  # noqa: E402
from vision.synth.artwork import HELD_OUT, available_designs, load_design  # noqa: E402
from vision.synth.scene import render_scene  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "models"

# The shipped models on these 16 held-out scenes (seeds 910000-910015) measured card recall 0.758,
# precision 1.0, corner mAP50 0.90 (200 scenes: recall 0.776, precision 0.988;
# models/MODEL_CARD.md). The bounds sit a little below, so a retrained model must be at least
# about as good.
MIN_RECALL = 0.70
MIN_PRECISION = 0.97
MIN_CORNER_MAP50 = 0.85


@pytest.fixture(scope="module")
def held_out_scene():
    return render_scene(900_123, list(HELD_OUT))


def test_held_out_designs_are_shipped():
    assert set(HELD_OUT) <= set(available_designs())
    design = load_design("tigullio")
    assert len(design.faces) == 52
    x1, y1, x2, y2 = design.index_box
    w, h = design.size
    assert 0 <= x1 < x2 < w * 0.35 and 0 <= y1 < y2 < h * 0.35


def _ink_under_index(design, box) -> float:
    """The largest share of ink in a strip just under the index box, over the 2s and 3s (whose
    other pips sit in the middle column): high when the box cuts the suit pip in half."""
    x1, y1, x2, y2 = box
    worst = 0.0
    for code in ("2S", "2H", "3D", "3C"):
        face = design.faces[code]
        h, w = face.shape[:2]
        strip = face[y2:y2 + int(0.25 * (y2 - y1)), x1:x2]
        paper = np.median(face[int(0.45 * h):int(0.55 * h), int(0.06 * w):int(0.14 * w), :3].reshape(-1, 3), axis=0)
        ink = (np.abs(strip[:, :, :3].astype(int) - paper).sum(axis=2) > 120) & (strip[:, :, 3] > 128)
        worst = max(worst, float(ink.mean()))
    return worst


def test_every_design_index_box_holds_rank_and_whole_pip():
    from vision.synth.artwork import TALL_INDEX, measure_index_box, training_designs

    assert len(training_designs()) >= 12
    for name in available_designs():
        design = load_design(name)
        assert len(design.faces) == 52, name
        x1, y1, x2, y2 = design.index_box
        w, h = design.size
        assert 0 <= x1 < x2 < w * 0.35 and 0 <= y1 < y2 < h * 0.45, name
        assert _ink_under_index(design, design.index_box) < 0.15, name
    # the designs with a tall index really need the lower measure: the usual one cuts the pip
    for name in TALL_INDEX:
        design = load_design(name)
        assert _ink_under_index(design, measure_index_box(design.faces)) > 0.3, name


def test_sheet_grid_cells_found_apart_and_touching():
    from script_loader import load_script

    build_decks = load_script("datasets/artwork/build_decks.py")
    _grid_cells = build_decks._grid_cells

    sheet = np.zeros((3 * 60 + 40, 4 * 40 + 50), np.uint8)
    for r in range(3):
        for c in range(4):  # cards 30x50 with gaps, and a stray shape of another size
            sheet[10 + r * 60:60 + r * 60, 10 + c * 40:40 + c * 40] = 255
    sheet[200:210, 10:20] = 255
    cells = _grid_cells(sheet, 3, 4)
    assert [len(row) for row in cells] == [4, 4, 4]
    assert cells[1][2] == (90, 70, 30, 50)
    touching = np.zeros((100, 120), np.uint8)
    touching[10:90, 0:120] = 255
    cells = _grid_cells(touching, 2, 3)
    assert cells[1][2] == (80, 50, 40, 40)


def test_generator_same_seed_same_bytes_and_labels():
    a_img, a_lab = render_scene(4242, list(HELD_OUT))
    b_img, b_lab = render_scene(4242, list(HELD_OUT))
    assert a_img.tobytes() == b_img.tobytes()
    assert [c.as_dict() for c in a_lab] == [c.as_dict() for c in b_lab]
    c_img, _ = render_scene(4243, list(HELD_OUT))
    assert c_img.tobytes() != a_img.tobytes()


def _in_index_boxes(design, shape) -> np.ndarray:
    """True where a face of ``design`` prints a corner index: the top-left box and the one turned
    180 degrees (dondorf: all four corners)."""
    x1, y1, x2, y2 = design.index_box
    h, w = shape[:2]
    inside = np.zeros((h, w), bool)
    inside[y1:y2, x1:x2] = True
    inside[h - y2:h - y1, w - x2:w - x1] = True
    if design.name == "dondorf":  # four indices
        inside[y1:y2, w - x2:w - x1] = True
        inside[h - y2:h - y1, x1:x2] = True
    return inside


def test_crossed_sevens_only_change_the_sevens_index_ink_of_training_designs():
    from vision.synth.artwork import training_designs
    from vision.synth.variants import crossed_seven

    crossed_somewhere = 0
    for name in training_designs():
        design = load_design(name)
        x1, y1, x2, y2 = design.index_box
        h, w = design.faces["7S"].shape[:2]
        face = design.faces["7S"]
        new = crossed_seven(design, "7S")
        changed = np.any(new != face, axis=2)
        # every changed pixel lies in an index box: the top-left one or the one turned 180 degrees
        assert not (changed & ~_in_index_boxes(design, face.shape)).any(), name
        tl, br = changed[y1:y2, x1:x2].sum(), changed[h - y2:h - y1, w - x2:w - x1].sum()
        crossed_somewhere += tl > 0 and br > 0  # both corners of the card
        assert design.faces["7S"] is face  # the design itself is left as it was
    assert crossed_somewhere >= len(training_designs()) - 1


def _designs_given_variant(variant: str, designs: list[str], seeds=range(910_000, 910_030)) -> set[str]:
    """The designs whose faces ``vision.synth.scene`` took from ``variant`` in those scenes."""
    from vision.synth import scene

    calls = []
    real = getattr(scene, variant)
    setattr(scene, variant, lambda design, code, *more: calls.append(design.name) or real(design, code, *more))
    try:
        for seed in seeds:
            render_scene(seed, designs)
    finally:
        setattr(scene, variant, real)
    return set(calls)


@pytest.mark.parametrize("variant", ["crossed_seven", "polish_letter"])
def test_held_out_designs_never_show_the_variants(variant):
    assert _designs_given_variant(variant, list(HELD_OUT)) == set()
    assert _designs_given_variant(variant, ["anglo"]) == {"anglo"}


def test_procedural_decks_print_their_own_letters_not_the_variants():
    assert _designs_given_variant("polish_letter", ["proc_5"], range(910_000, 910_020)) == set()


def test_polish_letters_redraw_only_the_rank_of_jacks_and_queens_of_training_designs():
    from vision.synth.artwork import ink_mask, training_designs
    from vision.synth.variants import polish_letter

    redrawn = 0
    for name in training_designs():
        design = load_design(name)
        x1, y1, x2, y2 = design.index_box
        for code in ("JS", "QH"):
            face = design.faces[code]
            new = polish_letter(design, code)
            changed = np.any(new != face, axis=2)
            assert not (changed & ~_in_index_boxes(design, face.shape)).any(), (name, code)
            top = changed[y1:y2, x1:x2]
            if top.any():
                redrawn += 1
                # the new letter is ink of its own: as much ink in the index as before, give or take
                ink_before = ink_mask(face[y1:y2, x1:x2]).sum()
                ink_after = ink_mask(new[y1:y2, x1:x2]).sum()
                assert 0.5 * ink_before < ink_after < 4 * ink_before, (name, code)
            assert polish_letter(design, code) is new  # made once
    assert redrawn >= 2 * len(training_designs()) - 4  # a design whose rank joins a frame line is left


def test_polish_letters_come_in_several_typefaces():
    from vision.synth.variants import LETTER_FACES, polish_letter

    design = load_design("anglo")
    x1, y1, x2, y2 = design.index_box
    tops = [polish_letter(design, "QH", f)[y1:y2, x1:x2] for f in range(len(LETTER_FACES))]
    # DejaVu Sans and Serif at least (.ci/services.sh installs them): the D differs between them
    assert len({t.tobytes() for t in tops}) >= 2
    assert polish_letter(design, "QH", 1) is polish_letter(design, "QH", 1)


def test_generator_labels_are_real_visible_corners(held_out_scene):
    img, corners = held_out_scene
    h, w = img.shape[:2]
    assert corners, "a scene should show some corner indices"
    codes = [c.card for c in corners]
    for c in corners:
        x1, y1, x2, y2 = c.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert c.visible >= 0.6
        assert c.zone in ("hand", "table")
        assert len(c.card) == 2 and c.card[0] in "23456789TJQKA" and c.card[1] in "SHDC"
    # a card shows at most its two (four for dondorf) indices
    assert max(codes.count(x) for x in codes) <= 4


def test_partly_shown_corners_come_apart_from_the_labels_with_the_same_pixels():
    partly_shown = 0
    for seed in range(910_100, 910_106):
        img, labels = render_scene(seed, list(HELD_OUT))
        every_img, every = render_scene(seed, list(HELD_OUT), min_visible=0.0)
        assert every_img.tobytes() == img.tobytes()
        assert [c.as_dict() for c in every if c.visible >= 0.6] == [c.as_dict() for c in labels]
        partly = [c for c in every if c.visible < 0.6]
        assert all(0 < c.visible < 0.6 for c in partly)
        partly_shown += len(partly)
    assert partly_shown, "fanned hands hide some indices in part"


def test_a_card_read_where_its_index_shows_in_part_is_neither_right_nor_wrong():
    from vision.evaluate import Tally, partly_seen

    partial = [{"card": "3H", "zone": "hand", "box": [100, 100, 130, 150], "visible": 0.5}]
    assert partly_seen({"card": "3H", "box": [104, 102, 128, 140]}, partial)
    assert not partly_seen({"card": "5H", "box": [104, 102, 128, 140]}, partial)  # another card there
    assert not partly_seen({"card": "3H", "box": [300, 300, 330, 350]}, partial)  # the 3H elsewhere
    labelled = [{"card": "AS", "zone": "hand", "box": [10, 10, 40, 60]}]
    gt = np.array([c["box"] for c in labelled], np.float32)
    # three corners read: the labelled AS, the partly shown 3H, and a 9C where no 9C is
    boxes = np.array([[10, 10, 40, 60], [104, 102, 128, 140], [300, 300, 330, 350]], np.float32)
    rank_p = np.full((3, 14), 1e-4, np.float32)
    suit_p = np.full((3, 4), 1e-4, np.float32)
    for i, (rank, suit) in enumerate((("A", "S"), ("3", "H"), ("9", "C"))):
        rank_p[i, "23456789TJQKA".index(rank)] = 1.0
        suit_p[i, "SHDC".index(suit)] = 1.0
    tally = Tally()
    # the partly shown index is the surest detection: counted as a false positive, it would
    # halve the corner AP
    scores = np.array([0.6, 0.9, 0.55], np.float32)
    tally.add(labelled, gt, boxes, scores, rank_p, suit_p, partial=partial)
    report = tally.report()
    assert (report["cards_true"], report["cards_false"], report["cards_partly_seen"]) == (1, 1, 1)
    assert report["card_precision"] == 0.5
    assert report["corner_mAP50"] == 1.0


def test_photo_damage_is_seeded_and_does_what_it_says():
    from vision.synth.effects import PHOTO_DAMAGE, photo_damage

    img, _ = render_scene(910_200, list(HELD_OUT), scale=2)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    sharpness = cv2.Laplacian(grey, cv2.CV_64F).var()
    for kind in PHOTO_DAMAGE:
        out = photo_damage(kind, img, 2.0, 7)
        assert out.shape == img.shape and out.dtype == np.uint8
        assert out.tobytes() == photo_damage(kind, img, 2.0, 7).tobytes()
        out_grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
        if kind == "dim":
            assert out_grey.mean() < 0.6 * grey.mean()
        else:  # blurred: less fine detail
            assert cv2.Laplacian(out_grey, cv2.CV_64F).var() < 0.5 * sharpness
    # a black-and-white photo: no colour left, the luma kept
    from vision.colour import black_and_white
    from vision.synth.effects import GREY

    mono = photo_damage(GREY, img, 2.0, 7)
    assert mono.shape == img.shape and black_and_white(mono) and not black_and_white(img)
    assert np.array_equal(mono[..., 0], grey) and np.array_equal(mono[..., 2], grey)
    # sepia: brown ink on cream, told from a colour photo (vision.colour.one_tone)
    from vision.synth.effects import SEPIA

    toned = photo_damage(SEPIA, img, 2.0, 7)
    b, g, r = (toned[..., i].astype(int) for i in range(3))
    assert (r >= g).all() and (g >= b).all() and (r - b).max() > 40  # warm, and a colour
    assert black_and_white(toned)
    for kind in PHOTO_DAMAGE:  # a shaken, dim or blurred colour photo is not taken for one
        assert not black_and_white(photo_damage(kind, img, 2.0, 7))
    with pytest.raises(ValueError, match="unknown photo damage 'fog'"):
        photo_damage("fog", img, 2.0, 7)


def test_generator_writes_yolo_dataset(tmp_path):
    from vision.synth.generate import generate

    generate(tmp_path, 2, 1, seed=3)
    label = (tmp_path / "labels" / "train" / "000000.txt").read_text().split("\n")
    rows = [r.split() for r in label if r.strip()]
    meta = json.loads((tmp_path / "meta" / "train" / "000000.json").read_text())
    assert len(rows) == len(meta["corners"])
    for r in rows:
        assert r[0] == "0" and all(0.0 <= float(v) <= 1.0 for v in r[1:])
    assert (tmp_path / "images" / "val" / "000000.jpg").exists()


def _png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


@pytest.mark.parametrize("payload, message", [
    (b"", "empty"),
    (b"this is not an image at all", "not a readable image"),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200), "HEIC/HEIF file that cannot be decoded"),
    (b"\xff\xd8\xff\xe0garbage" * 3, "not a readable image"),
    (_png_header(20000, 20000), "too large"),
])
def test_bad_bytes_raise_image_error(payload, message):
    with pytest.raises(ImageError, match=message):
        load_image(payload)


def test_bad_files_raise_image_error(tmp_path):
    text = tmp_path / "notes.jpg"
    text.write_text("hello")
    with pytest.raises(ImageError, match="not a readable image"):
        load_image(str(text))
    with pytest.raises(ImageError, match="no such file") as missing:
        load_image(str(tmp_path / "missing.png"))
    assert missing.value.text("pl") == f"{tmp_path / 'missing.png'}: nie ma takiego pliku"
    ok, buf = cv2.imencode(".jpg", np.full((200, 200, 3), 128, np.uint8))
    (tmp_path / "cut.jpg").write_bytes(buf.tobytes()[:60])
    with pytest.raises(ImageError):
        load_image(str(tmp_path / "cut.jpg"))
    with pytest.raises(ImageError, match="uint8"):
        load_image(np.zeros((100, 100, 3), np.float32))
    with pytest.raises(ImageError, match="too small"):
        load_image(np.zeros((4, 4, 3), np.uint8))


def heic_bytes(img: np.ndarray, orientation: int = 1, quality: int = 90) -> bytes:
    """``img`` (BGR) saved as an iPhone would: HEIC, turned by ``orientation`` (EXIF code)."""
    pillow_heif = pytest.importorskip("pillow_heif")
    from io import BytesIO

    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = BytesIO()
    pillow_heif.from_pillow(Image.fromarray(np.ascontiguousarray(img[:, :, ::-1]))).save(
        buf, quality=quality, exif=exif.tobytes())
    return buf.getvalue()


def test_heic_photos_are_read_upright(tmp_path):
    img = np.zeros((120, 200, 3), np.uint8)
    img[:60, :100] = (0, 0, 255)  # a red block at the top left, in BGR
    img[60:, 100:] = (255, 200, 0)
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(heic_bytes(img))
    got = load_image(str(path))
    assert got.shape == img.shape
    assert np.abs(got.astype(int) - img).mean() < 6
    # an iPhone held upright stores the picture sideways and says "turn 90 degrees clockwise"
    turned = load_image(heic_bytes(img, orientation=6))
    assert turned.shape == (200, 120, 3)
    assert np.abs(turned.astype(int) - np.rot90(img, -1)).mean() < 6
    with pytest.raises(ImageError, match="HEIC/HEIF file that cannot be decoded"):
        load_image(heic_bytes(img)[:300])


def test_heic_without_pillow_heif_says_what_to_send(monkeypatch):
    import sys

    data = heic_bytes(np.full((64, 64, 3), 90, np.uint8))
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as if it were not installed
    with pytest.raises(ImageError, match="send it as JPEG or PNG"):
        load_image(data)


needs_models = pytest.mark.skipif(
    not (MODELS / "corner_detector.onnx").exists() or not (MODELS / "corner_classifier.onnx").exists(),
    reason="models not trained")


@needs_models
def test_scan_contract_shape_and_sources_agree(held_out_scene, tmp_path):
    from vision.scan import scan_image

    img, _ = held_out_scene
    result = scan_image(img)
    assert set(result) == {"cards", "hand", "table", "warnings"}
    for c in result["cards"]:
        assert set(c) == {"card", "confidence", "box", "zone"}
        assert 0.0 <= c["confidence"] <= 1.0 and c["zone"] in ("hand", "table")
        assert len(c["box"]) == 4 and all(isinstance(v, int) for v in c["box"])
    codes = [c["card"] for c in result["cards"]]
    assert len(codes) == len(set(codes)), "a deck has no duplicates"
    assert sorted(result["hand"] + result["table"]) == sorted(codes)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), img)
    assert scan_image(str(path)) == result
    assert scan_image(path.read_bytes()) == result


@needs_models
def test_shipped_models_find_held_out_cards():
    from vision.evaluate import evaluate_rendered
    from vision.scan import CardDetector

    report = evaluate_rendered(16, CardDetector(), seed=910_000)
    assert report["card_recall"] >= MIN_RECALL, report
    assert report["card_precision"] >= MIN_PRECISION, report
    assert report["corner_mAP50"] >= MIN_CORNER_MAP50, report


@needs_models
def test_evaluate_a_labelled_folder_with_and_without_card_labels(tmp_path, capsys):
    import shutil

    from vision.evaluate import main as evaluate_main
    from vision.synth.generate import generate

    ours = tmp_path / "ours"
    generate(ours, 0, 6, seed=5)  # validation scenes: the held-out designs, with meta/ card labels
    assert evaluate_main(["--folder", str(ours), "--split", "val", "--json", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())[str(ours)]
    assert report["images"] == 6 and report["corners_labelled"] > 20
    assert report["corner_mAP50"] > 0.7 and report["card_recall"] > 0.6 and report["card_precision"] > 0.9
    # any YOLO folder: images/ and labels/ only, every box a corner index; no card labels
    plain = tmp_path / "plain"
    shutil.copytree(ours / "images" / "val", plain / "images")
    shutil.copytree(ours / "labels" / "val", plain / "labels")
    capsys.readouterr()
    assert evaluate_main(["--folder", str(plain)]) == 0
    plain_report = json.loads(capsys.readouterr().out)[str(plain)]
    assert plain_report["corners_labelled"] == report["corners_labelled"]
    assert plain_report["corner_mAP50"] > 0.7 and "card_recall" not in plain_report
    with pytest.raises(SystemExit):  # neither --render nor --folder
        evaluate_main([])


@needs_models
def test_harder_photos_are_measured_on_the_same_scenes():
    from vision.evaluate import evaluate_rendered
    from vision.scan import CardDetector

    det = CardDetector()
    clean = evaluate_rendered(4, det, seed=910_300, scale=2)
    dim = evaluate_rendered(4, det, seed=910_300, scale=2, damage="dim")
    assert clean["corners_labelled"] == dim["corners_labelled"]  # the same cards in view
    assert clean["cards_true"] + clean["cards_missed"] == dim["cards_true"] + dim["cards_missed"]
    assert dim["card_recall"] >= 0.8 and dim["card_precision"] >= 0.95, dim
    with pytest.raises(ValueError, match="unknown photo damage"):
        evaluate_rendered(1, det, seed=910_300, scale=2, damage="fog")


def test_scale_renders_the_same_scene_with_more_pixels():
    small, corners = render_scene(900_321, list(HELD_OUT))
    big, big_corners = render_scene(900_321, list(HELD_OUT), scale=2)
    assert big.shape[:2] == (2 * small.shape[0], 2 * small.shape[1])
    assert {c.card for c in big_corners} == {c.card for c in corners}
    for a, b in zip(sorted(corners, key=lambda c: c.box), sorted(big_corners, key=lambda c: c.box)):
        assert np.allclose(np.array(b.box) / 2, a.box, atol=1.5)


@needs_models
def test_large_photo_with_small_indices_gets_a_larger_second_pass():
    from vision.scan import CardDetector

    adaptive, plain = CardDetector(), CardDetector(zoom=None)
    found = {"adaptive": 0, "plain": 0}
    wrong = {"adaptive": 0, "plain": 0}
    zoomed = 0
    for seed in range(920_000, 920_040):  # 1920-px renders; those with small indices take the pass
        img, corners = render_scene(seed, list(HELD_OUT), scale=3)
        truth = {c.card for c in corners}
        boxes, _ = adaptive.detector(img)
        if not adaptive.needs_zoom(img, boxes):
            continue
        zoomed += 1
        small, _ = render_scene(seed, list(HELD_OUT))
        assert not adaptive.needs_zoom(small, adaptive.detector(small)[0]), "640-px images get one pass"
        for name, det in (("adaptive", adaptive), ("plain", plain)):
            cards = {c["card"] for c in det.scan(img)["cards"]}
            found[name] += len(cards & truth)
            wrong[name] += len(cards - truth)
    assert zoomed >= 8, zoomed  # 11 of these 40 when written
    # The pass finds more cards, and far more of them right than wrong: over 200 fresh 1920-px
    # renders it found 35-41 more cards a hundred for 2-3 more wrong ones (models/MODEL_CARD.md);
    # on these 40, 208 against 202 found and 1 against 2 wrong with the shipped members (the first
    # W/D refit: 208 against 204, 4 against 2).
    gained, misread = found["adaptive"] - found["plain"], wrong["adaptive"] - wrong["plain"]
    assert gained > 0, found
    assert misread <= max(1, gained // 2), (found, wrong)


@needs_models
def test_images_from_720_px_may_look_closer_and_keep_the_frame_bar():
    """Held-out scenes rendered at 1.25x (800 px, or 640 for the square ones): those of 720 px and
    more whose indices are small take the closer look, keep the frame bar, and find more cards
    (on these sixteen when written: 9 looked closer, 158 cards found against 152, one wrong each)."""
    from vision.assemble import MIN_CONF
    from vision.scan import ZOOM_MIN_SIDE, CardDetector

    closer, plain = CardDetector(), CardDetector(zoom=None)
    found = {"closer": 0, "plain": 0}
    wrong = dict.fromkeys(found, 0)
    zoomed = 0
    for seed in range(950_000, 950_016):
        img, corners = render_scene(seed, list(HELD_OUT), scale=1.25)
        truth = {c.card for c in corners}
        looks = closer.needs_zoom(img, closer.detector(img)[0])
        assert not looks or max(img.shape[:2]) >= ZOOM_MIN_SIDE
        assert closer.bar(img) == MIN_CONF  # not a photo: the frame bar
        zoomed += looks
        for name, det in (("closer", closer), ("plain", plain)):
            cards = {c["card"] for c in det.scan(img)["cards"]}
            found[name] += len(cards & truth)
            wrong[name] += len(cards - truth)
    assert zoomed >= 6, zoomed
    assert found["closer"] >= found["plain"] + 4, found
    assert wrong["closer"] <= wrong["plain"] + 1, wrong


def test_wider_frame_moves_the_labels_with_the_scene():
    from vision.synth.scene import in_wider_frame

    img, corners = render_scene(900_321, list(HELD_OUT))
    big, moved = in_wider_frame(img, corners, 900_321, 2.5)
    assert big.shape[:2] == (round(2.5 * img.shape[0]), round(2.5 * img.shape[1]))
    assert big.dtype == img.dtype == np.uint8
    assert [c.card for c in moved] == [c.card for c in corners]
    for a, b in zip(corners, moved):
        x0, y0 = b.box[0] - a.box[0], b.box[1] - a.box[1]
        h, w = img.shape[:2]
        assert np.array_equal(big[int(y0):int(y0) + h, int(x0):int(x0) + w], img)  # pasted whole
        assert np.allclose(np.array(b.quad) - [x0, y0], a.quad)
    again, _ = in_wider_frame(img, corners, 900_321, 2.5)
    assert np.array_equal(again, big)
    with pytest.raises(ValueError):
        in_wider_frame(img, corners, 1, 0.5)


def test_quarter_turn_moves_the_labels_with_the_scene():
    from vision.scan import boxes_before_turn
    from vision.synth.scene import quarter_turned

    img, corners = render_scene(900_321, list(HELD_OUT))
    h, w = img.shape[:2]

    def mean_colour(image, box):
        x1, y1, x2, y2 = (int(round(v)) for v in box)
        return image[y1:y2, x1:x2].reshape(-1, 3).mean(axis=0)

    for clockwise, turn in ((True, cv2.ROTATE_90_CLOCKWISE), (False, cv2.ROTATE_90_COUNTERCLOCKWISE)):
        out, moved = quarter_turned(img, corners, clockwise)
        assert out.shape == (w, h, 3) and np.array_equal(out, cv2.rotate(img, turn))
        assert [c.card for c in moved] == [c.card for c in corners]
        back = boxes_before_turn(np.float32([c.box for c in moved]), turn, h, w)
        assert np.allclose(back, [c.box for c in corners], atol=1e-3)
        for a, b in zip(corners, moved):
            assert b.box[2] - b.box[0] == pytest.approx(a.box[3] - a.box[1])  # sides swap
            if min(a.box[2] - a.box[0], a.box[3] - a.box[1]) >= 12:  # the same pixels under the box
                assert np.abs(mean_colour(img, a.box) - mean_colour(out, b.box)).max() < 12
            qx, qy = np.array(b.quad).mean(axis=0)
            assert b.box[0] - 1 <= qx <= b.box[2] + 1 and b.box[1] - 1 <= qy <= b.box[3] + 1


@needs_models
def test_cards_in_part_of_a_large_photo_are_looked_at_closer():
    """A phone held farther back: the cards fill half the frame. The closer looks run the larger
    detector on the region around the indices found, not on the whole photo, and find about as
    many cards as in the photo cropped to the scene."""
    from vision.detect import Detector
    from vision.scan import ZOOM_IMGSZ, CardDetector
    from vision.synth.scene import in_wider_frame

    class Recording(Detector):
        def __call__(self, img):
            self.seen.append(img.shape[:2])
            return super().__call__(img)

    zoom = Recording(imgsz=ZOOM_IMGSZ)
    zoom.seen = []
    closer, plain = CardDetector(zoom=zoom), CardDetector(zoom=None)
    found = {"cropped": 0, "closer": 0, "plain": 0}
    wrong = dict.fromkeys(found, 0)
    for seed in range(940_000, 940_008):
        scene, corners = render_scene(seed, list(HELD_OUT), scale=2)
        photo, _ = in_wider_frame(scene, corners, seed, 2.0)
        truth = {c.card for c in corners}
        for name, det, img in (("closer", closer, photo), ("cropped", closer, scene), ("plain", plain, photo)):
            zoom.seen.clear()
            cards = {c["card"] for c in det.scan(img)["cards"]}
            found[name] += len(cards & truth)
            wrong[name] += len(cards - truth)
            if name == "closer":  # looked closer at parts of the photo, each smaller than the last
                sides = [max(shape) for shape in zoom.seen]
                assert sides and sides[-1] < max(photo.shape[:2]), (zoom.seen, photo.shape)
                assert sides == sorted(sides, reverse=True) and len(sides) <= 2, sides
    assert found["closer"] >= 0.95 * found["cropped"], found
    assert found["closer"] >= found["plain"] + 10, found
    assert wrong["closer"] <= wrong["plain"] + 1, wrong


@needs_models
def test_a_first_pass_of_tiny_indices_is_followed_by_a_wider_look(monkeypatch):
    """A 1920-px scene in a 3840-px frame: the first pass sees its indices at about 9 px and
    misses cards away from those it finds, so the first closer look keeps ZOOM_TINY_MARGIN index
    sizes around them, not ZOOM_MARGIN (this render: four cards of the table found only so)."""
    from vision import scan
    from vision.synth.scene import MIN_VISIBLE, in_wider_frame

    scene, corners = render_scene(1_200_068, list(HELD_OUT), scale=3, min_visible=0.0)
    photo, corners = in_wider_frame(scene, corners, 1_200_068, 2.0)
    truth = {c.card for c in corners if c.visible >= MIN_VISIBLE}
    det = scan.CardDetector()
    first, _ = det.detector(photo)
    assert scan.indices_small(first, det.detector.imgsz, max(photo.shape[:2]), scan.ZOOM_TINY)
    wide = {c["card"] for c in det.scan(photo)["cards"]}
    monkeypatch.setattr(scan, "ZOOM_TINY_MARGIN", scan.ZOOM_MARGIN)
    narrow = {c["card"] for c in det.scan(photo)["cards"]}
    assert len(wide & truth) >= len(narrow & truth) + 3, (sorted(wide), sorted(narrow))
    assert len(wide - truth) <= len(narrow - truth)


def test_white_balance_from_the_paper_undoes_a_coloured_light():
    from vision.colour import CAST_RATIO, cast_ratio, paper_gains, white_balanced
    from vision.synth.effects import COLOUR_CASTS, photo_damage

    img, corners = render_scene(930_006, list(HELD_OUT))
    boxes = np.float32([c.box for c in corners])
    assert white_balanced(img, boxes) is None  # white light: nothing to undo
    assert cast_ratio(paper_gains(img, boxes)) < CAST_RATIO
    own = paper_gains(img, boxes)  # the scene's own light, a little off white
    for kind, light in COLOUR_CASTS.items():
        lit = photo_damage(kind, img, 1.0, 0)
        assert cast_ratio(paper_gains(lit, boxes)) > CAST_RATIO
        undone = paper_gains(lit, boxes) * np.float32(light) / own  # the same in each channel if undone
        assert undone.max() / undone.min() < 1.15, (kind, undone)
        out = white_balanced(lit, boxes)
        assert out is not None and out.shape == img.shape and out.dtype == np.uint8
    assert white_balanced(img, np.zeros((0, 4), np.float32)) is None


@needs_models
def test_frames_under_a_warm_lamp_read_as_under_white_light():
    """Held-out 640-px scenes under a tungsten-like light: balanced by the card paper, the scan
    finds about the cards it finds under white light; unbalanced, it misses about one in eight
    (on these twelve when written: 84 and 75 of the 85 found under white light, none wrong)."""
    from vision.scan import CardDetector
    from vision.synth.effects import photo_damage

    balanced, plain = CardDetector(), CardDetector(balance=False)
    found = {"white": 0, "balanced": 0, "plain": 0}
    wrong = dict.fromkeys(found, 0)
    for seed in range(930_000, 930_012):
        img, corners = render_scene(seed, list(HELD_OUT))
        warm = photo_damage("warm", img, 1.0, seed)
        truth = {c.card for c in corners}
        for name, det, frame in (("white", plain, img), ("balanced", balanced, warm), ("plain", plain, warm)):
            cards = {c["card"] for c in det.scan(frame)["cards"]}
            found[name] += len(cards & truth)
            wrong[name] += len(cards - truth)
    assert found["balanced"] >= found["plain"] + 6, found
    assert found["balanced"] >= found["white"] - 3, found
    assert wrong["balanced"] <= wrong["plain"] + 1, wrong


class CountedPasses:
    """A real detector that counts the passes it runs."""

    def __init__(self, detector):
        self.detector, self.passes = detector, 0

    def __call__(self, img):
        self.passes += 1
        return self.detector(img)


@needs_models
def test_a_coloured_light_guessed_before_detection_takes_one_detector_pass():
    """Under a warm lamp the light guessed from the brightest pixels agrees with the card paper
    about the indices found, so the first pass reads the balanced image at once: one detector
    pass a frame, not two. Under white light nothing is balanced."""
    from vision.colour import CAST_RATIO, cast_ratio, paper_gains
    from vision.scan import CardDetector
    from vision.synth.effects import photo_damage

    det = CardDetector()
    det.detector = counted = CountedPasses(det.detector)
    for seed in range(930_000, 930_006):
        img, corners = render_scene(seed, list(HELD_OUT))
        boxes = np.float32([c.box for c in corners])
        counted.passes = 0
        read, _ = det.first_pass(photo_damage("warm", img, 1.0, seed))
        assert counted.passes == 1, seed
        assert cast_ratio(paper_gains(read, boxes)) < CAST_RATIO, seed
        if cast_ratio(paper_gains(img, boxes)) < CAST_RATIO:
            counted.passes = 0
            read, _ = det.first_pass(img)
            assert read is img and counted.passes == 1, seed


@needs_models
def test_a_guessed_light_the_card_paper_disowns_is_not_read():
    """The brightest pixels are not always paper: a pale yellow cloth under white light looks
    like a warm cast, and the scan then reads the image as it is; the same cloth under a warm
    lamp guesses the light wrong, and the scan reads the image balanced by the paper instead."""
    from vision.colour import CAST_RATIO, cast_ratio, light_gains, paper_gains
    from vision.scan import CardDetector
    from vision.synth.effects import photo_damage

    img, corners = render_scene(930_006, list(HELD_OUT))
    band = np.full((img.shape[0], 160, 3), (200, 255, 255), np.uint8)  # pale yellow (BGR), brighter than the paper
    boxes = np.float32([c.box for c in corners]) + np.float32([160, 0, 160, 0])
    cloth = np.hstack([band, img])
    det = CardDetector()
    assert cast_ratio(light_gains(cloth)) >= CAST_RATIO
    assert cast_ratio(paper_gains(cloth, boxes)) < CAST_RATIO
    read, _ = det.first_pass(cloth)
    assert read is cloth
    warm = np.hstack([band, photo_damage("warm", img, 1.0, 0)])
    read, _ = det.first_pass(warm)
    assert cast_ratio(paper_gains(read, boxes)) < CAST_RATIO
    assert cast_ratio(paper_gains(warm, boxes)) > 1.5


@needs_models
def test_a_hand_turned_sideways_is_read_a_quarter_turned():
    """Held-out 640-px scenes turned a quarter either way (a hand photographed from the side): the
    scan reads them turned back, finds about the cards it finds upright, where it misses more
    without the turn (on these twelve when written: 103 turned clockwise and 102 the other way, 91
    and 86 without the turn, against 100 upright), and gives each card's box where the card lies in
    the turned image."""
    from vision.evaluate import iou_matrix
    from vision.scan import CardDetector, sideways

    turning, plain = CardDetector(), CardDetector(turn=False)
    found = {"upright": 0, "turned": 0, "plain": 0}
    wrong = dict.fromkeys(found, 0)
    overlaps, seen_sideways = [], {"upright": 0, "turned": 0}
    for seed in range(930_100, 930_112):
        img, corners = render_scene(seed, list(HELD_OUT))
        h, w = img.shape[:2]
        truth = {c.card for c in corners}
        upright = turning.scan(img)
        seen_sideways["upright"] += sideways(turning.detector(img)[0])
        found["upright"] += 2 * len({c["card"] for c in upright["cards"]} & truth)  # once for each turn
        for turn in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE):
            side = cv2.rotate(img, turn)
            seen_sideways["turned"] += sideways(turning.detector(side)[0])
            for name, det in (("turned", turning), ("plain", plain)):
                cards = {c["card"] for c in det.scan(side)["cards"]}
                found[name] += len(cards & truth)
                wrong[name] += len(cards - truth)
            boxes = {c["card"]: c["box"] for c in upright["cards"]}
            for c in turning.scan(side)["cards"]:
                if c["card"] in boxes:  # the upright box, turned as the image was
                    x1, y1, x2, y2 = boxes[c["card"]]
                    moved = [h - y2, x1, h - y1, x2] if turn == cv2.ROTATE_90_CLOCKWISE else [y1, w - x2, y2, w - x1]
                    overlaps.append(iou_matrix(np.float32([moved]), np.float32([c["box"]]))[0, 0])
    assert found["turned"] >= found["plain"] + 10, found
    assert found["turned"] >= found["upright"] - 6, found
    assert wrong["turned"] <= wrong["plain"] + 2, wrong
    assert np.median(overlaps) > 0.7 and len(overlaps) >= 160, (np.median(overlaps), len(overlaps))
    assert seen_sideways["turned"] >= 18 and seen_sideways["upright"] <= 3, seen_sideways


@needs_models
def test_unsure_corners_are_read_again_by_the_second_ensemble():
    from vision.classify import REREAD_BAND, Classifier, best_card
    from vision.detect import Detector

    det, both, first = Detector(), Classifier(), Classifier(reread_paths=())
    assert len(both.reread_paths) == 2
    changed = kept = 0
    for seed in range(930_100, 930_106):
        img, _ = render_scene(seed, list(HELD_OUT))
        boxes, _ = det(img)
        r1, s1 = first(img, boxes)
        r2, s2 = both(img, boxes)
        best = best_card(r1, s1)
        unsure = (best >= REREAD_BAND[0]) & (best < REREAD_BAND[1])
        assert np.array_equal(r1[~unsure], r2[~unsure]) and np.array_equal(s1[~unsure], s2[~unsure])
        assert np.allclose(r2.sum(1), 1, atol=1e-4) and np.allclose(s2.sum(1), 1, atol=1e-4)
        changed += int((np.abs(r1[unsure] - r2[unsure]).max(1) > 1e-6).sum()) if unsure.any() else 0
        kept += int((~unsure).sum())
    assert changed > 0 and kept > changed


@needs_models
def test_photos_use_their_own_lower_confidence_bar():
    from vision.assemble import MIN_CONF, PHOTO_MIN_CONF, build_result
    from vision.evaluate import Tally
    from vision.scan import CardDetector
    from vision.synth.scene import MIN_VISIBLE

    det = CardDetector()
    small, _ = render_scene(930_000, list(HELD_OUT))
    assert det.bar(small) == MIN_CONF  # a 640-px frame
    tally = {"photo": Tally(), "frame": Tally()}
    for seed in range(930_000, 930_012):  # 1280-px renders, as a phone photo
        img, every = render_scene(seed, list(HELD_OUT), scale=2, min_visible=0.0)
        assert det.bar(img) == PHOTO_MIN_CONF < MIN_CONF
        labelled = [c.as_dict() for c in every if c.visible >= MIN_VISIBLE]
        partial = [c.as_dict() for c in every if c.visible < MIN_VISIBLE]
        gt = np.array([c["box"] for c in labelled], np.float32).reshape(-1, 4)
        read = det.corners(img)
        assert {c["card"] for c in det.scan(img)["cards"]} == \
            {c["card"] for c in build_result(*read, min_conf=PHOTO_MIN_CONF)["cards"]}
        for name, bar in (("photo", PHOTO_MIN_CONF), ("frame", MIN_CONF)):
            tally[name].add(labelled, gt, *read, min_conf=bar, partial=partial)
    found = {name: t.report()["cards_true"] for name, t in tally.items()}
    wrong = {name: t.report()["cards_false"] for name, t in tally.items()}
    # when written: 149 against 144 found, 3 wrong against 1 (4C read where a 4S is, 0.35)
    assert found["photo"] >= found["frame"] + 4, (found, wrong)
    assert wrong["photo"] <= wrong["frame"] + 2, (found, wrong)
    assert found["photo"] / (found["photo"] + wrong["photo"]) >= 0.98, (found, wrong)


@needs_models
def test_empty_table_gives_warning_not_cards():
    from vision.scan import scan_image

    rng = np.random.default_rng(0)
    felt = np.clip(rng.normal(0, 6, (480, 640, 3)) + [40, 110, 30], 0, 255).astype(np.uint8)
    result = scan_image(felt)
    assert result["cards"] == []
    assert any("no cards found" in w for w in result["warnings"])


def test_cli_text_lists_the_cards_by_suit():
    from vision.cli import _readable

    result = {"hand": ["2H", "AS", "KH", "TC", "3S"], "table": [], "warnings": ["7D uncertain"]}
    assert _readable("x.jpg", result) == "x.jpg: hand AS 3S KH 2H TC | table - | 7D uncertain"
    assert _readable("x.jpg", result, "pl") == "x.jpg: ręka AS 3S KH 2H TC | stół - | 7D uncertain"


@needs_models
def test_cli_json_lines_and_bad_image(tmp_path, capsys, held_out_scene):
    from vision.cli import run_scan

    img, _ = held_out_scene
    good = tmp_path / "hand.jpg"
    cv2.imwrite(str(good), img)
    out_img = tmp_path / "annotated.jpg"
    assert run_scan([str(good)], True, str(out_img)) == 0
    line = capsys.readouterr().out.strip().splitlines()
    assert len(line) == 1
    obj = json.loads(line[0])
    assert list(obj)[0] == "image" and obj["image"] == str(good)
    assert cv2.imread(str(out_img)).shape == img.shape
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    assert run_scan([str(bad)], True, None) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "bad.jpg" in err[0] and "Traceback" not in captured.err
    # a drawing that cannot be written costs the drawing (exit 2, said), not the scan's answer
    assert run_scan([str(good)], True, str(tmp_path / "no" / "such" / "out.jpg")) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["hand"] == obj["hand"]
    assert "cannot write the annotated image" in captured.err and "hand.jpg:" not in captured.err


@needs_models
def test_piki_scan_gives_its_warnings_in_the_language_asked(tmp_path, capsys):
    from api.cli import main

    empty = tmp_path / "table.png"
    cv2.imwrite(str(empty), np.full((480, 640, 3), 90, np.uint8))
    assert main(["scan", str(empty), "--json", "--lang", "pl"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == [
        "nie znaleziono kart: ustaw karty tak, żeby ich narożne oznaczenia były ostre i dobrze oświetlone"]
    assert main(["scan", str(empty), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"][0].startswith("no cards found")
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    assert main(["scan", str(bad), "--lang", "pl"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"piki scan: {bad} nie jest czytelnym obrazem (uszkodzony plik albo nieobsługiwany format)")


@needs_models
def test_a_black_and_white_photo_is_scanned_with_a_warning_about_the_suits(tmp_path, capsys):
    from api.cli import main

    img, corners = render_scene(930_006, list(HELD_OUT), scale=2)  # 20 cards, 11 of them red
    colour, grey = tmp_path / "colour.jpg", tmp_path / "grey.jpg"
    cv2.imwrite(str(colour), img)
    cv2.imwrite(str(grey), cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))  # a one-channel JPEG
    assert main(["scan", str(colour), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "black_and_white" not in plain and not any("black-and-white" in w for w in plain["warnings"])
    assert main(["scan", str(grey), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cards"] and out["black_and_white"] is True
    assert out["warnings"][0].startswith("a black-and-white (or one-tone) image: the suits are read from the pips'")
    # the black-and-white reader tells the red suits from the black by shape: the grey photo reads
    # the cards right, red ones too (the colour ensemble alone read 1 of the 11 red cards, and 6
    # wrong cards: a red card as the black suit of its rank)
    truth = {c.card for c in corners}
    read = {c["card"] for c in out["cards"]}
    assert read <= truth and len(read) >= len(truth) - 2
    assert len({c for c in read if c[1] in "HD"}) >= 10
    # a sepia photo has one tone for each brightness: as little colour to tell the suits by
    from vision.synth.effects import SEPIA, photo_damage

    sepia = tmp_path / "sepia.jpg"
    cv2.imwrite(str(sepia), photo_damage(SEPIA, img, 2.0, 0))
    assert main(["scan", str(sepia), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["black_and_white"] is True
    read = {c["card"] for c in out["cards"]}
    assert read <= truth and len(read) >= len(truth) - 2 and len({c for c in read if c[1] in "HD"}) >= 10
    assert main(["scan", str(grey), "--json", "--lang", "pl"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"][0].startswith("obraz czarno-biały")


@needs_models
def test_a_heic_phone_photo_scans_like_the_same_photo_in_png(tmp_path, capsys):
    from vision.cli import run_scan
    from vision.scan import scan_image

    img, corners = render_scene(900_128, list(HELD_OUT), scale=2)  # a hand of 13 and 5 cards on the table
    there = {c.card for c in corners}
    as_png = {c["card"] for c in scan_image(img)["cards"]}
    path = tmp_path / "IMG_0002.HEIC"
    path.write_bytes(heic_bytes(np.ascontiguousarray(np.rot90(img)), orientation=6))  # stored sideways
    assert run_scan([str(path)], True, None) == 0
    found = {c["card"] for c in json.loads(capsys.readouterr().out)["cards"]}
    assert len(as_png) >= 10 and found <= there
    assert len(found & as_png) >= 0.9 * len(as_png), (sorted(found), sorted(as_png))


def test_assemble_with_true_corners_lists_each_card_once_with_zones():
    """Perfect corner readings in: every card out exactly once, both corners merged, zones mostly right."""
    from vision.assemble import build_result
    from vision.labels import RANK_CLASSES, SUIT_CLASSES

    right = total = 0
    for k in range(20):
        _, corners = render_scene(960_000 + k, list(HELD_OUT))
        boxes = np.array([c.box for c in corners], np.float32).reshape(-1, 4)
        rank_p = np.zeros((len(corners), len(RANK_CLASSES)), np.float32)
        suit_p = np.zeros((len(corners), len(SUIT_CLASSES)), np.float32)
        for i, c in enumerate(corners):
            rank_p[i, RANK_CLASSES.index(c.card[0])] = 1.0
            suit_p[i, SUIT_CLASSES.index(c.card[1])] = 1.0
        result = build_result(boxes, np.ones(len(corners), np.float32), rank_p, suit_p)
        truth = {c.card: c.zone for c in corners}
        found = [c["card"] for c in result["cards"]]
        assert sorted(found) == sorted(truth)
        for c in result["cards"]:
            total += 1
            right += c["zone"] == truth[c["card"]]
    assert right / total >= 0.8


def test_assemble_drops_duplicates_far_apart_and_not_an_index():
    from vision.assemble import build_result

    boxes = np.array([[10, 10, 30, 50], [900, 700, 920, 740], [200, 10, 220, 50]], np.float32)
    rank_p = np.zeros((3, 14), np.float32)
    suit_p = np.zeros((3, 4), np.float32)
    rank_p[0, 12] = rank_p[1, 12] = 1.0  # both read "A"...
    suit_p[0, 0] = 1.0  # ...of spades, and the second one is much more than a card length away
    suit_p[1, 0] = 1.0
    rank_p[1, 12] = 0.6
    rank_p[1, 11] = 0.4  # second choice: K
    rank_p[2, 13] = 0.9  # "not an index"
    rank_p[2, 0] = 0.1
    suit_p[2, 1] = 1.0
    result = build_result(boxes, np.ones(3, np.float32), rank_p, suit_p, min_conf=0.3)
    assert sorted(result["hand"] + result["table"]) == ["AS", "KS"]
    assert [c["card"] for c in result["cards"]].count("AS") == 1


@needs_models
def test_a_shipped_member_loaded_back_reads_as_its_file():
    """vision.train --refit starts from the shipped int8 file when the member was not trained in
    the run: the network rebuilt from it must read patches as onnxruntime does."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision import runtime
    from vision.classify import _softmax
    from vision.crops import crop_patch, to_tensor
    from vision.detect import Detector
    from vision.training.classifier import load_exported

    img, _ = render_scene(930_200, list(HELD_OUT))
    boxes, _ = Detector()(img)
    assert len(boxes) >= 8
    x = to_tensor([crop_patch(img, b) for b in boxes])
    path = MODELS / runtime.REREAD_FILES[0]
    sess = runtime.session(path)
    rank_file, suit_file = sess.run(None, {sess.get_inputs()[0].name: x})
    model = load_exported(path).eval()
    with torch.no_grad():
        rank, suit = (t.numpy() for t in model(torch.from_numpy(x)))
    assert (rank.argmax(1) == rank_file.argmax(1)).mean() >= 0.9
    assert (suit.argmax(1) == suit_file.argmax(1)).mean() >= 0.9
    # int8 activations in the file, float here: close, not equal
    assert np.abs(_softmax(rank) - _softmax(rank_file)).max(1).mean() < 0.1


def test_a_refit_anchored_to_its_start_keeps_its_answers_where_the_mask_says(tmp_path):
    """vision.train --refit-anchor: on the patches the mask keeps, a distillation pulls the refit
    towards the starting member's answers; elsewhere only the labels count. Refit on labels that
    contradict the shipped member: unanchored it learns them, anchored on every patch it keeps its
    own reads, and with a mask that keeps none it trains exactly as unanchored."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision import runtime
    from vision.crops import crop_patch
    from vision.training.classifier import anchor_logits, load_exported, train_classifier

    img, corners = render_scene(930_300, list(HELD_OUT))
    patches = np.stack([crop_patch(img, c.box) for c in corners] * 3)
    start = load_exported(MODELS / runtime.REREAD_FILES[0])
    torch.save({"model": start.state_dict()}, tmp_path / "start.pt")
    rank_s, suit_s = anchor_logits(start, patches)
    first = rank_s.argmax(1)
    ranks = (first + 1) % 13  # a rank the member does not read there
    data = (patches, ranks.astype(np.int64), suit_s.argmax(1).astype(np.int64))

    def refit(keep, name):
        anchor = None if keep is None else (rank_s, suit_s, np.full(len(patches), keep))
        model = train_classifier(data, data, tmp_path, 6, 1, batch=16, log=lambda m: None, init=tmp_path / "start.pt",
                                 max_lr=3e-3, name=name, frozen_norms=True, anchor=anchor, anchor_weight=10.0)
        return anchor_logits(model, patches)[0]

    free, held, unheld = refit(None, "free"), refit(True, "held"), refit(False, "unheld")
    assert (free.argmax(1) == ranks).mean() > 0.6 and (free.argmax(1) == first).mean() < 0.2
    assert (held.argmax(1) == first).mean() > 0.6
    assert np.array_equal(unheld, free)


def test_the_black_and_white_reader_trains_on_patches_as_a_grey_photo_gives_them():
    """vision.train's black-and-white reader sees its training patches collapsed to luma after the
    colour augmentation (to_grey) and is calibrated on patches made grey (vision.colour.as_grey):
    both must be what the scan's patches of a black-and-white photo are (its luma in every channel)."""
    from vision.colour import as_grey
    from vision.crops import crop_patch, to_tensor
    from vision.training.classifier import to_grey

    img, corners = render_scene(930_201, list(HELD_OUT))
    patches = np.stack([crop_patch(img, c.box) for c in corners])
    mono = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    seen = np.stack([crop_patch(mono, c.box) for c in corners])  # what the scan reads
    assert np.abs(as_grey(patches).astype(int) - seen).max() <= 2  # rounding, then the warp
    x = to_grey(to_tensor(patches))
    assert x.shape == (len(corners), 3, patches.shape[1], patches.shape[2]) and x.dtype == np.float32
    assert np.array_equal(x[:, 0], x[:, 2])  # no colour left
    assert np.abs(x - to_tensor(seen)).max() <= 3 / 255
    # the red pips and the black ones are apart in colour, not in the grey patches' channels
    red = [i for i, c in enumerate(corners) if c.card[1] in "HD"]
    assert red and np.abs(to_tensor(patches)[red, 0] - to_tensor(patches)[red, 2]).max() > 0.3


def test_raw_head_decoding_places_a_box_from_its_cell_and_bins():
    """The shipped detector ends at its head's last convolutions; vision.detect decodes them: a
    cell whose class logit passes the bar gives a box whose sides (in strides from the cell's
    centre) are the expectations of its four bin distributions."""
    from vision.detect import decode_heads

    bins, strides, side = 16, (8, 16, 32), 64
    outs = []
    for s in strides:
        outs += [np.zeros((1, 4 * bins, side // s, side // s), np.float32),
                 np.full((1, 1, side // s, side // s), -9.0, np.float32)]
    box, cls = outs[2], outs[3]  # stride 16: a 4 x 4 grid
    cls[0, 0, 1, 2] = 2.0  # the cell in row 1, column 2: centre (2.5, 1.5) strides
    for k, d in enumerate((1, 2, 3, 4)):  # left, top, right, bottom: all the mass on one bin
        box[0, k * bins + d, 1, 2] = 30.0
    box[0, 3 * bins + 5, 1, 2] = 30.0  # bottom split evenly between bins 4 and 5: 4.5
    boxes, scores = decode_heads(outs, side, conf=0.5)
    assert len(boxes) == 1
    assert np.allclose(boxes[0], [(2.5 - 1) * 16, (1.5 - 2) * 16, (2.5 + 3) * 16, (1.5 + 4.5) * 16], atol=1e-3)
    assert scores[0] == pytest.approx(1 / (1 + np.exp(-2.0)), abs=1e-6)
    assert len(decode_heads(outs, side, conf=0.9)[0]) == 0  # sigmoid(2) = 0.88 is under 0.9


@needs_models
def test_second_member_reads_only_the_corners_the_first_is_unsure_of():
    from vision.assemble import card_probabilities
    from vision.classify import SURE, Classifier, best_card
    from vision.detect import Detector

    det, cascade = Detector(), Classifier(reread_paths=())
    alone = Classifier(model_paths=cascade.model_paths[:1], reread_paths=())
    always = Classifier(reread_paths=(), sure=1.01)
    counts = {"sure": 0, "unsure": 0, "same card": 0}
    for seed in range(930_300, 930_306):
        img, _ = render_scene(seed, list(HELD_OUT))
        boxes, _ = det(img)
        r1, s1 = alone(img, boxes)
        rc, sc = cascade(img, boxes)
        ra, sa = always(img, boxes)
        sure = best_card(r1, s1) >= SURE
        assert np.array_equal(rc[sure], r1[sure]) and np.array_equal(sc[sure], s1[sure])
        assert np.allclose(rc[~sure], ra[~sure]) and np.allclose(sc[~sure], sa[~sure])
        same = card_probabilities(rc, sc).argmax(1) == card_probabilities(ra, sa).argmax(1)
        counts["same card"] += int(same[sure].sum())
        counts["sure"] += int(sure.sum())
        counts["unsure"] += int((~sure).sum())
    assert counts["sure"] > 0 and counts["unsure"] > 0, counts
    assert counts["same card"] >= 0.98 * counts["sure"], counts


@needs_models
def test_a_photo_rereads_its_unsure_corners_from_a_tighter_patch():
    from vision.classify import PHOTO_REREAD_CONTEXT, REREAD_BAND, Classifier, best_card
    from vision.scan import CardDetector

    det = CardDetector()
    first = Classifier(reread_paths=())
    differ = 0
    for seed in range(930_400, 930_404):
        img, _ = render_scene(seed, list(HELD_OUT), scale=2)
        boxes, scores, rank_p, suit_p = det.corners(img)
        tight = det.classifier(img, boxes, PHOTO_REREAD_CONTEXT)
        assert np.array_equal(rank_p, tight[0]) and np.array_equal(suit_p, tight[1])
        usual = det.classifier(img, boxes)
        b = best_card(*first(img, boxes))
        unsure = (b >= REREAD_BAND[0]) & (b < REREAD_BAND[1])
        assert np.array_equal(rank_p[~unsure], usual[0][~unsure])
        differ += int((np.abs(rank_p - usual[0]).max(1) > 1e-6).sum())
    assert differ > 0


def test_an_ultralytics_decoded_output_is_still_read():
    """A plain ultralytics export (one output: cx, cy, w, h and class scores per anchor) works
    in place of the shipped head-cut detector."""
    from vision.detect import decode_output

    out = np.zeros((1, 5, 3), np.float32)
    out[0, :, 0] = [50, 40, 20, 10, 0.9]  # kept
    out[0, :, 1] = [10, 10, 4, 4, 0.1]  # under the bar
    out[0, :, 2] = [100, 80, 8, 16, 0.5]  # kept
    boxes, scores = decode_output(out, conf=0.2)
    assert np.allclose(boxes, [[40, 35, 60, 45], [96, 72, 104, 88]])
    assert np.allclose(scores, [0.9, 0.5])


def test_train_without_its_packages_says_so_before_making_scenes(tmp_path):
    """`piki train` on a machine without the training packages (the app's own install) stops at
    once with what to install, instead of making thousands of scenes first."""
    import importlib.util
    import subprocess
    import sys

    if all(importlib.util.find_spec(m) for m in ("torch", "ultralytics", "onnx")):
        pytest.skip("the training packages are installed: this would train")
    p = subprocess.run([sys.executable, "-m", "vision.train", "--out", str(tmp_path / "run")], cwd=MODELS.parent,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "requirements-train.txt" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "run").exists()


def test_train_from_a_checkpoint_that_is_not_there_says_so(tmp_path):
    """`--detector-from` naming no file stops at once with the path, before any scene or import."""
    import subprocess
    import sys

    missing = tmp_path / "nowhere.pt"
    p = subprocess.run([sys.executable, "-m", "vision.train", "--out", str(tmp_path / "run"), "--detector-from",
                        str(missing), "--skip-classifier", "--slant-hours", "0.5"], cwd=MODELS.parent,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and str(missing) in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "run").exists()


def test_scenes_at_a_slant_narrow_the_far_edge_and_keep_their_labels():
    """Training scenes may be drawn at a slant (a share of them, from a generator of their own):
    the others are the scenes of before, pixel for pixel, and a slanted one keeps labels inside its
    frame. The evaluation's post-render slant moves the labels with the image: below the moved far
    edge, and narrower the farther up they lay."""
    from vision.synth.artwork import FIRST_DESIGNS, HELD_OUT
    from vision.synth.scene import render_scene, slanted

    changed = 0
    for seed in range(7000, 7016):
        img, corners = render_scene(seed, list(FIRST_DESIGNS), slant=0.5)
        plain, plain_corners = render_scene(seed, list(FIRST_DESIGNS))
        if np.array_equal(img, plain):
            assert [c.box for c in corners] == [c.box for c in plain_corners]
            continue
        changed += 1
        assert corners, "a slanted scene keeps labelled indices"
        for c in corners:  # every label inside the frame, and not empty
            x1, y1, x2, y2 = c.box
            assert 0 <= x1 < x2 <= img.shape[1] and 0 <= y1 < y2 <= img.shape[0]
    assert 3 <= changed <= 13  # about half of 16

    img, corners = render_scene(900_002, list(HELD_OUT))
    warped, moved = slanted(img, corners, 0.5)
    assert warped.shape == img.shape and len(moved) == len(corners)
    h, w = img.shape[:2]
    ratio = {}
    for c, m in zip(corners, moved):
        assert m.box[1] >= 0.25 * h - 1  # nothing above the far edge, moved down by a quarter
        assert m.box[0] >= 0 and m.box[2] <= w
        ratio[(c.box[1] + c.box[3]) / 2] = (m.box[2] - m.box[0]) / (c.box[2] - c.box[0])
    # indices shrink the more the farther up they lay
    ys = sorted(ratio)
    top, bottom = ys[: len(ys) // 2], ys[len(ys) // 2:]
    assert np.mean([ratio[y] for y in top]) < np.mean([ratio[y] for y in bottom]) <= 1.0 + 1e-6


def test_evaluate_refuses_a_slant_out_of_range(capsys):
    from vision.evaluate import main

    with pytest.raises(SystemExit) as e:
        main(["--render", "1", "--slant", "0.05"])
    assert e.value.code == 2 and "--slant" in capsys.readouterr().err


def test_evaluate_scans_renders_sent_as_jpeg():
    """``--jpeg Q`` scans each render after a JPEG round trip (as the live page sends frames): the
    same scene, the pixels changed by the compression, more so at a lower quality."""
    from vision.evaluate import rendered_scenes

    (plain, corners, _, _), = rendered_scenes(1, seed=910_400, scale=2)
    (fine, fine_corners, _, _), = rendered_scenes(1, seed=910_400, scale=2, jpeg=90)
    (coarse, _, _, _), = rendered_scenes(1, seed=910_400, scale=2, jpeg=20)
    assert fine.shape == plain.shape and fine_corners == corners
    err_fine = np.abs(fine.astype(int) - plain).mean()
    err_coarse = np.abs(coarse.astype(int) - plain).mean()
    assert 0 < err_fine < err_coarse


def test_evaluate_refuses_a_jpeg_quality_out_of_range(capsys):
    from vision.evaluate import main

    with pytest.raises(SystemExit) as e:
        main(["--render", "1", "--jpeg", "0"])
    assert e.value.code == 2 and "--jpeg" in capsys.readouterr().err
