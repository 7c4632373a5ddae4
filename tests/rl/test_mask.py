"""The mask and the observation that the environments keep from one state to the next
are exactly the ones made afresh: over random games of every edition and rule set, at
every step, for the seat to move (and every seat's observation).

``digest()`` plays such games and returns a digest of every mask and observation met:
``tests/test_compiled_build.py`` compares it between the compiled and the pure build.
"""

from __future__ import annotations

import hashlib
import random
from itertools import product

import numpy as np
import pytest

from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.memo import FreeActionsMemo
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView
from monopoly.rl.catalogue import CATALOGUE
from monopoly.rl.driver import Driver
from monopoly.rl.mask import TRADE_BUY, TRADE_SELL, TradeTemplates, trade_action
from monopoly.rl.observation import Observer, observe
from tests.quick import sized

TRADE_IDS = range(TRADE_BUY, CATALOGUE.DONE)
RULES = {
    "standard": RuleSet.named("standard"),
    "speed": RuleSet.named("speed"),
    "short": RuleSet.named("short"),
    "house": RuleSet.named(
        "standard", rent_must_be_claimed=True, free_parking_pot=True, double_go_salary=True
    ),
}


def fresh_mask(driver: Driver, seat: int) -> list[int]:
    """The mask of ``seat`` with every trade template and free action asked afresh."""
    templates, kept = driver.templates, driver.kept
    driver.templates, driver.kept = TradeTemplates(), FreeActionsMemo()
    try:
        return driver._compute_legal(seat)
    finally:
        driver.templates, driver.kept = templates, kept


def offers_trades(driver: Driver, seat: int) -> bool:
    """The seat's mask lists trade templates now (its roll, jail or trade decision with
    free actions left, or its out-of-turn window)."""
    decision = driver.game.decision
    if decision is None or driver.claim_seat >= 0 or not driver._free_allowed(seat):
        return False
    return driver.window_seat == seat or (
        decision.seat == seat and decision.kind in ("roll", "jail", "trade")
    )


def play(
    edition: str, rules: RuleSet, players: int, seed: int, steps: int, every_template: bool
) -> hashlib._Hash:
    """Random masked steps with out-of-turn windows; each mask and each seat's kept
    observation checked against fresh ones; with ``every_template`` each of the 360
    trade ids is also asked of the engine whenever the mask lists trades. Returns the
    digest of what was seen."""
    game = Game.new(players, edition, rules, seed)
    driver = Driver(game, seed=seed, out_of_turn=True, max_turns=300)
    observers = [Observer() for _ in range(players)]
    rng = random.Random(seed)
    seen = hashlib.sha256()
    # trade_sell ids name the partner k = 1..7 seats on; k < players names each once
    templates = [i for i in TRADE_IDS if i < TRADE_SELL + (players - 1) * 40]
    for _ in range(steps):
        seat = driver.to_move()
        if seat < 0:
            break
        ids = driver.legal_ids()
        assert ids == fresh_mask(driver, seat), (game.turn, game.decision)
        if every_template and offers_trades(driver, seat):
            accepted = [i for i in templates if game.is_legal(trade_action(game, seat, i))]
            assert [i for i in ids if i in TRADE_IDS] == accepted, (game.turn, game.decision)
        for viewer in range(players):
            view = PlayerView(game, viewer)
            claim, window = driver.claim_seat == viewer, driver.window_seat == viewer
            vector = observers[viewer].observe(view, claim, window)
            assert np.array_equal(vector, observe(view, claim, window)), (viewer, game.turn)
            seen.update(vector.tobytes())
        seen.update(np.array(ids, dtype=np.int32).tobytes())
        driver.step(rng.choice(ids))
    return seen


@pytest.mark.parametrize(("edition", "rules"), list(product(edition_keys(), RULES)))
def test_kept_mask_and_observation_equal_fresh_ones(edition: str, rules: str) -> None:
    players = 2 + (len(edition) + len(rules)) % 4
    play(edition, RULES[rules], players, seed=len(edition) * 7 + len(rules),
         steps=sized(800, 300), every_template=False)  # fmt: skip


@pytest.mark.parametrize("players", [2, 4, 6])
def test_kept_trade_ids_are_exactly_the_offers_the_engine_accepts(players: int) -> None:
    steps = sized(1200, 400)
    play("classic", RULES["standard"], players, seed=players, steps=steps, every_template=True)


def test_kept_answers_survive_a_game_changing_under_them() -> None:
    """One TradeTemplates, FreeActionsMemo and Observer used for two different games in turn (as
    OpenSpiel's clones share the first) give each game its own fresh answers."""
    games = [Game.new(3, "classic", "standard", seed) for seed in (1, 2)]
    drivers = [Driver(game, seed=seed, max_turns=200) for seed, game in enumerate(games)]
    shared_templates, shared_kept, shared_observer = (
        TradeTemplates(),
        FreeActionsMemo[list[int]](),
        Observer(),
    )
    rng = random.Random(3)
    for _ in range(sized(1500, 500)):
        driver = rng.choice([d for d in drivers if d.to_move() >= 0] or [drivers[0]])
        seat = driver.to_move()
        if seat < 0:
            break
        driver.templates, driver.kept = shared_templates, shared_kept
        assert driver.legal_ids() == fresh_mask(driver, seat)
        view = PlayerView(driver.game, 0)
        assert np.array_equal(shared_observer.observe(view), observe(view))
        driver.step(rng.choice(driver.legal_ids()))


def digest() -> str:
    """The digest of a few checked random games (for the compiled-build comparison)."""
    seen = hashlib.sha256()
    for seed, (edition, rules) in enumerate([("classic", "standard"), ("zelda", "speed")]):
        seen.update(play(edition, RULES[rules], 3 + seed, seed, 800, True).digest())
    return seen.hexdigest()
