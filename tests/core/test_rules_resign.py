"""Resign: a player can always leave a lost game. It makes them bankrupt to the Bank
(R-BANKRUPT-3: buildings back to the Bank, deeds auctioned unmortgaged, jail cards under
their decks), or to the player they are raising cash for (R-BANKRUPT-2); the last player
left wins (R-END-1); in the short game the game ends once it is settled (R-SHORT-4).
A resign is recorded and replays."""

from __future__ import annotations

import json

from monopoly.core import events as ev
from monopoly.core.actions import (
    Action,
    Bid,
    PassBid,
    ProposeTrade,
    Resign,
    Roll,
)
from monopoly.core.narrate import Narrator
from monopoly.core.records import game_state, record_of, replay
from monopoly.core.state import BID, BUY, RAISE_CASH, ROLL, TRADE
from tests.scenario import assert_illegal, new_game, start, waiting
from tests.spaces import BALTIC, BOARDWALK, MED, PARK_PLACE, READING

JAIL_CARD = "get_out_of_jail_free"


def resigning_seat_1() -> dict[str, object]:
    """Seat 1 holds two built-on browns, a mortgaged railroad and a jail card."""
    return {
        "players": [{}, {"cash": 300, "jail_cards": ["chance"]}, {}],
        "properties": {
            MED: {"owner": 1, "buildings": 1},
            BALTIC: {"owner": 1, "buildings": 1},
            READING: {"owner": 1, "mortgaged": True},
        },
    }


def test_r_bankrupt_3_resign_out_of_turn_gives_everything_to_the_bank_and_auctions() -> None:
    game = start(resigning_seat_1(), dice=[(4, 6)])
    assert waiting(game) == (ROLL, 0)
    events = game.apply(Resign(1))
    assert events[0] == ev.PlayerResigned(1)
    assert ev.PlayerBankrupt(1, -1) in events
    assert not game.active[1] and game.cash[1] == 0
    # Houses back to the Bank, deeds to the Bank unmortgaged, the card under its deck.
    assert game.bank_houses == 32
    assert (game.level[MED], game.level[BALTIC]) == (0, 0)
    assert not any(game.mortgaged[s] for s in (MED, BALTIC, READING))
    assert game.jail_cards[1] == [] and game.decks["chance"][-1] == JAIL_CARD
    # The auctions start at once, from the player whose turn it is.
    assert ev.AuctionStarted(MED, (0, 2)) in events
    assert waiting(game) == (BID, 0)
    game.apply(Bid(0, 20))
    game.apply(PassBid(2))
    assert game.owner[MED] == 0 and game.cash[0] == 1500 - 20
    for space in (BALTIC, READING):
        assert game.decision is not None and game.decision.space == space
        game.apply(PassBid(0))
        game.apply(PassBid(2))
        assert game.owner[space] == -1
    # Then play goes on where it was: seat 0 rolls, and seat 1 is skipped.
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))  # to Jail, just visiting
    assert waiting(game) == (ROLL, 2)


def test_r_end_1_resign_in_a_two_player_game_makes_the_other_the_winner() -> None:
    game = start({"players": [{}, {}]})
    events = game.apply(Resign(0))
    assert game.over and game.winners == (1,)
    assert game.end_reason == "last_player"
    assert any(isinstance(e, ev.GameOver) for e in events)


def test_resign_while_deciding_to_buy_ends_the_turn_and_play_goes_on() -> None:
    game = start({"players": [{}, {}, {}]}, dice=[(1, 2), (3, 4)])
    game.apply(Roll(0))  # to Baltic Avenue, unowned
    assert waiting(game) == (BUY, 0)
    game.apply(Resign(0))
    assert not game.active[0]
    assert waiting(game) == (ROLL, 1)
    assert game.owner[BALTIC] == -1


def test_r_bankrupt_2_resign_while_raising_cash_for_a_player_pays_that_player() -> None:
    game = start(
        {
            "players": [{"position": 35, "cash": 50}, {}, {}],
            "properties": {
                PARK_PLACE: {"owner": 1},
                BOARDWALK: {"owner": 1},
                READING: {"owner": 0},
            },
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))  # Boardwalk: rent 100, seat 0 could mortgage Reading for 100
    assert waiting(game) == (RAISE_CASH, 0)
    events = game.apply(Resign(0))
    assert ev.PlayerBankrupt(0, 1) in events
    assert game.owner[READING] == 1 and game.cash[1] == 1500 + 50
    assert waiting(game) == (ROLL, 1)


def test_r_bankrupt_3_resign_while_raising_cash_for_the_bank_auctions_the_deeds() -> None:
    """A debt to the Bank (Luxury Tax) does not make resigning a gift to anyone: the
    seat goes bankrupt to the Bank and its deeds are auctioned among the others."""
    game = start(
        {"players": [{"position": 34, "cash": 50}, {}, {}], "properties": {READING: {"owner": 0}}},
        dice=[(1, 3)],
    )
    game.apply(Roll(0))  # Luxury Tax, $100: seat 0 could mortgage Reading for 100
    assert waiting(game) == (RAISE_CASH, 0)
    said = Narrator(game).describe(next(e for e in game.events if isinstance(e, ev.DebtOwed)))
    assert said == "P0 owes $100 to the Bank and must raise cash."
    events = game.apply(Resign(0))
    assert ev.PlayerBankrupt(0, -1) in events
    assert ev.AuctionStarted(READING, (1, 2)) in events
    assert game.cash[1] == game.cash[2] == 1500  # nobody was handed anything
    assert waiting(game) == (BID, 1)


def test_r_short_4_resign_ends_the_short_game_and_the_richest_wins() -> None:
    game = new_game(3, rules="short")
    assert not game.over
    assert game.decision is not None
    seat = game.decision.seat
    worth_before = {s: game.net_worth(s) for s in range(3) if s != seat}
    deeds = game.properties_of(seat)
    assert len(deeds) == 3  # R-SHORT-1
    game.apply(Resign(seat))
    # Settled first: the resigning player's deeds are auctioned (here nobody bids).
    auctioned = []
    while not game.over and waiting(game) is not None and waiting(game)[0] == BID:
        assert game.decision is not None
        auctioned.append(game.decision.space)
        game.apply(PassBid(game.decision.seat))
    assert sorted(set(auctioned)) == sorted(deeds)
    assert game.over and game.end_reason == "bankruptcy"
    richest = max(worth_before.values())
    assert set(game.winners) == {s for s, w in worth_before.items() if w == richest}
    assert isinstance(game.events[-1], ev.GameOver)


def test_resign_withdraws_the_players_offer_waiting_for_an_answer() -> None:
    game = start({"players": [{}, {}, {}], "properties": {MED: {"owner": 2}}})
    game.apply(ProposeTrade(2, partner=0, give=(MED,), take_cash=10))
    assert waiting(game) == (TRADE, 0)
    game.apply(Resign(2))
    assert all(getattr(task, "kind", None) is not TRADE for task in game.tasks)
    assert waiting(game) == (BID, 0)  # Mediterranean Avenue is auctioned instead
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    assert game.owner[MED] == -1
    assert waiting(game) == (ROLL, 0)


def test_resign_is_refused_once_out_of_the_game_or_when_it_is_over() -> None:
    game = start({"players": [{}, {}, {}]})
    game.apply(Resign(1))
    assert_illegal(game, Resign(1), "bankrupt")
    game.apply(Resign(2))
    assert game.over
    assert_illegal(game, Resign(0), "over")


def test_resign_is_never_listed_among_the_legal_actions() -> None:
    """Computer players and random choosers pick from the lists: a resign is asked for."""
    game = start({"players": [{}, {}]})
    assert all(not isinstance(a, Resign) for seat in (0, 1) for a in game.legal_actions(seat))


def test_a_record_with_a_resign_replays_to_the_same_game() -> None:
    game = start(resigning_seat_1(), dice=[(4, 6), (2, 3)])
    game.apply(Roll(0))  # just visiting; then seat 1 resigns on its own turn
    actions: list[Action] = [Resign(1), Bid(2, 30), PassBid(0)]
    actions += [PassBid(2), PassBid(0)] * 2 + [Roll(2)]
    for action in actions:
        game.apply(action)
    data = json.loads(json.dumps(record_of(game)))
    assert {"act": "resign", "seat": 1} in data["log"]
    again = replay(data)
    assert game_state(again) == game_state(game)
    assert again.owner[MED] == 2 and not again.active[1]
    assert waiting(again) == (BUY, 2)  # Reading Railroad is the Bank's again


def test_a_debt_to_the_bank_says_the_bank_in_english_and_german() -> None:
    said = {}
    for language in ("en", "de"):
        game = start({"players": [{}, {}]}, language=language)
        said[language] = Narrator(game).describe(ev.DebtOwed(0, -1, 20))
    assert said == {
        "en": "P0 owes $20 to the Bank and must raise cash.",
        "de": "P0 schuldet der Bank 20 € und muss Geld beschaffen.",
    }


def test_resign_is_narrated_in_english_and_german() -> None:
    said = {}
    for language in ("en", "de"):
        game = start({"players": [{}, {}, {}]}, language=language)
        said[language] = Narrator(game).describe(game.apply(Resign(1))[0])
    assert said == {
        "en": "P1 resigns and leaves the game.",
        "de": "P1 gibt auf und verlässt das Spiel.",
    }
