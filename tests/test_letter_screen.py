"""scripts/letter_screen.py: jacks and queens of W/D decks, counted against the real scan."""
from __future__ import annotations

import pytest

from script_loader import ROOT, load_script

pytest.importorskip("cv2")
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "corner_detector.onnx").exists(),
                                reason="card detector models not built")


def test_the_screen_counts_the_cards_shown_by_rank():
    from vision.scan import default_detector
    from vision.synth.procedural import polish_letters, procedural_name
    from vision.synth.scene import MIN_VISIBLE, render_scene

    screen = load_script("scripts/letter_screen.py").screen
    seeds = [s for s in range(50) if polish_letters(s)][:2]
    rows = screen(default_detector(), seeds, 2, 1.0, 700000)
    assert set(rows) == {"J", "Q", "K", "A", "2-10"}
    shown = set()
    for k in range(2):
        _, every = render_scene(700000 + k, [procedural_name(s) for s in seeds], min_visible=0.0)
        shown |= {(k, c.card) for c in every if c.visible >= MIN_VISIBLE}
    assert sum(p for p, _, _ in rows.values()) == len(shown)
    assert all(0 <= f <= p for p, f, _ in rows.values())

