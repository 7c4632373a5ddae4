"""Computer players with manners (issue 23): an offer refused is not made again to the
same player unless something relevant changed (the deeds either side holds, their
buildings and mortgages, or either side's cash by more than the offer's cash, at least
100), and no more than one offer per computer player per partner in a round."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from monopoly.bots.base import Bot, make_bot
from monopoly.core.actions import Action, ProposeTrade, RejectTrade
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.state import TRADE
from monopoly.core.view import PlayerView

ROUNDS = 50


class RefusingPerson:
    """A person who buys and builds like the normal level but refuses every offer."""

    def __init__(self, seed: int) -> None:
        self.player = make_bot("normal", seed)

    def decide(self, view: PlayerView, legal: list[Action]) -> Action:
        decision = view.decision
        assert decision is not None
        if decision.kind is TRADE:
            return next(a for a in legal if isinstance(a, RejectTrade))
        return self.player.decide(view, legal)


@dataclass(frozen=True)
class Seen:
    """An offer as the table saw it when it was made."""

    offer: ProposeTrade
    round: int
    deeds: tuple[tuple[int, int, int, bool], ...]
    cash: tuple[int, int]


def seen(game: Game, offer: ProposeTrade) -> Seen:
    sides = (offer.seat, offer.partner)
    deeds = tuple(
        (s, game.owner[s], game.level[s], game.mortgaged[s])
        for s in game.board.properties
        if game.owner[s] in sides
    )
    return Seen(offer, game.round, deeds, (game.cash[offer.seat], game.cash[offer.partner]))


def play_rounds(lineup: list[str], seed: int) -> tuple[Game, list[Seen]]:
    """Seat 0 is the refusing person; the others are computer players of ``lineup``."""
    game = Game.new(len(lineup) + 1, "classic", RuleSet.named("standard"), seed=seed)
    bots: list[Bot] = [RefusingPerson(seed)]
    bots += [make_bot(level, seed * 10 + seat) for seat, level in enumerate(lineup, 1)]
    views = [PlayerView(game, seat) for seat in range(game.players)]
    offers: list[Seen] = []
    while not game.over and game.round < ROUNDS:
        decision = game.decision
        assert decision is not None
        action = bots[decision.seat].decide(views[decision.seat], game.decision_actions())
        if isinstance(action, ProposeTrade) and decision.kind is not TRADE and decision.seat:
            # A computer player's own offer (a counter-offer answers one: not counted).
            offers.append(seen(game, action))  # the table as it is when the offer comes
        game.apply(action)
    return game, offers


def changed(first: Seen, again: Seen) -> bool:
    if first.deeds != again.deeds:
        return True
    offer = first.offer
    margin = max(100, offer.give_cash + offer.take_cash)
    return any(abs(a - b) > margin for a, b in zip(first.cash, again.cash, strict=True))


def assert_mannerly(offers: list[Seen], person: int = 0) -> None:
    """No two offers by a computer player to one partner in a round, none made again to
    the same partner for the same streets while nothing relevant changed; and some offer
    to the ``person`` (else the game tested nothing)."""
    assert [s for s in offers if s.offer.partner == person], "no offer to the person"
    last: dict[tuple[int, int, tuple[int, ...]], Seen] = {}
    rounds: set[tuple[int, int, int]] = set()
    for s in offers:
        o = s.offer
        in_round = (o.seat, o.partner, s.round)
        assert in_round not in rounds, f"two offers by seat {o.seat} to {o.partner} in a round"
        rounds.add(in_round)
        key = (o.seat, o.partner, o.take)
        if key in last:
            assert changed(last[key], s), f"{o} made again with nothing changed"
        last[key] = s


@pytest.mark.parametrize(
    ("lineup", "seed"),
    [(["hard", "normal", "expert"], 3), (["hard", "hard"], 11), (["normal", "expert"], 5)],
)
def test_no_offer_is_made_again_unchanged_nor_twice_a_round(lineup: list[str], seed: int) -> None:
    game, offers = play_rounds(lineup, seed)
    assert game.round >= ROUNDS or game.over
    assert_mannerly(offers)
