"""An outside program as a bot: started once, kept running, one JSON line per decision.

For each decision the program gets the seat's ``piki-hand/1`` record (only its own hand, plus
``"seat"``) on one line of stdin and answers on one line of stdout with ``{"bid": 3}``,
``{"bid": "blind_nil"}`` or ``{"card": "QH"}``. An answer that is missing (after ``timeout``
seconds), malformed or illegal raises :class:`BotFailure`; the match forfeits that game. A
program that died, or whose answer came too late, is restarted for the next game.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading

from ..bids import BidParseError, bid_to_json, parse_bid
from ..cards import CardParseError, parse_card
from ..state import HandState, Phase
from ..view import seat_record
from .base import BotFailure


class OutsideBot:
    def __init__(self, command: str, timeout: float = 10.0, name: str | None = None) -> None:
        self.command = command
        self.timeout = timeout
        self.name = name or f"cmd:{command}"
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stale = False  # restart before the next game
        self.restarts = 0

    # ------------------------------------------------------------------ the process
    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1)
        except OSError as e:
            self.proc = None
            raise BotFailure(f"cannot start {self.command!r}: {e.strerror or e}") from None
        self._lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self._lines), daemon=True).start()
        self._stale = False

    @staticmethod
    def _read(proc: subprocess.Popen, lines: queue.Queue) -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)  # end of output: the program exited

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def new_game(self, seed) -> None:
        if self.proc is not None and (self._stale or not self.alive()):
            self.close(kill=True)  # it may still be busy with a question it did not answer
            self.restarts += 1
        if self.proc is None:
            try:
                self._start()
            except BotFailure:
                self._stale = True
                raise

    def close(self, kill: bool = False) -> None:
        """Close its input and let it exit (kill it after 2 s, or at once with ``kill``)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=0 if kill or self._stale else 2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    # ------------------------------------------------------------------ a decision
    def ask(self, line: str) -> str:
        if not self.alive():
            if self.proc is None:
                self._start()
            else:
                self._stale = True
                raise BotFailure(f"the program exited (status {self.proc.returncode})")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stale = True
            raise BotFailure("the program closed its input (it crashed or exited)") from None
        try:
            answer = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stale = True
            raise BotFailure(f"no answer within {self.timeout:g} s") from None
        if answer is None:
            self._stale = True
            self.proc.wait()
            raise BotFailure(
                f"the program exited (status {self.proc.returncode}) without answering")
        return answer

    def act(self, view: HandState) -> int:
        seat = view.to_act
        line = json.dumps(seat_record(view, seat).to_json(), ensure_ascii=False)
        answer = self.ask(line)
        return parse_answer(answer, view)


def parse_answer(answer: str, view: HandState) -> int:
    """The bid or card of an answer line; raises BotFailure naming what is wrong."""
    text = answer.strip()
    shown = text if len(text) <= 80 else text[:77] + "..."
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        raise BotFailure(f"answer is not JSON: {shown!r}") from None
    if not isinstance(obj, dict):
        raise BotFailure(f"answer is not a JSON object: {shown!r}")
    seat = view.to_act.name
    if view.phase is Phase.BIDDING:
        if "bid" not in obj:
            raise BotFailure(f"{seat} must bid, but the answer has no 'bid': {shown!r}")
        try:
            bid = parse_bid(obj["bid"])
        except BidParseError as e:
            raise BotFailure(f"{seat}: {e}") from None
        if bid not in view.legal_bids():
            raise BotFailure(f"{seat}: illegal bid {bid_to_json(bid)!r}")
        return bid
    if "card" not in obj:
        raise BotFailure(f"{seat} must play a card, but the answer has no 'card': {shown!r}")
    try:
        card = parse_card(obj["card"])
    except CardParseError as e:
        raise BotFailure(f"{seat}: {e}") from None
    if not view.legal_mask() >> card & 1:
        raise BotFailure(f"{seat}: illegal card {card}")
    return card
