"""Start positions: a game set up mid-way, checked for consistency like a chess FEN.

The format is documented in ``docs/records.md``. :func:`dump_position` writes the same
format, so any position can be saved and loaded again.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .board import BOARD_SIZE, DECK_ROLES, CardKind, SpaceKind
from .errors import RecordError
from .state import TurnStart

if TYPE_CHECKING:
    from .game import Game

PLAYER_KEYS = {"cash", "position", "jail_turns", "jail_cards", "bankrupt", "speed_die"}
PROPERTY_KEYS = {"owner", "buildings", "mortgaged"}
POSITION_KEYS = {"players", "properties", "bank", "decks", "turn", "free_parking_pot"}


def fail(where: str, problem: str) -> RecordError:
    return RecordError(f"position: {where}: {problem}")


def _int(value: object, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise fail(where, f"must be a whole number from {low} to {high}, got {value!r}")
    return value


def load_position(game: Game, data: dict[str, Any]) -> None:
    """Put ``game`` into the position ``data`` or raise :class:`RecordError`."""
    if not isinstance(data, dict):
        raise fail("position", "must be an object")
    _unknown(data, POSITION_KEYS, "position")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != game.players:
        raise fail("players", f"must list all {game.players} players")
    for seat, player in enumerate(players):
        _load_player(game, seat, player)
    properties = data.get("properties", {})
    if not isinstance(properties, dict):
        raise fail("properties", "must be an object keyed by space index")
    for key, prop in properties.items():
        _load_property(game, key, prop)
    _check_buildings(game)
    _load_bank(game, data.get("bank"))
    _load_decks(game, data.get("decks"))
    if sum(game.active) < 2:
        raise fail("players", "at least two players must still be in the game")
    turn = _int(data.get("turn", 0), "turn", 0, game.players - 1)
    if not game.active[turn]:
        raise fail("turn", f"seat {turn} is bankrupt")
    game.free_parking_pot = _int(data.get("free_parking_pot", 0), "free_parking_pot", 0, 10**9)
    game.current = turn
    game.tasks.append(TurnStart(turn))


def _unknown(data: dict[str, Any], known: set[str], where: str) -> None:
    for key in data:
        if key not in known:
            raise fail(where, f"unknown key {key!r}; known: {', '.join(sorted(known))}")


def _load_player(game: Game, seat: int, player: object) -> None:
    where = f"players[{seat}]"
    if not isinstance(player, dict):
        raise fail(where, "must be an object")
    _unknown(player, PLAYER_KEYS, where)
    game.cash[seat] = _int(player.get("cash", game.cash[seat]), f"{where}.cash", 0, 10**9)
    game.position[seat] = _int(player.get("position", 0), f"{where}.position", 0, BOARD_SIZE - 1)
    jail_turns = _int(player.get("jail_turns", -1), f"{where}.jail_turns", -1, 2)
    if jail_turns >= 0 and game.position[seat] != game.board.jail_index:
        raise fail(where, "a player in jail must stand on the jail space")
    game.jail_turns[seat] = jail_turns
    cards = player.get("jail_cards", [])
    if not isinstance(cards, list) or any(c not in DECK_ROLES for c in cards):
        raise fail(f"{where}.jail_cards", f"must list deck roles {DECK_ROLES}")
    game.jail_cards[seat] = list(cards)
    bankrupt = player.get("bankrupt", False)
    speed = player.get("speed_die", False)
    if not isinstance(bankrupt, bool) or not isinstance(speed, bool):
        raise fail(where, "bankrupt and speed_die must be true or false")
    game.active[seat] = not bankrupt
    game.speed_active[seat] = speed and game.rules.speed_die


def _load_property(game: Game, key: object, prop: object) -> None:
    where = f"properties[{key}]"
    try:
        space = int(str(key))
    except ValueError:
        raise fail(where, "keys are space indexes 0..39") from None
    if not 0 <= space < BOARD_SIZE or not game.board.spaces[space].is_property:
        raise fail(where, "not a property space")
    if not isinstance(prop, dict):
        raise fail(where, "must be an object")
    _unknown(prop, PROPERTY_KEYS, where)
    owner = _int(prop.get("owner", -1), f"{where}.owner", -1, game.players - 1)
    if owner >= 0 and not game.active[owner]:
        raise fail(where, f"owner {owner} is bankrupt")
    buildings = prop.get("buildings", 0)
    level = game.tables.hotel_level if buildings == "hotel" else buildings
    _int(level, f"{where}.buildings", 0, game.tables.hotel_level)
    if level and game.board.spaces[space].kind != SpaceKind.STREET:
        raise fail(where, "only streets carry buildings")
    if level == game.tables.hotel_level - 1 + 1 and buildings != "hotel":
        raise fail(where, f'at most {game.tables.hotel_level - 1} houses; write "hotel"')
    mortgaged = prop.get("mortgaged", False)
    if not isinstance(mortgaged, bool):
        raise fail(where, "mortgaged must be true or false")
    if owner < 0 and (mortgaged or level):
        raise fail(where, "a Bank property has no buildings and no mortgage")
    if mortgaged and level:
        raise fail(where, "a mortgaged street cannot carry buildings (R-MORT-1)")
    game.give_deed(space, owner)  # the holder is in the game: checked above
    game.level[space], game.mortgaged[space] = level, mortgaged
    game.deeds_version += 1
    for seat in range(game.players):
        game.holdings_version[seat] += 1
    game.buildings_version += 1


def _check_buildings(game: Game) -> None:
    for name, group in game.board.groups.items():
        levels = [game.level[s] for s in group]
        if not any(levels):
            continue
        if len({game.owner[s] for s in group}) != 1:
            raise fail(f"group {name}", "buildings need the whole group in one hand (R-BUILD-1)")
        if any(game.mortgaged[s] for s in group):
            raise fail(f"group {name}", "buildings on a group with a mortgage (R-BUILD-7)")
        if max(levels) - min(levels) > 1:
            raise fail(f"group {name}", "buildings must be even (R-BUILD-2)")


def _load_bank(game: Game, bank: object) -> None:
    hotels = sum(1 for s in range(BOARD_SIZE) if game.level[s] == game.tables.hotel_level)
    houses = sum(v for v in game.level if v < game.tables.hotel_level)
    if houses > game.board.houses or hotels > game.board.hotels:
        raise fail(
            "bank",
            f"more buildings on the board than the {game.board.houses} "
            f"houses and {game.board.hotels} hotels in the box (R-BUILD-5)",
        )
    game.bank_houses = game.board.houses - houses
    game.bank_hotels = game.board.hotels - hotels
    if bank is None:
        return
    if not isinstance(bank, dict):
        raise fail("bank", "must be an object")
    _unknown(bank, {"houses", "hotels"}, "bank")
    for key, expected in (("houses", game.bank_houses), ("hotels", game.bank_hotels)):
        if key in bank and bank[key] != expected:
            raise fail(f"bank.{key}", f"the board leaves {expected} in the Bank, not {bank[key]!r}")


def _load_decks(game: Game, decks: object) -> None:
    held = {role: sum(cards.count(role) for cards in game.jail_cards) for role in DECK_ROLES}
    for role in DECK_ROLES:
        if held[role] > 1:
            raise fail("jail_cards", f"the {role} deck has only one Get Out of Jail Free card")
    if decks is not None and not isinstance(decks, dict):
        raise fail("decks", "must be an object")
    for role in DECK_ROLES:
        cards = game.board.decks[role]
        present = [c.key for c in cards if not (c.kind == CardKind.GET_OUT_OF_JAIL and held[role])]
        given = decks.get(role) if isinstance(decks, dict) else None
        if given is None:
            game.decks[role] = deque(game.chance.shuffle(role, tuple(present)))
            continue
        if not isinstance(given, list) or sorted(given) != sorted(present):
            raise fail(f"decks.{role}", f"must list exactly the cards not held: {sorted(present)}")
        game.decks[role] = deque(given)


def dump_position(game: Game) -> dict[str, Any]:
    """The current position in the format :func:`load_position` reads."""
    players = [
        {
            "cash": game.cash[s],
            "position": game.position[s],
            "jail_turns": game.jail_turns[s],
            "jail_cards": list(game.jail_cards[s]),
            "bankrupt": not game.active[s],
            "speed_die": game.speed_active[s],
        }
        for s in range(game.players)
    ]
    properties = {
        str(s): {
            "owner": game.owner[s],
            "buildings": "hotel" if game.level[s] == game.tables.hotel_level else game.level[s],
            "mortgaged": game.mortgaged[s],
        }
        for s in game.board.properties
        if game.owner[s] >= 0
    }
    return {
        "players": players,
        "properties": properties,
        "bank": {"houses": game.bank_houses, "hotels": game.bank_hotels},
        "decks": {role: list(game.decks[role]) for role in DECK_ROLES},
        "turn": game.current,
        "free_parking_pot": game.free_parking_pot,
    }
