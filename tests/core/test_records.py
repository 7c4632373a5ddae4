"""Game records (records.py) and start positions (position.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from monopoly.bots.random_bot import RandomBot, play
from monopoly.core.actions import Roll
from monopoly.core.editions import get_edition
from monopoly.core.errors import RecordError
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.position import dump_position, load_position
from monopoly.core.records import game_state, load_record, record_of, replay
from monopoly.core.rules import RuleSet
from monopoly.core.state import BUY, ROLL
from tests.scenario import start

BOARD = get_edition("classic").board
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
CHEST_KEYS = [c.key for c in BOARD.decks["community_chest"]]


def played(rules: str, seed: int, players: int = 3) -> Game:
    game = Game.new(players, rules=rules, seed=seed)
    play(game, [RandomBot(seed * 10 + i) for i in range(players)], max_actions=50_000)
    return game


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("rules", ["standard", "short", "speed", "short+speed"])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_record_replays_to_the_same_state(rules: str, seed: int) -> None:
    game = played(rules, seed)
    assert game.over and game.winners
    text = json.dumps(record_of(game))
    again = replay(json.loads(text))
    assert again.over
    assert game_state(again) == game_state(game)
    assert again.winners == game.winners and again.end_reason == game.end_reason
    assert record_of(again) == json.loads(text)


def test_unfinished_game_record_replays_to_the_same_decision() -> None:
    game = Game.new(["Ann", "Bob", "Cy"], rules="speed", seed=5)
    play(game, [RandomBot(i) for i in range(3)], max_actions=150)
    assert not game.over
    data = json.loads(json.dumps(record_of(game)))
    assert "result" not in data
    again = replay(data)
    assert game_state(again) == game_state(game)
    assert again.names == ["Ann", "Bob", "Cy"]
    assert again.legal_actions() == game.legal_actions()


def test_record_from_a_position_replays() -> None:
    position = {
        "players": [{"position": 35, "cash": 900}, {"cash": 700}],
        "properties": {"39": {"owner": 1}},
    }
    game = start(position, rules="short", seed=4)
    play(game, [RandomBot(1), RandomBot(2)], max_actions=400)
    data = json.loads(json.dumps(record_of(game)))
    assert data["setup"]["position"]["players"] == position["players"]
    assert data["setup"]["rules"] == {"short_game": True}
    assert game_state(replay(data)) == game_state(game)


def test_load_record_from_a_file(tmp_path: Path) -> None:
    game = played("short", 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(game)), encoding="utf-8")
    assert game_state(load_record(path)) == game_state(game)
    broken = tmp_path / "broken.json"
    broken.write_text('{"setup": ', encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json: not valid JSON"):
        load_record(broken)
    with pytest.raises(RecordError, match=r"missing\.json: cannot read"):
        load_record(tmp_path / "missing.json")


# ------------------------------------------------------------------ a hand-written record
HAND_WRITTEN = """
{
  "format": "monopoly-record",
  "version": 1,
  "setup": {
    "edition": "classic",
    "rules": {},
    "players": ["Ann", "Bob"],
    "position": {
      "players": [{"position": 35}, {"position": 1, "cash": 1000}],
      "properties": {"39": {"owner": 1}, "37": {"owner": 1}},
      "decks": {"chance": CHANCE, "community_chest": CHEST}
    }
  },
  "log": [
    {"act": "roll", "seat": 0},
    {"dice": [1, 3]},
    {"act": "roll", "seat": 1},
    {"dice": [2, 2]},
    {"act": "buy", "seat": 1},
    {"act": "roll", "seat": 1},
    {"dice": [4, 5]},
    {"act": "decline", "seat": 1},
    {"act": "bid", "seat": 1, "amount": 50},
    {"act": "bid", "seat": 0, "amount": 120},
    {"act": "pass", "seat": 1}
  ]
}
""".replace("CHANCE", json.dumps(CHANCE_KEYS)).replace("CHEST", json.dumps(CHEST_KEYS))


def test_hand_written_record_reproduces_a_scenario() -> None:
    game = replay(json.loads(HAND_WRITTEN))
    # Ann: 35 -> 39 Boardwalk, Bob holds both dark blues: rent 2 x 50 = 100 (R-RENT-1)
    # Bob: 1 -> 5 Reading, bought for 200; doubles: 5 -> 14 Virginia Avenue, declined,
    # Ann wins the auction with 120 (R-AUCTION-2).
    assert game.position == [39, 14]
    assert game.cash == [1500 - 100 - 120, 1000 + 100 - 200]
    assert game.owner[5] == 1 and game.owner[14] == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)
    assert game.names == ["Ann", "Bob"]


def test_the_same_scenario_by_script_and_by_record_agree() -> None:
    data = json.loads(HAND_WRITTEN)
    position = data["setup"]["position"]
    game = start(position, dice=[(1, 3)])
    game.apply(Roll(0))
    assert game.cash[0] == 1400
    short = copy.deepcopy(data)
    short["log"] = short["log"][:2]
    assert dump_position(replay(short)) == dump_position(game)


# ------------------------------------------------------------------ broken records
def record(log: list[Any], **setup: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "players": ["Ann", "Bob"],
        "position": {
            "players": [{}, {}],
            "decks": {"chance": CHANCE_KEYS, "community_chest": CHEST_KEYS},
        },
    }
    base.update(setup)
    return {"format": "monopoly-record", "version": 1, "setup": base, "log": log}


def raises(data: object, *words: str) -> str:
    with pytest.raises(RecordError) as info:
        replay(data)
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def test_record_must_be_an_object_with_a_log_list() -> None:
    raises([], "a record must be a JSON object")
    raises("text", "a record must be a JSON object")
    raises({**record([]), "log": {"act": "roll"}}, "log: must be a list")
    raises({**record([]), "format": "chess-pgn"}, "not a MONOPOLY record", "chess-pgn")
    raises({**record([]), "version": 2}, "record version 2 is not supported")
    raises({"log": []}, "setup: must be an object")
    raises(record([], players=[]), "setup.players: must list the players")
    raises(record([], players=[{"token": "dog"}, "Bob"]), "setup.players[0]: needs a name")
    raises(record([], seed="x"), "setup.seed: must be a whole number")
    raises(record([], colour="red"), "setup: unknown key 'colour'")


def test_log_entry_that_is_not_an_object_names_the_entry() -> None:
    raises(
        record([{"act": "roll", "seat": 0}, {"dice": [1, 2]}, 7]),
        "log entry 3",
        "must be an object",
    )
    raises(record([{"act": "roll", "seat": 0}, {"die": [1, 2]}]), "log entry 2", "not an action")


def test_unknown_action() -> None:
    raises(record([{"act": "fly", "seat": 0}]), "log entry 1", "unknown action 'fly'")
    raises(record([{"act": "roll"}]), "log entry 1", "needs a 'seat'")
    raises(record([{"act": "bid", "seat": 0, "amount": "ten"}]), "log entry 1", "whole number")


def test_illegal_action_names_its_entry() -> None:
    message = raises(
        record([{"act": "roll", "seat": 0}, {"dice": [1, 2]}, {"act": "roll", "seat": 1}]),
        "log entry 3",
        "illegal action",
    )
    assert "waiting for seat 0" in message
    raises(record([{"act": "buy", "seat": 0}]), "log entry 1", "not your decision")
    raises(record([{"act": "roll", "seat": 5}]), "log entry 1", "there is no seat 5")


def test_wrong_dice_count() -> None:
    raises(
        record([{"act": "roll", "seat": 0}, {"dice": [1, 2, 3]}]), "log entry 2", "expected 2 dice"
    )
    speed_position = {
        "players": [{"speed_die": True}, {}],
        "decks": {"chance": CHANCE_KEYS, "community_chest": CHEST_KEYS},
    }
    raises(
        record(
            [{"act": "roll", "seat": 0}, {"dice": [1, 2]}], rules="speed", position=speed_position
        ),
        "log entry 2",
        "expected 3 dice",
    )
    raises(
        record([{"act": "roll", "seat": 0}, {"dice": [1]}]), "log entry 2", "list of 2 white dice"
    )
    raises(
        record([{"act": "roll", "seat": 0}, {"dice": [1, 7]}]),
        "log entry 2",
        "white dice show 1 to 6",
    )


def test_speed_face_must_be_a_face() -> None:
    message = raises(
        record([{"act": "roll", "seat": 0}, {"dice": [1, 2, "x"]}], rules="speed"),
        "log entry 2",
        "Speed Die shows",
    )
    assert '"bus"' in message and '"mr_monopoly"' in message
    raises(record([{"act": "roll", "seat": 0}, {"dice": [1, 2, 4]}], rules="speed"), "log entry 2")


def test_speed_faces_by_name_replay() -> None:
    speed_position = {
        "players": [{"speed_die": True}, {}],
        "decks": {"chance": CHANCE_KEYS, "community_chest": CHEST_KEYS},
    }
    data = record(
        [
            {"act": "roll", "seat": 0},
            {"dice": [1, 5, "bus"]},
            {"act": "choose_move", "seat": 0, "steps": 6},
        ],
        rules="speed",
        position=speed_position,
    )
    game = replay(data)
    assert game.position[0] == 6
    assert game.decision is not None and (game.decision.kind, game.decision.space) == (BUY, 6)


def test_shuffle_listing_wrong_cards() -> None:
    wrong = [*CHANCE_KEYS[:-1], "advance_to_go"]
    data = record([{"shuffle": "chance", "order": wrong}], position=None)
    raises(data, "log entry 1", "chance deck must list exactly its cards")
    data = record([{"shuffle": "chance", "order": CHANCE_KEYS[:15]}], position=None)
    raises(data, "log entry 1", "must list exactly")
    data = record([{"shuffle": "jokers", "order": []}], position=None)
    raises(data, "log entry 1", "a shuffle names a deck role")
    data = record([{"shuffle": "community_chest", "order": CHEST_KEYS}], position=None)
    raises(data, "log entry 1", "the chance deck is shuffled here, not 'community_chest'")
    data = record([{"dice": [1, 2]}], position=None)
    raises(data, "log entry 1", "expected 'shuffle' here, found 'dice'")


def test_extra_entries_after_game_over() -> None:
    game = played("short", 2)
    data = json.loads(json.dumps(record_of(game)))
    count = len(data["log"])
    data["log"].append({"dice": [1, 2]})
    raises(data, f"log entry {count + 1}", "the game is over but the record goes on")
    data["log"][-1] = {"act": "roll", "seat": 0}
    raises(data, f"log entry {count + 1}", "the game is over")


def test_unused_entry_before_a_decision() -> None:
    data = record([{"act": "roll", "seat": 0}, {"dice": [1, 2]}, {"dice": [3, 4]}])
    raises(data, "log entry 3", "'dice' is not needed here")


def test_result_must_match() -> None:
    game = played("short", 2)
    data = json.loads(json.dumps(record_of(game)))
    losers = [s for s in range(3) if s not in game.winners]
    data["result"]["winners"] = losers[:1]
    raises(data, "result: the record says")
    assert replay(data, check_result=False).winners == game.winners


def test_unknown_edition() -> None:
    raises(record([], edition="atlantis", position=None), "setup.edition", "atlantis")


def test_unknown_rule_option_or_rule_set() -> None:
    raises(record([], rules={"bogus": True}), "setup.rules", "unknown rule option 'bogus'")
    raises(record([], rules={"turn_limit": "ten"}), "setup.rules", "turn_limit")
    raises(record([], rules="turbo"), "setup.rules", "unknown rule set 'turbo'")


def test_bad_language_or_player_count() -> None:
    raises(record([], language="fr"), "unknown language 'fr'")
    raises(record([], players=["Solo"], position=None), "a game needs 2 to 6 players")


def test_deal_entry_replays_and_bad_deal_fails() -> None:
    deal = [1, 3, 39, 37, 5, 15]
    log = [
        {"shuffle": "chance", "order": CHANCE_KEYS},
        {"shuffle": "community_chest", "order": CHEST_KEYS},
        {"deal": deal},
        {"dice": [6, 6]},
        {"dice": [1, 1]},
    ]
    game = replay(record(log, rules="short", position=None))
    assert game.properties_of(0) == [1, 5, 39] and game.properties_of(1) == [3, 15, 37]
    assert game.decision is not None and game.decision.seat == 0
    bad = copy.deepcopy(log)
    bad[2] = {"deal": [1, 2, 3]}
    raises(record(bad, rules="short", position=None), "log entry 3", "distinct property spaces")
    bad[2] = {"deal": "1,3"}
    raises(record(bad, rules="short", position=None), "log entry 3", "a deal lists space indexes")


# ------------------------------------------------------------------ positions
def two(players: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"players": players or [{}, {}], **extra}


def bad_position(position: dict[str, Any], *words: str, rules: str = "standard") -> None:
    with pytest.raises(RecordError) as info:
        start(position, rules=rules)
    message = str(info.value)
    assert message.startswith("position: ")
    for word in words:
        assert word in message, message


def test_position_uneven_buildings() -> None:
    bad_position(
        two(properties={"1": {"owner": 0, "buildings": 3}, "3": {"owner": 0, "buildings": 1}}),
        "group",
        "buildings must be even (R-BUILD-2)",
    )
    bad_position(
        two(
            properties={"1": {"owner": 0, "buildings": "hotel"}, "3": {"owner": 0, "buildings": 3}}
        ),
        "even",
    )


def test_position_buildings_on_a_mortgaged_group() -> None:
    bad_position(
        two(properties={"1": {"owner": 0, "buildings": 1}, "3": {"owner": 0, "mortgaged": True}}),
        "buildings on a group with a mortgage (R-BUILD-7)",
    )
    bad_position(
        two(properties={"1": {"owner": 0, "buildings": 1, "mortgaged": True}, "3": {"owner": 0}}),
        "properties[1]",
        "mortgaged street cannot carry buildings",
    )


def test_position_buildings_need_the_whole_group_and_a_street() -> None:
    bad_position(
        two(properties={"1": {"owner": 0, "buildings": 1}, "3": {"owner": 1}}),
        "whole group in one hand",
    )
    bad_position(two(properties={"1": {"owner": 0, "buildings": 1}}), "whole group")
    bad_position(
        two(properties={"5": {"owner": 0, "buildings": 1}}), "only streets carry buildings"
    )
    bad_position(two(properties={"1": {"buildings": 1}}), "a Bank property has no buildings")
    bad_position(
        two(properties={"1": {"owner": 0, "buildings": 5}, "3": {"owner": 0, "buildings": 5}}),
        'at most 4 houses; write "hotel"',
    )


def test_position_too_many_houses_or_hotels_for_the_bank() -> None:
    props = {str(s): {"owner": 0, "buildings": 4} for s in (1, 3, 6, 8, 9, 11, 13, 14, 16)}
    props.update({"18": {"owner": 0, "buildings": 4}, "19": {"owner": 0, "buildings": 4}})
    bad_position(two(properties=props), "bank", "more buildings on the board than the 32 houses")
    streets = [
        s
        for s in BOARD.properties
        if BOARD.spaces[s].group in ("brown", "light_blue", "pink", "orange", "red")
    ]
    hotels = {str(s): {"owner": 0, "buildings": "hotel"} for s in streets}
    assert len(hotels) == 14
    bad_position(two(properties=hotels), "12 hotels")


def test_position_jail_card_held_twice() -> None:
    bad_position(
        two([{"jail_cards": ["chance"]}, {"jail_cards": ["chance"]}]),
        "jail_cards",
        "only one Get Out of Jail Free card",
    )
    bad_position(two([{"jail_cards": ["chance", "chance"]}, {}]), "only one")
    bad_position(two([{"jail_cards": ["joker"]}, {}]), "players[0].jail_cards", "deck roles")


def test_position_jail_player_must_stand_on_jail() -> None:
    bad_position(
        two([{"jail_turns": 0, "position": 5}, {}]),
        "players[0]",
        "a player in jail must stand on the jail space",
    )
    bad_position(two([{"jail_turns": 3, "position": 10}, {}]), "jail_turns", "from -1 to 2, got 3")


def test_position_decks_must_match_the_cards_not_held() -> None:
    bad_position(
        two(decks={"chance": CHANCE_KEYS[:15]}), "decks.chance", "exactly the cards not held"
    )
    bad_position(
        two([{"jail_cards": ["chance"]}, {}], decks={"chance": CHANCE_KEYS}),
        "decks.chance",
        "not held",
    )
    bad_position(two(decks={"chance": [*CHANCE_KEYS[:15], "advance_to_go"]}), "decks.chance")
    bad_position(two(decks=["chance"]), "decks", "must be an object")
    held = [k for k in CHANCE_KEYS if k != "get_out_of_jail_free"]
    game = start(two([{"jail_cards": ["chance"]}, {}], decks={"chance": held}))
    assert list(game.decks["chance"]) == held and game.jail_cards[0] == ["chance"]


def test_position_bank_counts_must_agree_with_the_board() -> None:
    props = {"1": {"owner": 0, "buildings": 1}, "3": {"owner": 0, "buildings": 1}}
    bad_position(
        two(properties=props, bank={"houses": 32}),
        "bank.houses",
        "the board leaves 30 in the Bank, not 32",
    )
    bad_position(two(properties=props, bank={"hotels": 11}), "bank.hotels", "leaves 12")
    bad_position(two(properties=props, bank={"cash": 5}), "bank", "unknown key 'cash'")
    game = start(two(properties=props, bank={"houses": 30, "hotels": 12}))
    assert game.bank_houses == 30 and game.bank_hotels == 12


def test_position_other_checks() -> None:
    seats = (PlayerSetup("A"), PlayerSetup("B"))
    with pytest.raises(RecordError, match="position: players: must list all 2 players"):
        Game(Setup(seats, position={"players": [{}]}))
    bad_position(two(colour="red"), "unknown key 'colour'")
    bad_position(two([{"position": 40}, {}]), "players[0].position", "0 to 39")
    bad_position(two([{"cash": -5}, {}]), "players[0].cash")
    bad_position(two([{"hat": 1}, {}]), "players[0]", "unknown key 'hat'")
    bad_position(two([{"bankrupt": True}, {}]), "at least two players")
    bad_position({"players": [{"bankrupt": True}, {}, {}], "turn": 0}, "turn", "seat 0 is bankrupt")
    bad_position(two(turn=2), "turn", "0 to 1")
    bad_position(two(properties={"4": {"owner": 0}}), "properties[4]", "not a property space")
    bad_position(two(properties={"x": {"owner": 0}}), "properties[x]", "space indexes")
    bad_position(two(properties={"1": {"owner": 2}}), "properties[1].owner")
    bad_position(
        {"players": [{"bankrupt": True}, {}, {}], "turn": 1, "properties": {"1": {"owner": 0}}},
        "owner 0 is bankrupt",
    )


def test_dump_and_load_position_round_trip() -> None:
    for rules, seed in (("standard", 1), ("short+speed", 2), ("speed", 3)):
        game = Game.new(3, rules=rules, seed=seed)
        bots = [RandomBot(i + seed) for i in range(3)]
        dumped = dump_position(game)
        for _ in range(300):  # the last position of a game still running
            decision = game.decision
            assert decision is not None
            game.apply(bots[decision.seat].choose(game, decision.seat))
            if game.over:
                break
            dumped = dump_position(game)
        dumped = json.loads(json.dumps(dumped))
        copy_ = start(dumped, rules=rules)
        assert dump_position(copy_) == dumped
        assert copy_.cash == [p["cash"] for p in dumped["players"]]
        assert list(copy_.decks["chance"]) == dumped["decks"]["chance"]
        owned = {int(k): v["owner"] for k, v in dumped["properties"].items()}
        assert {s: copy_.owner[s] for s in owned} == owned


def test_dump_position_of_a_built_position_round_trip() -> None:
    position = {
        "players": [
            {"position": 10, "jail_turns": 1, "jail_cards": ["community_chest"]},
            {"cash": 321, "speed_die": True},
            {"bankrupt": True},
        ],
        "properties": {
            "1": {"owner": 0, "buildings": "hotel"},
            "3": {"owner": 0, "buildings": 4},
            "5": {"owner": 1, "mortgaged": True},
        },
        "turn": 1,
        "free_parking_pot": 75,
    }
    game = start(position, rules=RuleSet.named("speed", free_parking_pot=True))
    dumped = dump_position(game)
    assert dumped["bank"] == {"houses": 28, "hotels": 11}
    assert dumped["players"][1]["speed_die"] is True and dumped["players"][2]["bankrupt"] is True
    assert dumped["properties"]["1"]["buildings"] == "hotel"
    seats = tuple(PlayerSetup(n) for n in "ABC")
    setup = Setup(seats, "classic", "en", RuleSet.named("speed"), 0, None)
    other = Game(setup)
    other.tasks.clear()
    load_position(other, json.loads(json.dumps(dumped)))
    assert dump_position(other) == dumped


def test_a_clone_plays_on_without_touching_the_original() -> None:
    """``Game.clone()`` copies the whole state, the pending decision and the generator."""
    game = Game.new(3, "classic", "speed", seed=21)
    play(game, [RandomBot(i) for i in range(3)], max_actions=200)
    before = game_state(game)
    twin = game.clone()
    assert game_state(twin) == before
    play(twin, [RandomBot(i + 7) for i in range(3)], max_actions=300)
    assert game_state(game) == before
    assert game_state(twin) != before
    again = game.clone()
    play(game, [RandomBot(5) for _ in range(3)], max_actions=100)
    play(again, [RandomBot(5) for _ in range(3)], max_actions=100)
    assert game_state(again) == game_state(game)
