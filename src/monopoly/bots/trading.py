"""Trades judged by value: what a trade is worth to each side, and offers that complete
a set with the gain split evenly.

Both sides are valued with the same :class:`Valuation` (the judging player's), so an
offer built by :func:`set_offers` gives the partner exactly as much as the proposer gains
(by the proposer's reckoning): a player that accepts only trades where it gains at least
as much as the other side accepts it, and nothing lopsided.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from monopoly.core.actions import SEATS, ProposeTrade
from monopoly.core.memo import remember
from monopoly.core.tables import Tables
from monopoly.core.view import PlayerView, ReadOnly

from .valuation import TRADES_KEPT, Valuation, count_active

JAIL_CARD_VALUE: Final = 30
MORTGAGE_FEE_SHARE: Final = 0.05
"""The 10 % fee on a received mortgaged deed, as a share of its price."""
STATES_PER_TERMS: Final = 64
"""Remembered states (valuations) per trade before its memo starts afresh."""


NOBODY: Final = -2
"""No holder seen yet (seats count from 0, the Bank is -1)."""

Candidate = tuple[int, tuple[int, ...]]
"""A group a trade could complete: (the partner, the streets we lack), see
:func:`set_candidates`."""

Terms = tuple[
    int, int, tuple[int, ...], int, tuple[str, ...], tuple[int, ...], int, tuple[str, ...]
]
"""A trade's fields in :class:`ProposeTrade` order (seat, partner, give, give_cash,
give_cards, take, take_cash, take_cards): what the players weigh before (and without)
making the offer, and with no cash in it the memo's key (hashing an offer would run
Python code)."""


def terms_of(offer: ProposeTrade) -> Terms:
    """The offer's terms without its cash (see :func:`terms_gains`)."""
    return (
        offer.seat,
        offer.partner,
        offer.give,
        0,
        offer.give_cards,
        offer.take,
        0,
        offer.take_cards,
    )


def offer_gains(valuation: Valuation, view: PlayerView, offer: ProposeTrade) -> tuple[float, float]:
    """(proposer's gain, partner's gain) in money, by ``valuation``."""
    return terms_gains(valuation, view, terms_of(offer), offer.take_cash - offer.give_cash)


SPACE_STATES: Final = 2 * (len(SEATS) + 2)
"""The states of one space in a :func:`state_code`: its holder plus one (0 for the Bank,
up to 8 for the last of 8 seats and 9 for the last standing of :func:`_valued_alike`),
times mortgaged or not."""


Valued = tuple[tuple[float, float], float, float, int, float, float]
"""A trade's gains without cash, and what they are made of: (the gains, the proposer's
and the partner's change in value, the jail cards' value, the fees in and out)."""


def terms_gains(
    valuation: Valuation, view: PlayerView, terms: Terms, cash: int = 0
) -> tuple[float, float]:
    """:func:`offer_gains` of the offer with these terms (and no cash in them) and
    ``cash`` paid to the proposer (negative: paid by it).

    They depend only on the owners and mortgages of the groups the offer touches and on
    how many play on: the answer is remembered by that state, as one number (players
    weigh the same offers turn after turn and game after game in the states they come
    back to). Cash only shifts the gains: an offer's partner finds what its proposer
    worked out without the cash.
    """
    memo = valuation.gains_memo
    known = memo.get(terms)
    if known is None:
        touched = valuation.members_touched(terms[2], terms[5])
        known = remember(memo, terms, (touched, {}), TRADES_KEPT)
    touched, states = known
    state = state_code(view, touched)
    valued: Valued | None = states.get(state)
    if valued is None:
        valued = remember(
            states, state, _valued_alike(valuation, view, terms, touched), STATES_PER_TERMS
        )
    if not cash:
        return valued[0]
    _gains, mine, theirs, cards, fees_in, fees_out = valued
    return _shares(mine, theirs, cash, cards, fees_in, fees_out)


def state_code(
    view: PlayerView, touched: tuple[int, ...], standing: dict[int, int] | None = None
) -> int:
    """How many play on, and the holder and mortgage of each space ``touched``, as one
    number (a memo key): a digit of :data:`SPACE_STATES` per space. With ``standing``
    the holders are numbered by it, a seat not in it by its first deed here."""
    owner, mortgaged = view.owner, view.mortgaged
    code = count_active(view.active)
    for s in touched:
        holder = owner[s]
        if standing is not None:
            holder = standing.setdefault(holder, len(standing))
        code = code * SPACE_STATES + (holder + 1) * 2 + (1 if mortgaged[s] else 0)
    return code


def _valued_alike(
    valuation: Valuation, view: PlayerView, terms: Terms, touched: tuple[int, ...]
) -> Valued:
    """:func:`_valued`, or what the same trade between two other seats in the same
    standing was worth: a valuation tells seats apart only as the proposer, the partner
    and the others (numbered here by their first deed in the groups ``touched``)."""
    proposer, partner, give, _give_cash, give_cards, take, _take_cash, take_cards = terms
    if proposer == partner:  # no trade the rules allow: nothing alike to look for
        return _valued(valuation, view, terms)
    standing = state_code(view, touched, {proposer: 0, partner: 1, -1: -1})
    key = (give, give_cards, take, take_cards, standing)
    memo = valuation.alike_memo
    valued: Valued | None = memo.get(key)
    if valued is None:
        valued = remember(memo, key, _valued(valuation, view, terms), TRADES_KEPT)
    return valued


def _valued(valuation: Valuation, view: PlayerView, terms: Terms) -> Valued:
    """The :data:`Valued` of a trade with these terms, worked out."""
    proposer, partner, give, _give_cash, give_cards, take, _take_cash, take_cards = terms
    change = dict.fromkeys(give, partner)  # made in C
    for s in take:
        change[s] = proposer
    owner, mortgaged = view.owner, view.mortgaged
    opponents = max(1, count_active(view.active) - 1)
    cards = JAIL_CARD_VALUE * (len(take_cards) - len(give_cards))
    fees_in = _fees(valuation, mortgaged, take)
    fees_out = _fees(valuation, mortgaged, give) if give else 0  # 0: as the empty sum
    mine = valuation.change_value(proposer, owner, mortgaged, opponents, change)
    theirs = valuation.change_value(partner, owner, mortgaged, opponents, change)
    gains = _shares(mine, theirs, 0, cards, fees_in, fees_out)
    return gains, mine, theirs, cards, fees_in, fees_out


def _shares(
    mine: float, theirs: float, cash: int, cards: int, fees_in: float, fees_out: float
) -> tuple[float, float]:
    """The gains of the proposer and the partner (one sum, with or without cash)."""
    return mine + cash + cards - fees_in, theirs - cash - cards - fees_out


def _fees(valuation: Valuation, mortgaged: ReadOnly[bool], spaces: tuple[int, ...]) -> float:
    for space in spaces:
        if mortgaged[space]:  # rare: only then the sum (0 without one, as the empty sum)
            price = valuation.facts.tables.price
            return sum(MORTGAGE_FEE_SHARE * price[s] for s in spaces if mortgaged[s])
    return 0


def is_fair_for(
    valuation: Valuation, view: PlayerView, offer: ProposeTrade, tolerance: float = 2.0
) -> bool:
    """The partner's test: it gains something and at least as much as the proposer."""
    proposer_gain, partner_gain = offer_gains(valuation, view, offer)
    return partner_gain > 0 and partner_gain + tolerance >= proposer_gain


def set_offers(
    valuation: Valuation,
    view: PlayerView,
    seat: int,
    spare_cash: int,
    swaps: bool,
    share: Callable[[tuple[int, tuple[int, ...]]], float],
    candidates: Sequence[tuple[int, tuple[int, ...]]] | None = None,
) -> list[tuple[float, ProposeTrade]]:
    """Offers that complete one of ``seat``'s street groups, with ``seat``'s gain.

    For each group where every missing street belongs to one rival (and no street has a
    building), offer cash for them, or (with ``swaps``) one of our deeds with cash evening
    out the gains, whichever leaves us more. ``share(key)`` is the part of the joint
    gain we keep for the (partner, take) pair ``key`` (0.5: an even split; 0: skip it).
    ``candidates``: :func:`set_candidates` of the board now, if the caller has them.
    """
    if candidates is None:
        candidates = set_candidates(valuation, view, seat)
    offers: list[tuple[float, ProposeTrade]] = []
    for candidate in candidates:
        keep = share(candidate)  # the candidate is the (partner, take) pair
        partner, missing = candidate
        if keep <= 0:
            continue
        # Cash for the streets (inline: a search's most frequent step).
        terms: Terms = (seat, partner, (), 0, (), missing, 0, ())
        gain, pay = _split(valuation, view, terms, keep)
        offer = (
            None
            if gain <= 0 or pay <= 0 or pay > spare_cash
            else (gain, _proposal(seat, partner, (), pay, missing, 0))
        )
        if swaps:
            swap = _swap_offer(valuation, view, seat, partner, missing, spare_cash, keep)
            if swap is not None and (offer is None or swap[0] > offer[0]):
                offer = swap
        if offer is not None:
            offers.append(offer)
    if len(offers) > 1:
        offers.sort(key=lambda pair: -pair[0])
    return offers


def set_candidates(valuation: Valuation, view: PlayerView, seat: int) -> list[Candidate]:
    """(partner, missing streets) for every street group, in board order, whose streets
    ``seat`` lacks all belong to one rival and that has no building: the groups a trade
    could complete. Only owners and buildings matter, so callers can keep the list
    until ``deeds_version`` or ``buildings_version`` grows."""
    tables = valuation.facts.tables
    return unbuilt(tables, view.level, trade_groups(tables, view.owner, seat))


def trade_groups(tables: Tables, owner: ReadOnly[int], seat: int) -> list[Candidate]:
    """(partner, missing streets) for every street group, in board order, where ``seat``
    holds a street and the streets it lacks all belong to one rival (none unowned):
    :func:`set_candidates` before its test for buildings. ``owner``: the holder of each
    space."""
    found = []
    for members in tables.street_members:
        rival = NOBODY
        mine = False
        for s in members:
            holder = owner[s]
            if holder == seat:
                mine = True
            elif holder != rival:
                if rival != NOBODY or holder < 0:
                    break  # an unowned street, or a second rival
                rival = holder
        else:
            if mine and rival >= 0:
                found.append((rival, tuple([s for s in members if owner[s] != seat])))
    return found


def unbuilt(tables: Tables, level: ReadOnly[int], candidates: list[Candidate]) -> list[Candidate]:
    """The ``candidates`` whose group has no building (a group with buildings is not
    traded)."""
    kept = []
    for candidate in candidates:
        for s in tables.members[candidate[1][0]]:
            if level[s]:
                break
        else:
            kept.append(candidate)
    return kept


def _split(valuation: Valuation, view: PlayerView, terms: Terms, keep: float) -> tuple[float, int]:
    """(our gain after the split, cash we pay: negative when we receive it) when we keep
    the share ``keep`` of the joint gain of a trade with ``terms`` (and no cash)."""
    mine, theirs = terms_gains(valuation, view, terms)
    pay = math.ceil(mine - keep * (mine + theirs))
    return mine - pay, pay


_PROPOSALS: Final[
    dict[tuple[int, int, tuple[int, ...], int, tuple[int, ...], int], ProposeTrade]
] = {}
"""The offers made so far, by their terms (none with cards)."""


def _proposal(
    seat: int,
    partner: int,
    give: tuple[int, ...],
    give_cash: int,
    take: tuple[int, ...],
    take_cash: int,
) -> ProposeTrade:
    """The offer with these terms, made once: an offer is an immutable value, and a frozen
    dataclass is dear to make (its ``__init__`` runs in Python even when compiled)."""
    key = (seat, partner, give, give_cash, take, take_cash)
    made = _PROPOSALS.get(key)
    if made is None:
        made = remember(
            _PROPOSALS,
            key,
            ProposeTrade(
                seat, partner, give=give, give_cash=give_cash, take=take, take_cash=take_cash
            ),
            10_000,
        )
    return made


def _swap_offer(
    valuation: Valuation,
    view: PlayerView,
    seat: int,
    partner: int,
    take: tuple[int, ...],
    spare_cash: int,
    keep: float,
) -> tuple[float, ProposeTrade] | None:
    facts = valuation.facts
    owner, level = view.owner, view.level
    taken_group = facts.tables.group_of[take[0]]
    best: tuple[float, ProposeTrade] | None = None
    for give in facts.tables.properties:
        if owner[give] != seat or facts.tables.group_of[give] == taken_group:
            continue
        group = facts.tables.groups[facts.tables.group_of[give]]
        if partner not in [owner[s] for s in group] or any(level[s] for s in group):
            continue  # only deeds that add to the partner's holdings
        trial: Terms = (seat, partner, (give,), 0, (), take, 0, ())
        gain, pay = _split(valuation, view, trial, keep)
        if gain <= 0 or pay > spare_cash or -pay > view.cash[partner]:
            continue
        if best is None or gain > best[0]:
            best = (gain, _proposal(seat, partner, (give,), max(0, pay), take, max(0, -pay)))
    return best


def counter_offer(
    valuation: Valuation, view: PlayerView, offer: ProposeTrade, spare_cash: int
) -> ProposeTrade | None:
    """A counter-offer by the partner: the same exchange, or the same plus one more deed
    of the proposer's, with the cash set to split the joint gain evenly (by
    ``valuation``); the one that leaves the partner most. None if there is no gain to
    split or the cash is not there."""
    facts = valuation.facts
    me, proposer = offer.partner, offer.seat
    owner, level = view.owner, view.level
    extras: list[tuple[int, ...]] = [()]
    for space in facts.tables.properties:
        if owner[space] != proposer or space in offer.give:
            continue
        if not any(level[s] for s in facts.tables.groups[facts.tables.group_of[space]]):
            extras.append((space,))
    best: tuple[float, ProposeTrade] | None = None
    for extra in extras:
        exchange = ProposeTrade(
            me,
            proposer,
            give=offer.take,
            give_cards=offer.take_cards,
            take=offer.give + extra,
            take_cards=offer.give_cards,
        )
        if not (exchange.give or exchange.take):
            continue
        gain, pay = _split(valuation, view, terms_of(exchange), 0.5)
        if gain <= 0 or pay > spare_cash or -pay > view.cash[proposer]:
            continue
        if best is None or gain > best[0]:
            best = (gain, _with_cash(exchange, pay))
    return best[1] if best is not None else None


def _with_cash(exchange: ProposeTrade, pay: int) -> ProposeTrade:
    return ProposeTrade(
        exchange.seat,
        exchange.partner,
        give=exchange.give,
        give_cash=max(0, pay),
        give_cards=exchange.give_cards,
        take=exchange.take,
        take_cash=max(0, -pay),
        take_cards=exchange.take_cards,
    )
