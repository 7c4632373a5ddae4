"""The RL environments: PettingZoo's and Gymnasium's own API checks, the catalogue's
mask against the engine's legality, reproducible seeds, records that replay and
observations that hide the decks."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from monopoly.core.actions import Build
from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.records import replay
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView
from monopoly.rl.aec_env import env, raw_env
from monopoly.rl.catalogue import CATALOGUE, SIZE, VERSION
from monopoly.rl.driver import Driver, IllegalAction
from monopoly.rl.gym_env import MonopolyGymEnv
from monopoly.rl.observation import OBS_LAYOUT, OBS_SIZE, Observer, observe, observe_dict
from tests.scenario import hotel_breakdown_game, shortage_game, start

RULE_SETS = {
    "standard": RuleSet.named("standard", turn_limit=100),
    "short": RuleSet.named("short", turn_limit=100),
    "speed": RuleSet.named("speed", turn_limit=100),
    "short+speed": RuleSet.named("short+speed", turn_limit=100),
    "house": RuleSet.named(
        "standard",
        turn_limit=100,
        rent_must_be_claimed=True,
        free_parking_pot=True,
        double_go_salary=True,
        utility_roll="moving",
    ),
    "no_auctions": RuleSet.named("speed", turn_limit=100, no_auctions=True),
}


def test_pettingzoo_api_test() -> None:
    api_test(env(players=3), num_cycles=300)
    api_test(env(players=4, rules="speed", bots={1: "normal", 3: "easy"}), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3, bots={2: "hard"}), num_cycles=300)


def test_gymnasium_env_checker() -> None:
    check_env(MonopolyGymEnv(opponents=["easy", "normal"]), skip_render_check=True)


def _random_game(edition: str, rules: RuleSet, players: int, seed: int) -> tuple[Driver, int]:
    """Play uniformly random masked ids to the end, checking every id of every mask:
    each must be an action the engine accepts now, and every answer the engine lists
    for the decision must have its id in the mask."""
    game = Game.new(players, edition, rules, seed)
    driver = Driver(game)
    rng = random.Random(seed)
    steps = 0
    while driver.to_move() >= 0:
        seat = driver.to_move()
        ids = driver.legal_ids()
        assert ids, f"empty mask at {game.decision} (seat {seat})"
        for action_id in ids:
            action = driver.action_of(action_id)
            if action is not None:  # None: the environment's own waive_claims
                assert game.is_legal(action), (CATALOGUE.describe(action_id), game.problem(action))
        if driver.claim_seat < 0:
            for answer in game.decision_actions():
                assert CATALOGUE.id_of(answer, game) in ids, answer
        driver.step(rng.choice(ids))
        steps += 1
        assert steps < 30_000, "the game does not end"
    return driver, steps


@pytest.mark.parametrize(("edition", "rules"), list(product(edition_keys(), RULE_SETS)))
def test_random_masked_play_is_always_legal_and_ends(edition: str, rules: str) -> None:
    total = 0
    kinds: Counter[str] = Counter()
    for seed in range(1):
        players = 2 + (seed + len(edition) + len(rules)) % 5
        driver, steps = _random_game(edition, RULE_SETS[rules], players, seed)
        game = driver.game
        total += steps
        # A legal end: every bankruptcy but one, or the turn limit's richest players.
        assert game.over
        assert game.end_reason in ("last_player", "limit", "first_bankruptcy"), game.end_reason
        assert game.winners and all(game.active[s] for s in game.winners)
        assert all(cash >= 0 for cash in game.cash)
        for entry in game.record:
            if entry[0] == "action":
                kinds[type(entry[1]).__name__] += 1
        again = replay(json.loads(json.dumps(driver_record(driver))))
        assert again.cash == game.cash and again.owner == game.owner
    assert total > 200
    assert kinds["Roll"] and kinds["Buy"]


def driver_record(driver: Driver) -> dict[str, object]:
    from monopoly.core.records import record_of

    return record_of(driver.game)


def _play_randomly(driver: Driver, seed: int, prefer: str = "") -> Counter[str]:
    """Random masked ids to the end; the decision kinds met (ids of ``prefer``'s block
    are picked first when offered, to steer towards rare situations)."""
    seen: Counter[str] = Counter()
    game = driver.game
    rng = random.Random(seed)
    while driver.to_move() >= 0:
        ids = driver.legal_ids()
        decision = game.decision
        assert decision is not None
        seen["claim" if driver.claim_seat >= 0 else decision.kind] += 1
        if decision.kind == "bid" and decision.space < 0:
            seen["building_auction"] += 1
        preferred = [i for i in ids if CATALOGUE.split(i)[0] == prefer]
        driver.step(rng.choice(preferred) if preferred else rng.choice(ids))
    return seen


def test_every_decision_kind_is_reached_by_random_masked_play() -> None:
    """Speed Die, claims, trades, debts, received mortgages: the catalogue reaches them."""
    seen: Counter[str] = Counter()
    rules = RuleSet.named("speed", rent_must_be_claimed=True, turn_limit=200)
    for seed in range(6):
        seen += _play_randomly(Driver(Game.new(4, "classic", rules, seed)), seed)
    for kind in (
        "roll",
        "jail",
        "buy",
        "bid",
        "raise_cash",
        "trade",
        "bus",
        "triples",
        "claim",
        "mortgage_received",
    ):
        assert seen[kind], (kind, seen)


def test_building_shortage_is_reached_through_the_catalogue() -> None:
    """R-BUILD-6: a row built with 2 houses in the Bank asks the others what they
    want, auctions the houses and has them placed — all through masked ids."""
    game = shortage_game()
    game.rules = game.rules.with_options(turn_limit=60)
    driver = Driver(game)
    assert game.bank_houses == 2
    driver.step(CATALOGUE.id("build_row", 1))
    assert game.decision is not None and game.decision.kind == "want"
    seen = _play_randomly(driver, 1, prefer="want")
    assert seen["want"] and seen["building_auction"] and seen["place"], seen


def test_ids_keep_their_meaning() -> None:
    assert CATALOGUE.describe(CATALOGUE.id("build", 37)) == "build 37"
    assert CATALOGUE.describe(CATALOGUE.id("trade_sell", 40 + 12)) == (
        "trade_sell space 12 to seat+2"
    )
    assert CATALOGUE.size == SIZE
    # version 2 appended done, version 3 the breakdowns; every earlier id kept its place
    assert VERSION == 3 and CATALOGUE.DONE == 745
    assert CATALOGUE.blocks["breakdown"] == (746, 3) and SIZE == 749
    assert CATALOGUE.id("trade_sell", 7 * 40 - 1) == 744 and CATALOGUE.id("build", 0) == 145
    assert CATALOGUE.action(Game.new(2, "classic", "standard", 0), 0, CATALOGUE.DONE) is None
    with pytest.raises(ValueError, match="outside"):
        CATALOGUE.split(SIZE)


def test_only_a_whole_row_has_the_build_row_id() -> None:
    """``build_row i`` is one building on each street of the group starting at ``i``: a
    request for part of a group (or for streets of another group) has no id, and never
    the id of a different request."""
    game = shortage_game()  # seat 0 owns the oranges 16, 18, 19 with 4 houses each
    orange = CATALOGUE.id("build_row", 16)
    assert CATALOGUE.id_of(Build(0, (16, 18, 19)), game) == orange
    assert CATALOGUE.id_of(Build(0, (19, 16, 18)), game) == orange
    assert CATALOGUE.id_of(Build(0, (16, 18)), game) is None
    assert CATALOGUE.id_of(Build(0, (18, 19)), game) is None
    assert CATALOGUE.id_of(Build(0, (16, 16)), game) is None
    assert CATALOGUE.id_of(Build(0, (1, 3)), game) == CATALOGUE.id("build_row", 1)
    assert CATALOGUE.id_of(Build(0, (18,)), game) == CATALOGUE.id("build", 18)
    assert CATALOGUE.action(game, 0, orange) == Build(0, (16, 18, 19))


@pytest.mark.parametrize("mode", ["full", "core"])
def test_a_hotel_breakdown_is_chosen_through_its_ids(mode: str) -> None:
    """R-BUILD-4: selling the hotel brings the group down to the even arrangements the
    Bank's 3 houses allow — 11 houses on the three oranges, the short street any of
    them. The mask holds one id per arrangement (best for rent first), in both modes."""
    driver = Driver(hotel_breakdown_game(), mode=mode)
    game = driver.game
    driver.step(CATALOGUE.id("sell", 16))
    assert game.decision is not None and game.decision.kind == "breakdown"
    ids = driver.legal_ids()
    breakdowns = [CATALOGUE.id("breakdown", i) for i in range(3)]
    assert set(breakdowns) <= set(ids)
    if mode == "core":
        assert ids == breakdowns
    for action in game.decision_actions():
        assert CATALOGUE.id_of(action, game) in breakdowns
    cash = game.cash[0]
    driver.step(CATALOGUE.id("breakdown", 1))
    assert [game.level[s] for s in (16, 18, 19)] == [4, 3, 4]
    assert game.bank_houses == 0 and game.bank_hotels == 12
    # two levels sold at half their cost of 100: the hotel (for 4 houses) and a house on 18
    assert game.cash[0] == cash + 2 * 50
    assert game.decision is not None and game.decision.kind == "roll"


@pytest.mark.parametrize("mode", ["full", "core"])
def test_computer_players_build_beyond_the_agents_free_action_limit(mode: str) -> None:
    """``max_free_actions`` (8) bounds the agents only: ``expert`` as an opponent builds
    up its three groups in one turn (R-BUILD-1..3), as it does in the simulator."""
    streets = (16, 18, 19, 21, 23, 24, 26, 27, 29)
    position = {
        "players": [{}, {"cash": 6000}],
        "properties": {str(s): {"owner": 1} for s in streets},
    }
    game = start(position, dice=[(1, 2), (3, 4)])
    driver = Driver(game, bots={1: "expert"}, mode=mode)
    assert driver.max_free_actions == 8
    while game.turn < 3:  # the agent: the first answer of each decision
        driver.step(CATALOGUE.id_of(game.decision_actions()[0], game))
    assert driver.to_move() == 0 and game.current == 0  # the expert's turn (2) is over
    built = [game.level[s] for s in streets]
    assert sum(built) > 8 and min(built) >= 4, built


def test_illegal_id_is_refused_and_changes_nothing() -> None:
    e = raw_env(players=2)
    e.reset(seed=3)
    before = json.dumps(e.record())
    agent = e.agent_selection
    build = CATALOGUE.id("build", 39)  # nobody owns anything yet
    with pytest.raises(IllegalAction, match="build 39"):
        e.step(build)
    assert json.dumps(e.record()) == before
    assert e.agent_selection == agent


def test_gym_illegal_id_answers_with_flag_and_same_state() -> None:
    g = MonopolyGymEnv(opponents=["easy"], seat=0)
    obs, info = g.reset(seed=11)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = g.step(illegal)
    assert info2["illegal"] and reward == 0.0 and not terminated and not truncated
    assert np.array_equal(obs, obs2)


def test_seeded_episodes_repeat() -> None:
    def run(seed: int) -> list[object]:
        g = MonopolyGymEnv(opponents=["normal", "hard"], shaping=1.0)
        obs, info = g.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace: list[object] = []
        for _ in range(300):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, terminated, truncated, info = g.step(action)
            trace.append((action, reward, float(obs.sum())))
            if terminated or truncated:
                break
        return trace

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_shaping_sums_to_the_change_of_worth_share() -> None:
    """Potential-based shaping telescopes: c × (final share − first share)."""
    g = MonopolyGymEnv(opponents=["easy"], seat=0, shaping=2.0, max_steps=200)
    _obs, info = g.reset(seed=2)
    first = g.game.net_worth(0) / sum(g.game.net_worth(s) for s in range(2))
    rng = np.random.default_rng(3)
    total = 0.0
    for _ in range(150):
        _obs, reward, terminated, _truncated, info = g.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        total += reward
        assert not terminated
    game = g.game
    last = game.net_worth(0) / sum(game.net_worth(s) for s in game.active_seats())
    assert total == pytest.approx(2.0 * (last - first))


def test_win_reward_goes_to_the_winner() -> None:
    e = raw_env(players=2, bots={1: "easy"})
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    rewards = 0.0
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        rewards += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.unwrapped.game
    assert game.over
    assert rewards == (1.0 if 0 in game.winners else 0.0)


def test_observation_hides_deck_order() -> None:
    game = Game.new(3, "classic", "standard", 9)
    Driver(game)  # nothing to play for agents; just a started game
    view = PlayerView(game, 1)
    vector, facts = observe(view), observe_dict(view)
    for deck in game.decks.values():
        deck.rotate(5)
    assert np.array_equal(observe(view), vector)
    assert observe_dict(view) == facts
    assert vector.shape == (OBS_SIZE,) and vector.dtype == np.float32


def test_observation_is_relative_to_the_viewer() -> None:
    game = Game.new(3, "classic", "standard", 9)
    game.cash[:] = [100, 2000, 3000]
    mine = [observe(PlayerView(game, s)) for s in range(3)]
    cash_slot = 2
    assert [round(float(v[cash_slot]), 3) for v in mine] == [0.1, 2.0, 3.0]


def test_observation_shows_each_deed_as_the_game_has_it() -> None:
    """Owner (relative seat), buildings, hotel and mortgage of each property, read by an
    observer that first sees the game in the middle (deeds owned, built and mortgaged)
    and by one that saw it from the start and caught up."""
    game = Game.new(3, "classic", "standard", 9)
    caught_up = [Observer() for _ in range(3)]
    for seat, observer in enumerate(caught_up):
        observer.observe(PlayerView(game, seat))
    hotel = game.tables.hotel_level
    for space, owner, level, mortgaged in ((1, 1, 2, False), (3, 1, hotel, False),
                                           (5, 2, 0, True), (39, 0, 0, True)):  # fmt: skip
        game.owner[space], game.level[space], game.mortgaged[space] = owner, level, mortgaged
    start, width = OBS_LAYOUT["spaces"][0], OBS_LAYOUT["spaces"][1] // 40
    for seat in range(3):
        view = PlayerView(game, seat)
        for vector in (Observer().observe(view), caught_up[seat].observe(view)):
            for space in game.board.properties:
                cells = [
                    float(x) for x in vector[start + space * width : start + (space + 1) * width]
                ]
                owner = game.owner[space]
                slot = 0 if owner < 0 else 1 + (owner - seat) % 3
                assert cells[:9] == [float(i == slot) for i in range(9)], (seat, space)
                assert cells[9:12] == [
                    pytest.approx(game.level[space] / hotel),
                    float(game.level[space] == hotel),
                    float(game.mortgaged[space]),
                ], (seat, space)


def test_bad_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="agent"):
        raw_env(players=2, bots={0: "easy", 1: "easy"})
    with pytest.raises(ValueError, match="seat"):
        MonopolyGymEnv(opponents=["easy"], seat=5)


def test_gymnasium_make_finds_the_registered_environment() -> None:
    import gymnasium as gym

    import monopoly.rl.gym_env  # noqa: F401  (registers monopoly/Monopoly-v0)

    made = gym.make("monopoly/Monopoly-v0", opponents=["easy", "hard"])
    obs, info = made.reset(seed=1)
    assert obs.shape == (OBS_SIZE,) and info["action_mask"].shape == (SIZE,)
    assert info["action_mask"].any()


def _brown_for_seat_1() -> Game:
    """Two players on GO, seat 0 to roll; seat 1 owns both brown streets (1, 3)."""
    return start({"players": [{}, {}], "properties": {"1": {"owner": 1}, "3": {"owner": 1}}})


def test_a_seat_builds_out_of_turn_through_the_env() -> None:
    """R-BUILD-1: a player may build at any time, also out of turn. When seat 0's turn
    starts, seat 1 gets its out-of-turn window, builds on Mediterranean Avenue through
    the env, and the engine shows the house while seat 0 still has to roll."""
    e = raw_env(players=2)
    e.reset(seed=1, options={"game": _brown_for_seat_1()})
    game = e.game
    assert game.decision.seat == 0 and game.decision.kind == "roll"
    assert e.agent_selection == "player_1"
    obs = e.observe("player_1")
    mask = obs["action_mask"]
    build, done = CATALOGUE.id("build", 1), CATALOGUE.DONE
    assert mask[build] and mask[done] and mask[CATALOGUE.id("build_row", 1)]
    assert not mask[CATALOGUE.id("roll")]
    assert obs["observation"][OBS_LAYOUT["extras"][0] + 4] == 1.0  # my window is open
    assert not e.observe("player_0")["action_mask"].any()
    cash = game.cash[1]
    e.step(build)
    assert game.level[1] == 1 and game.level[3] == 0
    assert game.cash[1] == cash - game.board.spaces[1].house_cost
    assert game.decision.seat == 0 and game.decision.kind == "roll"  # still seat 0's turn
    assert e.agent_selection == "player_1"  # the window stays open until done
    e.step(done)
    assert e.agent_selection == "player_0"
    assert e.observe("player_0")["action_mask"][CATALOGUE.id("roll")]


def test_out_of_turn_window_off_and_budget() -> None:
    """Without ``out_of_turn`` the seat waits for its own decisions; with it, the window
    closes by itself once the seat's free-action budget for the turn is spent."""
    e = raw_env(players=2, out_of_turn=False)
    e.reset(seed=1, options={"game": _brown_for_seat_1()})
    assert e.agent_selection == "player_0"
    e = raw_env(players=2, max_free_actions=2)
    e.reset(seed=1, options={"game": _brown_for_seat_1()})
    e.step(CATALOGUE.id("build", 1))
    e.step(CATALOGUE.id("build", 3))
    assert e.agent_selection == "player_0" and e.game.level[1] == e.game.level[3] == 1


def test_trade_offered_out_of_turn_is_answered_then_the_window_goes_on() -> None:
    """R-TRADE-1: an offer made in a window is answered by its partner first (here the
    agent at seat 0); then the window of the proposer continues."""
    e = raw_env(players=2)
    e.reset(seed=1, options={"game": _brown_for_seat_1()})
    offer = CATALOGUE.id("trade_sell", 1)  # space 1 to the next seat for its price
    assert e.observe("player_1")["action_mask"][offer]
    e.step(offer)
    assert e.agent_selection == "player_0" and e.game.decision.kind == "trade"
    e.step(CATALOGUE.id("accept"))
    assert e.game.owner[1] == 0
    assert e.agent_selection == "player_1"  # back in its window (it can still mortgage 3)
    e.step(CATALOGUE.DONE)
    assert e.agent_selection == "player_0" and e.game.decision.kind == "roll"


def test_random_agents_with_out_of_turn_windows_finish_legal_games() -> None:
    """Four random masked agents (windows on) play to the end; every masked id of every
    seat that moves is legal for the engine."""
    rules = RuleSet.named("standard", turn_limit=60)
    for seed in range(2):
        e = raw_env(players=4, rules=rules, max_steps=50_000)
        e.reset(seed=seed)
        rng = random.Random(seed)
        windows = steps = 0
        for agent in e.agent_iter():
            _obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            assert e.legal_ids() == e.driver.legal_ids(e.seat_of[agent])
            ids = e.legal_ids()
            assert ids
            driver = e.driver
            windows += driver.window_seat >= 0
            for action_id in ids:
                action = driver.action_of(action_id)
                if action is not None:
                    assert e.game.is_legal(action), CATALOGUE.describe(action_id)
            e.step(rng.choice(ids))
            steps += 1
            assert steps < 50_000
        assert e.game.over
        assert windows > 0
