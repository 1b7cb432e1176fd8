"""Which of the cards found are held in the hand and which lie on the table.

Only where the corner indices are and how large they look is known here (the cards' outlines
are not detected). Two views of that are combined:

* the linking rule: indices closer than ``LINK`` index sizes to each other, and of about the
  same size (a hand is held at one distance), are linked; a group of at least ``MIN_HAND``
  cards where few cards show both corners is a fan;
* a small network (``models/zone_model.json``, trained on rendered scenes by
  ``python -m vision.training.zones``) that weighs, for each card, the rule's group and what
  is around the card: how large its index is against the others, how many indices are near and
  how evenly spaced, whether its group is drawn out like a fan or heaped like a trick.

A card is in the hand when the network gives it a probability of at least one half. Without the
model file the rule decides alone.

>>> import numpy as np
>>> from vision.assemble import Card
>>> boxes = np.array([[100 + 30 * i, 400, 120 + 30 * i, 440] for i in range(8)], float)
>>> cards = [Card(f"{r}S", [i], [0.9]) for i, r in enumerate("23456789")]
>>> assign_zones(boxes, cards, model=None)
>>> {c.zone for c in cards}
{'hand'}
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# The linking rule (tuned on rendered scenes of the held-out designs, seeds 800000-800059).
LINK = 3.2
MIN_HAND = 4
# A group where at least this share of cards shows both corners is loose cards, not a fan.
BOTH_CORNERS_TABLE = 0.75
SIZE_RATIO = 1.35

ZONE_MODEL_FILE = "zone_model.json"

FEATURES = (
    "both_corners",  # the card shows two (or more) corner indices
    "log_size_vs_median",  # its index size against the median index of the scene
    "log_size_vs_largest",
    "rule_hand",  # the linking rule puts it in a fan
    "log_group_cards",  # cards in its linked group
    "group_both_share",  # share of the group's cards that show both corners
    "group_share",  # share of the scene's cards in its group
    "group_elongation",  # sd across / sd along the group's principal axis (a fan is drawn out)
    "group_spacing_cv",  # how uneven the gaps between neighbours in the group are
    "log_nearest",  # distance to the nearest other card's index, in index sizes
    "near_2",  # other cards' indices within 2 index sizes
    "near_3",
    "near_5",
    "near_size_spread",  # mean |log size ratio| to the indices within 5 sizes
    "log_scene_cards",
    "group_vs_largest_group",  # its group's cards against the largest group's (one hand a photo)
    "log_group_size_vs_largest",  # its group's median index size against the largest index
)


def _corners(boxes, cards):
    """Every corner of every card: (owning card, centre, size) as arrays."""
    idx = [j for c in cards for j in c.corners]
    owners = np.array([ci for ci, c in enumerate(cards) for _ in c.corners], int)
    b = np.asarray(boxes, float)[idx].reshape(-1, 4)
    centres = np.stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2], axis=1)
    sizes = np.maximum(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]), 1.0)
    return owners, centres, sizes


def link_groups(boxes, cards) -> list[int]:
    """For each card, the id of its group under the linking rule (a card's corners are joined
    through the card itself)."""
    owners, centres, sizes = _corners(boxes, cards)
    return _link(owners, sizes, _distances(centres), len(cards))


def _distances(centres: np.ndarray) -> np.ndarray:
    return np.linalg.norm(centres[:, None] - centres[None], axis=2)


def _link(owners: np.ndarray, sizes: np.ndarray, dist: np.ndarray, n: int) -> list[int]:
    """:func:`link_groups` from the corners' owners, sizes and distances."""
    lo, hi = np.minimum.outer(sizes, sizes), np.maximum.outer(sizes, sizes)
    # a hand is held at one distance: its indices look the same size
    linked = (hi <= SIZE_RATIO * lo) & (dist < LINK * np.add.outer(sizes, sizes) / 2)
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in zip(*np.nonzero(np.triu(linked, 1))):
        parent[find(owners[a])] = find(owners[b])
    return [find(ci) for ci in range(n)]


def _members(groups: list[int]) -> dict[int, list[int]]:
    """Group id -> its cards."""
    members: dict[int, list[int]] = {}
    for ci, g in enumerate(groups):
        members.setdefault(g, []).append(ci)
    return members


def rule_hand(cards, groups: list[int]) -> set[int]:
    """The cards the linking rule calls the hand."""
    hand = set()
    for group in _members(groups).values():
        # Cards lying apart show both corner indices; a fan hides all but one of each card's.
        both = sum(1 for ci in group if len(cards[ci].corners) >= 2)
        if len(group) >= MIN_HAND and both < BOTH_CORNERS_TABLE * len(group):
            hand |= set(group)
    return hand


def card_features(boxes, cards) -> np.ndarray:
    """len(cards) x len(FEATURES): what the zone model sees of each card."""
    n = len(cards)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    owners, pts, psize = _corners(boxes, cards)
    dist = _distances(pts)
    groups = _link(owners, psize, dist, n)
    hand = rule_hand(cards, groups)
    counts = np.bincount(owners, minlength=n)
    if counts.max() <= 2:  # the usual case: one or two corners a card, whose median is the mean
        sizes = np.bincount(owners, weights=psize, minlength=n) / counts
    else:
        sizes = np.array([float(np.median(psize[owners == ci])) for ci in range(n)])
    centres = [pts[owners == ci] for ci in range(n)]
    median, largest = float(np.median(sizes)), float(sizes.max())
    members = _members(groups)
    group_stats = {g: _group_stats(group, centres, sizes) for g, group in members.items()}
    group_size = {g: float(np.median(sizes[group])) for g, group in members.items()}
    largest_group = max(len(group) for group in members.values())
    both = np.array([len(c.corners) >= 2 for c in cards], float)
    out = np.zeros((n, len(FEATURES)))
    for ci in range(n):
        s = sizes[ci]
        others = owners != ci
        if others.any():
            d = dist[owners == ci][:, others].min(0) / s
            nearest = float(d.min())
            close = d < 5
            spread = float(np.mean(np.abs(np.log(psize[others][close] / s)))) if close.any() else 0.0
            near = [int(np.sum(d < r)) for r in (2, 3, 5)]
        else:
            nearest, spread, near = 50.0, 0.0, [0, 0, 0]
        g = groups[ci]
        group = members[g]
        elongation, spacing = group_stats[g]
        out[ci] = (
            both[ci],
            np.log(s / median),
            np.log(s / largest),
            float(ci in hand),
            np.log(len(group)),
            both[group].mean(),
            len(group) / n,
            elongation,
            spacing,
            np.log(min(nearest, 50.0)),
            *near,
            spread,
            np.log(n),
            len(group) / largest_group,
            np.log(group_size[g] / largest),
        )
    return out


def _group_stats(group: list[int], centres, sizes) -> tuple[float, float]:
    """(elongation, spacing cv) of a group's card centres (1, 0 for groups under three cards)."""
    if len(group) < 3:
        return 1.0, 0.0
    c = np.array([centres[k].mean(0) for k in group])
    c = c - c.mean(0)
    sv = np.linalg.svd(c, compute_uv=False)
    elongation = float(sv[1] / max(sv[0], 1e-6))
    d = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(d, np.inf)
    gaps = d.min(1) / sizes[group]
    spacing = float(gaps.std() / max(gaps.mean(), 1e-6))
    return elongation, spacing


@dataclass(frozen=True)
class ZoneModel:
    """A one-hidden-layer network: standardised features -> tanh -> P(the card is in the hand)."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    def hand_probability(self, x: np.ndarray) -> np.ndarray:
        h = np.tanh(((x - self.mean) / self.scale) @ self.w1 + self.b1)
        return 1.0 / (1.0 + np.exp(-(h @ self.w2 + self.b2)))

    def to_json(self) -> dict:
        return {"format": "piki-zone-model/1", "features": list(FEATURES),
                "mean": self.mean.tolist(), "scale": self.scale.tolist(), "w1": self.w1.tolist(),
                "b1": self.b1.tolist(), "w2": self.w2.tolist(), "b2": float(self.b2)}

    @classmethod
    def from_json(cls, d: dict) -> "ZoneModel":
        if d.get("format") != "piki-zone-model/1" or tuple(d.get("features", ())) != FEATURES:
            raise ValueError("zone model file does not match this version's features (retrain: "
                             "python -m vision.training.zones)")
        return cls(np.array(d["mean"]), np.array(d["scale"]), np.array(d["w1"]), np.array(d["b1"]),
                   np.array(d["w2"]), float(d["b2"]))


_UNSET = object()
_loaded: dict[str, ZoneModel | None] = {}


def default_model() -> ZoneModel | None:
    """The shipped zone model, or None when its file is not there (then the rule decides)."""
    from .runtime import MODELS_DIR

    path = Path(MODELS_DIR) / ZONE_MODEL_FILE
    key = str(path)
    if key not in _loaded:
        _loaded[key] = ZoneModel.from_json(json.loads(path.read_text())) if path.exists() else None
    return _loaded[key]


def assign_zones(boxes, cards, model=_UNSET) -> None:
    """Set each card's ``zone`` to "hand" or "table" (``model=None``: the linking rule alone)."""
    if not cards:
        return
    if model is _UNSET:
        model = default_model()
    if model is None:
        hand = rule_hand(cards, link_groups(np.asarray(boxes, float), cards))
        for ci, card in enumerate(cards):
            card.zone = "hand" if ci in hand else "table"
        return
    p = model.hand_probability(card_features(boxes, cards))
    for card, pi in zip(cards, p):
        card.zone = "hand" if pi >= 0.5 else "table"
