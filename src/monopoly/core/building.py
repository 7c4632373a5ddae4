"""Houses and hotels: building evenly, selling evenly, the Bank's stock and shortages.

R-BUILD-1..7, R-SHORT-2. A street's ``level`` is its number of houses, or
``hotel_level`` (houses per hotel + 1) for a hotel, so even building is "levels differ
by at most one" with a hotel counting as one level above the last house.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Final

from . import auction, debt
from . import events as ev
from .actions import Action, Build, ChooseBreakdown, DeclareWant, PlaceBuilding, SellBuilding
from .board import BANK, BOARD_SIZE, SpaceKind
from .reasons import Reason, refuse
from .state import (
    BREAKDOWN,
    HOTEL_ITEM,
    HOUSE_ITEM,
    PLACE,
    WANT,
    BuildHeld,
    Decision,
    Placement,
    SettleShortage,
    Shortage,
)

if TYPE_CHECKING:
    from .game import Game

_STREET: Final = int(SpaceKind.STREET)


def build_problem(
    game: Game, seat: int, spaces: tuple[int, ...], placement: Placement | None = None
) -> Reason | None:
    """Why building one level on each of ``spaces`` (in order) is illegal, or "".

    With ``placement`` the building is one the Bank hands out in a shortage: already paid
    for at auction, or paid at the printed price by the sole remaining applicant.
    """
    if not spaces:
        return refuse(game, "no_street_named")
    free = placement is not None and not placement.printed_price
    if not free and debt.debt_of(game, seat) is not None:
        return refuse(game, "debtor_cannot_build")  # R-DEBT-3
    levels = game.level[:]  # as the request leaves them, space after space
    houses, hotels, cash = game.bank_houses, game.bank_hotels, game.cash[seat]
    hotel_level = game.tables.hotel_level
    per_hotel = hotel_level - 1
    settling = set() if placement is not None else _settling_kinds(game)
    owner, mortgaged = game.owner, game.mortgaged
    for space in spaces:
        # The street's own checks inline (each refusal in this order): this runs for
        # every building a player asks for, and a call per space was a large part of it.
        if not 0 <= space < BOARD_SIZE:
            return refuse(game, "no_space", number=space)
        if game.tables.kinds[space] != _STREET:
            return refuse(game, "not_a_street", space=space)
        if owner[space] != seat:
            return refuse(game, "not_yours", space=space)
        group = game.tables.members[space]
        for s in group:
            if owner[s] != seat:
                key = game.board.spaces[space].group
                return refuse(game, "need_whole_group", group=key, count=len(group))
        for s in group:
            if mortgaged[s]:
                return refuse(game, "group_mortgaged")
        level = levels[space]
        if level == hotel_level:
            return refuse(game, "has_hotel", space=space)
        for s in group:
            if level > levels[s]:
                return refuse(game, "build_evenly")
        if (level == per_hotel) in settling:
            return refuse(game, "shortage_sharing")
        if level == per_hotel:
            if hotels == 0:
                return refuse(game, "no_hotels_left")
            hotels, houses = hotels - 1, houses + per_hotel
        else:
            if houses == 0:
                return refuse(game, "no_houses_left")
            houses -= 1
        if not free:
            cash -= game.tables.house_cost[space]
            if cash < 0:
                return refuse(game, "buildings_cost_more", cash=game.cash[seat])
        levels[space] = level + 1
    return None


_SETTLE_SHORTAGE: Final = SettleShortage
"""The shortage task's class, held in a constant: the compiled build reads it from a static
instead of looking the name up in the module's dictionary."""


def _settling_kinds(game: Game) -> set[bool]:
    """The kinds (hotel: True) of a building shortage being settled now (R-BUILD-6): nobody
    may build that kind outside the shortage procedure until it is over."""
    kinds: set[bool] = set()
    for task in game.tasks:
        if type(task) is _SETTLE_SHORTAGE:
            kinds.add(task.shortage.hotel)
    return kinds


def buildable_spaces(game: Game, seat: int) -> list[int]:
    """Streets where one more building is legal now (cheap: whole groups only, each
    street asked by :func:`_buildable`, not through a refusal)."""
    result: list[int] = []
    cash = game.cash[seat]
    if debt.debt_of(game, seat) is not None:
        return result  # R-DEBT-3
    settling = _settling_kinds(game)
    owner, kinds, house_cost = game.owner, game.tables.kinds, game.tables.house_cost
    for group in game.board.groups.values():
        first = group[0]
        if kinds[first] != _STREET or cash < house_cost[first]:
            continue
        whole = True
        for s in group:  # R-BUILD-1, before any refusal
            if owner[s] != seat:
                whole = False
                break
        if whole:
            for s in group:
                if _buildable(game, seat, s, settling):
                    result.append(s)
    return result


def _buildable(game: Game, seat: int, space: int, settling: set[bool]) -> bool:
    """``not build_problem(game, seat, (space,))`` for a seat out of debt, with
    ``settling`` from :func:`_settling_kinds`: the same answer without making the
    refusal (the shortage rules ask it of every rival's every street)."""
    if not 0 <= space < BOARD_SIZE or game.tables.kinds[space] != _STREET:
        return False
    group = game.tables.members[space]
    owner, mortgaged, levels = game.owner, game.mortgaged, game.level
    for s in group:
        if owner[s] != seat or mortgaged[s]:
            return False
    level = levels[space]
    if level == game.tables.hotel_level:
        return False
    for s in group:
        if level > levels[s]:
            return False
    per_hotel = game.tables.hotel_level - 1
    if (level == per_hotel) in settling:
        return False
    if level == per_hotel:
        if game.bank_hotels == 0:
            return False
    elif game.bank_houses == 0:
        return False
    return game.cash[seat] >= game.tables.house_cost[space]


def sellable_spaces(game: Game, seat: int) -> list[int]:
    return [
        s
        for s in game.board.properties
        if game.owner[s] == seat and game.level[s] and not sell_problem(game, seat, s)
    ]


def check_build(game: Game, action: Build, decision: Decision) -> Reason | None:
    return build_problem(game, action.seat, tuple(action.spaces))


def _asked(game: Game, spaces: tuple[int, ...]) -> tuple[int, int]:
    """(house builds, hotel builds) in a request."""
    levels: dict[int, int] = {}
    houses = hotels = 0
    for space in spaces:
        level = levels.get(space, game.level[space])
        if level == game.tables.hotel_level - 1:
            hotels += 1
        else:
            houses += 1
        levels[space] = level + 1
    return houses, hotels


def request_build(game: Game, action: Build, decision: Decision) -> None:
    """Build, unless the request empties the Bank's stock of a kind that another player
    could build too: then the shortage procedure of R-BUILD-6 runs first."""
    seat, spaces = action.seat, tuple(action.spaces)
    houses, hotels = _asked(game, spaces)
    for hotel, asked, stock in (
        (False, houses, game.bank_houses),
        (True, hotels, game.bank_hotels),
    ):
        if asked and asked >= stock and not game.rules.no_auctions:
            rivals = [s for s in game.seats_from(seat)[1:] if _could_build_kind(game, s, hotel)]
            if rivals:
                shortage = Shortage(seat, spaces, hotel)
                shortage.wants[seat] = asked
                game.emit(ev.BuildingShortage, hotel, stock, asked)
                game.tasks.append(SettleShortage(shortage))
                for rival in reversed(rivals):
                    game.tasks.append(Decision(WANT, rival, data=shortage))
                return
    build(game, seat, spaces)


def _could_build_kind(game: Game, seat: int, hotel: bool) -> bool:
    per_hotel = game.tables.hotel_level - 1
    return any((game.level[s] == per_hotel) == hotel for s in buildable_spaces(game, seat))


def build_if_still_legal(game: Game, seat: int, spaces: tuple[int, ...]) -> None:
    """A request held back by a shortage is built once the shortage is settled."""
    if game.active[seat] and not build_problem(game, seat, spaces):
        build(game, seat, spaces)


def build(game: Game, seat: int, spaces: tuple[int, ...], paid_at_auction: int = -1) -> None:
    """Put a building on each space at its printed price; a building won in a shortage
    auction (R-BUILD-6) costs nothing more here, and the event names the bid paid."""
    per_hotel = game.tables.hotel_level - 1
    for space in spaces:
        if paid_at_auction < 0:
            cost = game.tables.house_cost[space]
            game.move_cash(seat, BANK, cost)
        else:
            cost = paid_at_auction
        hotel = game.level[space] == per_hotel
        if hotel:
            game.bank_hotels -= 1
            game.bank_houses += per_hotel
        else:
            game.bank_houses -= 1
        game.set_level(space, game.level[space] + 1)
        if game.collect_events:
            game.events.append(
                ev.BuildingBuilt(seat, space, hotel, cost, won_at_auction=paid_at_auction >= 0)
            )


# ---------------------------------------------------------------------- shortage
def want_actions(game: Game, decision: Decision) -> list[Action]:
    shortage: Shortage = decision.data
    stock = game.bank_hotels if shortage.hotel else game.bank_houses
    return [DeclareWant(decision.seat, n) for n in range(stock + 1)]


def check_want(game: Game, action: DeclareWant, decision: Decision) -> Reason | None:
    shortage: Shortage = decision.data
    stock = game.bank_hotels if shortage.hotel else game.bank_houses
    return None if 0 <= action.count <= stock else refuse(game, "want_how_many", stock=stock)


def declare_want(game: Game, action: DeclareWant, decision: Decision) -> None:
    game.tasks.pop()
    decision.data.wants[action.seat] = action.count


def settle_shortage(game: Game, shortage: Shortage) -> None:
    """R-BUILD-6: while the wants exceed the stock, the Bank auctions it one building at a
    time among two or more applicants; a sole applicant buys at the printed price."""
    stock = game.bank_hotels if shortage.hotel else game.bank_houses
    # R-AUCTION-2: "other auctions" start with the player whose turn it is (or the next
    # one); a player who can no longer place a building of that kind is not a bidder.
    wanting = [
        s
        for s in game.seats_from(game.current)
        if shortage.wants.get(s, 0) > 0 and _can_place(game, s, shortage.hotel)
    ]
    total = sum(shortage.wants[s] for s in wanting)
    if shortage.request:
        request, shortage.request = shortage.request, ()
        if total <= stock:
            game.tasks.append(BuildHeld(shortage.requester, request))
            return
    if stock == 0 or total <= stock or not wanting:
        return
    game.tasks.append(SettleShortage(shortage))
    if len(wanting) == 1:
        sole = Placement(shortage.hotel, shortage, 0, printed_price=True)
        game.tasks.append(Decision(PLACE, wanting[0], data=sole))
        return
    item = HOTEL_ITEM if shortage.hotel else HOUSE_ITEM
    auction.start(game, item, wanting[0], wanting, shortage)


def place_actions(game: Game, decision: Decision) -> list[Action]:
    return [PlaceBuilding(decision.seat, s) for s in _placeable(game, decision.seat, decision.data)]


def _placeable(game: Game, seat: int, placement: Placement) -> list[int]:
    per_hotel = game.tables.hotel_level - 1
    return [
        s
        for s in game.board.properties
        if game.owner[s] == seat
        and (game.level[s] == per_hotel) == placement.hotel
        and not build_problem(game, seat, (s,), placement)
    ]


def _can_place(game: Game, seat: int, hotel: bool) -> bool:
    return bool(_placeable(game, seat, Placement(hotel, None, 0)))


def refund_unplaceable(game: Game, decision: Decision) -> bool:
    """**Decision**: a building won at a shortage auction that its winner can no longer
    place (they sold or mortgaged meanwhile) goes back to the Bank, and so does the bid;
    a sole applicant who can no longer place or pay for one drops out of the shortage."""
    placement: Placement = decision.data
    if _placeable(game, decision.seat, placement):
        return False
    game.tasks.pop()
    if placement.printed_price:
        if placement.shortage is not None:
            placement.shortage.wants[decision.seat] = 0
        return True
    game.pay(BANK, decision.seat, placement.paid, "refund")
    return True


def check_place(game: Game, action: PlaceBuilding, decision: Decision) -> Reason | None:
    if action.space in _placeable(game, decision.seat, decision.data):
        return None
    if not 0 <= action.space < BOARD_SIZE:
        return refuse(game, "no_space", number=action.space)
    key = "cannot_place_hotel" if decision.data.hotel else "cannot_place_house"
    return refuse(game, key, space=action.space)


def place(game: Game, action: PlaceBuilding, decision: Decision) -> None:
    game.tasks.pop()
    placement: Placement = decision.data
    paid = -1 if placement.printed_price else placement.paid
    build(game, action.seat, (action.space,), paid_at_auction=paid)
    shortage = placement.shortage
    if shortage is not None:
        shortage.wants[action.seat] = shortage.wants.get(action.seat, 1) - 1


# ---------------------------------------------------------------------- selling
def sell_problem(game: Game, seat: int, space: int) -> Reason | None:
    if not 0 <= space < BOARD_SIZE:
        return refuse(game, "no_space", number=space)
    if game.owner[space] != seat:
        return refuse(game, "not_yours", space=space)
    levels = game.level
    level = levels[space]
    if level == 0:
        return refuse(game, "no_buildings", space=space)
    group = game.tables.members[space]
    for s in group:  # plain loops, no generator: the check of every sale
        if levels[s] > level:
            return refuse(game, "sell_evenly")
    if _breakdown_pending(game, group):
        return refuse(game, "breakdown_pending")
    return None


def _breakdown_pending(game: Game, group: tuple[int, ...]) -> bool:
    for task in game.tasks:
        if type(task) is Decision and task.kind == BREAKDOWN and task.space in group:
            return True
    return False


def check_sell(game: Game, action: SellBuilding, decision: Decision) -> Reason | None:
    return sell_problem(game, action.seat, action.space)


def sell(game: Game, action: SellBuilding, decision: Decision) -> None:
    """R-BUILD-4: half price back; a hotel is exchanged for houses if the Bank has them,
    otherwise the group comes down to an even position the Bank's houses allow: the
    owner chooses which when there is more than one (a BREAKDOWN decision)."""
    seat, space = action.seat, action.space
    if (
        game.level[space] == game.tables.hotel_level
        and game.bank_houses < game.tables.hotel_level - 1
    ):
        options = breakdown_options(game, space)
        if len(options) > 1:
            game.tasks.append(Decision(BREAKDOWN, seat, space))
            return
        _set_group_levels(game, seat, space, options[0])
        return
    _set_levels(game, seat, {space: game.level[space] - 1})


def breakdown_options(game: Game, space: int) -> list[tuple[int, ...]]:
    """R-BUILD-4: the even arrangements of the group (levels in board order) that the
    Bank's houses allow once the hotel on ``space`` is sold, keeping as many buildings as
    can be kept; best for the owner's rent first."""
    group = game.tables.members[space]
    per_hotel, hotel = game.tables.hotel_level - 1, game.tables.hotel_level
    houses_now = sum(game.level[s] for s in group if game.level[s] < hotel)
    supply = game.bank_houses + houses_now
    ranges = [range(game.level[s] + 1) if s != space else range(per_hotel + 1) for s in group]
    found: list[tuple[int, ...]] = []
    most = -1
    for levels in product(*ranges):
        if max(levels) - min(levels) > 1:
            continue
        if sum(v for v in levels if v < hotel) > supply:
            continue
        total = sum(levels)
        if total > most:
            found, most = [], total
        if total == most:
            found.append(levels)
    return sorted(found, reverse=True)


def breakdown_actions(game: Game, decision: Decision) -> list[Action]:
    return [
        ChooseBreakdown(decision.seat, levels) for levels in breakdown_options(game, decision.space)
    ]


def check_breakdown(game: Game, action: ChooseBreakdown, decision: Decision) -> Reason | None:
    if tuple(action.levels) in breakdown_options(game, decision.space):
        return None
    return refuse(game, "breakdown_not_offered")


def choose_breakdown(game: Game, action: ChooseBreakdown, decision: Decision) -> None:
    game.tasks.pop()
    _set_group_levels(game, action.seat, decision.space, tuple(action.levels))


def breakdown_settles(game: Game, decision: Decision) -> bool:
    """A pending BREAKDOWN that has nothing left to choose (the Bank got houses back
    meanwhile, or one arrangement is left) is carried out at once."""
    space, seat = decision.space, decision.seat
    if game.level[space] != game.tables.hotel_level or game.owner[space] != seat:
        game.tasks.pop()
        return True
    if game.bank_houses >= game.tables.hotel_level - 1:
        game.tasks.pop()
        _set_levels(game, seat, {space: game.level[space] - 1})
        return True
    options = breakdown_options(game, space)
    if len(options) > 1:
        return False
    game.tasks.pop()
    _set_group_levels(game, seat, space, options[0])
    return True


def _set_group_levels(game: Game, seat: int, space: int, levels: tuple[int, ...]) -> None:
    group = game.tables.members[space]
    _set_levels(game, seat, dict(zip(group, levels, strict=True)))


def _set_levels(game: Game, seat: int, target: dict[int, int]) -> None:
    hotel = game.tables.hotel_level
    for space, new in target.items():
        old = game.level[space]
        if new == old:
            continue
        half = game.tables.sale_price[space]
        refund = (old - new) * half
        if old == hotel:
            game.bank_hotels += 1
            game.bank_houses -= new
        else:
            game.bank_houses += old - new
        game.set_level(space, new)
        game.move_cash(BANK, seat, refund)
        if game.collect_events:
            game.events.append(ev.BuildingSold(seat, space, new, refund))
