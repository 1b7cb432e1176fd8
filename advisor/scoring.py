"""Scoring of one hand and the end of a game.

>>> from advisor.rules import Rules
>>> s = score_hand(Rules(), bids=(4, 4, 3, 0), tricks=(5, 4, 3, 1))
>>> s[0].hand_points, s[1].hand_points
(71, -59)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bids import BLIND_NIL, is_nil
from .cards import Team
from .rules import NilTricks, Rules, Tie


@dataclass(frozen=True)
class NilResult:
    seat: int
    blind: bool
    tricks: int
    made: bool
    points: int


@dataclass(frozen=True)
class TeamScore:
    team: Team
    contract: int  # sum of the non-nil bids
    counted_tricks: int  # tricks that count towards the contract
    made: bool | None  # None when the team has no contract (both nil)
    contract_points: int
    nils: tuple[NilResult, ...]
    new_bags: int
    bag_penalty: int
    hand_points: int
    points: int  # game total after this hand
    bags: int  # running bag count after this hand
    tricks: int = field(default=0)

    def to_json(self) -> dict:
        return {
            "hand_points": self.hand_points,
            "points": self.points,
            "bags": self.bags,
            "tricks": self.tricks,
            "contract": self.contract,
            "counted_tricks": self.counted_tricks,
            "made": self.made,
            "contract_points": self.contract_points,
            "new_bags": self.new_bags,
            "bag_penalty": self.bag_penalty,
            "nils": [
                {"seat": "NESW"[n.seat], "blind": n.blind, "tricks": n.tricks, "made": n.made,
                 "points": n.points}
                for n in self.nils
            ],
        }


def score_team(
    rules: Rules, team: Team, bids: tuple[int, ...], tricks: tuple[int, ...],
    points_before: int = 0, bags_before: int = 0,
) -> TeamScore:
    contract = 0
    counted = 0
    nil_bags = 0
    nils: list[NilResult] = []
    total_tricks = 0
    for seat in team.seats:
        bid, won = bids[seat], tricks[seat]
        total_tricks += won
        if not is_nil(bid):
            contract += bid
            counted += won
            continue
        blind = bid == BLIND_NIL
        value = rules.nil_stake(blind)
        made = won == 0
        nils.append(NilResult(seat, blind, won, made, value if made else -value))
        if rules.nil_tricks is NilTricks.PARTNER:
            counted += won
        elif rules.nil_tricks is NilTricks.BAGS:
            nil_bags += won
    if contract == 0:
        # Both partners bid nil: no contract; tricks that count for a partner become overtricks.
        made = None
        contract_points = counted
        overtricks = counted
    elif counted >= contract:
        made = True
        overtricks = counted - contract
        contract_points = 10 * contract + overtricks
    else:
        made = False
        overtricks = 0
        contract_points = -10 * contract
    new_bags = overtricks + nil_bags
    hand_points = contract_points + nil_bags + sum(n.points for n in nils)
    bags = bags_before + new_bags
    penalty = 0
    if rules.bags is not None and bags >= rules.bags.limit:
        # one penalty per full limit (a count from a record may be large: no loop per penalty)
        times, bags = divmod(bags, rules.bags.limit)
        penalty = times * rules.bags.penalty
    hand_points -= penalty
    return TeamScore(
        team=team, contract=contract, counted_tricks=counted, made=made,
        contract_points=contract_points, nils=tuple(nils), new_bags=new_bags,
        bag_penalty=penalty, hand_points=hand_points, points=points_before + hand_points,
        bags=bags, tricks=total_tricks,
    )


def score_hand(
    rules: Rules, bids: tuple[int, ...], tricks: tuple[int, ...],
    points_before: tuple[int, int] = (0, 0), bags_before: tuple[int, int] = (0, 0),
) -> tuple[TeamScore, TeamScore]:
    """Both teams' scores for a finished hand; ``bids`` and ``tricks`` are indexed by seat."""
    return (
        score_team(rules, Team.NS, bids, tricks, points_before[0], bags_before[0]),
        score_team(rules, Team.EW, bids, tricks, points_before[1], bags_before[1]),
    )


def game_result(rules: Rules, points: tuple[int, int]) -> tuple[bool, str | None]:
    """(game over, winner) after a hand with these totals; winner is NS, EW, draw or None."""
    ns, ew = points
    if not (rules.ends_game(ns) or rules.ends_game(ew)):
        return False, None
    if ns == ew:
        if rules.tie is Tie.DRAW:
            return True, "draw"
        return False, None  # play another hand
    return True, "NS" if ns > ew else "EW"


def blind_nil_allowed(rules: Rules, team: Team, points: tuple[int, int]) -> bool:
    """Whether a player of ``team`` may bid blind nil with these game totals."""
    if rules.blind_nil is None:
        return False
    return points[team.other] - points[team] >= rules.blind_nil.trailing_by
