"""Duplicate matches between two bots.

A *deal set* is one seeded sequence of deals. It is played twice: side A sits N-S and side B
E-W, then the same deals (same dealers, same cards per seat) are played again with the sides
swapped, so luck in the cards cancels. Each game is played to its end by the rules (``win_at``,
``lose_at``, ties), score and bags carried from hand to hand, the dealer rotating; a game still
running after ``max_hands`` hands is decided on points (equal points: a draw).

Games are independent and run in parallel worker processes. The figures per side are summed over
all games (see :class:`SideTally`). An outside bot that fails (timeout, garbage, illegal action,
crash) forfeits that game: the other side wins it and the reason is listed.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from dataclasses import dataclass, field, fields
from typing import Any, Callable

from .bots import Bot, BotFailure, get_bot, start_game
from .cards import SEATS, Card, Seat, Team, cards_to_mask
from .rules import Rules
from .state import HandState, Phase, deal
from .view import full_record

SIDES = ("A", "B")


# ---------------------------------------------------------------------- configuration
@dataclass(frozen=True)
class BotSpec:
    """How to build one side's bot in a worker: a registry name with options, or a command."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    command: str | None = None
    timeout: float = 10.0

    @property
    def label(self) -> str:
        if self.command is not None:
            return f"cmd:{self.command}"
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return self.name + (f":{opts}" if opts else "")

    def build(self) -> Bot:
        if self.command is not None:
            from .bots.outside import OutsideBot
            return OutsideBot(self.command, timeout=self.timeout, name=self.label)
        return get_bot(self.name, **dict(self.options))


@dataclass(frozen=True)
class MatchConfig:
    a: BotSpec
    b: BotSpec
    deal_sets: int = 10
    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    max_hands: int = 40
    dd: bool = False  # bid error against double-dummy team tricks (needs advisor.solver)

    @property
    def games(self) -> int:
        return 2 * self.deal_sets


# ---------------------------------------------------------------------- deals
class DealSet:
    """The seeded deals of one deal set, made on demand in a fixed order."""

    def __init__(self, seed: int, index: int) -> None:
        self.rng = random.Random(f"piki-match:{seed}:{index}")
        self.first_dealer = Seat(self.rng.randrange(4))
        self.deals: list[dict[Seat, list[Card]]] = []

    def hand(self, i: int) -> tuple[Seat, dict[Seat, list[Card]]]:
        while len(self.deals) <= i:
            self.deals.append(deal(self.rng))
        return self.first_dealer.next(i), self.deals[i]


# ---------------------------------------------------------------------- figures
@dataclass
class SideTally:
    """Sums over games and hands for one side; :meth:`figures` turns them into rates."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0  # games this side lost by forfeit
    hands: int = 0
    points: int = 0
    contracts: int = 0  # hands with a contract (at least one non-nil bid)
    sets: int = 0
    nils: int = 0
    nils_made: int = 0
    blind_nils: int = 0
    blind_nils_made: int = 0
    bags: int = 0
    dd_hands: int = 0
    dd_error: int = 0

    def add(self, other: "SideTally") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def add_hand(self, score, dd_tricks: int | None) -> None:
        self.hands += 1
        self.points += score.hand_points
        self.bags += score.new_bags
        if score.contract > 0:
            self.contracts += 1
            self.sets += not score.made
            if dd_tricks is not None and not score.nils:
                self.dd_hands += 1
                self.dd_error += abs(score.contract - dd_tricks)
        for nil in score.nils:
            if nil.blind:
                self.blind_nils += 1
                self.blind_nils_made += nil.made
            else:
                self.nils += 1
                self.nils_made += nil.made

    def figures(self) -> dict[str, Any]:
        score = self.wins + 0.5 * self.draws
        lo, hi = wilson(score, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": _ratio(score, self.games),
            "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "hands": self.hands,
            "points_per_hand": _ratio(self.points, self.hands, 2),
            "set_rate": _ratio(self.sets, self.contracts),
            "nils": self.nils,
            "nil_made_rate": _ratio(self.nils_made, self.nils),
            "blind_nils": self.blind_nils,
            "blind_nils_made": self.blind_nils_made,
            "bags_per_hand": _ratio(self.bags, self.hands),
            "bid_error": _ratio(self.dd_error, self.dd_hands, 3),
            "bid_error_hands": self.dd_hands,
            "forfeits": self.forfeits,
        }


def _ratio(num: float, den: int, digits: int = 4) -> float | None:
    return None if den == 0 else round(num / den, digits)


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Forfeit:
    deal_set: int
    swapped: bool
    side: str
    bot: str
    hand: int
    seat: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"deal_set": self.deal_set, "game": 2 if self.swapped else 1, "side": self.side,
                "bot": self.bot, "hand": self.hand, "seat": self.seat, "reason": self.reason}


@dataclass
class GameResult:
    deal_set: int
    swapped: bool  # False: A sits N-S; True: A sits E-W
    winner: str  # "A", "B" or "draw"
    points: dict[str, int]
    hands: int
    capped: bool
    tally: dict[str, SideTally]
    forfeit: Forfeit | None = None
    deals_played: list[tuple[int, tuple[int, int, int, int]]] = field(default_factory=list)
    # each finished hand (numbered from 1, as in forfeits): its piki-hand/1 record, every hand
    # shown, and the N-S double-dummy tricks; for ``piki match --hands``, not in checkpoints
    hand_log: list[dict[str, Any]] = field(default_factory=list)


# ---------------------------------------------------------------------- one game
class _Forfeited(Exception):
    def __init__(self, seat: Seat, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason


def _side_of(team: Team, swapped: bool) -> str:
    return SIDES[int(team) ^ int(swapped)]


def _ask(bot: Bot, view: HandState, state: HandState) -> int:
    """The bot's action for the seat to act, checked against the full state."""
    seat = state.to_act
    try:
        action = bot.act(view.clone())
    except BotFailure as e:
        raise _Forfeited(seat, str(e)) from None
    except Exception as e:  # a bot's bug costs its game, not the match
        raise _Forfeited(seat, f"{type(e).__name__}: {e}") from None
    if state.phase is Phase.BIDDING:
        if isinstance(action, bool) or not isinstance(action, int) \
                or action not in state.legal_bids():
            raise _Forfeited(seat, f"illegal bid {action!r}")
        return int(action)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 52 \
            or not state.legal_mask() >> action & 1:
        raise _Forfeited(seat, f"illegal card {action!r}")
    return Card(action)


def play_hand(rules: Rules, dealer: Seat, hands: dict[Seat, list[Card]], points, bags,
              bot_of_seat: list[Bot]) -> HandState:
    """Play one hand; each seat's bot decides from its own view only."""
    state = HandState(rules, dealer, hands, points, bags)
    views = [HandState(rules, dealer, {s: hands[s]}, points, bags) for s in SEATS]
    while not state.is_done:
        seat = state.to_act
        action = _ask(bot_of_seat[seat], views[seat], state)
        state.apply(action)
        for v in views:
            v.apply(action)
    return state


def play_game(config: MatchConfig, deal_set: int, swapped: bool,
              bots: dict[str, Bot], dd: Callable | None = None) -> GameResult:
    deals = DealSet(config.seed, deal_set)
    tally = {side: SideTally(games=1) for side in SIDES}
    points, bags = (0, 0), (0, 0)
    winner: str | None = None
    forfeit = None
    capped = False
    played: list[tuple[int, tuple[int, int, int, int]]] = []
    hand_log: list[dict[str, Any]] = []
    hands = 0
    for i, side in enumerate(SIDES):
        try:
            start_game(bots[side], _bot_seed(config.seed, deal_set, swapped, i))
        except Exception as e:  # e.g. an outside program that cannot be started
            reason = str(e) if isinstance(e, BotFailure) else f"{type(e).__name__}: {e}"
            forfeit = Forfeit(deal_set, swapped, side, bots[side].name, 0, "-", reason)
            winner = SIDES[1 - i]
            tally[side].forfeits += 1
            break
    bot_of_seat = [bots[_side_of(s.team, swapped)] for s in SEATS]
    while forfeit is None:
        if hands >= config.max_hands:
            capped = True
            winner = "draw" if points[0] == points[1] else _side_of(
                Team.NS if points[0] > points[1] else Team.EW, swapped)
            break
        dealer, cards = deals.hand(hands)
        played.append((int(dealer), tuple(cards_to_mask(cards[s]) for s in SEATS)))
        try:
            state = play_hand(config.rules, dealer, cards, points, bags, bot_of_seat)
        except _Forfeited as f:
            side = _side_of(f.seat.team, swapped)
            forfeit = Forfeit(deal_set, swapped, side, bots[side].name, hands + 1, f.seat.name,
                              f.reason)
            winner = SIDES[1 - SIDES.index(side)]
            tally[side].forfeits += 1
            break
        hands += 1
        scores = state.score()
        dd_ns = dd(state, deal_set, hands - 1) if dd is not None else None
        hand_log.append({"deal_set": deal_set, "game": 2 if swapped else 1, "hand": hands,
                         "a_team": "EW" if swapped else "NS", "dd_ns": dd_ns,
                         "record": full_record(state).to_json()})
        for team in (Team.NS, Team.EW):
            dd_tricks = None if dd_ns is None else (dd_ns if team is Team.NS else 13 - dd_ns)
            tally[_side_of(team, swapped)].add_hand(scores[team], dd_tricks)
        points = (scores[0].points, scores[1].points)
        bags = (scores[0].bags, scores[1].bags)
        over, result = state.game_result()
        if over:
            winner = "draw" if result == "draw" else _side_of(Team[result], swapped)
            break
    for side in SIDES:
        t = tally[side]
        if winner == "draw":
            t.draws += 1
        elif winner == side:
            t.wins += 1
        else:
            t.losses += 1
    final = {_side_of(team, swapped): points[team] for team in (Team.NS, Team.EW)}
    return GameResult(deal_set, swapped, winner, final, hands, capped, tally, forfeit, played,
                      hand_log)


def _bot_seed(seed: int, deal_set: int, swapped: bool, side: int) -> int:
    return random.Random(f"piki-bot:{seed}:{deal_set}:{int(swapped)}:{side}").getrandbits(32)


# ---------------------------------------------------------------------- double dummy
class DoubleDummy:
    """N-S double-dummy tricks of a deal from the first lead, cached per deal."""

    def __init__(self, rules: Rules) -> None:
        from .solver import solve  # lazy: the solver is another module's job and may be missing
        self.solve = solve
        self.rules = rules
        self.cache: dict[tuple[int, int], int] = {}

    # A rare deal needs minutes of search; it is left out of the bid error instead.
    NODE_LIMIT = 60_000_000

    def __call__(self, state: HandState, deal_set: int, hand: int) -> int | None:
        key = (deal_set, hand)
        if key not in self.cache:
            hands = tuple(state.known[s] for s in SEATS)
            self.cache[key] = self.solve(hands, int(state.first), [], False,
                                         self.rules.allspade_lead_breaks, 0b0101, 0b0101,
                                         node_limit=self.NODE_LIMIT)
        return self.cache[key]


# ---------------------------------------------------------------------- workers
_worker_bots: dict[tuple[str, BotSpec], Bot] = {}
_worker_dd: dict[Rules, DoubleDummy] = {}


def _bots_for(config: MatchConfig) -> dict[str, Bot]:
    out = {}
    for side, spec in zip(SIDES, (config.a, config.b)):
        key = (side, spec)
        if key not in _worker_bots:
            _worker_bots[key] = spec.build()
        out[side] = _worker_bots[key]
    return out


def close_bots() -> None:
    """Stop the outside programs this process started."""
    for bot in list(_worker_bots.values()):
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    _worker_bots.clear()


def run_game(config: MatchConfig, deal_set: int, swapped: bool) -> GameResult:
    dd = None
    if config.dd:
        dd = _worker_dd.get(config.rules)
        if dd is None:
            dd = _worker_dd[config.rules] = DoubleDummy(config.rules)
    return play_game(config, deal_set, swapped, _bots_for(config), dd)


def _task(args: tuple[MatchConfig, int]) -> list[GameResult]:
    """Both games of a deal set, in one process so that they share the double-dummy cache."""
    config, deal_set = args
    return [run_game(config, deal_set, swapped) for swapped in (False, True)]


def _worker_init(threads: int) -> None:
    from multiprocessing.util import Finalize

    from .search import set_search_threads
    set_search_threads(threads)  # the jobs share the cores: no more solving threads than cores
    Finalize(None, close_bots, exitpriority=10)


# ---------------------------------------------------------------------- the match
@dataclass
class MatchResult:
    config: MatchConfig
    games: list[GameResult]
    seconds: float
    jobs: int

    def tally(self, side: str) -> SideTally:
        total = SideTally()
        for g in self.games:
            total.add(g.tally[side])
        return total

    @property
    def forfeits(self) -> list[Forfeit]:
        return [g.forfeit for g in self.games if g.forfeit is not None]

    def to_json(self) -> dict[str, Any]:
        cfg = self.config
        hands = sum(g.hands for g in self.games)
        out: dict[str, Any] = {
            "games": len(self.games),
            "deal_sets": cfg.deal_sets,
            "seed": cfg.seed,
            "rules": (cfg.rules.preset if cfg.rules == _preset(cfg.rules.preset)
                      else cfg.rules.to_json()),
            "max_hands": cfg.max_hands,
            "hands": hands,
            "capped_games": sum(g.capped for g in self.games),
            "seconds": round(self.seconds, 3),
            "games_per_second": _ratio(len(self.games), self.seconds or 1e-9, 3),
            "hands_per_second": _ratio(hands, self.seconds or 1e-9, 2),
            "jobs": self.jobs,
            "dd": cfg.dd,
        }
        for side, spec in zip(SIDES, (cfg.a, cfg.b)):
            out[side.lower()] = {"bot": spec.label, **self.tally(side).figures()}
        out["forfeits"] = [f.to_json() for f in self.forfeits]
        return out


def _preset(name: str) -> Rules | None:
    from .rules import PRESETS
    return PRESETS.get(name)


def run_match(config: MatchConfig, jobs: int = 1,
              progress: Callable[[int, int, float], None] | None = None,
              checkpoint=None,
              on_games: Callable[[list[GameResult]], None] | None = None) -> MatchResult:
    """Play every game of the match; ``progress(done, total, seconds)`` after each game.

    ``checkpoint`` (a :class:`~advisor.match_checkpoint.Checkpoint`): its finished deal sets are
    not played again, and each deal set finished here is added to it at once. ``on_games(pair)``
    is called with the two games of each deal set played here, as soon as they end."""
    skip = checkpoint.done_sets if checkpoint is not None else set()
    results: list[GameResult] = checkpoint.finished(config.deal_sets) if checkpoint is not None else []
    tasks = [(config, s) for s in range(config.deal_sets) if s not in skip]
    total = config.games
    jobs = max(1, min(jobs, len(tasks) or 1))
    if config.dd and tasks:
        DoubleDummy(config.rules)  # fail early, in this process, when the solver is missing
    start = time.perf_counter()

    def finished(pair: list[GameResult]) -> None:
        results.extend(pair)
        if checkpoint is not None:
            checkpoint.add(pair)
        if on_games is not None:
            on_games(pair)
        if progress:
            progress(len(results), total, time.perf_counter() - start)

    if jobs == 1:
        try:
            for t in tasks:
                finished(_task(t))
        finally:
            close_bots()
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        from .search import thread_share
        threads = thread_share(jobs)
        with ctx.Pool(jobs, initializer=_worker_init, initargs=(threads,)) as pool:
            for pair in pool.imap_unordered(_task, tasks, chunksize=1):
                finished(pair)
            pool.close()
            pool.join()
    results.sort(key=lambda g: (g.deal_set, g.swapped))
    before = checkpoint.seconds_before if checkpoint is not None else 0.0
    return MatchResult(config, results, before + time.perf_counter() - start, jobs)


__all__ = ["BotSpec", "MatchConfig", "DealSet", "SideTally", "GameResult", "Forfeit", "MatchResult",
           "play_game", "play_hand", "run_game", "run_match", "wilson"]
