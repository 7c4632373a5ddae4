"""What a player would check about the hard computer player."""

from __future__ import annotations

from monopoly.bots.base import make_bot
from monopoly.bots.hard import HardBot
from monopoly.bots.trading import offer_gains
from monopoly.core.actions import (
    AcceptTrade,
    Action,
    Bid,
    DeclineBuy,
    Mortgage,
    PassBid,
    PayJailFine,
    ProposeTrade,
    RejectTrade,
    Roll,
    RollForDoubles,
    UseJailCard,
)
from monopoly.core.board import SpaceKind
from monopoly.core.game import Game
from monopoly.core.state import BID, RAISE_CASH, TRADE
from monopoly.core.view import PlayerView
from tests.bots.drive import bots_for, play_checked
from tests.scenario import start
from tests.spaces import DARK_BLUE, GREEN, ORANGE, PENNSYLVANIA_RR, READING, RED

ST_JAMES, TENNESSEE, NEW_YORK = ORANGE


def hard() -> HardBot:
    bot = make_bot("hard", 7)
    assert isinstance(bot, HardBot)
    return bot


def owned(owner: int, spaces: tuple[int, ...], **extra: object) -> dict[int, object]:
    return {s: {"owner": owner, **extra} for s in spaces}


def answer(bot: HardBot, game: Game) -> Action:
    """The bot's answer to the pending decision, after any free actions it takes."""
    decision = game.decision
    assert decision is not None
    view = PlayerView(game, decision.seat)
    for _ in range(40):
        legal = game.decision_actions()
        action = bot.decide(view, legal)
        if (
            action in legal
            or decision.kind in (BID, RAISE_CASH)
            or isinstance(action, ProposeTrade)
        ):
            return action
        game.apply(action)  # a free action: build, mortgage, lift a mortgage...
    raise AssertionError("no answer after 40 free actions")


# ---------------------------------------------------------------------- raising cash
def test_mortgages_an_idle_railroad_rather_than_selling_houses() -> None:
    position = {
        "players": [{"cash": 20}, {}],
        "properties": {**owned(0, ORANGE, buildings=3), PENNSYLVANIA_RR: {"owner": 0}},
    }
    game = start(position, dice=[(1, 3)])
    game.apply(Roll(0))  # Income Tax: 200 owed, 20 in hand
    assert game.decision is not None and game.decision.kind == RAISE_CASH
    bot = hard()
    action = answer(bot, game)
    assert action == Mortgage(0, PENNSYLVANIA_RR)
    game.apply(action)  # 100 raised: still 80 short, so the houses must go now
    while game.decision is not None and game.decision.kind == RAISE_CASH:
        game.apply(answer(bot, game))
    assert game.active[0]
    assert sum(game.level[s] for s in ORANGE) == 9 - 2  # two houses sold, 100 raised


def test_never_bankrupt_while_selling_and_mortgaging_could_pay() -> None:
    position = {
        "players": [{"cash": 0, "position": 30}, {}],
        "properties": {
            **owned(0, RED, buildings=2),
            **owned(0, (READING,)),
            **owned(1, DARK_BLUE, buildings=4),
        },
    }
    game = start(position, dice=[(3, 4)])  # 30 + 7 = Park Place: 1300 with 4 houses
    game.apply(Roll(0))
    assert game.decision is not None and game.decision.kind == RAISE_CASH
    assert PlayerView(game, 0).raisable(0) < 1300  # not enough: bankruptcy is legal
    assert answer(hard(), game).name == "bankrupt"
    rich = start({**position, "players": [{"cash": 600, "position": 30}, {}]}, dice=[(3, 4)])
    rich.apply(Roll(0))
    assert rich.decision is not None and rich.decision.kind == RAISE_CASH
    bot = hard()
    while rich.decision is not None and rich.decision.kind == RAISE_CASH:
        action = answer(bot, rich)
        assert action.name != "bankrupt"
        rich.apply(action)
    assert rich.active[0]


def test_games_between_hard_players_never_see_an_illegal_bankruptcy() -> None:
    # DeclareBankruptcy is legal only when raisable < owed; apply() checks it.
    for seed in range(3):
        game = Game.new(4, "classic", "standard", seed=seed)
        seen: list[tuple[str, object]] = []
        play_checked(game, bots_for(["hard"] * 4, seed), seen=seen)
        assert game.over
        bankruptcies = [a for kind, a in seen if kind == RAISE_CASH and a.name == "bankrupt"]
        assert len(bankruptcies) <= 3


# ---------------------------------------------------------------------- trades
def set_trade_position() -> dict[str, object]:
    """Seat 1 holds two oranges; seat 0 (hard) holds the third."""
    return {
        "players": [{"cash": 1500}, {"cash": 1500}],
        "properties": {**owned(1, (ST_JAMES, TENNESSEE)), NEW_YORK: {"owner": 0}},
    }


def test_refuses_to_hand_over_a_set_for_too_little() -> None:
    game = start(set_trade_position())
    game.apply(ProposeTrade(1, 0, give_cash=250, take=(NEW_YORK,)))  # the price + 50
    assert game.decision is not None and game.decision.kind == TRADE
    action = answer(hard(), game)
    assert action == RejectTrade(0) or isinstance(action, ProposeTrade)
    if isinstance(action, ProposeTrade):  # a counter-offer asks for much more
        assert action.take_cash > 250 or action.take


def test_accepts_the_even_split_a_hard_proposer_offers() -> None:
    game = start({**set_trade_position(), "turn": 1})
    proposer = hard()
    proposer.first_share = 0.5  # offer the even split at once (not a cheap first try)
    offer = proposer.decide(PlayerView(game, 1), game.decision_actions())
    assert isinstance(offer, ProposeTrade)
    assert offer.take == (NEW_YORK,) and offer.give_cash > 250
    game.apply(offer)
    assert answer(hard(), game) == AcceptTrade(0)


def test_a_cheap_first_offer_is_countered_and_two_hard_players_agree() -> None:
    game = start({**set_trade_position(), "turn": 1})
    bots = [hard(), hard()]
    first = bots[1].decide(PlayerView(game, 1), game.decision_actions())
    assert isinstance(first, ProposeTrade)
    game.apply(first)
    reply = answer(bots[0], game)
    assert reply != AcceptTrade(0)
    game.apply(reply)
    if isinstance(reply, ProposeTrade):  # the counter splits the gain evenly: accepted
        assert reply.take_cash > first.give_cash
        game.apply(answer(bots[1], game))
        assert game.owner[NEW_YORK] == 1
        assert game.cash[0] == 1500 + reply.take_cash


def test_accepts_a_generous_set_completing_offer_and_rejects_a_lopsided_one() -> None:
    bot = hard()
    game = start(set_trade_position())
    view = PlayerView(game, 0)
    bot.decide(view, game.decision_actions())  # learns the board
    assert bot.valuation is not None
    proposer_gain, _ = offer_gains(bot.valuation, view, ProposeTrade(1, 0, take=(NEW_YORK,)))
    generous = ProposeTrade(1, 0, give_cash=int(proposer_gain), take=(NEW_YORK,))
    game.apply(generous)
    assert answer(bot, game) == AcceptTrade(0)
    game = start(set_trade_position())
    game.apply(ProposeTrade(1, 0, give=(READING,) * 0, give_cash=1, take=(NEW_YORK,)))
    assert answer(hard(), game) != AcceptTrade(0)


# ---------------------------------------------------------------------- auctions
def test_bids_no_more_than_its_valuation() -> None:
    position = {
        "players": [{"cash": 3000, "position": 12}, {"cash": 3000}],
        "properties": owned(0, (ST_JAMES, TENNESSEE)),
    }
    game = start(position, dice=[(3, 4)])
    game.apply(Roll(0))
    assert game.decision is not None and game.decision.space == NEW_YORK
    game.apply(DeclineBuy(0))
    bot = hard()
    ceiling = None
    bids: list[int] = []
    while game.decision is not None and game.decision.kind == BID:
        if game.decision.seat == 1:  # a rival that always raises by 10
            low, _high = game.bid_range()
            game.apply(Bid(1, low + 9))
            continue
        view = PlayerView(game, 0)
        ceiling = bot.value_of(view, 0, NEW_YORK)
        action = answer(bot, game)
        game.apply(action)
        if isinstance(action, PassBid):
            break
        assert isinstance(action, Bid)
        bids.append(action.amount)
    assert ceiling is not None and bids
    assert max(bids) <= ceiling
    assert max(bids) > 200  # it completes the set: worth more than the printed price
    assert game.owner[NEW_YORK] == 1 or max(bids) >= ceiling - 30


# ---------------------------------------------------------------------- jail
def test_leaves_jail_early_while_properties_are_unowned() -> None:
    game = start({"players": [{"position": 10, "jail_turns": 0}, {}]})
    assert answer(hard(), game) == PayJailFine(0)
    with_card = start(
        {"players": [{"position": 10, "jail_turns": 0, "jail_cards": ["chance"]}, {}]}
    )
    assert answer(hard(), with_card) == UseJailCard(0, "chance")


def test_stays_in_jail_late_in_a_dangerous_game() -> None:
    board = Game.new(2).board
    idle = [s for s in board.properties if board.spaces[s].kind != SpaceKind.STREET]
    mine = {s: {"owner": 0} for s in idle}  # railroads and utilities: nothing to build
    theirs = {
        **{s: {"owner": 1} for s in board.properties if s not in idle},
        **owned(1, ORANGE, buildings="hotel"),
        **owned(1, RED, buildings=4),
        **owned(1, GREEN, buildings=3),
    }
    position = {
        "players": [{"position": 10, "jail_turns": 0, "jail_cards": ["chance"], "cash": 2000}, {}],
        "properties": {**mine, **theirs},
    }
    assert answer(hard(), start(position)) == RollForDoubles(0)
