"""Rolling, moving, GO, the Speed Die and what happens on the space landed on.

R-TURN-*, R-LAND-*, R-SPEED-*.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import cards, rent
from . import events as ev
from .actions import ChooseMove, ChooseSpace
from .board import BANK, BOARD_SIZE, SpaceKind
from .chance import BUS, MR_MONOPOLY
from .state import AFTER_ROLLS, BUY_DECISIONS, TRIPLES, Decision, MrMonopolyMove
from .state import BUS as BUS_DECISION

if TYPE_CHECKING:
    from .game import Game


def roll(game: Game, seat: int) -> None:
    """R-TURN-1, R-TURN-4, R-SPEED-2..7: roll and move. The ROLL decision on top of the
    task stack gives way to what follows the roll, put in its place: a stack emptied and
    filled again frees and reallocates its storage (the commonest case, every turn)."""
    speed = game.rules.speed_die and game.speed_active[seat]
    dice = game.chance.dice(2, speed)
    game.last_roll = dice
    if game.claims:
        forget_claims(game, seat)
    white_a, white_b = dice[0], dice[1]
    doubles = white_a == white_b
    if game.collect_events:
        game.events.append(ev.DiceRolled(seat, dice, doubles))
    if speed and doubles and dice[2] == white_a and dice[2] < BUS:
        game.tasks[-1] = Decision(TRIPLES, seat)  # R-SPEED-7: a number, not Bus (4)/Mr. M (5)
        return
    if doubles:
        game.doubles += 1
        if game.doubles == 3:
            game.tasks.pop()
            send_to_jail(game, seat)  # R-TURN-4
            return
    game.tasks[-1] = AFTER_ROLLS[seat][doubles]
    if not speed:  # move_and_resolve, inline: the commonest move
        advance(game, seat, white_a + white_b)
        resolve(game, seat)
    elif dice[2] == BUS:
        options = sorted({white_a, white_b, white_a + white_b})
        game.tasks.append(Decision(BUS_DECISION, seat, data=tuple(options)))  # R-SPEED-4
    elif dice[2] == MR_MONOPOLY:
        game.tasks.append(MrMonopolyMove(seat))  # R-SPEED-5
        move_and_resolve(game, seat, white_a + white_b)
    else:
        move_and_resolve(game, seat, white_a + white_b + dice[2])  # R-SPEED-3


def forget_claims(game: Game, seat: int) -> None:
    """R-RENT-5 option: a claim not made before the next player rolls is forfeited."""
    if game.claims:
        kept = [c for c in game.claims if c[1] == seat]
        for claim in game.claims:
            if claim[1] != seat:
                game.emit(ev.RentForfeited, claim[0], claim[2])
        game.claims[:] = kept  # in place: views hold the list


def move_and_resolve(game: Game, seat: int, steps: int) -> None:
    advance(game, seat, steps)
    resolve(game, seat)


def advance(game: Game, seat: int, steps: int) -> None:
    """Move forward; passing or landing on GO pays the salary (R-TURN-2)."""
    start = game.position[seat]
    end = start + steps
    passed_go = end >= BOARD_SIZE
    if passed_go:
        end -= BOARD_SIZE
    game.position[seat] = end
    if game.collect_events:
        game.events.append(ev.Moved(seat, start, end))
    if passed_go:
        collect_salary(game, seat, landed=end == 0)


def advance_to(game: Game, seat: int, target: int) -> None:
    """Move forward to ``target`` (cards, Mr. Monopoly, triples)."""
    start = game.position[seat]
    advance(game, seat, (target - start) % BOARD_SIZE)


def move_back(game: Game, seat: int, steps: int) -> None:
    """Moving backwards never pays (R-TURN-2)."""
    start = game.position[seat]
    game.position[seat] = (start - steps) % BOARD_SIZE
    if game.collect_events:
        game.events.append(ev.Moved(seat, start, game.position[seat]))


def collect_salary(game: Game, seat: int, landed: bool) -> None:
    salary = game.board.go_salary
    if landed and game.rules.double_go_salary:
        salary *= 2
    game.move_cash(BANK, seat, salary)
    game.emit(ev.SalaryCollected, seat, salary, landed)
    if game.rules.speed_die and not game.speed_active[seat]:
        game.speed_active[seat] = True  # R-SPEED-2
        game.emit(ev.SpeedDieActivated, seat)


def send_to_jail(game: Game, seat: int) -> None:
    """R-LAND-5, R-TURN-5: straight to jail, no salary; the turn ends."""
    game.position[seat] = game.board.jail_index
    game.jail_turns[seat] = 0
    game.doubles = 0
    game.emit(ev.SentToJail, seat)


_STREET: Final = int(SpaceKind.STREET)
_UTILITY: Final = int(SpaceKind.UTILITY)
"""Streets, railroads and utilities are the kinds from _STREET to _UTILITY."""
_CHANCE: Final = int(SpaceKind.CHANCE)
_COMMUNITY_CHEST: Final = int(SpaceKind.COMMUNITY_CHEST)
_TAX: Final = int(SpaceKind.TAX)
_GO_TO_JAIL: Final = int(SpaceKind.GO_TO_JAIL)
_FREE_PARKING: Final = int(SpaceKind.FREE_PARKING)


def resolve(game: Game, seat: int, rent_factor: int = 1, utility_card: bool = False) -> None:
    """R-LAND-*: carry out the space the player stands on."""
    index = game.position[seat]
    kind = game.tables.kinds[index]
    if _STREET <= kind <= _UTILITY:
        owner = game.owner[index]
        if owner < 0:
            game.tasks.append(BUY_DECISIONS[seat][index])  # R-LAND-1
        elif owner != seat and not game.mortgaged[index]:
            rent.charge(game, seat, owner, index, rent_factor, utility_card)
    elif kind in (_CHANCE, _COMMUNITY_CHEST):
        cards.draw(game, seat, "chance" if kind == _CHANCE else "community_chest")
    elif kind == _TAX:
        game.push_pay(seat, BANK, game.board.spaces[index].tax, "tax")  # R-LAND-4
    elif kind == _GO_TO_JAIL:
        send_to_jail(game, seat)
    elif kind == _FREE_PARKING and game.rules.free_parking_pot and game.free_parking_pot:
        pot, game.free_parking_pot = game.free_parking_pot, 0
        game.move_cash(BANK, seat, pot)
        game.emit(ev.FreeParkingCollected, seat, pot)


def mr_monopoly(game: Game, seat: int) -> None:
    """R-SPEED-5: after the white-dice move, go on to the next unowned property, or else
    to the next property where rent is owed; R-SPEED-8: not if sent to jail."""
    if not game.active[seat] or game.jail_turns[seat] >= 0:
        return
    target = _next_space(game, seat, lambda s: game.owner[s] < 0)
    if target < 0:
        target = _next_space(
            game, seat, lambda s: game.owner[s] not in (-1, seat) and not game.mortgaged[s]
        )
    if target >= 0:
        advance_to(game, seat, target)
        resolve(game, seat)


def _next_space(game: Game, seat: int, wanted: Any) -> int:
    start = game.position[seat]
    for step in range(1, BOARD_SIZE):
        space = (start + step) % BOARD_SIZE
        if game.tables.is_property[space] and wanted(space):
            return space
    return -1


def choose_move(game: Game, action: ChooseMove, decision: Decision) -> None:
    """R-SPEED-4: the Bus moves by one white die or by both."""
    game.tasks.pop()
    move_and_resolve(game, action.seat, action.steps)


def choose_space(game: Game, action: ChooseSpace, decision: Decision) -> None:
    """R-SPEED-7: triples move the player to any space; the turn then ends.

    **Decision**: the token jumps, so passing GO pays nothing; choosing GO itself (from
    another space) pays the salary for landing on it.
    """
    game.tasks.pop()
    game.doubles = 0
    seat, start = action.seat, game.position[action.seat]
    if action.space != start:
        game.position[seat] = action.space
        if game.collect_events:
            game.events.append(ev.Moved(seat, start, action.space))
        if action.space == 0:
            collect_salary(game, seat, landed=True)
    resolve(game, seat)
