"""Measure the card detector on labelled scenes.

    python -m vision.evaluate --render 200            # fresh scenes of the held-out designs
    python -m vision.evaluate --render 100 --scale 4  # the same at 2560 px, as a phone takes them
    python -m vision.evaluate --render 100 --scale 3 --wider 2  # those cards in half the frame
    python -m vision.evaluate --render 100 --scale 3 --damage motion  # a shaken phone
    python -m vision.evaluate --folder DIR [--split val] [--limit 300] [--json report.json]

--folder takes this project's synthetic layout (images/SPLIT, labels/SPLIT, meta/SPLIT) or any
YOLO-format folder (images/ + labels/, every box counted as a corner index). Reports:
  * corner mAP50 of the detector (one class: corner index; in rendered scenes a detection of a
    partly shown index counts neither way),
  * card identity recall and precision (needs card labels: meta/*.json or rendered scenes); in
    rendered scenes a card reported where its index shows only in part (under the label's
    MIN_VISIBLE, so unlabelled) is neither right nor wrong: counted apart as "partly seen",
  * zone accuracy (hand/table) of the cards found,
  * classifier confusions on matched corners, with the usual suspects: A/4, 6/9, S/C and H/D.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from .assemble import CODES, MIN_CONF, build_result, card_probabilities
from .scan import CardDetector
from .synth.effects import PHOTO_CONDITIONS

EVAL_SEED_BASE = 900_000  # disjoint from the seeds used for training and validation scenes
READABLE = 20  # px: a corner index whose box is at least this tall or wide is "readable"


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def average_precision(records: list[tuple[float, bool]], n_gt: int) -> float:
    """All-point interpolated AP from (score, is_true_positive) over all images."""
    if n_gt == 0:
        return float("nan")
    if not records:
        return 0.0
    records = sorted(records, key=lambda r: -r[0])
    tp = np.cumsum([r[1] for r in records])
    fp = np.cumsum([not r[1] for r in records])
    recall = tp / n_gt
    precision = tp / np.maximum(tp + fp, 1e-9)
    mrec = np.concatenate([[0.0], recall, [1.0]])
    mpre = np.concatenate([[1.0], precision, [0.0]])
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    steps = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[steps + 1] - mrec[steps]) * mpre[steps + 1]))


def overlap_share(a, b) -> float:
    """Intersection of boxes a and b over the smaller one's area."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy / max(small, 1e-9)


PARTLY_SEEN_OVERLAP = 0.5  # a card's box and a partly shown index of that card: the same place


def partly_seen(card: dict, partial: list[dict]) -> bool:
    """The reported card lies where an index of that same card shows in part: a right reading of
    an index that the labels leave out, not a wrong card."""
    return any(c["card"] == card["card"] and overlap_share(card["box"], c["box"]) >= PARTLY_SEEN_OVERLAP
               for c in partial)


def match(pred: np.ndarray, scores: np.ndarray, gt: np.ndarray, thr: float = 0.5, ignore=None):
    """Greedy match by score: (list of (score, tp)), {pred index: gt index}. A prediction that
    matches no label and whose ``ignore`` flag is set (it lies on a partly shown index) is left
    out of the list: neither a true nor a false positive."""
    ious = iou_matrix(pred, gt)
    used, recs, pairs = set(), [], {}
    for i in np.argsort(-scores):
        j = int(np.argmax(ious[i])) if ious.shape[1] else -1
        ok = j >= 0 and ious[i, j] >= thr and j not in used
        if ok:
            used.add(j)
            pairs[int(i)] = j
        elif ignore is not None and ignore[i]:
            continue
        recs.append((float(scores[i]), ok))
    return recs, pairs


class Tally:
    def __init__(self):
        self.ap_records, self.n_gt = [], 0
        self.tp = self.fp = self.fn = 0
        self.partly_seen = 0
        self.readable = self.readable_found = 0
        self.per_image = []
        self.zone_ok = self.zone_n = 0
        self.confusions = Counter()
        self.corners_matched = self.corners_right = 0

    def add(self, gt_corners: list[dict] | None, gt_boxes: np.ndarray, boxes, scores, rank_p, suit_p,
            min_conf: float = MIN_CONF, partial: list[dict] = ()):
        """``partial``: corners of the scene that show only in part (not labelled)."""
        on_partial = [any(overlap_share(b, c["box"]) >= PARTLY_SEEN_OVERLAP for c in partial) for b in boxes]
        recs, pairs = match(boxes, scores, gt_boxes, ignore=on_partial)
        self.ap_records += recs
        self.n_gt += len(gt_boxes)
        if gt_corners is None:
            return
        result = build_result(boxes, scores, rank_p, suit_p, min_conf=min_conf)
        truth = {c["card"]: c["zone"] for c in gt_corners}
        aside = {c["card"] for c in result["cards"] if c["card"] not in truth and partly_seen(c, partial)}
        self.partly_seen += len(aside)
        found = {c["card"]: c["zone"] for c in result["cards"] if c["card"] not in aside}
        tp = len(set(truth) & set(found))
        self.tp += tp
        self.fp += len(set(found) - set(truth))
        self.fn += len(set(truth) - set(found))
        self.per_image.append((tp / len(truth) if truth else 1.0, tp / len(found) if found else 1.0))
        big = {c["card"] for c in gt_corners
               if max(c["box"][2] - c["box"][0], c["box"][3] - c["box"][1]) >= READABLE}
        self.readable += len(big)
        self.readable_found += len(big & set(found))
        for code in set(truth) & set(found):
            self.zone_n += 1
            self.zone_ok += truth[code] == found[code]
        if len(rank_p):
            probs = card_probabilities(rank_p, suit_p)
            for i, j in pairs.items():
                guess = "none" if rank_p[i, -1] > 0.5 else CODES[int(np.argmax(probs[i]))]
                want = gt_corners[j]["card"]
                self.corners_matched += 1
                self.corners_right += guess == want
                if guess != want:
                    self.confusions[(want, guess)] += 1

    def report(self) -> dict:
        conf = self.confusions

        def count(pred):
            return sum(n for (w, g), n in conf.items() if g != "none" and pred(w, g))

        rep = {"images": len(self.per_image) or None,
               "corner_mAP50": round(average_precision(self.ap_records, self.n_gt), 4),
               "corners_labelled": self.n_gt}
        if self.per_image:
            arr = np.array(self.per_image)
            rep.update({
                "card_recall": round(self.tp / max(1, self.tp + self.fn), 4),
                "card_precision": round(self.tp / max(1, self.tp + self.fp), 4),
                f"card_recall_index_at_least_{READABLE}px": round(self.readable_found / max(1, self.readable), 4),
                "mean_image_recall": round(float(arr[:, 0].mean()), 4),
                "mean_image_precision": round(float(arr[:, 1].mean()), 4),
                "cards_true": self.tp, "cards_false": self.fp, "cards_missed": self.fn,
                "cards_partly_seen": self.partly_seen,
                "zone_accuracy": round(self.zone_ok / max(1, self.zone_n), 4),
                "corner_classification_accuracy": round(self.corners_right / max(1, self.corners_matched), 4),
                "confusions": {
                    "A_vs_4": count(lambda w, g: {w[0], g[0]} == {"A", "4"}),
                    "6_vs_9": count(lambda w, g: {w[0], g[0]} == {"6", "9"}),
                    "spades_vs_clubs": count(lambda w, g: {w[1], g[1]} == {"S", "C"}),
                    "hearts_vs_diamonds": count(lambda w, g: {w[1], g[1]} == {"H", "D"}),
                    "called_not_an_index": sum(n for (w, g), n in conf.items() if g == "none"),
                    "top": [f"{w}->{g}: {n}" for (w, g), n in conf.most_common(12)],
                },
            })
        return rep


def _yolo_boxes(label_file: Path, w: int, h: int) -> np.ndarray:
    rows = [line.split() for line in label_file.read_text().splitlines() if line.strip()] if label_file.exists() else []
    out = []
    for r in rows:
        cx, cy, bw, bh = (float(v) for v in r[1:5])
        out.append([(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h])
    return np.array(out, np.float32).reshape(-1, 4)


def evaluate_folder(folder: Path, split: str | None, limit: int | None, det: CardDetector) -> dict:
    img_dir = folder / "images" / split if split and (folder / "images" / split).exists() else folder / "images"
    lbl_dir = folder / "labels" / split if split and (folder / "labels" / split).exists() else folder / "labels"
    meta_dir = folder / "meta" / split if split and (folder / "meta" / split).exists() else folder / "meta"
    tally = Tally()
    files = sorted(p for p in img_dir.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".bmp", ".webp"))
    for p in files[:limit]:
        img = cv2.imread(str(p))
        h, w = img.shape[:2]
        meta_file = meta_dir / (p.stem + ".json")
        corners = json.loads(meta_file.read_text())["corners"] if meta_file.exists() else None
        gt = (np.array([c["box"] for c in corners], np.float32).reshape(-1, 4) if corners is not None
              else _yolo_boxes(lbl_dir / (p.stem + ".txt"), w, h))
        tally.add(corners, gt, *det.corners(img), min_conf=det.bar(img))
    return tally.report()


def check_slant(slant: float) -> None:
    """A slant is the far edge's width over the near one's: 0.1-1 (1: upright)."""
    if not 0.1 <= slant <= 1.0:
        raise ValueError(f"slant must be within 0.1-1.0 (the far edge's width over the near one's), not {slant}")


def check_jpeg(quality: int | None) -> None:
    """A JPEG quality is 1-100 (None: the render as it is)."""
    if quality is not None and not 1 <= quality <= 100:
        raise ValueError(f"JPEG quality must be within 1-100, not {quality}")


def checked(convert, check):
    """An argparse type: the option's text converted, then checked; either one's ValueError
    becomes the usage error naming the option."""
    def parse(text: str):
        try:
            value = convert(text)
            check(value)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return value
    return parse


def as_jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """``img`` after a round trip through JPEG at ``quality`` (as a browser sends a camera frame)."""
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def rendered_scenes(n: int, designs=None, seed: int = EVAL_SEED_BASE, scale: float = 1.0,
                    wider: float = 1.0, damage: str | None = None, turn: int = 0, slant: float = 1.0,
                    jpeg: int | None = None):
    """Yields (image, labelled corners, their boxes, corners partly seen) of ``n`` rendered scenes
    of ``designs`` (the held-out ones by default). ``scale`` > 1 renders the same scenes with more
    pixels, as a phone photo has them; ``wider`` > 1 puts each in a frame that many times wider
    and taller (the camera farther back); ``damage`` adds one of
    vision.synth.effects.PHOTO_DAMAGE (or a coloured light of COLOUR_CASTS) on top; ``turn`` (90 or
    270 degrees clockwise) turns the whole image a quarter, as a hand photographed from the side;
    ``slant`` < 1 warps it as if photographed at a slant, its top edge that many times as wide as
    its bottom one (vision.synth.scene.slanted); ``jpeg`` saves it as JPEG at that quality and
    reads it back, as the live page sends its camera frames."""
    from .synth.artwork import HELD_OUT
    from .synth.effects import photo_damage
    from .synth.scene import MIN_VISIBLE, in_wider_frame, quarter_turned, render_scene, slanted

    if turn not in (0, 90, 270):
        raise ValueError(f"turn must be 0, 90 or 270 degrees, not {turn}")
    check_slant(slant)
    check_jpeg(jpeg)
    for k in range(n):
        img, every = render_scene(seed + k, list(designs or HELD_OUT), scale=scale, min_visible=0.0)
        if damage:
            img = photo_damage(damage, img, scale, seed + k)
        if wider != 1.0:
            img, every = in_wider_frame(img, every, seed + k, wider)
        if slant < 1.0:
            img, every = slanted(img, every, slant)
        if turn:
            img, every = quarter_turned(img, every, clockwise=turn == 90)
        if jpeg is not None:
            img = as_jpeg(img, jpeg)
        corners = [c.as_dict() for c in every if c.visible >= MIN_VISIBLE]
        partial = [c.as_dict() for c in every if c.visible < MIN_VISIBLE]
        yield img, corners, np.array([c["box"] for c in corners], np.float32).reshape(-1, 4), partial


def evaluate_rendered(n: int, det: CardDetector, designs=None, seed: int = EVAL_SEED_BASE,
                      scale: float = 1.0, wider: float = 1.0, damage: str | None = None, turn: int = 0,
                      slant: float = 1.0, jpeg: int | None = None) -> dict:
    """The scenes of :func:`rendered_scenes`, scanned at the detector's own bars."""
    tally = Tally()
    for img, corners, gt, partial in rendered_scenes(n, designs, seed, scale, wider, damage, turn, slant, jpeg):
        tally.add(corners, gt, *det.corners(img), min_conf=det.bar(img), partial=partial)
    return tally.report()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="evaluate the card detector")
    ap.add_argument("--folder", type=Path)
    ap.add_argument("--split", default="val")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--render", type=int, default=0, help="render this many held-out scenes")
    ap.add_argument("--seed", type=int, default=EVAL_SEED_BASE)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="render at this many times the 640-px scene size (2-6: phone-like photos)")
    ap.add_argument("--wider", type=float, default=1.0,
                    help="put each rendered scene in a frame this many times wider and taller")
    ap.add_argument("--damage", choices=PHOTO_CONDITIONS,
                    help="harder photos: defocused, dim (noise, strong JPEG) or shaken; or a coloured light;"
                         " or grey or sepia (a black-and-white or a toned photo)")
    ap.add_argument("--imgsz", type=int, default=None, help="detector input size")
    ap.add_argument("--no-zoom", action="store_true", help="no second, larger detector pass")
    ap.add_argument("--turn", type=int, choices=(0, 90, 270), default=0,
                    help="turn the rendered scenes a quarter clockwise (90) or counter-clockwise (270)")
    ap.add_argument("--slant", type=checked(float, check_slant), default=1.0,
                    help="photographed at a slant: the far (top) edge this many times as wide as the near one (0.1-1; 1: upright)")
    ap.add_argument("--jpeg", type=checked(int, check_jpeg), metavar="QUALITY",
                    help="save each render as JPEG at this quality (1-100) and scan what comes back, as the"
                         " live page sends its camera frames (quality 80)")
    ap.add_argument("--no-balance", action="store_true", help="no white balance from the card paper")
    ap.add_argument("--no-turn", action="store_true", help="never read an image a quarter turned")
    ap.add_argument("--json", type=Path, help="also write the report here")
    args = ap.parse_args(argv)
    det = CardDetector()
    if args.imgsz:
        det.detector.imgsz = args.imgsz
    if args.no_zoom:
        det.zoom = None
    if args.no_balance:
        det.balance = False
    if args.no_turn:
        det.turn = False
    reports = {}
    if args.render:
        reports["rendered_held_out"] = evaluate_rendered(args.render, det, seed=args.seed,
                                                            scale=args.scale, wider=args.wider,
                                                            damage=args.damage, turn=args.turn,
                                                            slant=args.slant, jpeg=args.jpeg)
    if args.folder:
        reports[str(args.folder)] = evaluate_folder(args.folder, args.split, args.limit, det)
    if not reports:
        ap.error("give --render N and/or --folder DIR")
    text = json.dumps(reports, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
