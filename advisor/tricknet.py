"""A small neural network that estimates a partnership's double-dummy tricks from its 26 cards.

The bid search values every bid over a few hundred sampled deals but can solve only a few of
them exactly (:mod:`advisor.bidmodel`); the rest are valued by this estimate. Its input is which
of the two partners holds each card (2 x 52 bits, suits in the engine's order S H D C) and which
of them leads first (2 bits; both 0 when an opponent leads); two hidden layers of ReLU units;
one output, the expected tricks. Trained by ``scripts/fit_trick_net.py`` on double-dummy
results of random deals, the side suits permuted and the partners swapped (the tricks do not
depend on either); the weights are ``advisor/data/team_tricks.npz``.

>>> from advisor.cards import parse_card as c, cards_to_mask
>>> strong = cards_to_mask(c(x) for x in "AS KS QS JS AH KH AD KD 2C 3C 4C 5D 6D".split())
>>> weak = cards_to_mask(c(x) for x in "2S 3H 4H 5H 7H 8D 9D TD 5C 6C 7C 8C 9C".split())
>>> est = team_tricks(np.array([strong, weak], np.uint64), np.array([weak, weak], np.uint64))
>>> bool(est[0] > est[1] + 3)
True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

FEATURES = 106
WEIGHTS_FILE = Path(__file__).with_name("data") / "team_tricks.npz"
_BITS = np.arange(52, dtype=np.uint64)


def encode(a: np.ndarray, b: np.ndarray, a_leads: np.ndarray | None = None,
           b_leads: np.ndarray | None = None) -> np.ndarray:
    """n x FEATURES inputs for partnerships holding the 52-bit masks ``a[i]`` and ``b[i]``."""
    a = np.asarray(a, np.uint64).reshape(-1)
    b = np.asarray(b, np.uint64).reshape(-1)
    x = np.zeros((len(a), FEATURES), np.float32)
    x[:, :52] = (a[:, None] >> _BITS) & np.uint64(1)
    x[:, 52:104] = (b[:, None] >> _BITS) & np.uint64(1)
    if a_leads is not None:
        x[:, 104] = a_leads
    if b_leads is not None:
        x[:, 105] = b_leads
    return x


def forward(params: dict, x: np.ndarray) -> np.ndarray:
    """The network's estimate for each row of ``x`` (n,)."""
    h = np.maximum(x @ params["w1"] + params["b1"], 0.0)
    h = np.maximum(h @ params["w2"] + params["b2"], 0.0)
    return h @ params["w3"] + params["b3"]


@lru_cache(maxsize=1)
def shipped_params() -> dict:
    with np.load(WEIGHTS_FILE) as f:
        return {k: f[k].astype(np.float32) for k in f.files}


def team_tricks(a: np.ndarray, b: np.ndarray, a_leads: np.ndarray | None = None,
                b_leads: np.ndarray | None = None) -> np.ndarray:
    """Estimated double-dummy tricks (0..13) of each partnership (``a[i]``, ``b[i]``)."""
    out = forward(shipped_params(), encode(a, b, a_leads, b_leads))
    return np.clip(out.astype(np.float64), 0.0, 13.0)
