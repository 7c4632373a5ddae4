"""`monopoly play`: the game in the terminal, driven by scripted keyboard input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from monopoly.bots.base import make_bot
from monopoly.cli.terminal import SAVE_KEY, TerminalGame
from monopoly.core import events as ev
from monopoly.core.actions import ProposeTrade
from monopoly.core.game import Game
from monopoly.core.records import game_state, load_record, record_of, replay
from monopoly.core.rules import RuleSet
from monopoly.core.state import BID, BUY, ROLL, TRADE
from tests.command import monopoly
from tests.scenario import start

BUS, MR_MONOPOLY = 4, 5


class Keyboard:
    """Types the scripted lines, one per prompt; the end of the script ends the input."""

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        self.lines = list(lines)
        self.out = out

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.out.write(line + "\n")
        return line


def play(
    game: Game,
    *lines: str,
    bots: dict[int, str] | None = None,
    save: Path | None = None,
) -> str:
    """Run the terminal on ``game`` with the typed ``lines`` (``bots``: the computer
    players' levels by seat); returns everything shown."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    keyboard = Keyboard(list(lines), out)
    levels = bots or {}
    players = {seat: make_bot(level, seat) for seat, level in levels.items()}
    TerminalGame(game, players, console, keyboard, save_path=save, levels=levels).run()
    assert not keyboard.lines, f"lines not read: {keyboard.lines}"
    return out.getvalue()


def test_roll_then_buy() -> None:
    game = start(dice=[(1, 2)])
    shown = play(game, "1", "1")
    assert "P0, your turn: roll the dice." in shown
    assert "1  Roll the dice" in shown
    assert "P0 rolls 1 + 2." in shown
    assert "1  Buy Baltic Avenue for $60" in shown
    assert game.owner[3] == 0 and game.cash[0] == 1440


def test_decline_then_auction_with_bid_command_and_menu() -> None:
    game = start(dice=[(1, 2)])
    play(game, "1", "2", "b 30", "2", "45", "1")
    # P0 bids 30 (command), P1 bids 45 (menu entry, then the amount), P0 passes.
    assert game.owner[3] == 1
    assert game.cash == [1500, 1455]


def test_jail_card_pay_and_roll() -> None:
    jailed = {"players": [{"position": 10, "jail_turns": 0, "jail_cards": ["chance"]}, {}]}
    game = start(jailed)
    shown = play(game, "3")
    assert "1  Roll for doubles" in shown
    assert "2  Pay the fine ($50)" in shown
    assert "3  Use your Get Out of Jail Free card (Chance)" in shown
    assert game.jail_cards[0] == [] and game.jail_turns[0] == -1
    assert game.decision is not None and game.decision.kind == ROLL

    game = start(jailed)
    play(game, "2")
    assert game.cash[0] == 1450 and game.jail_turns[0] == -1

    game = start(jailed, dice=[(1, 2)])
    play(game, "1")
    assert game.jail_turns[0] == 1 and game.position[0] == 10


def test_raising_cash_by_mortgaging_pays_the_rent() -> None:
    position = {
        "players": [{"position": 36, "cash": 10}, {}],
        "properties": {"5": {"owner": 0}, "39": {"owner": 1}},
    }
    game = start(position, dice=[(1, 2)])
    shown = play(game, "1", "1")
    assert "P0, you owe $50 to P1 and have $10" in shown
    assert "Declare bankruptcy" not in shown  # the mortgage can still pay
    assert "1  Mortgage Reading Railroad (+$100)" in shown
    assert game.mortgaged[5]
    assert game.cash == [60, 1550]


def test_bankruptcy_is_offered_only_when_nothing_is_left_and_ends_with_the_ranking() -> None:
    position = {"players": [{"position": 36, "cash": 10}, {}], "properties": {"39": {"owner": 1}}}
    game = start(position, dice=[(1, 2)])
    shown = play(game, "1", "1")
    assert "1  Declare bankruptcy" in shown
    assert game.over and game.winners == (1,)
    ranking = shown.split("Final standings: the last player standing")[1]
    assert ranking.index("P1") < ranking.index("P0")
    assert "$1,510" in ranking and "winner" in ranking


def trade_received_mortgaged() -> Game:
    game = start({"players": [{}, {}], "properties": {"1": {"owner": 1, "mortgaged": True}}})
    game.apply(ProposeTrade(1, 0, give=(1,)))
    return game


def test_mortgage_received_lift_or_keep() -> None:
    game = trade_received_mortgaged()
    shown = play(game, "1", "1")
    assert "P1 offers you a trade: you get Mediterranean Avenue; you give nothing" in shown
    assert "1  Lift the mortgage on Mediterranean Avenue ($33)" in shown
    assert "2  Keep Mediterranean Avenue mortgaged (pay $3 interest)" in shown
    assert game.owner[1] == 0 and not game.mortgaged[1] and game.cash[0] == 1467

    game = trade_received_mortgaged()
    play(game, "1", "2")
    assert game.mortgaged[1] and game.cash[0] == 1497


def test_a_computer_offer_answered_with_a_counter_offer() -> None:
    position = {"players": [{}, {}], "properties": {"1": {"owner": 1}, "3": {"owner": 0}}}
    game = start(position)
    game.apply(ProposeTrade(1, 0, give=(1,), take=(3,)))
    # Counter: give nothing but $10, take Mediterranean Avenue (entry 1), send.
    play(game, "3", "", "10", "1", "", "y", bots={1: "normal"})
    proposals = [e.offer for e in game.events if isinstance(e, ev.TradeProposed)]
    assert proposals[-1] == ProposeTrade(0, 1, give_cash=10, take=(1,))
    rejected = [e for e in game.events if isinstance(e, ev.TradeRejected)]
    assert (rejected[0].seat, rejected[0].partner) == (0, 1)  # the counter rejects the offer
    answered = [e for e in game.events if isinstance(e, ev.TradeAccepted | ev.TradeRejected)]
    assert len(answered) == 2  # and the computer answered the counter-offer


def test_proposing_a_trade_is_checked_before_it_is_sent() -> None:
    game = start({"players": [{}, {}, {}], "properties": {"1": {"owner": 2}}})
    before = game_state(game)
    # Partner 2 (P2); P0 has no deeds: give no cash; take Mediterranean Avenue and $5000.
    shown = play(game, "t", "2", "", "1", "5000")
    assert "Not possible: the partner holds only $1,500" in shown
    assert game_state(game) == before
    shown = play(game, "t", "2", "", "1", "", "n")
    assert "Trade cancelled" in shown and game_state(game) == before
    play(game, "t", "2", "20", "1", "", "y")
    assert game.decision is not None and game.decision.kind == TRADE
    assert game.decision.seat == 2 and game.decision.data.give_cash == 20


def test_speed_die_bus_and_triples() -> None:
    speed = {"players": [{"speed_die": True}, {}]}
    game = start(speed, rules="speed", dice=[(1, 2, BUS)])
    shown = play(game, "1", "3")
    assert "the Speed Die shows the Bus" in shown
    assert "3  Move 3 spaces (to Baltic Avenue)" in shown
    assert game.position[0] == 3

    game = start(speed, rules="speed", dice=[(2, 2, 2)])
    shown = play(game, "1", "1", "nowhere", "1", "boardwalk")
    assert "you rolled triples" in shown
    assert "No space is called “nowhere”" in shown
    assert game.position[0] == 39
    assert game.decision is not None and game.decision.kind == BUY

    game = start(speed, rules="speed", dice=[(3, 3, 3)])
    play(game, "1", "1", "24")
    assert game.position[0] == 24


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("de", "1  1 Feld ziehen (nach Gemeinschaftsfeld)", "2  2 Felder ziehen (nach Turmstraße)"),
        ("en", "1  Move 1 space (to Community Chest)", "2  Move 2 spaces (to Baltic Avenue)"),
    ],
)
def test_the_bus_choices_count_in_the_languages_plural_forms(
    language: str, one: str, two: str
) -> None:
    """CLDR plural rules through Babel: "1 Feld", "2 Felder" (not "1 Felder")."""
    speed = {"players": [{"speed_die": True, "position": 1}, {}]}
    game = start(speed, rules="speed", dice=[(1, 2, BUS)], language=language)
    shown = play(game, "1", "2")
    assert one in shown and two in shown
    assert game.position[0] == 3


def test_building_shortage_want_auction_and_place() -> None:
    properties = {str(s): {"owner": 1, "buildings": 4} for s in (21, 23, 24, 26, 27, 29)}
    properties |= {"31": {"owner": 1, "buildings": 2}, "32": {"owner": 1, "buildings": 2}}
    properties |= {"34": {"owner": 1, "buildings": 3}, "1": {"owner": 0}, "3": {"owner": 0}}
    game = start({"players": [{}, {}], "properties": properties})
    assert game.bank_houses == 1
    # P0 builds the last house; P1 wants one too; P0 bids 10, P1 passes; P0 places it.
    shown = play(game, "2", "2", "b 10", "1", "1")
    assert "2  Build a house on Mediterranean Avenue ($50)" in shown
    assert "How many do you want?" in shown and "2  I want 1" in shown
    assert "P0, place the house you won on one of your streets." in shown
    assert game.level[1] == 1 and game.bank_houses == 0 and game.cash[0] == 1490


def test_rent_claims_are_offered_to_a_person_while_a_computer_plays() -> None:
    rules = RuleSet.named("standard", rent_must_be_claimed=True)
    position = {"players": [{}, {"position": 37}], "properties": {"39": {"owner": 0}}, "turn": 1}
    game = start(position, rules=rules, dice=[(1, 1), (1, 2)])
    shown = play(game, "1", bots={1: "easy"})
    assert "P0, rent is owed to you" in shown
    assert "1  Claim $50 rent from P1 for Boardwalk" in shown
    assert game.cash[0] == 1550

    game = start(position, rules=rules, dice=[(1, 1), (1, 2)])
    shown = play(game, "2", bots={1: "easy"})
    assert shown.count("rent is owed to you") == 1  # not asked again while P1 plays on
    assert game.cash[0] == 1500
    # P0's own turn: the claim is still open until P0 rolls, so it is in P0's menu.
    assert game.decision is not None and game.decision.seat == 0
    assert shown.rindex("Claim $50 rent from P1") > shown.rindex("P0, your turn")


def test_bad_input_explains_and_changes_nothing() -> None:
    game = start(dice=[(1, 2)])
    play(game, "1")
    before, record = game_state(game), len(game.record)
    shown = play(game, "abc", "0", "7", "b 10", "s 0", "s avenue", "s nowhere", "", "h", "v")
    assert "“abc” is not a menu number or command" in shown
    assert "There is no entry 0: choose 1 to 2." in shown
    assert "There is no entry 7" in shown
    assert "No auction is waiting for your bid." in shown
    assert "GO has no title deed." in shown
    assert "“avenue” could be" in shown
    assert "propose a trade" in shown  # the help
    assert game_state(game) == before and len(game.record) == record
    # In the auction: engine refusals in the game's words, then a legal bid.
    shown = play(game, "2", "b 99999", "b ten", "b 0")
    assert "Not possible: you can bid at most your cash, $1,500" in shown
    assert "“ten” is not an amount" in shown
    assert "Not possible: a bid must be at least $1" in shown
    assert game.decision is not None and game.decision.kind == BID and game.bid_range()[0] == 1


def test_deed_shows_rents_costs_and_owner() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {"37": {"owner": 1, "buildings": 2}, "39": {"owner": 1, "buildings": 2}},
        }
    )
    shown = play(game, "s 39")
    for text in ("Boardwalk", "$400", "$50", "$600", "$2,000", "Each house costs", "$200"):
        assert text in shown
    assert "Owner" in shown.split("Boardwalk")[-1] and "P1" in shown.split("Owner")[-1]


@pytest.mark.parametrize(("rules", "per_hotel"), [("standard", 4), ("short", 3)])
def test_deed_shows_the_rule_sets_building_ladder(rules: str, per_hotel: int) -> None:
    """R-SHORT-2: in the short game a hotel follows 3 houses; the deed has no 4-house row."""
    game = start({"players": [{}, {}]}, rules=rules)
    shown = play(game, "s 39")
    assert f"with a hotel (after {per_hotel} houses)" in shown
    assert "with 3 houses" in shown and "$1,400" in shown and "$2,000" in shown
    assert ("with 4 houses" in shown) == (per_hotel == 4)
    assert ("$1,700" in shown) == (per_hotel == 4)


def test_a_whole_game_against_computers_reaches_the_end() -> None:
    rules = RuleSet.named("standard", turn_limit=150)
    game = Game.new(["Ann", "Ben (easy)", "Cleo (normal)"], "classic", rules, seed=4)
    bots = {1: make_bot("easy", 1), 2: make_bot("normal", 2)}
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    answers: list[str] = []

    def first_option(prompt: str) -> str:
        answers.append(prompt)
        return "1"

    result = TerminalGame(game, bots, console, first_option).run()
    assert result == "over" and game.over
    assert len(answers) > 50
    shown = out.getvalue()
    assert "Game over:" in shown and "Final standings:" in shown
    for name in game.names:
        assert name in shown.split("Final standings:")[-1]


def test_quit_saves_a_record_that_resumes_in_the_same_state(tmp_path: Path) -> None:
    game = Game.new(["Ann", "Ben (easy)"], seed=9)
    path = tmp_path / "game.json"
    shown = play(game, "1", "1", "1", "q", bots={1: "easy"}, save=path)
    assert f"Saved to {path}" in shown
    saved = json.loads(path.read_text("utf-8"))
    assert saved[SAVE_KEY] == {"humans": [0], "bots": {"1": "easy"}}
    resumed = load_record(path)
    assert game_state(resumed) == game_state(game)
    assert resumed.decision is not None and resumed.decision.seat == 0


def test_german_game_speaks_german() -> None:
    game = start(dice=[(1, 2)], language="de")
    shown = play(game, "1", "x", "2", "b 99999")
    assert "P0, du bist am Zug: würfle." in shown
    assert "1  Würfeln" in shown
    assert "P0 würfelt" in shown  # the narrator
    assert "Besitzrechtkarten" in shown and "Geld" in shown
    assert "ist keine Menünummer" in shown
    assert "Nicht kaufen: die Bank versteigert es" in shown
    assert "Nicht möglich: du kannst höchstens dein Geld bieten: 1.500 €" in shown


def test_german_zelda_uses_the_editions_words() -> None:
    properties = {"1": {"owner": 0}, "3": {"owner": 0}}
    game = start({"players": [{}, {}], "properties": properties}, edition="zelda", language="de")
    shown = play(game, "h")
    assert "bauen: 1 × Deku-Spross" in shown  # "house" in the Zelda edition
    assert "Deku-Sprosse" in shown  # the Bank's stock


def test_play_command_with_piped_input_saves_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    command = ["play", "--players", "3", "--humans", "Ann"]
    command += ["--bots", "easy,hard", "--seed", "21", "--save", str(path)]
    result = monopoly(*command, stdin="1\n1\nabc\n1\nq\n")
    assert result.returncode == 0, result.stderr
    assert "Ann, your turn: roll the dice." in result.stdout
    assert "is not a menu number or command" in result.stdout
    assert f"Saved to {path}" in result.stdout
    data = json.loads(path.read_text("utf-8"))
    game = replay(data)
    assert game.names == ["Ann", "Ada (easy)", "Ben (hard)"]
    assert any(
        entry["act"] == "roll" and entry["seat"] == 0 for entry in data["log"] if "act" in entry
    )
    assert data[SAVE_KEY] == {"humans": [0], "bots": {"1": "easy", "2": "hard"}}

    resumed = monopoly("play", "--resume", str(path), stdin="q\n")
    assert resumed.returncode == 0, resumed.stderr
    assert game_state(load_record(path)) == game_state(game)
    assert record_of(load_record(path))["log"] == data["log"]


def test_hotel_breakdown_is_the_owners_choice_in_the_menu() -> None:
    """R-BUILD-4: three orange hotels, two houses in the Bank: selling one hotel asks how
    the group comes down, each arrangement with what it keeps and what it pays back."""
    properties = {str(s): {"owner": 1, "buildings": 4} for s in (21, 23, 24, 26, 27, 29)}
    properties |= {"37": {"owner": 1, "buildings": 3}, "39": {"owner": 1, "buildings": 3}}
    properties |= {str(s): {"owner": 0, "buildings": "hotel"} for s in (16, 18, 19)}
    game = start({"players": [{"cash": 100}, {"cash": 100}], "properties": properties})
    shown = play(game, "s 16")
    assert "choose how the group comes down" not in shown
    sell = next(line for line in shown.splitlines() if "Sell the hotel on St. James Place" in line)
    shown = play(game, sell.split()[0])
    assert "too few houses to exchange the hotel on St. James Place" in shown
    assert "St. James Place 1, Tennessee Avenue 1, New York Avenue 0 (+$650)" in shown
    option = next(line for line in shown.splitlines() if "St. James Place 0," in line)
    play(game, option.split()[0])
    assert [game.level[s] for s in (16, 18, 19)] == [0, 1, 1]
    assert game.cash[0] == 100 + 650


# ---------------------------------------------------------------------- issue 23
def test_enter_picks_the_only_answer_and_asks_again_when_there_are_more() -> None:
    game = start(dice=[(1, 2)])
    shown = play(game, "")  # the only answer: roll
    assert "1  Roll the dice  (Enter)" in shown
    assert game.last_roll == (1, 2) and game.position[0] == 3
    before = game_state(game)
    shown = play(game, "")  # buy or decline: Enter only shows the menu again
    assert game_state(game) == before
    assert shown.count("1  Buy Baltic Avenue for $60") == 2
    assert "(Enter)" not in shown


def board_lines(shown: str, name: str) -> list[str]:
    """The three lines of the drawn board's row that holds the space ``name``."""
    lines = shown.splitlines()
    row = next(i for i, line in enumerate(lines) if name in line)
    return lines[row : row + 3]


def column_of(line: str, name: str) -> slice:
    start = line.index(name)
    return slice(start, start + 7)


def test_v_draws_the_board_with_owners_buildings_and_tokens() -> None:
    game = start(
        {
            "players": [{"position": 39}, {"position": 10, "jail_turns": 1}, {"position": 10}],
            "properties": {
                "37": {"owner": 1, "buildings": "hotel"},
                "39": {"owner": 1, "buildings": 4},
                "5": {"owner": 0, "mortgaged": True},
            },
        }
    )
    shown = play(game, "v")
    drawn = shown.split("P0> v")[-1]
    park = board_lines(drawn, "▌Park P")
    assert park[1][column_of(park[0], "▌Park P")].strip() == "2 ▣"
    boardwalk = board_lines(drawn, "▌Boardw")
    cell = column_of(boardwalk[0], "▌Boardw")
    assert boardwalk[1][cell].strip() == "2 ⌂4"  # P1's houses
    assert boardwalk[2][cell].strip() == "1"  # P0 stands there
    bottom = board_lines(drawn, "▌Readin")
    assert bottom[1][column_of(bottom[0], "▌Readin")].strip() == "1 (M)"
    assert bottom[2][column_of(bottom[0], "Jail")].strip() == "#23"  # P1 in jail, P2 visits
    assert "Free P" in drawn and "GO" in drawn
    assert "2 P1: $1,500" in drawn  # who is who, in the middle
    assert "Cash" not in drawn  # the board, not the players' table


def test_resign_asks_first_then_leaves_and_the_computers_play_on() -> None:
    rules = RuleSet.named("standard", turn_limit=40)
    game = Game.new(["Ann", "Ben", "Cleo"], "classic", rules, seed=6)
    shown = play(game, "r", "n", "r", "y", bots={1: "easy", 2: "normal"})
    assert "Resign and leave the game?" in shown
    assert "You play on." in shown
    assert "Ann resigns and leaves the game." in shown
    assert "Ann is bankrupt." in shown
    assert not game.active[0] and game.over and 0 not in game.winners
    assert "Final standings:" in shown


@pytest.mark.parametrize(
    ("language", "asked"),
    [
        ("en", "You owe $100 to P1: you go bankrupt to P1, who receives your cash"),
        ("de", "Du schuldest P1 100 €: Du gehst bankrott an P1, P1 erhält dein Geld"),
    ],
)
def test_resign_while_raising_cash_for_a_player_says_the_deeds_go_to_that_player(
    language: str, asked: str
) -> None:
    """R-BANKRUPT-2: resigning in debt to a player makes you bankrupt to them, and the
    question says so; P1 receives the cash and Reading Railroad."""
    position = {
        "players": [{"position": 35, "cash": 50}, {}, {}],
        "properties": {"37": {"owner": 1}, "39": {"owner": 1}, "5": {"owner": 0}},
    }
    game = start(position, dice=[(1, 3)], language=language)
    shown = play(game, "1", "r", "y" if language == "en" else "j")
    assert asked in shown
    assert game.owner[5] == 1 and game.cash[1] == 1500 + 50 and not game.active[0]


def test_resign_in_german() -> None:
    game = start({"players": [{}, {}]}, language="de")
    shown = play(game, "r", "j")
    assert "Aufgeben und das Spiel verlassen?" in shown
    assert "P0 gibt auf und verlässt das Spiel." in shown
    assert game.over and game.winners == (1,)
