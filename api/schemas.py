"""Pydantic models of the request bodies (and the documented answers) of the HTTP API.

The hand record model is deliberately loose in its types (cards are strings in any accepted
notation, bids ints or ``"blind_nil"``): the record parser of :mod:`advisor.record` checks the
content and names the problem in its message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt

Bid = Union[StrictInt, str]


class HandRecordIn(BaseModel):
    """A ``piki-hand/1`` record (see CONTRACT.md); unknown fields are kept."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "format": "piki-hand/1", "rules": "piki", "dealer": "N",
        "score_before": {"NS": 120, "EW": -90}, "bags_before": {"NS": 3, "EW": 7},
        "hands": {"N": ["AS", "KH", "QH", "2C", "5D", "7D", "9S", "TS", "JC", "3H", "4H", "8C", "6S"]},
        "bids": {"N": 3, "E": 0, "S": 4, "W": 2},
        "plays": ["5D"],
    }]})

    format: str = Field("piki-hand/1", description='always "piki-hand/1"')
    rules: Union[str, dict[str, Any], None] = Field(
        None, description='a preset name ("piki", "pagat") or {"preset": ..., field: value}')
    dealer: str = Field(..., description="N, E, S or W")
    score_before: Optional[dict[str, StrictInt]] = Field(None, description='{"NS": 0, "EW": 0}')
    bags_before: Optional[dict[str, StrictInt]] = Field(None, description='{"NS": 0, "EW": 0}')
    hands: Optional[dict[str, Optional[Annotated[list[str], Field(max_length=52)]]]] = Field(
        None, max_length=8, description="known cards per seat; may be partial or missing")
    bids: Optional[dict[str, Optional[Bid]]] = Field(None, description='per seat: 0-13 or "blind_nil"')
    plays: Optional[list[str]] = Field(None, max_length=52, description="cards in the order played")
    seat: Optional[str] = None

    def record_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


class ErrorOut(BaseModel):
    detail: str = Field(..., description="what is wrong, in plain words")


class HealthOut(BaseModel):
    status: Literal["ok"]
    storage: str


class GameCreate(BaseModel):
    """A new live game. Only ``dealer`` is required."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "dealer": "N", "user_seat": "S", "rules": "piki",
        "score_before": {"NS": 0, "EW": 0}, "bags_before": {"NS": 0, "EW": 0},
        "hand": ["AS", "KS", "QH", "JH", "TD", "9D", "8C", "7C", "6S", "5H", "4D", "3C", "2S"],
    }]})

    dealer: str = Field(..., description="N, E, S or W: who deals (and bids first under piki rules)")
    rules: Union[str, dict[str, Any], None] = Field(None, description='preset name or rules object')
    user_seat: Optional[str] = Field(None, description="the seat of the person using the app")
    score_before: Optional[dict[str, StrictInt]] = None
    bags_before: Optional[dict[str, StrictInt]] = None
    hand: Optional[list[str]] = Field(None, max_length=13, description="the user's cards, when known")
    name: Optional[str] = Field(None, max_length=200)


class BidIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bid: Bid = Field(..., description='0-13 (0 = nil) or "blind_nil"')
    seat: Optional[str] = Field(None, description="who bids; checked against whose turn it is")


class PlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str = Field(..., description="e.g. QH, 10d, A♠")
    seat: Optional[str] = Field(None, description="who plays; checked against whose turn it is")


class HandIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[str] = Field(..., max_length=13)
    seat: Optional[str] = Field(None, description="default: the game's user_seat")


class NextHandIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: Optional[list[str]] = Field(None, max_length=13, description="the user's new hand, if known")


class AnswerIn(BaseModel):
    """The user's answer to a question raised by the camera tracker."""

    model_config = ConfigDict(extra="forbid")
    accept: bool = Field(..., description="true: record the play (card, or the question's only card)")
    card: Optional[str] = Field(None, description="the card to record when the question had several")


class DetectionIn(BaseModel):
    card: str
    zone: Literal["hand", "table"] = "table"
    confidence: float = Field(1.0, ge=0, le=1)
    box: Optional[list[float]] = Field(None, min_length=4, max_length=4)


class DetectionsIn(BaseModel):
    """Cards already detected in one frame (e.g. by a detector running on the client)."""

    model_config = ConfigDict(extra="forbid")
    cards: list[DetectionIn] = Field(..., max_length=200)
    width: Optional[int] = Field(None, ge=1, le=100000)
    height: Optional[int] = Field(None, ge=1, le=100000)
