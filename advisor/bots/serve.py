"""Any of piki's bots as an outside program, speaking the ``piki match --vs-cmd`` protocol.

    piki match --a pimc --vs-cmd "python -m advisor.bots.serve counter"
    python -m advisor.bots.serve heuristic < records.jsonl

It reads one ``piki-hand/1`` record per line (only the seat's own hand, and ``"seat"``), rebuilds
the seat's view from it alone, and answers with the named bot's ``{"bid": ...}`` or
``{"card": ...}``. So a bot played this way sees no more than an outside program does, and the
match of a bot against its served copy checks that the records carry everything a player needs.
A line that is not a record the seat can act on gets ``{"error": "..."}`` (a match scores that as
a forfeit); a bad bot name ends the program with one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import sys

from ..bids import bid_to_json
from ..record import HandRecord, replay
from ..state import IllegalEvent, Phase
from . import start_game


def answer(bot, line: str) -> dict:
    try:
        record = HandRecord.from_text(line)
        state = replay(record)
    except ValueError as e:  # RecordError, a card or bid that does not parse
        return {"error": f"not a piki-hand/1 record: {e}"}
    except IllegalEvent as e:
        return {"error": f"an illegal record: {e}"}
    if record.seat is not None and state.to_act != record.seat:
        return {"error": f"the record's seat is {record.seat.name}, but {state.to_act.name} is to act"}
    if not state.complete[state.to_act]:
        return {"error": f"{state.to_act.name} is to act, but the record does not give its 13 cards"}
    if not state.legal_actions():
        return {"error": f"{state.to_act.name} has nothing to do in this record: the hand is over"}
    try:
        action = bot.act(state)
    except Exception as e:  # one bad decision is a forfeit in the match, not a dead program
        return {"error": f"{getattr(bot, 'name', 'the bot')} could not decide: {type(e).__name__}: {e}"}
    if state.phase is Phase.BIDDING:
        return {"bid": bid_to_json(action)}
    return {"card": str(action)}


def main(argv: list[str] | None = None) -> int:
    from ..match_cli import parse_bot  # the same BOT[:key=value,...] names as piki match

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m advisor.bots.serve BOT[:key=value,...]", file=sys.stderr)
        return 2
    try:
        bot = parse_bot(argv[0]).build()
    except Exception as e:  # an unknown bot, a bad option (parse_bot's usage error)
        print(f"piki bot: {e}", file=sys.stderr)
        return 2
    start_game(bot, 0)
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(answer(bot, line)) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
