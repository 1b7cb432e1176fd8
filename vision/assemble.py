"""Turn classified corner detections into a list of cards: one entry per card, zones, warnings.

* Each detection votes for its most likely cards (rank probability x suit probability).
* A deck has no duplicates: detections are taken in order of confidence; a detection whose card
  is already taken is either that card's other corner (about a card's length away from the
  first one) or is moved to its next most likely free card, or dropped.
* Zones: which cards are held and which lie on the table, from where their indices are
  (:mod:`vision.zones`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from advisor.explain import decimal_commas

from .labels import RANK_CLASSES, SUIT_CLASSES
from .zones import assign_zones

CODES = [r + s for r in RANK_CLASSES[:-1] for s in SUIT_CLASSES]  # row-major over (rank, suit)


def card_probabilities(rank_p: np.ndarray, suit_p: np.ndarray) -> np.ndarray:
    """N x 52 probabilities of each corner's card, in the order of CODES: P(rank) x P(suit), the
    ranks that are an index only (the last rank class is "not an index")."""
    return (rank_p[:, :-1, None] * suit_p[:, None, :]).reshape(len(rank_p), -1)


SECOND_CORNER = (2.0, 16.0)  # distance range, in index sizes, between the two corners of a card
MIN_CONF = 0.525
# Photos (long side >= PHOTO_MIN_SIDE) read their corner patches from many more pixels, and the
# same confidence is right more often there: a lower bar finds more cards. 0.33 is the lowest
# with precision >= 0.995 over 300 held-out renders at 1280-2560 px and 360 harder ones
# (defocused, dim, shaken: vision.synth.effects.PHOTO_DAMAGE), a margin for real photos over the
# 0.99 goal; see models/MODEL_CARD.md.
PHOTO_MIN_CONF = 0.33
PHOTO_MIN_SIDE = 960
UNCERTAIN = 0.6
MAX_NONE = 0.5


@dataclass
class Card:
    code: str
    corners: list = field(default_factory=list)  # indices into the detections
    confs: list = field(default_factory=list)
    zone: str = "table"

    @property
    def confidence(self) -> float:
        return float(1.0 - np.prod([1.0 - c for c in self.confs]))


def _centre(b):
    return np.array([(b[0] + b[2]) / 2, (b[1] + b[3]) / 2])


def _size(b) -> float:
    return float(max(b[2] - b[0], b[3] - b[1], 1.0))


def _is_other_corner(boxes, card: Card, j: int) -> bool:
    if len(card.corners) >= 4:
        return False
    for i in card.corners:
        d = np.linalg.norm(_centre(boxes[i]) - _centre(boxes[j])) / ((_size(boxes[i]) + _size(boxes[j])) / 2)
        if not SECOND_CORNER[0] <= d <= SECOND_CORNER[1]:
            return False
    return True


def assign_cards(boxes, det_scores, rank_p, suit_p, min_conf: float = MIN_CONF) -> list[Card]:
    n = len(boxes)
    if n == 0:
        return []
    probs = card_probabilities(rank_p, suit_p)
    weight = np.sqrt(np.clip(det_scores, 0, 1))
    order = np.argsort(-(probs.max(1) * weight))
    taken: dict[str, Card] = {}
    for j in order:
        if rank_p[j, -1] > MAX_NONE:
            continue
        for rank_i, k in enumerate(np.argsort(-probs[j])[:3]):
            conf = float(probs[j, k] * weight[j])
            if conf < min_conf * (0.5 if rank_i == 0 else 1.0):
                break
            code = CODES[k]
            if code not in taken:
                taken[code] = Card(code, [int(j)], [conf])
                break
            if _is_other_corner(boxes, taken[code], j):
                taken[code].corners.append(int(j))
                taken[code].confs.append(conf)
                break
    return [c for c in taken.values() if c.confidence >= min_conf]


def card_box(boxes, card: Card) -> list[int]:
    b = np.array([boxes[j] for j in card.corners])
    return [int(round(b[:, 0].min())), int(round(b[:, 1].min())), int(round(b[:, 2].max())), int(round(b[:, 3].max()))]


def build_result(boxes, det_scores, rank_p, suit_p, min_conf: float = MIN_CONF,
                 black_and_white: bool = False) -> dict:
    """The scan's answer from its corners. ``black_and_white``: the image has no colour (or one
    tone), so where cards were read the answer says ``"black_and_white": true`` and warns about
    their suits."""
    cards = assign_cards(boxes, det_scores, rank_p, suit_p, min_conf)
    assign_zones(boxes, cards)
    out = [{"card": c.code, "confidence": round(c.confidence, 3), "box": card_box(boxes, c), "zone": c.zone}
           for c in cards]
    out.sort(key=lambda c: (c["zone"] != "hand", c["box"][0], c["box"][1]))
    hand = [c["card"] for c in out if c["zone"] == "hand"]
    grey = black_and_white and bool(out)  # suits read without their colours: say so
    result = {"cards": out, "hand": hand, "table": [c["card"] for c in out if c["zone"] == "table"],
              "warnings": scan_warnings(out, black_and_white=grey)}
    if grey:
        result["black_and_white"] = True
    return result


# What a scan warns about, per language (``piki scan --lang``, ``POST /v1/scan?lang=``).
WARNINGS: dict[str, dict[str, str]] = {
    "en": {
        "none": "no cards found: frame the cards so their corner indices are sharp and well lit",
        "uncertain": "{card} uncertain ({confidence}): re-shoot closer",
        "too_many": "{n} cards in the hand zone: a hand holds at most 13",
        "black_and_white": "a black-and-white (or one-tone) image: the suits are read from the pips' shapes"
                           " alone, less surely than with their colours, so check them, or send a colour photo",
    },
    "pl": {
        "none": "nie znaleziono kart: ustaw karty tak, żeby ich narożne oznaczenia były ostre i dobrze"
                " oświetlone",
        "uncertain": "{card} niepewna ({confidence}): zrób zdjęcie z bliska",
        "too_many": "kart w strefie ręki: {n}, a ręka ma najwyżej 13",
        "black_and_white": "obraz czarno-biały (albo w jednym odcieniu): kolory kart rozpoznano tylko po"
                           " kształcie symboli, mniej pewnie niż po barwie, więc je sprawdź albo wyślij zdjęcie"
                           " kolorowe",
    },
}


def warning_text(lang: str, key: str, **params) -> str:
    """One warning of the scan in ``lang`` (English for a language it lacks), its numbers as the
    language writes them."""
    return decimal_commas(lang, WARNINGS.get(lang, WARNINGS["en"])[key].format(**params))


def warnings_in(scan: dict, lang: str) -> list[str]:
    """A scan answer's warnings in ``lang``: the scan words them in English, another language's
    are built again from its cards (an answer with none, such as detections made elsewhere, keeps
    none)."""
    if lang == "en" or not scan.get("warnings"):
        return list(scan.get("warnings", []))
    return scan_warnings(scan.get("cards", []), lang, black_and_white=bool(scan.get("black_and_white")))


def scan_warnings(cards: list[dict], lang: str = "en", black_and_white: bool = False) -> list[str]:
    """The warnings of a scan whose cards are ``cards`` (as in its answer): a black-and-white image
    (the scan's answer says ``"black_and_white": true``), no card found, a card read with a
    confidence under ``UNCERTAIN`` (naming it), more than 13 cards in the hand zone.

    >>> scan_warnings([{"card": "QH", "confidence": 0.45, "zone": "hand"}], "pl")
    ['QH niepewna (0,45): zrób zdjęcie z bliska']
    """
    warnings = [warning_text(lang, "black_and_white")] if black_and_white else []
    if not cards:
        warnings.append(warning_text(lang, "none"))
    for c in cards:
        if c["confidence"] < UNCERTAIN:
            warnings.append(warning_text(lang, "uncertain", card=c["card"], confidence=f"{c['confidence']:.2f}"))
    in_hand = sum(c["zone"] == "hand" for c in cards)
    if in_hand > 13:
        warnings.append(warning_text(lang, "too_many", n=in_hand))
    return warnings
