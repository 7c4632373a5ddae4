"""What an agent observes: a fixed-length numeric vector and the same facts as a dict.

Both are built from a :class:`~monopoly.core.view.PlayerView`, so nothing hidden from a
player leaks: not the order of the card decks, not the random generator. Seats are
*relative to the viewer*: slot 0 is always the observing seat, slot 1 the next seat in
play order, and so on, so one policy can play any seat. Money is divided by
``MONEY_SCALE`` (1000). The vector has ``OBS_SIZE`` floats in every edition, rule set
and player count (absent seats are zeros); ``OBS_LAYOUT`` names its slices:

======================  ============  ==================================================
slice                   length        contents
======================  ============  ==================================================
seats                   8 × 52        per relative seat: present, active, cash, net
                                      worth, position one-hot (40), in jail, failed jail
                                      rolls / 3, jail cards held, Speed Die active,
                                      is the current player, is deciding now,
                                      properties owned / 28, buildings / 20
spaces                  40 × 13       per space: owner one-hot (bank, 8 relative seats),
                                      buildings / hotel level, hotel, mortgaged,
                                      printed price / 400 (0 for non-properties)
decision                14 + 40 + 8   decision kind one-hot (13 kinds + none), its space
                                      one-hot, its seat (relative) one-hot
decision details        8 + 12 + 80   auction: high bid, lowest legal bid, high bidder
                        + 6           is me; debt: amount, creditor is bank; trade
                                      offer: cash given / taken; shortage: houses?;
                                      Bus step choices one-hot (12); trade offer spaces
                                      given (40) and taken (40) one-hot; cards given/
                                      taken, pot, rent claims for me, my out-of-turn
                                      window is open
globals                 12            bank houses / 32, bank hotels / 12, doubles
                                      rolled / 3, turn / 1000, round / 250, deck sizes
                                      / 16 (2), players / 8, short game, Speed Die,
                                      free-parking pot rule, claims rule
======================  ============  ==================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from monopoly.core.board import BOARD_SIZE, DECK_ROLES
from monopoly.core.state import (
    BID,
    BUS,
    BUY,
    JAIL,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    ROLL,
    TRADE,
    TRIPLES,
    WANT,
)
from monopoly.core.tables import Tables
from monopoly.core.view import PlayerView

from .catalogue import MAX_SEATS

MONEY_SCALE = 1000.0
OBS_HIGH = 1.0e6
"""An upper bound of every entry (all entries are 0 or more)."""
KINDS = (ROLL, JAIL, BUY, BID, RAISE_CASH, MORTGAGE_RECEIVED, TRADE, BUS, TRIPLES, WANT, PLACE)
CLAIM_KIND = "claim"
"""The environment's own decision: an owner may claim open rent (R-RENT-5 option)."""
ALL_KINDS = (*KINDS, CLAIM_KIND, "other")
SEAT_FEATURES = 12 + BOARD_SIZE
SPACE_FEATURES = 1 + MAX_SEATS + 4
OBS_LAYOUT: dict[str, tuple[int, int]] = {}
_offset = 0
for _name, _length in (
    ("seats", MAX_SEATS * SEAT_FEATURES),
    ("spaces", BOARD_SIZE * SPACE_FEATURES),
    ("decision_kind", len(ALL_KINDS) + 1),
    ("decision_space", BOARD_SIZE),
    ("decision_seat", MAX_SEATS),
    ("decision_numbers", 8),
    ("bus_steps", 12),
    ("trade_give", BOARD_SIZE),
    ("trade_take", BOARD_SIZE),
    ("extras", 6),
    ("globals", 12),
):
    OBS_LAYOUT[_name] = (_offset, _length)
    _offset += _length
OBS_SIZE = _offset


def relative(view: PlayerView, seat: int) -> int:
    """Slot of ``seat`` as seen from the viewer (0 = the viewer)."""
    return (seat - view.seat) % view.players


def observe(view: PlayerView, claim_turn: bool = False, window: bool = False) -> np.ndarray:
    """The observation vector of ``view.seat`` (float32, ``OBS_SIZE`` long);
    ``window``: the seat is in its out-of-turn window (see :mod:`monopoly.rl.driver`)."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    _seats(view, out)
    _spaces(view, out)
    _decision(view, out, claim_turn)
    _globals(view, out)
    out[OBS_LAYOUT["extras"][0] + 4] = float(window)
    return out


def _seats(view: PlayerView, out: np.ndarray) -> None:
    start = OBS_LAYOUT["seats"][0]
    decision = view.decision
    counts = [0] * view.players
    buildings = [0] * view.players
    for s in view.board.properties:
        owner = view.owner[s]
        if owner >= 0:
            counts[owner] += 1
            buildings[owner] += view.level[s]
    for seat in range(view.players):
        base = start + relative(view, seat) * SEAT_FEATURES
        out[base] = 1.0
        out[base + 1] = float(view.active[seat])
        if not view.active[seat]:
            continue
        out[base + 2] = view.cash[seat] / MONEY_SCALE
        out[base + 3] = view.net_worth(seat) / MONEY_SCALE
        out[base + 4] = float(view.jail_turns[seat] >= 0)
        out[base + 5] = max(view.jail_turns[seat], 0) / 3.0
        out[base + 6] = float(len(view.jail_cards[seat]))
        out[base + 7] = float(view.speed_active[seat])
        out[base + 8] = float(view.current == seat)
        out[base + 9] = float(decision is not None and decision.seat == seat)
        out[base + 10] = counts[seat] / 28.0
        out[base + 11] = buildings[seat] / 20.0
        out[base + 12 + view.position[seat]] = 1.0


def _spaces(view: PlayerView, out: np.ndarray) -> None:
    properties, prices = _board_columns(view)
    base = OBS_LAYOUT["spaces"][0] + properties * SPACE_FEATURES
    owner = np.asarray(view.owner)[properties]
    slot = np.where(owner < 0, 0, 1 + (owner - view.seat) % view.players)
    out[base + slot] = 1.0
    level = np.asarray(view.level)[properties]
    hotel = view.tables.hotel_level
    out[base + 1 + MAX_SEATS] = level / hotel
    out[base + 2 + MAX_SEATS] = level == hotel
    out[base + 3 + MAX_SEATS] = np.asarray(view.mortgaged)[properties]
    out[base + 4 + MAX_SEATS] = prices


_COLUMNS: dict[Tables, tuple[np.ndarray, np.ndarray]] = {}


def _board_columns(view: PlayerView) -> tuple[np.ndarray, np.ndarray]:
    """The board's property spaces and their printed prices / 400, made once a board."""
    tables = view.tables
    held = _COLUMNS.get(tables)
    if held is None:
        spaces = tables.properties
        prices = [tables.price[s] / 400.0 for s in spaces]
        held = _COLUMNS[tables] = (np.array(spaces), np.array(prices, np.float32))
    return held


def _decision(view: PlayerView, out: np.ndarray, claim_turn: bool) -> None:
    decision = view.decision
    kind_start = OBS_LAYOUT["decision_kind"][0]
    if decision is None:
        out[kind_start + len(ALL_KINDS)] = 1.0
        return
    kind = CLAIM_KIND if claim_turn else decision.kind
    out[kind_start + (ALL_KINDS.index(kind) if kind in ALL_KINDS else len(ALL_KINDS) - 1)] = 1.0
    if 0 <= decision.space < BOARD_SIZE:
        out[OBS_LAYOUT["decision_space"][0] + decision.space] = 1.0
    out[OBS_LAYOUT["decision_seat"][0] + relative(view, decision.seat)] = 1.0
    numbers = OBS_LAYOUT["decision_numbers"][0]
    if decision.kind == BID:
        running = decision.data
        low, _high = view.bid_range()
        out[numbers] = running.high_bid / MONEY_SCALE
        out[numbers + 1] = low / MONEY_SCALE
        out[numbers + 2] = float(running.high_bidder == view.seat)
    elif decision.kind == RAISE_CASH:
        out[numbers + 3] = decision.data.amount / MONEY_SCALE
        out[numbers + 4] = float(decision.data.creditor < 0)
    elif decision.kind == TRADE:
        offer = decision.data
        out[numbers + 5] = offer.give_cash / MONEY_SCALE
        out[numbers + 6] = offer.take_cash / MONEY_SCALE
        for space in offer.give:
            out[OBS_LAYOUT["trade_give"][0] + space] = 1.0
        for space in offer.take:
            out[OBS_LAYOUT["trade_take"][0] + space] = 1.0
        extras = OBS_LAYOUT["extras"][0]
        out[extras] = len(offer.give_cards)
        out[extras + 1] = len(offer.take_cards)
    elif decision.kind == WANT:
        out[numbers + 7] = float(decision.data.hotel)
    elif decision.kind == BUS:
        for steps in decision.data:
            if 1 <= steps <= 12:
                out[OBS_LAYOUT["bus_steps"][0] + steps - 1] = 1.0
    extras = OBS_LAYOUT["extras"][0]
    out[extras + 2] = view.free_parking_pot / MONEY_SCALE
    out[extras + 3] = sum(c[3] for c in view.claims if c[0] == view.seat) / MONEY_SCALE


def _globals(view: PlayerView, out: np.ndarray) -> None:
    base = OBS_LAYOUT["globals"][0]
    rules = view.rules
    out[base] = view.bank_houses / 32.0
    out[base + 1] = view.bank_hotels / 12.0
    out[base + 2] = view.doubles / 3.0
    out[base + 3] = view.turn / 1000.0
    out[base + 4] = view.round / 250.0
    sizes = view.deck_sizes
    for i, role in enumerate(DECK_ROLES[:2]):
        out[base + 5 + i] = sizes.get(role, 0) / 16.0
    out[base + 7] = view.players / MAX_SEATS
    out[base + 8] = float(rules.short_game)
    out[base + 9] = float(rules.speed_die)
    out[base + 10] = float(rules.free_parking_pot)
    out[base + 11] = float(rules.rent_must_be_claimed)


def observe_dict(
    view: PlayerView, claim_turn: bool = False, window: bool = False
) -> dict[str, Any]:
    """The same facts as plain Python values, seats numbered absolutely (for people,
    logging and hand-written agents). Nothing hidden is included."""
    decision = view.decision
    pending: dict[str, Any] | None = None
    if decision is not None:
        pending = {
            "kind": CLAIM_KIND if claim_turn else decision.kind,
            "seat": decision.seat,
            "space": decision.space,
        }
        if decision.kind == BID:
            low, high = view.bid_range()
            pending.update(
                high_bid=decision.data.high_bid,
                high_bidder=decision.data.high_bidder,
                lowest_bid=low,
                highest_bid=high,
            )
        elif decision.kind == RAISE_CASH:
            pending.update(owed=decision.data.amount, creditor=decision.data.creditor)
        elif decision.kind == TRADE:
            pending["offer"] = decision.data.to_json()
        elif decision.kind == BUS:
            pending["steps"] = list(decision.data)
        elif decision.kind == BUY:
            pending["price"] = view.board.spaces[decision.space].price
    return {
        "seat": view.seat,
        "players": view.players,
        "edition": view.edition.key,
        "rules": view.rules.to_json(),
        "turn": view.turn,
        "round": view.round,
        "current": view.current,
        "cash": list(view.cash),
        "net_worth": [view.net_worth(s) if view.active[s] else 0 for s in range(view.players)],
        "position": list(view.position),
        "active": list(view.active),
        "jail_turns": list(view.jail_turns),
        "jail_cards": [list(cards) for cards in view.jail_cards],
        "speed_active": list(view.speed_active),
        "owner": list(view.owner),
        "level": list(view.level),
        "hotel_level": view.tables.hotel_level,
        "mortgaged": list(view.mortgaged),
        "bank_houses": view.bank_houses,
        "bank_hotels": view.bank_hotels,
        "deck_sizes": view.deck_sizes,
        "free_parking_pot": view.free_parking_pot,
        "claims": [list(c) for c in view.claims],
        "decision": pending,
        "out_of_turn_window": window,
        "over": view.over,
        "winners": list(view.winners),
    }
