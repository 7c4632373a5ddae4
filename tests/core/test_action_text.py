"""Actions have a text form that parses back: ``Action.parse(str(action)) == action``."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from monopoly.core.actions import ACTION_TYPES, Action, Bid, ProposeTrade
from monopoly.core.board import DECK_ROLES
from monopoly.core.errors import MalformedActionError

NUMBERS = st.integers(min_value=-5, max_value=10_000)


def field_values(default: object) -> st.SearchStrategy[Any]:
    if isinstance(default, str):
        return st.sampled_from(DECK_ROLES)
    if isinstance(default, tuple):
        return st.lists(NUMBERS, max_size=4).map(tuple)
    return NUMBERS


@st.composite
def actions(draw: st.DrawFn) -> Action:
    cls = ACTION_TYPES[draw(st.sampled_from(sorted(ACTION_TYPES)))]
    values = {}
    for f in fields(cls):
        default = getattr(cls(seat=0), f.name)
        if f.name.endswith("cards"):
            values[f.name] = tuple(draw(st.lists(st.sampled_from(DECK_ROLES), max_size=2)))
        else:
            values[f.name] = draw(field_values(default))
    values["seat"] = draw(st.integers(min_value=0, max_value=7))
    action: Action = cls(**values)
    return action


@given(actions())
def test_the_text_form_parses_back(action: Action) -> None:
    assert Action.parse(str(action)) == action


def test_the_text_form_reads_as_a_player_would_write_it() -> None:
    assert str(Bid(1, 50)) == "seat 1: bid amount=50"
    offer = ProposeTrade(0, partner=2, take=(39,), give_cash=100)
    assert str(offer) == "seat 0: propose_trade partner=2 give_cash=100 take=39"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("roll", "starts with 'seat N:'"),
        ("seat 0: fly", "unknown action 'fly'"),
        ("seat 0: bid amount=lots", "not a whole number"),
        ("seat 0: bid price=5", "has no field"),
        ("seat 0: build spaces=1,x", "must list whole numbers"),
    ],
)
def test_bad_text_is_refused_with_a_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(MalformedActionError, match=fragment):
        Action.parse(text)
