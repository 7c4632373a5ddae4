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
    """The observation vector of ``view.seat`` (float32, ``OBS_SIZE`` long), made
    afresh; ``window``: the seat is in its out-of-turn window (see
    :mod:`monopoly.rl.driver`). The environments keep an :class:`Observer` per seat."""
    return Observer().observe(view, claim_turn, window)


SeatRow = tuple[int, int, int, int, int, int, int, int, int, int, int]
"""What a seat's slot shows: active, cash, net worth, jail turns, jail cards, Speed Die,
is current, is deciding, properties, buildings, position."""
SEATS_START = OBS_LAYOUT["seats"][0]
SPACES_START = OBS_LAYOUT["spaces"][0]
DECISION_START = OBS_LAYOUT["decision_kind"][0]
DECISION_SPACE_START = OBS_LAYOUT["decision_space"][0]
DECISION_SEAT_START = OBS_LAYOUT["decision_seat"][0]
NUMBERS_START = OBS_LAYOUT["decision_numbers"][0]
BUS_START = OBS_LAYOUT["bus_steps"][0]
GIVE_START = OBS_LAYOUT["trade_give"][0]
TAKE_START = OBS_LAYOUT["trade_take"][0]
GLOBALS_START = OBS_LAYOUT["globals"][0]
EXTRAS_START = OBS_LAYOUT["extras"][0]
KIND_SLOTS = {kind: slot for slot, kind in enumerate(ALL_KINDS)}
_UNWRITTEN: SeatRow = (-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
_OUT: SeatRow = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
_NOWHERE = -(2**40)
_BLANK: SeatRow = (1, _NOWHERE, _NOWHERE, -2, -1, -1, -1, -1, -1, -1, -1)
"""An active seat's row that differs in every number from any real one (position -1:
no position to clear): a slot just cleared is written in full against it."""


class Observer:
    """One seat's observation vector, brought up to date from what changed since the
    previous one: the numbers of a seat's slot that changed, the owner, buildings or
    mortgage of a space that changed, the entries of the decision that changed, the
    globals when one changed. Any game of the same board, seat and player count may
    follow any other: what is kept is compared with the game, never assumed. A test
    compares it with :func:`observe` over random games."""

    def __init__(self) -> None:
        self._out = np.zeros(OBS_SIZE, dtype=np.float32)
        self._board: object = None
        self._seat = -1
        self._players = 0
        self._hotel = 0
        self._rows: list[SeatRow] = []
        self._owner: list[int] = []
        self._level: list[int] = []
        self._mortgaged: list[bool] = []
        self._globals: list[float] = []
        self._decision: dict[int, float] = {}
        """The decision's entries written now (index → value, the others are 0)."""
        self._counts: list[int] = []
        self._buildings: list[int] = []
        self._holdings: list[int] = []
        """By seat: properties, buildings, and net worth less cash, as of the owners,
        buildings and mortgages last seen."""

    def observe(
        self, view: PlayerView, claim_turn: bool = False, window: bool = False
    ) -> np.ndarray:
        """The observation vector of ``view.seat`` now (a new array each time)."""
        if (
            view.board is not self._board
            or view.seat != self._seat
            or view.players != self._players
            or view.tables.hotel_level != self._hotel
        ):
            self._start(view)
        out = self._out
        self._spaces(view, out)
        self._seats(view, out)
        decision = _decision(view, claim_turn, window)
        if decision != self._decision:
            _write_changes(out, self._decision, decision)
            self._decision = decision
        globals_now = _globals(view)
        if globals_now != self._globals:
            out[GLOBALS_START : GLOBALS_START + len(globals_now)] = globals_now
            self._globals = globals_now
        return out.copy()

    def _start(self, view: PlayerView) -> None:
        """Forget everything: a new board, seat or player count."""
        self._board, self._seat, self._players = view.board, view.seat, view.players
        self._hotel = view.tables.hotel_level
        out = self._out
        out[:] = 0.0
        properties, prices = _board_columns(view)
        out[SPACES_START + properties * SPACE_FEATURES + 4 + MAX_SEATS] = prices
        for seat in range(view.players):
            out[SEATS_START + relative(view, seat) * SEAT_FEATURES] = 1.0  # present
        self._rows = [_UNWRITTEN] * view.players
        # The other spaces as they are (only properties are written); the properties as
        # written now: nobody's (-2, no seat: no slot to clear), a level of -1 (to be
        # written), not mortgaged (0).
        self._owner, self._level = view.owner.copy(), view.level.copy()
        self._mortgaged = view.mortgaged.copy()
        for space in view.board.properties:
            self._owner[space], self._level[space], self._mortgaged[space] = -2, -1, False
        self._globals = []
        self._decision = {}

    def _seats(self, view: PlayerView, out: np.ndarray) -> None:
        decision = view.decision
        deciding = decision.seat if decision is not None else -1
        current = view.current
        players = view.players
        counts, buildings, holdings = self._counts, self._buildings, self._holdings
        rows = self._rows
        for seat in range(players):
            row = _OUT
            if view.active[seat]:
                row = (
                    1,
                    view.cash[seat],
                    view.cash[seat] + holdings[seat],
                    view.jail_turns[seat],
                    len(view.jail_cards[seat]),
                    int(view.speed_active[seat]),
                    int(current == seat),
                    int(deciding == seat),
                    counts[seat],
                    buildings[seat],
                    view.position[seat],
                )
            if row != rows[seat]:
                base = SEATS_START + relative(view, seat) * SEAT_FEATURES
                _write_seat(out, base, row, rows[seat])
                rows[seat] = row

    def _spaces(self, view: PlayerView, out: np.ndarray) -> None:
        owner, level, mortgaged = view.owner, view.level, view.mortgaged
        known_owner, known_level, known_mortgaged = self._owner, self._level, self._mortgaged
        if owner == known_owner and level == known_level and mortgaged == known_mortgaged:
            return
        seat, players, hotel = view.seat, view.players, self._hotel
        for space in view.board.properties:
            base = SPACES_START + space * SPACE_FEATURES
            if owner[space] != known_owner[space]:
                if known_owner[space] != -2:  # -2: not written yet (all zeros)
                    out[base + _owner_slot(known_owner[space], seat, players)] = 0.0
                out[base + _owner_slot(owner[space], seat, players)] = 1.0
                known_owner[space] = owner[space]
            if level[space] != known_level[space]:
                out[base + 1 + MAX_SEATS] = level[space] / hotel
                out[base + 2 + MAX_SEATS] = float(level[space] == hotel)
                known_level[space] = level[space]
            if mortgaged[space] != known_mortgaged[space]:
                out[base + 3 + MAX_SEATS] = float(mortgaged[space])
                known_mortgaged[space] = mortgaged[space]
        self._count_holdings(view)

    def _count_holdings(self, view: PlayerView) -> None:
        """Each seat's properties and buildings, and its net worth less its cash (which
        R-SHORT-4's worth adds to deeds and buildings): they change with the spaces."""
        players = view.players
        counts = [0] * players
        buildings = [0] * players
        for space in view.board.properties:
            owner = view.owner[space]
            if owner >= 0:
                counts[owner] = counts[owner] + 1
                buildings[owner] = buildings[owner] + view.level[space]
        self._counts, self._buildings = counts, buildings
        self._holdings = [view.net_worth(seat) - view.cash[seat] for seat in range(players)]


def _owner_slot(owner: int, seat: int, players: int) -> int:
    """A space's owner one-hot slot: 0 the bank, 1 + the owner's relative seat."""
    return 0 if owner < 0 else 1 + (owner - seat) % players


def _write_seat(out: np.ndarray, base: int, row: SeatRow, before: SeatRow) -> None:
    """A seat's slot after ``present``: active, cash, net worth, in jail, failed jail
    rolls / 3, jail cards, Speed Die, is current, is deciding, properties / 28,
    buildings / 20, position one-hot; only the numbers that differ from ``before``,
    the row written last (the whole slot when the seat was not active in it)."""
    active, cash, worth, jail_turns, cards, speed, current, deciding, count, built, at = row
    if not active or before[0] != 1:
        out[base + 1 : base + SEAT_FEATURES] = 0.0
        if not active:
            return
        out[base + 1] = 1.0
        before = _BLANK
    if cash != before[1]:
        out[base + 2] = cash / MONEY_SCALE
    if worth != before[2]:
        out[base + 3] = worth / MONEY_SCALE
    if jail_turns != before[3]:
        out[base + 4] = float(jail_turns >= 0)
        out[base + 5] = max(jail_turns, 0) / 3.0
    if cards != before[4]:
        out[base + 6] = float(cards)
    if speed != before[5]:
        out[base + 7] = float(speed)
    if current != before[6]:
        out[base + 8] = float(current)
    if deciding != before[7]:
        out[base + 9] = float(deciding)
    if count != before[8]:
        out[base + 10] = count / 28.0
    if built != before[9]:
        out[base + 11] = built / 20.0
    if at != before[10]:
        if before[10] >= 0:
            out[base + 12 + before[10]] = 0.0
        out[base + 12 + at] = 1.0


def _write_changes(out: np.ndarray, before: dict[int, float], now: dict[int, float]) -> None:
    """Write the entries ``now`` where they differ from ``before`` (absent: 0)."""
    for index in before:
        if index not in now:
            out[index] = 0.0
    for index, value in now.items():
        if before.get(index) != value:
            out[index] = value


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


def _decision(view: PlayerView, claim_turn: bool, window: bool) -> dict[int, float]:
    """The entries of the decision slices (decision kind ... extras) that are not 0."""
    entries: dict[int, float] = {}
    if window:
        entries[EXTRAS_START + 4] = 1.0
    decision = view.decision
    if decision is None:
        entries[DECISION_START + len(ALL_KINDS)] = 1.0
        return entries
    kind = CLAIM_KIND if claim_turn else decision.kind
    entries[DECISION_START + KIND_SLOTS.get(kind, len(ALL_KINDS) - 1)] = 1.0
    if 0 <= decision.space < BOARD_SIZE:
        entries[DECISION_SPACE_START + decision.space] = 1.0
    entries[DECISION_SEAT_START + relative(view, decision.seat)] = 1.0
    numbers = NUMBERS_START
    if decision.kind == BID:
        running = decision.data
        low, _high = view.bid_range()
        _put(entries, numbers, running.high_bid / MONEY_SCALE)
        _put(entries, numbers + 1, low / MONEY_SCALE)
        _put(entries, numbers + 2, float(running.high_bidder == view.seat))
    elif decision.kind == RAISE_CASH:
        _put(entries, numbers + 3, decision.data.amount / MONEY_SCALE)
        _put(entries, numbers + 4, float(decision.data.creditor < 0))
    elif decision.kind == TRADE:
        offer = decision.data
        _put(entries, numbers + 5, offer.give_cash / MONEY_SCALE)
        _put(entries, numbers + 6, offer.take_cash / MONEY_SCALE)
        for space in offer.give:
            entries[GIVE_START + space] = 1.0
        for space in offer.take:
            entries[TAKE_START + space] = 1.0
        _put(entries, EXTRAS_START, float(len(offer.give_cards)))
        _put(entries, EXTRAS_START + 1, float(len(offer.take_cards)))
    elif decision.kind == WANT:
        _put(entries, numbers + 7, float(decision.data.hotel))
    elif decision.kind == BUS:
        for steps in decision.data:
            if 1 <= steps <= 12:
                entries[BUS_START + steps - 1] = 1.0
    _put(entries, EXTRAS_START + 2, view.free_parking_pot / MONEY_SCALE)
    owed = sum(c[3] for c in view.claims if c[0] == view.seat)
    _put(entries, EXTRAS_START + 3, owed / MONEY_SCALE)
    return entries


def _put(entries: dict[int, float], index: int, value: float) -> None:
    if value:
        entries[index] = value


def _globals(view: PlayerView) -> list[float]:
    """The globals slice: bank houses / 32, bank hotels / 12, doubles / 3, turn / 1000,
    round / 250, deck sizes / 16, players / 8, the rules' short game, Speed Die, Free
    Parking pot and rent claims."""
    rules = view.rules
    sizes = view.deck_sizes
    return [
        view.bank_houses / 32.0,
        view.bank_hotels / 12.0,
        view.doubles / 3.0,
        view.turn / 1000.0,
        view.round / 250.0,
        *(sizes.get(role, 0) / 16.0 for role in DECK_ROLES[:2]),
        view.players / MAX_SEATS,
        float(rules.short_game),
        float(rules.speed_die),
        float(rules.free_parking_pot),
        float(rules.rent_must_be_claimed),
    ]


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
        "cash": view.cash.copy(),
        "net_worth": [view.net_worth(s) if view.active[s] else 0 for s in range(view.players)],
        "position": view.position.copy(),
        "active": view.active.copy(),
        "jail_turns": view.jail_turns.copy(),
        "jail_cards": [list(cards) for cards in view.jail_cards],
        "speed_active": view.speed_active.copy(),
        "owner": view.owner.copy(),
        "level": view.level.copy(),
        "hotel_level": view.tables.hotel_level,
        "mortgaged": view.mortgaged.copy(),
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
