"""A tiny outside bot for ``piki match --vs-cmd``: it answers every record with the first legal
action, worked out with piki's own engine.

    piki match --a heuristic --vs-cmd "python advisor/bots/example_outside_bot.py"

It reads one ``piki-hand/1`` record per line (with ``"seat"``) and writes one answer per line:
``{"bid": 3}`` in the bidding (it bids 1, or the first legal bid), ``{"card": "QH"}`` in the play.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def answer(line: str) -> dict:
    from advisor.bids import bid_to_json
    from advisor.cards import sort_for_display
    from advisor.record import HandRecord, replay
    from advisor.state import Phase

    state = replay(HandRecord.from_text(line))
    if state.phase is Phase.BIDDING:
        bids = state.legal_bids()
        return {"bid": bid_to_json(1 if 1 in bids else bids[0])}
    return {"card": str(sort_for_display(state.legal_cards())[0])}


def main() -> int:
    root = str(Path(__file__).resolve().parents[2])  # run as a script from a checkout
    if root not in sys.path:
        sys.path.append(root)
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(answer(line)) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
