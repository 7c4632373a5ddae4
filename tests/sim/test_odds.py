"""The exact landing odds (Markov chain): hand-checked transitions, sanity, and agreement
with the landings the simulator counts in real games."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from monopoly.core.actions import (
    Action,
    DeclineBuy,
    PayJailFine,
    Roll,
    RollForDoubles,
)
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.game import Game
from monopoly.core.odds import OddsError, free_state, jail_state, landing_odds
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView
from monopoly.sim.runner import play_counting
from monopoly.sim.texts import JAIL_SLOT
from tests.spaces import CHANCE_SPACES

CLASSIC = get_edition("classic").board
ILLINOIS, GO_TO_JAIL, READING, PENNSYLVANIA, B_AND_O, SHORT_LINE = 24, 30, 5, 15, 25, 35


@pytest.mark.parametrize("jail", ["leave", "stay"])
@pytest.mark.parametrize("edition", edition_keys())
def test_probabilities_are_a_distribution(edition: str, jail: str) -> None:
    odds = landing_odds(edition, jail)
    assert np.allclose(odds.transitions.sum(axis=1), 1.0)
    assert odds.probabilities.shape == (41,)
    assert odds.probabilities.sum() == pytest.approx(1.0)
    assert (odds.probabilities >= 0).all()
    assert odds.probabilities[GO_TO_JAIL] == 0.0  # nobody rests on Go to Jail


def test_a_roll_onto_chance_can_go_back_three_onto_community_chest() -> None:
    transitions = landing_odds("classic", "leave").transitions
    five = 4 / 36  # 1+4, 4+1, 2+3, 3+2: 31 + 5 = Chance (36); the card goes back 3 to 33
    community_chest_stays = 14 / 16  # all but advance-to-GO and go-to-jail
    assert transitions[free_state(31, 0), free_state(33, 0)] == pytest.approx(
        five / 16 * community_chest_stays
    )
    eight = 4 / 36  # 2+6, 6+2, 3+5, 5+3 reach Boardwalk; a five and "advance to Boardwalk" too
    assert transitions[free_state(31, 0), free_state(39, 0)] == pytest.approx(eight + five / 16)
    one_one = 1 / 36  # doubles: 33 directly, drawing there too, and rolling again
    assert transitions[free_state(31, 0), free_state(33, 1)] == pytest.approx(
        one_one * community_chest_stays
    )


def test_the_third_double_goes_to_jail() -> None:
    transitions = landing_odds("classic", "leave").transitions
    seven = 6 / 36  # GO + 7 = Chance, whose go-to-jail card is 1 of 16
    assert transitions[free_state(0, 2), jail_state(0)] == pytest.approx(1 / 6 + seven / 16)
    two = 1 / 36  # 1+1 reaches Community Chest, with its go-to-jail card
    assert transitions[free_state(0, 1), jail_state(0)] == pytest.approx((seven + two) / 16)


def test_staying_in_jail_rolls_for_doubles_three_times() -> None:
    transitions = landing_odds("classic", "stay").transitions
    assert transitions[jail_state(0), jail_state(1)] == pytest.approx(30 / 36)
    assert transitions[jail_state(1), jail_state(2)] == pytest.approx(30 / 36)
    assert transitions[jail_state(2)].sum() == pytest.approx(1.0)
    assert transitions[jail_state(2), jail_state(0) : jail_state(2) + 1][1:].sum() == 0.0
    # Doubles from jail move without rolling again: 5+5 reaches Free Parking (20).
    assert transitions[jail_state(0), free_state(20, 0)] == pytest.approx(1 / 36)
    assert transitions[jail_state(0), free_state(20, 1)] == 0.0


@pytest.mark.parametrize("jail", ["leave", "stay"])
def test_illinois_and_three_railroads_are_among_the_most_landed_on(jail: str) -> None:
    probabilities = landing_odds("classic", jail).probabilities
    spaces = sorted(range(40), key=lambda s: -probabilities[s])
    assert spaces[0] == ILLINOIS
    assert {READING, PENNSYLVANIA, B_AND_O} <= set(spaces[:12])
    assert probabilities[SHORT_LINE] < min(probabilities[[READING, PENNSYLVANIA, B_AND_O]])
    streets = [s for s in range(40) if CLASSIC.spaces[s].kind.name == "STREET"]
    assert max(probabilities[list(CHANCE_SPACES)]) < min(probabilities[streets])


def test_staying_in_jail_makes_jail_the_most_likely_place() -> None:
    leave = landing_odds("classic", "leave").probabilities
    stay = landing_odds("classic", "stay").probabilities
    assert stay[JAIL_SLOT] == max(stay)
    assert stay[JAIL_SLOT] > 2 * leave[JAIL_SLOT]


def test_kept_jail_cards_make_moving_cards_more_likely() -> None:
    ignored = landing_odds("classic", "leave").probabilities
    kept = landing_odds("classic", "leave", jail_cards_kept=True).probabilities
    assert all(kept[s] < ignored[s] for s in CHANCE_SPACES)  # more Chance cards move away
    assert np.abs(kept - ignored).max() < 0.002  # a refinement: a tenth of a percent


def test_an_unknown_jail_strategy_is_refused() -> None:
    with pytest.raises(OddsError, match="sometimes"):
        landing_odds("classic", "sometimes")


# ---------------------------------------------------------------------- against real games
class JailStrategyBot:
    """Never buys (so nobody goes broke) and follows one jail strategy: ``leave`` pays the
    fine at once, ``stay`` rolls for doubles. It never uses its jail cards."""

    def __init__(self, jail: str) -> None:
        self.jail = jail

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        wanted = PayJailFine if self.jail == "leave" else RollForDoubles
        for answer in legal:
            if isinstance(answer, wanted | Roll | DeclineBuy):
                return answer
        raise AssertionError(f"unexpected decision {view.decision}: {legal}")


GAMES, PLAYERS, TURNS = 120, 4, 1000
HOLDS_BOTH_JAIL_CARDS = {
    "players": [{"jail_cards": ["chance", "community_chest"]}] + [{}] * (PLAYERS - 1)
}


@pytest.mark.parametrize("jail", ["leave", "stay"])
def test_simulated_landings_agree_with_the_chain(jail: str) -> None:
    """Seat 1 holds both Get Out of Jail Free cards for the whole game and never uses them,
    so both decks have 15 cards throughout, as in the chain with ``jail_cards_kept``.

    Every player starts on GO; the chain's ``excess_landings`` corrects for that start.
    Each slot's count over N rolls has the standard error sqrt(v / N), v the chain's
    asymptotic variance; 4.5 standard errors make a false alarm among the 41 slots less
    likely than 1 in 3000, while a wrong card or jail rule moves several slots by more.
    """
    rules = RuleSet.named("standard", no_auctions=True, turn_limit=TURNS)
    counts = np.zeros(41)
    for seed in range(GAMES):
        game = Game.new(PLAYERS, "classic", rules, seed=seed, position=HOLDS_BOTH_JAIL_CARDS)
        game.collect_events = False
        counts += play_counting(game, [JailStrategyBot(jail)] * PLAYERS)
        assert game.end_reason == "limit"
    odds = landing_odds("classic", jail, jail_cards_kept=True)
    rolls = counts.sum()
    expected = odds.probabilities + GAMES * PLAYERS * odds.excess_landings(0) / rolls
    error = np.sqrt(odds.variances / rolls)
    assert rolls > 100_000
    assert counts[GO_TO_JAIL] == 0
    for slot in range(41):
        assert abs(counts[slot] / rolls - expected[slot]) <= 4.5 * error[slot] + 1e-12, slot
