"""JSON for the client: edition metadata, lobby options and what one seat sees of a game.

Nothing here changes a game; everything is built from :class:`PlayerView` (no deck order,
no random generator) and the edition's names in the game's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import Action, Build, Mortgage, SellBuilding, Unmortgage
from monopoly.core.board import BOARD_SIZE, SpaceKind
from monopoly.core.chance import SPEED_FACES_JSON
from monopoly.core.debt import debt_of, raisable
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.events import PlayerBankrupt
from monopoly.core.game import Game
from monopoly.core.memo import FreeActionsMemo
from monopoly.core.narrate import Narrator, catalog
from monopoly.core.rules import RuleSet
from monopoly.core.state import (
    BID,
    BREAKDOWN,
    BUS,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    TRADE,
    WANT,
)
from monopoly.core.view import PlayerView

from . import explain
from .texts import LANGUAGES, level_name, text

PRESETS = ("standard", "short", "speed", "short+speed")
LOBBY_OPTIONS = (
    "starting_cash",
    "rent_must_be_claimed",
    "utility_roll",
    "auction_minimum_bid",
    "free_parking_pot",
    "double_go_salary",
    "no_auctions",
    "turn_limit",
    "round_limit",
)
"""Rule options offered in the lobby (presets set short_game and speed_die)."""
MIN_SEATS, MAX_SEATS = 2, 6


# ---------------------------------------------------------------------- editions
def editions_json() -> dict[str, Any]:
    result = []
    for key in edition_keys():
        edition = get_edition(key)
        titles = {lang: edition.names[lang].title for lang in LANGUAGES}
        result.append({"key": key, "title": titles, "tokens": len(edition.tokens)})
    return {"editions": result}


def edition_json(key: str, language: str) -> dict[str, Any]:
    """Everything needed to draw the board of ``key`` in ``language``."""
    edition = get_edition(key)
    names = edition.names[language]
    board = edition.board
    groups: dict[str, dict[str, Any]] = {
        group: {
            "name": names.groups.get(group, group),
            "colour": edition.group_colours.get(group, ""),
            "spaces": list(spaces),
        }
        for group, spaces in board.groups.items()
    }
    return {
        "key": edition.key,
        "language": language,
        "title": names.title,
        "terms": dict(names.terms),
        "spaces": [_space_json(edition, index, language) for index in range(BOARD_SIZE)],
        "groups": groups,
        "tokens": [{"key": t.key, "name": t.names[language]} for t in edition.tokens],
        "decks": {role: names.terms[role] for role in board.decks},
        "numbers": {
            "go_salary": board.go_salary,
            "jail_fine": board.jail_fine,
            "houses": board.houses,
            "hotels": board.hotels,
            "railroad_rents": list(board.railroad_rents),
            "utility_multipliers": list(board.utility_multipliers),
        },
    }


def _space_json(edition: Any, index: int, language: str) -> dict[str, Any]:
    space = edition.board.spaces[index]
    data: dict[str, Any] = {
        "index": index,
        "kind": space.kind.name.lower(),
        "name": edition.name_of(index, language),
        "printed": edition.printed[index],
    }
    if space.is_property:
        data.update(
            group=space.group,
            colour=edition.group_colours.get(space.group, ""),
            price=space.price,
            mortgage=space.mortgage_value,
        )
    if space.kind == SpaceKind.STREET:
        data.update(rents=list(space.rents), house_cost=space.house_cost)
    elif space.kind == SpaceKind.TAX:
        data["tax"] = space.tax
    elif space.kind in (SpaceKind.CHANCE, SpaceKind.COMMUNITY_CHEST):
        data["deck"] = space.kind.name.lower()
    return data


# ---------------------------------------------------------------------- lobby options
def options_json(language: str, levels: list[str], absence_timeout: float) -> dict[str, Any]:
    defaults = RuleSet()
    kinds = {f.name: f for f in fields(RuleSet)}
    options = []
    for key in LOBBY_OPTIONS:
        value = getattr(defaults, key)
        option: dict[str, Any] = {
            "key": key,
            "type": {bool: "bool", int: "int", str: "str"}[type(value)],
            "default": value,
            "name": text(language, f"option_{key}"),
            "about": text(language, f"about_{key}"),
        }
        if key == "utility_roll":
            option["choices"] = [
                {"key": choice, "name": text(language, f"choice_{choice}")}
                for choice in ("fresh", "moving")
            ]
        assert key in kinds
        options.append(option)
    return {
        "languages": [
            {"key": lang, "name": text(language, f"language_{lang}")} for lang in LANGUAGES
        ],
        "presets": [_preset_json(language, preset) for preset in PRESETS],
        "rule_options": options,
        "levels": levels_json(language, levels),
        "seats": {"min": MIN_SEATS, "max": MAX_SEATS},
        "absence_timeout": absence_timeout,
    }


def _preset_json(language: str, preset: str) -> dict[str, Any]:
    """A rule set's name, what it means, and the cash it adds to the starting cash."""
    rules = RuleSet.named(preset)
    return {
        "key": preset,
        "name": text(language, f"preset_{preset}"),
        "about": text(language, f"about_{preset}"),
        "extra_cash": rules.initial_cash - rules.starting_cash,  # R-SPEED-1
    }


def levels_json(language: str, levels: list[str]) -> list[dict[str, str]]:
    return [
        {
            "key": level,
            "name": level_name(language, level),
            "about": text(language, f"about_level_{level}"),
        }
        for level in levels
    ]


# ---------------------------------------------------------------------- a game
_PLAIN = frozenset({int, str, bool, tuple})
"""Types of event fields that are JSON as they are (an action's or offer's is not)."""


def event_json(narrator: Narrator, event: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type(event).__name__}
    for key, value in zip(event._fields, event, strict=True):
        plain = type(value) in _PLAIN or not hasattr(value, "to_json")
        data[key] = value if plain else value.to_json()
    if data["type"] == "DiceRolled":
        data["dice"] = dice_json(event.dice)
    data["text"] = narrator.describe(event)
    return data


def events_json(narrator: Narrator, game: Game, start: int) -> list[dict[str, Any]]:
    """``game.events[start:]`` for the client, each with its ``why`` note when it has one."""
    terms = narrator.terms
    why = explain.notes(game.events, start, game.language, dict(terms))
    result = []
    for event, note in zip(game.events[start:], why, strict=True):
        data = event_json(narrator, event)
        if note:
            data["why"] = note
        result.append(data)
    return result


def event_lines(narrator: Narrator, game: Game, start: int = 0) -> list[tuple[str, ...]]:
    """The log lines of each event from ``start`` on: its sentence, then its note
    (marked) if it has one."""
    why = explain.notes(game.events, start, game.language, dict(narrator.terms))
    return [
        (narrator.describe(event), explain.WHY_PREFIX + note)
        if note
        else (narrator.describe(event),)
        for event, note in zip(game.events[start:], why, strict=True)
    ]


def log_lines(narrator: Narrator, game: Game) -> list[str]:
    """The whole log as text (see :func:`event_lines`)."""
    return [line for lines in event_lines(narrator, game) for line in lines]


def last_roller(game: Game) -> int | None:
    """Who rolled the dice the table shows (``last_roll``): the latest roll's seat, which
    is not always the seat whose turn it is (the turn passes before the next roll)."""
    events = game.events
    for index in range(len(events) - 1, -1, -1):  # not reversed(): mypyc cannot compile it here
        event = events[index]
        if type(event) is ev.DiceRolled:
            seat: int = event.seat
            return seat
    return None


def dice_json(dice: tuple[int, ...] | list[int]) -> list[int | str]:
    """The dice as players name them: the Speed Die's Bus and Mr. Monopoly faces as
    ``"bus"`` and ``"mr_monopoly"`` instead of the engine's codes 4 and 5."""
    faces: list[int | str] = list(dice[:2])
    faces.extend(SPEED_FACES_JSON.get(face, face) for face in dice[2:])
    return faces


def decision_json(game: Game) -> dict[str, Any] | None:
    decision = game.decision
    if decision is None:
        return None
    data: dict[str, Any] = {
        "kind": decision.kind,
        "seat": decision.seat,
        "space": decision.space,
        "name": game.names[decision.seat],
    }
    details = decision.data
    if decision.kind == BID:
        data["auction"] = {
            "item": details.item,
            "high_bid": details.high_bid,
            "high_bidder": details.high_bidder,
            "bidders": list(details.bidders),
        }
    elif decision.kind == RAISE_CASH:
        data["debt"] = {
            "creditor": details.creditor,
            "amount": details.amount,
            "reason": details.reason,
            "reason_text": catalog(game.language).get(f"reason_{details.reason}", ""),
            "raisable": raisable(game, decision.seat),
        }
    elif decision.kind == TRADE:
        data["offer"] = details.to_json()
    elif decision.kind == BUS:
        data["options"] = list(details)
    elif decision.kind == WANT:
        data["shortage"] = {"hotel": details.hotel}
    elif decision.kind == PLACE:
        data["hotel"] = details.hotel
        data["printed_price"] = details.printed_price
    elif decision.kind == MORTGAGE_RECEIVED:
        data["space"] = decision.space
    elif decision.kind == BREAKDOWN:
        # R-BUILD-4: the group's streets in board order, as the options' levels list them
        data["group"] = list(game.board.groups[game.board.spaces[decision.space].group])
    elif details is not None:
        data["data"] = _plain(details)  # a kind the client may not know: pass it on
    return data


def _plain(value: Any) -> Any:
    """``value`` as JSON types (slots objects become dicts), for decision kinds this
    module has no special form for; None when it has no JSON form."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    slots = getattr(type(value), "__slots__", ())
    return {name: _plain(getattr(value, name, None)) for name in slots} or None


Holding = tuple[list[int], int, int, int]
"""A seat's deeds, houses, hotels, and its net worth without its cash."""


def holdings(view: PlayerView) -> list[Holding]:
    """What each seat holds; it changes only with an owner, a mortgage or a building, so
    a caller may keep it while ``deeds_version`` and ``buildings_version`` stay."""
    result = []
    for seat in range(view.players):
        houses, hotels = view.houses_and_hotels(seat)
        worth = view.net_worth(seat) - view.cash[seat]
        result.append((view.properties_of(seat), houses, hotels, worth))
    return result


Board = dict[str, list[Any]]
"""The spaces' owners, building levels and mortgages (see :func:`board_json`)."""


def board_json(view: PlayerView) -> Board:
    """The spaces' owners, building levels and mortgages; they change only with an owner,
    a mortgage or a building, so a caller may keep them while ``deeds_version`` and
    ``buildings_version`` stay (a kept list is the same object in the next table, and
    the patch between the two tables passes it over at once)."""
    return {
        "owner": view.owner.copy(),
        "level": view.level.copy(),
        "mortgaged": view.mortgaged.copy(),
    }


def table_json(
    view: PlayerView,
    players: list[dict[str, Any]],
    held: list[Holding] | None = None,
    board: Board | None = None,
) -> dict[str, Any]:
    """The public table: what every seat and spectator sees alike (``held``: the seats'
    :func:`holdings`, ``board``: the :func:`board_json`, if the caller kept them)."""
    held = holdings(view) if held is None else held
    board = board_json(view) if board is None else board
    cash, active, jail_turns = view.cash, view.active, view.jail_turns
    for seat, player in enumerate(players):
        properties, houses, hotels, worth = held[seat]
        player.update(
            cash=cash[seat],
            position=view.position[seat],
            active=active[seat],
            in_jail=jail_turns[seat] >= 0,
            jail_turns=jail_turns[seat],
            jail_cards=list(view.jail_cards[seat]),
            speed_die=view.speed_active[seat],
            net_worth=cash[seat] + worth if active[seat] else 0,
            properties=properties,
            houses=houses,
            hotels=hotels,
        )
    return {
        "turn": view.turn,
        "round": view.round,
        "current": view.current,
        "doubles": view.doubles,
        "last_roll": dice_json(view.last_roll),
        "players": players,
        "owner": board["owner"],
        "level": board["level"],
        "mortgaged": board["mortgaged"],
        "hotel_level": view.tables.hotel_level,
        "bank": {"houses": view.bank_houses, "hotels": view.bank_hotels},
        "decks": view.deck_sizes,
        "free_parking_pot": view.free_parking_pot,
        "claims": [
            {"owner": owner, "payer": payer, "space": space, "amount": amount}
            for owner, payer, space, amount in view.claims
        ],
        "over": view.over,
        "winners": list(view.winners),
    }


def seat_answers(
    game: Game,
    seat: int | None,
    narrators: Mapping[str, Narrator] | None = None,
    kept: FreeActionsMemo[DeedSteps] | None = None,
) -> dict[str, Any]:
    """The receiver's own legal answers: decision answers, free actions, bid range
    (``narrators``: the game's in every language, kept by the caller; see
    :func:`refused_actions`; ``kept``: the seats' steps on their deeds, kept by the
    caller between changes, see :func:`deed_steps`)."""
    decision = game.decision
    if seat is None or decision is None or not game.active[seat]:
        return {"decision_actions": [], "free_actions": [], "bid_range": None}
    deciding = decision.seat == seat
    answers = [a.to_json() for a in game.decision_actions()] if deciding else []
    low, high = game.bid_range() if deciding and decision.kind == BID else (0, -1)
    free, refused = deed_steps(game, seat, narrators, kept)
    owed = debt_of(game, seat)
    return {
        "decision_actions": answers,
        "free_actions": free,
        "refused_actions": refused,
        "bid_range": [low, high] if low <= high else None,
        # Whom resigning makes the seat bankrupt to: the player it is raising cash for
        # (R-BANKRUPT-2), else the Bank (R-BANKRUPT-3), as the resign dialog says.
        "resign_to": {"creditor": owed.creditor, "amount": owed.amount} if owed else None,
    }


DeedSteps = tuple[list[dict[str, Any]], list[dict[str, Any]]]
"""A seat's free actions and refused steps, as JSON (see :func:`deed_steps`)."""


def deed_steps(
    game: Game,
    seat: int,
    narrators: Mapping[str, Narrator] | None = None,
    kept: FreeActionsMemo[DeedSteps] | None = None,
) -> DeedSteps:
    """The seat's free actions (building, selling, mortgaging, lifting, claiming rent)
    and its :func:`refused_actions`. With ``kept``, they are judged again only when
    something they are judged from changed (``Game.free_actions_key``): most changes of
    a game — a roll, a move, another seat's purchase — leave a seat's deeds, cash and
    the Bank's buildings as they were."""

    def judge() -> DeedSteps:
        free = game.free_actions(seat)
        return [a.to_json() for a in free], refused_actions(game, seat, free, narrators)

    return judge() if kept is None else kept.get(game, seat, judge)


def refused_actions(
    game: Game, seat: int, free: list[Action], narrators: Mapping[str, Narrator] | None = None
) -> list[dict[str, Any]]:
    """The steps on the seat's own title deeds that the rules refuse now — build, sell,
    mortgage, lift — each with the engine's reason in every language (the page shows
    them disabled, with the reason in its own language). Only the steps a deed's state
    makes thinkable: no building on a hotel, no selling where nothing stands, no lifting
    an unmortgaged deed. The reasons are narrated by ``narrators`` (the game's in every
    language; new ones if not given): kept between changes, they narrate each reason
    once."""
    allowed = {(type(action), _space_of(action)) for action in free}
    if narrators is None:
        narrators = game_narrators(game)
    refused: list[dict[str, Any]] = []
    for space in game.properties_of(seat):
        for action in _thinkable_steps(game, seat, space):
            if (type(action), space) in allowed:
                continue
            problem = game.problem(action)
            if problem:
                reason = {language: n.reason(problem) for language, n in narrators.items()}
                refused.append({**action.to_json(), "reason": problem.key, "reason_text": reason})
    return refused


def game_narrators(game: Game) -> dict[str, Narrator]:
    """A narrator of ``game`` for every language of the page."""
    return {language: Narrator(game, language) for language in LANGUAGES}


def _space_of(action: Action) -> int | None:
    if isinstance(action, Build):
        return action.spaces[0] if action.spaces else None
    return getattr(action, "space", None)


def _thinkable_steps(game: Game, seat: int, space: int) -> list[Action]:
    if game.mortgaged[space]:
        return [Unmortgage(seat, space)]
    steps: list[Action] = [Mortgage(seat, space)]
    if game.board.spaces[space].kind == SpaceKind.STREET:
        level = game.level[space]
        steps[:0] = [Build(seat, (space,))] if level < game.tables.hotel_level else []
        steps += [SellBuilding(seat, space)] if level else []
    return steps


MAX_HISTORY_POINTS = 120
"""The end-of-game chart's most points per player."""


def worth_history(game: Game) -> dict[str, Any]:
    """Everyone's net worth at the start of each turn, for the end-of-game chart.

    The game is replayed from its record (the state between actions is not kept); a long
    game is thinned to at most MAX_HISTORY_POINTS turns, always keeping the last.
    """
    again = Game(game.setup, list(game.record))
    again.collect_events = False
    seats = range(again.players)

    def worth() -> list[int]:
        return [again.net_worth(s) if again.active[s] else 0 for s in seats]

    turns, values = [again.turn], [worth()]
    while (action := again.next_scripted_action()) is not None:
        again.apply(action)
        if again.turn != turns[-1]:
            turns.append(again.turn)
            values.append(worth())
    values[-1] = worth()  # the end (or now), within the last turn
    step = max(1, -(-len(turns) // MAX_HISTORY_POINTS))
    keep = sorted(set(range(0, len(turns), step)) | {len(turns) - 1})
    return {"turns": [turns[i] for i in keep], "net_worth": [values[i] for i in keep]}


def stats_json(game: Game) -> list[dict[str, int]]:
    """A few numbers per seat for the results: rent received and paid, deeds bought,
    trips to jail, doubles rolled."""
    stats = [
        {"rent_received": 0, "rent_paid": 0, "bought": 0, "jail": 0, "doubles": 0}
        for _ in range(game.players)
    ]
    for event in game.events:
        if isinstance(event, ev.RentPaid):
            stats[event.owner]["rent_received"] += event.amount
            stats[event.payer]["rent_paid"] += event.amount
        elif isinstance(event, ev.PropertyBought) or (
            isinstance(event, ev.AuctionWon) and event.space >= 0
        ):
            stats[event.seat]["bought"] += 1
        elif isinstance(event, ev.SentToJail):
            stats[event.seat]["jail"] += 1
        elif isinstance(event, ev.DiceRolled) and event.doubles:
            stats[event.seat]["doubles"] += 1
    return stats


def ranking_json(game: Game, turns_by_seat: list[int]) -> list[dict[str, Any]]:
    """Winners first (sharing rank 1), then by net worth, then the bankrupt, last out last."""
    out_order = [e.seat for e in game.events if isinstance(e, PlayerBankrupt)]

    def sort_key(seat: int) -> tuple[int, int]:
        if seat in game.winners:
            return (0, 0)
        if game.active[seat]:
            return (1, -game.net_worth(seat))
        return (2, -out_order.index(seat) if seat in out_order else 0)

    order = sorted(range(game.players), key=sort_key)
    stats = stats_json(game)
    ranking = []
    for position, seat in enumerate(order):
        houses, hotels = game.houses_and_hotels(seat)
        rank = 1 if seat in game.winners else position + 1
        ranking.append(
            {
                "rank": rank,
                "seat": seat,
                "name": game.names[seat],
                "net_worth": game.net_worth(seat) if game.active[seat] else 0,
                "cash": game.cash[seat],
                "properties": len(game.properties_of(seat)),
                "houses": houses,
                "hotels": hotels,
                "turns": turns_by_seat[seat],
                "bankrupt": not game.active[seat],
                **stats[seat],
            }
        )
    return ranking
