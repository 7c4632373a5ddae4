"""MONOPOLY as an OpenSpiel game (``pip install .[openspiel]``), with explicit chance.

Importing this module registers ``python_monopoly``::

    import pyspiel
    import monopoly.rl.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_monopoly", {"players": 3, "rules": "speed"})

Players' actions are the ids of :mod:`monopoly.rl.catalogue` (the same masks as the
PettingZoo environment). Chance nodes are explicit, with exact probabilities, so
OpenSpiel's random playouts, expectimax-style code and MCTS run unchanged:

* dice: one node per roll, with the 36 (or 36 × 5 with the Speed Die) outcomes of
  :func:`monopoly.core.outcomes.dice_outcomes`;
* shuffles and deals: one node per card (or deed) position, each remaining card equally
  likely, so a 16-card shuffle is 15 nodes of 16, 15, …, 2 outcomes (the last card is
  forced) and every order has probability 1/16!.

The engine finds the next chance event by applying the action to a clone
(``Game.chance_outcomes``); the outcomes chosen at the chance nodes are then handed to
the engine as a script, exactly like a game record's outcomes. The game is of imperfect
information (deck orders are hidden): observation tensors and strings are those of
:mod:`monopoly.rl.observation`. Utilities: each winner gets 1 / number of winners; the
parameter ``max_turns`` (default 300) ends a game by net worth (R-SHORT-4 counting),
so every playout ends.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from monopoly.core.actions import Action
from monopoly.core.chance import Entry
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.outcomes import ChanceEvent, dice_outcomes, event_of
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE, MAX_SEATS, SIZE
from .driver import Driver
from .observation import OBS_SIZE, observe, observe_dict

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "edition": "classic",
    "rules": "standard",
    "language": "en",
    "max_turns": 300,
    "max_free_actions": 4,
    "trades": True,
}
_MAX_CHANCE = len(dice_outcomes(True))

GAME_TYPE = pyspiel.GameType(
    short_name="python_monopoly",
    long_name="Python MONOPOLY (rules-exact)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class MonopolyGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; parameters as in ``_DEFAULTS``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_DEFAULTS, **(params or {})}
        players = int(values["players"])
        rules = RuleSet.named(str(values["rules"]), turn_limit=int(values["max_turns"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=SIZE,
            max_chance_outcomes=_MAX_CHANCE,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=int(values["max_turns"]) * 200 + 1000,
        )
        super().__init__(GAME_TYPE, info, params or {})
        self.setup = Setup(
            tuple(PlayerSetup(f"Player {i + 1}") for i in range(players)),
            str(values["edition"]),
            str(values["language"]),
            rules,
        )
        Game(self.setup)  # fail now on a bad set-up
        self.max_free_actions = int(values["max_free_actions"])
        self.trades = bool(values["trades"])

    def new_initial_state(self) -> MonopolyState:
        return MonopolyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MonopolyObserver:
        return MonopolyObserver()


class MonopolyState(pyspiel.State):  # type: ignore[misc]
    """A position: an engine game (once set up), or the chance still to come."""

    def __init__(self, game: MonopolyGame) -> None:
        super().__init__(game)
        self._spiel_game = game
        self.driver: Driver | None = None
        self.pending: Action | None = None
        """The player action waiting for its chance outcomes (None: the set-up)."""
        self.given: list[Entry] = []
        self.event: ChanceEvent | None = None
        self.picked: list[Any] = []
        self._resolve()

    # ------------------------------------------------------------------ chance
    def _resolve(self) -> None:
        """Carry the pending step out with the outcomes given so far, or stop at the
        next chance event it needs."""
        if self.driver is None:
            game = Game(self._spiel_game.setup, list(self.given))
            drawn = [e for e in game.record if e[0] != "action"]
        else:
            game = self.driver.game.clone()
            game.chance.script = list(self.given)
            game.chance.position = 0
            start = len(game.chance.log)
            assert self.pending is not None
            game.apply(self.pending)
            drawn = [e for e in game.chance.log[start:] if e[0] != "action"]
        if len(drawn) > len(self.given):
            self.event = event_of(drawn[len(self.given)])
            return
        self.event = None
        self.given = []
        self.pending = None
        if self.driver is None:
            spiel = self._spiel_game
            self.driver = Driver(game, None, 0, spiel.max_free_actions, spiel.trades)
        else:
            self.driver.set_game(game)
            self.driver.advance()

    def _picks_needed(self, event: ChanceEvent) -> int:
        if event.kind == "deal":
            return min(len(event.items), 3 * int(self._spiel_game.num_players()))
        return len(event.items)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        event = self.event
        assert event is not None, "not a chance node"
        if event.kind == "dice":
            return [(i, float(p)) for i, (_roll, p) in enumerate(event.outcomes())]
        left = len(event.items) - len(self.picked)
        return [(i, 1.0 / left) for i in range(left)]

    def _apply_chance(self, outcome: int) -> None:
        event = self.event
        assert event is not None
        if event.kind == "dice":
            self.given.append(("dice", event.outcomes()[outcome][0]))
        else:
            left = [x for x in event.items if x not in self.picked]
            self.picked.append(left[outcome])
            if len(self.picked) == len(event.items) - 1:
                self.picked.append(next(x for x in left if x not in self.picked))
            if len(self.picked) < self._picks_needed(event):
                return
            order = tuple(self.picked)
            self.picked = []
            self.given.append(
                ("shuffle", event.role, order) if event.kind == "shuffle" else ("deal", order)
            )
        self._resolve()

    # ------------------------------------------------------------------ players
    def current_player(self) -> int:
        if self.event is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.driver is not None
        seat = self.driver.to_move()
        return int(pyspiel.PlayerId.TERMINAL) if seat < 0 else seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.driver is None or self.event is not None:
            return []
        return self.driver.legal_ids(player)

    def _apply_action(self, action: int) -> None:
        if self.event is not None:
            self._apply_chance(action)
            return
        driver = self.driver
        assert driver is not None
        engine_action = driver.begin(action)
        if engine_action is None:
            driver.advance()
            return
        self.pending = engine_action
        self._resolve()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.event is not None:
            if self.event.kind == "dice":
                return f"dice {self.event.outcomes()[action][0]}"
            left = [x for x in self.event.items if x not in self.picked]
            return f"{self.event.kind} {left[action]}"
        return CATALOGUE.describe(action)

    def is_terminal(self) -> bool:
        return self.driver is not None and self.event is None and self.driver.game.over

    def returns(self) -> list[float]:
        players = self._spiel_game.num_players()
        if not self.is_terminal():
            return [0.0] * players
        winners = self.game.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]

    @property
    def game(self) -> Game:
        """The engine game (after the set-up's chance nodes)."""
        assert self.driver is not None, "the set-up's chance nodes come first"
        return self.driver.game

    def __str__(self) -> str:
        if self.driver is None:
            return f"setting up; next chance: {self.event}"
        game = self.driver.game
        return (
            f"turn {game.turn} decision {game.decision} cash {game.cash} "
            f"positions {game.position} owners {game.owner}"
        )


class MonopolyObserver:
    """Observation tensor and string of one player (no hidden information)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MonopolyState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.driver is not None:
            driver = state.driver
            view = PlayerView(driver.game, player)
            self.tensor[:] = observe(view, driver.claim_seat == player)

    def string_from(self, state: MonopolyState, player: int) -> str:
        if state.driver is None:
            return "setting up"
        driver = state.driver
        facts = observe_dict(PlayerView(driver.game, player), driver.claim_seat == player)
        return json.dumps(facts, sort_keys=True)


pyspiel.register_game(GAME_TYPE, MonopolyGame)
