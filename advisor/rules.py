"""The rules object: every variation of ``shared/RULES.md`` as one field, and the presets.

>>> r = Rules.from_spec({"preset": "piki", "win_at": 300})
>>> r.win_at, r.first, Rules.from_spec("pagat").blind_nil is None
(300, <FirstPlayer.DEALER: 'dealer'>, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any


class FirstPlayer(str, Enum):
    DEALER = "dealer"
    LEFT_OF_DEALER = "left_of_dealer"


class NilTricks(str, Enum):
    BAGS = "bags"  # a nil bidder's tricks are bags of the team
    PARTNER = "partner"  # they count towards the partner's contract
    LOST = "lost"  # they count for nothing


class Tie(str, Enum):
    DRAW = "draw"
    PLAY_ON = "play_on"


@dataclass(frozen=True)
class BlindNil:
    trailing_by: int = 200
    value: int = 200


@dataclass(frozen=True)
class BagRule:
    limit: int = 10
    penalty: int = 100


@dataclass(frozen=True)
class Rules:
    preset: str = "piki"
    first: FirstPlayer = FirstPlayer.DEALER
    allspade_lead_breaks: bool = False
    nil_tricks: NilTricks = NilTricks.BAGS
    nil_value: int = 100
    blind_nil: BlindNil | None = BlindNil()
    bags: BagRule | None = BagRule()
    win_at: int = 500
    lose_at: int | None = -200
    tie: Tie = Tie.DRAW

    @classmethod
    def from_spec(cls, spec: Any) -> "Rules":
        """A preset name, or ``{"preset": name, field: value, …}``; raises RulesError."""
        if spec is None:
            return PRESETS["piki"]
        if isinstance(spec, str):
            if spec not in PRESETS:
                raise RulesError(f"unknown rules preset {spec!r} (known: {', '.join(PRESETS)})")
            return PRESETS[spec]
        if not isinstance(spec, dict):
            raise RulesError("rules must be a preset name or an object with 'preset' and overrides")
        base = cls.from_spec(spec.get("preset", "piki"))
        changes: dict[str, Any] = {}
        for key, value in spec.items():
            if key == "preset":
                continue
            if key not in _FIELD_PARSERS:
                raise RulesError(f"unknown rules field {key!r} (known: {', '.join(_FIELD_PARSERS)})")
            changes[key] = _FIELD_PARSERS[key](key, value)
        return replace(base, **changes)

    def ends_game(self, points):
        """Whether a team reaching ``points`` (a number or a numpy array) ends the game: the goal
        or the floor. A tie at the end is :attr:`tie`'s business, not this test's.

        >>> PRESETS["piki"].ends_game(500), PRESETS["piki"].ends_game(-200), PRESETS["piki"].ends_game(499)
        (True, True, False)
        """
        return score_ends_game(points, self.win_at, self.lose_at)

    def nil_stake(self, blind: bool) -> int:
        """What a nil wins if it makes and loses if it fails: a blind nil's own value where blind
        nils are played, else the nil value.

        >>> PRESETS["piki"].nil_stake(False), PRESETS["piki"].nil_stake(True)
        (100, 200)
        """
        return self.blind_nil.value if blind and self.blind_nil else self.nil_value

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for k, v in out.items():
            if isinstance(v, Enum):
                out[k] = v.value
        return out


def score_ends_game(points, win_at: int, lose_at: int | None):
    """:meth:`Rules.ends_game` for a bare goal and floor (a number or a numpy array of scores)."""
    reached = points >= win_at
    return reached if lose_at is None else reached | (points <= lose_at)


class RulesError(ValueError):
    """A rules object that cannot be understood."""


def _enum(enum_cls):
    def parse(key: str, value: Any):
        try:
            return enum_cls(value)
        except ValueError:
            allowed = ", ".join(repr(e.value) for e in enum_cls)
            raise RulesError(f"rules field {key!r} must be one of {allowed}, got {value!r}") from None
    return parse


# Points, targets and counts in a record or rules object stay within this many either way: far
# beyond any game, and small enough for the search's 64-bit arithmetic.
MAX_POINTS = 1_000_000


def _int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules field {key!r} must be an integer, got {value!r}")
    if abs(value) > MAX_POINTS:
        raise RulesError(f"rules field {key!r} must be between {-MAX_POINTS} and {MAX_POINTS}, got {value}")
    return value


def _optional_int(key: str, value: Any) -> int | None:
    return None if value is None else _int(key, value)


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"rules field {key!r} must be true or false, got {value!r}")
    return value


def _positive(key: str, value: Any) -> int:
    v = _int(key, value)
    if v <= 0:
        raise RulesError(f"rules field {key!r} must be positive, got {v}")
    return v


def _blind_nil(key: str, value: Any) -> BlindNil | None:
    if value is None or value is False:
        return None
    if not isinstance(value, dict) or set(value) - {"trailing_by", "value"}:
        raise RulesError("rules field 'blind_nil' must be null or {\"trailing_by\": N, \"value\": N}")
    d = BlindNil()
    return BlindNil(
        trailing_by=_int("blind_nil.trailing_by", value.get("trailing_by", d.trailing_by)),
        value=_int("blind_nil.value", value.get("value", d.value)),
    )


def _bags(key: str, value: Any) -> BagRule | None:
    if value is None or value is False:
        return None
    if not isinstance(value, dict) or set(value) - {"limit", "penalty"}:
        raise RulesError("rules field 'bags' must be null or {\"limit\": N, \"penalty\": N}")
    d = BagRule()
    return BagRule(
        limit=_positive("bags.limit", value.get("limit", d.limit)),
        penalty=_int("bags.penalty", value.get("penalty", d.penalty)),
    )


_FIELD_PARSERS = {
    "first": _enum(FirstPlayer),
    "allspade_lead_breaks": _bool,
    "nil_tricks": _enum(NilTricks),
    "nil_value": _int,
    "blind_nil": _blind_nil,
    "bags": _bags,
    "win_at": _int,
    "lose_at": _optional_int,
    "tie": _enum(Tie),
}

PRESETS: dict[str, Rules] = {
    "piki": Rules(),
    # pagat.com (John McLeod): left of dealer starts, an all-spade lead breaks spades,
    # no blind nil, no losing floor; the tie case is not covered there, so play on.
    "pagat": Rules(
        preset="pagat",
        first=FirstPlayer.LEFT_OF_DEALER,
        allspade_lead_breaks=True,
        blind_nil=None,
        lose_at=None,
        tie=Tie.PLAY_ON,
    ),
}
