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
the engine as a script, exactly like a game record's outcomes. Utilities: each winner
gets 1 / number of winners; the parameter ``max_turns`` (default 300) ends a game by net
worth (R-SHORT-4 counting), so every playout ends.

What a player may know. The only hidden information of MONOPOLY is the order of the card
decks (everything a player holds, jail cards included, lies open on the table), and it
is hidden from every player alike. So:

* the *observation* (string and tensor) is :mod:`monopoly.rl.observation`'s view of the
  current position;
* the *information state string* is the player's perfect-recall history: every player
  action (as ``seat:id``), every roll, every deed dealt, every card turned up, with
  each shuffle step written as ``shuffle ?``;
* the *information state tensor* is the observation plus the known layout of each deck
  (``DECK_SLOTS`` positions from the top, each a one-hot of the card there or
  "unknown"): a drawn card goes under the deck, so every card seen has a known place
  and the unseen ones lie on top in an unknown order. It is a sufficient statistic of
  what the player knows, not the history itself.
* ``resample_from_infostate`` deals a world the player cannot tell from the real one:
  the unseen cards of each deck in a random order. OpenSpiel's information-set MCTS
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) runs on it. Plain ``MCTSBot``
  clones the true state, deck order included: it searches with knowledge no player has.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

from monopoly.core.actions import Action
from monopoly.core.board import DECK_ROLES
from monopoly.core.chance import Entry
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.events import CardDrawn
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.outcomes import ChanceEvent, dice_outcomes, event_of
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE, MAX_SEATS, SIZE
from .driver import Driver, worth_share
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
DECK_SLOTS = max(
    len(get_edition(key).board.decks[role]) for key in edition_keys() for role in DECK_ROLES
)
"""Positions per deck in the information state tensor (the largest deck of any edition)."""
DECK_SIZE = len(DECK_ROLES) * DECK_SLOTS * (DECK_SLOTS + 1)
INFO_STATE_SIZE = OBS_SIZE + DECK_SIZE

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
    provides_information_state_string=True,
    provides_information_state_tensor=True,
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
        self.first_event: ChanceEvent | None = None
        """The set-up's first chance event (every initial state starts with it; found
        once, since OpenSpiel makes an initial state for each clone)."""

    def new_initial_state(self) -> MonopolyState:
        return MonopolyState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> MonopolyGame:
        return self  # a game's parameters never change: states share it

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> MonopolyObserver | InfoStateObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InfoStateObserver()
        return MonopolyObserver()


class MonopolyState(pyspiel.State):  # type: ignore[misc]
    """A position: an engine game (once set up), or the chance still to come."""

    def __init__(self, game: MonopolyGame) -> None:
        super().__init__(game)
        self._spiel_game = game
        self.driver: Driver | None = None
        self.pending: Action | None = None
        """The player action waiting for its chance outcomes (None: the set-up)."""
        self.given: list[Entry] = History()
        self.event: ChanceEvent | None = None
        self.picked: list[Any] = []
        self.public = History()
        """What every player saw so far (the information state string's history)."""
        self.seen = SeenCards((role, set()) for role in DECK_ROLES)
        """The cards of each deck turned up so far."""
        if game.first_event is None:
            self._resolve()
            game.first_event = self.event
        else:
            self.event = game.first_event

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
            game.chance.keeping = True  # what the action draws is read from the log
            start = len(game.chance.log)
            assert self.pending is not None
            game.collect_events = True  # to see which cards are turned up
            game.apply(self.pending)
            game.collect_events = False
            drawn = [e for e in game.chance.log[start:] if e[0] != "action"]
        if len(drawn) > len(self.given):
            self.event = event_of(drawn[len(self.given)])
            return
        for event in game.events:
            if isinstance(event, CardDrawn):
                self.seen[event.deck].add(event.card)
                self.public.append(f"card {event.deck} {event.card}")
        game.events.clear()
        self.event = None
        self.given = History()
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
            roll = event.outcomes()[outcome][0]
            self.public.append(f"dice {roll}")
            self.given.append(("dice", roll))
        else:
            left = [x for x in event.items if x not in self.picked]
            self.picked.append(left[outcome])
            self.public.append("shuffle ?" if event.kind == "shuffle" else f"deal {left[outcome]}")
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
        self.public.append(f"{driver.to_move()}:{action}")
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

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> MonopolyState:
        """A state ``player`` cannot tell from this one: the same history, with the
        cards of each deck that nobody has seen yet in a random order.
        ``probability_sampler()`` gives uniform numbers in [0, 1)."""
        state: MonopolyState = self.clone()
        if state.driver is None or state.event is not None:
            return state  # set-up and chance nodes: no player decides here
        game = state.driver.game.clone()
        for role in DECK_ROLES:
            deck = game.decks[role]
            hidden = [i for i, key in enumerate(deck) if key not in self.seen[role]]
            keys = [deck[i] for i in hidden]
            for i in range(len(keys) - 1, 0, -1):  # Fisher-Yates
                j = min(int(probability_sampler() * (i + 1)), i)
                keys[i], keys[j] = keys[j], keys[i]
            for i, key in zip(hidden, keys, strict=True):
                deck[i] = key
        state.driver.set_game(game)
        return state

    def known_decks(self) -> dict[str, list[str | None]]:
        """Each deck from the top as every player knows it (None: not seen yet)."""
        if self.driver is None:
            return {role: [] for role in DECK_ROLES}
        decks = self.driver.game.decks
        return {
            role: [key if key in self.seen[role] else None for key in decks[role]]
            for role in DECK_ROLES
        }

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


def random_playout(state: Any, moves: int, rng: random.Random) -> Any:
    """Play ``state`` on with uniformly random player actions and chance outcomes by
    their probabilities until it ends or reaches move ``moves``; returns it."""
    while not state.is_terminal() and state.move_number() < moves:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


class WorthEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An evaluator for open_spiel's ``MCTSBot``: a short random rollout (at most
    ``depth`` actions and chance outcomes), then each player's share of the net worth
    of the players still in (R-SHORT-4 counting) — or the returns, if the game ended.
    A rollout to the end of a MONOPOLY game takes thousands of actions."""

    def __init__(self, depth: int = 20, random_state: np.random.RandomState | None = None) -> None:
        self.depth = depth
        self._random = random_state or np.random.RandomState()

    def evaluate(self, state: MonopolyState) -> np.ndarray:
        working = state.clone()
        for _ in range(self.depth):
            if working.is_terminal():
                return np.array(working.returns())
            if working.is_chance_node():
                actions, probabilities = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(int(self._random.choice(actions, p=probabilities)))
            else:
                working.apply_action(int(self._random.choice(working.legal_actions())))
        if working.is_terminal():
            return np.array(working.returns())
        players = state.get_game().num_players()
        if working.driver is None:
            return np.full(players, 1.0 / players)
        return np.array([worth_share(working.driver.game, seat) for seat in range(players)])

    def prior(self, state: MonopolyState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class History(list[Any]):
    """A list of items that never change (the public history's lines, chance entries):
    OpenSpiel clones a state by deep-copying each attribute, and a copy of the list is
    enough."""

    def __deepcopy__(self, memo: dict[int, Any]) -> History:
        return History(self)


class SeenCards(dict[str, set[str]]):
    """The cards of each deck turned up so far (copied set by set, not deep-copied)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> SeenCards:
        return SeenCards((role, set(cards)) for role, cards in self.items())


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


class InfoStateObserver:
    """Information state of one player: the perfect-recall history as the string, the
    observation plus the known deck layout as the tensor (see the module docstring)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(INFO_STATE_SIZE, np.float32)
        self.dict = {
            "observation": self.tensor[:OBS_SIZE],
            "decks": self.tensor[OBS_SIZE:].reshape(len(DECK_ROLES), DECK_SLOTS, DECK_SLOTS + 1),
        }
        self.observer = MonopolyObserver()

    def set_from(self, state: MonopolyState, player: int) -> None:
        self.observer.set_from(state, player)
        self.tensor.fill(0.0)
        self.dict["observation"][:] = self.observer.tensor
        if state.driver is None:
            return
        decks = self.dict["decks"]
        for r, (role, known) in enumerate(state.known_decks().items()):
            cards = [card.key for card in state.game.board.decks[role]]
            for slot, key in enumerate(known[:DECK_SLOTS]):
                decks[r, slot, DECK_SLOTS if key is None else cards.index(key)] = 1.0

    def string_from(self, state: MonopolyState, player: int) -> str:
        return f"player {player}\n" + "\n".join(state.public)


pyspiel.register_game(GAME_TYPE, MonopolyGame)
