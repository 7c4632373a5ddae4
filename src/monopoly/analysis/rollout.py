"""One rollout: a determinised copy of a position, played on by computer players.

A rollout is the unit of every estimate in :mod:`monopoly.analysis`:

* the copy is *determinised* (:meth:`~monopoly.core.game.Game.determinised`): the decks
  are shuffled anew, since nobody at the table knows their order, and the dice to come
  are drawn from the rollout's seed;
* an alternative (an action, or none) is applied to the copy first; two alternatives
  played with the same seed see the same deck orders and the same stream of dice and
  the same players' seeds (*common random numbers*), so their difference is the move's
  and not the dice's;
* every seat is then played by the chosen level for at most ``horizon`` player-turns;
* the rollout scores each seat: a real end gives the winners their share of 1; a game
  still open at the horizon is scored by the **fallback** (fallback.py): each active
  player's chance from their shares of the net worth and of the rent income in play,
  a model fitted to simulated games (see docs/analysis.md for how well it is
  calibrated).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from monopoly.bots.base import Bot, make_bot, play
from monopoly.core.actions import Action
from monopoly.core.game import Game

from .fallback import fallback

LEVEL = "expert"
HORIZON = 120
"""Default horizon in player-turns: a four-player game between computer players lasts
about 144 turns, a heads-up one about 83, so most rollouts from mid-game reach a real
end and the fallback decides the rest."""
MAX_ACTIONS = 50_000
"""A rollout still running after this many actions is scored by the fallback."""
HORIZON_END = "limit"
"""The end reason of a game that reached a turn limit (the rollout's or its own)."""


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How positions are played on: the players' level, the horizon in player-turns,
    how many rollouts an estimate takes and the seed of the first one."""

    level: str = LEVEL
    horizon: int = HORIZON
    rollouts: int = 400
    seed: int = 0
    first: int = 0
    """The index of the first rollout: a further batch of an estimate goes on where the
    last one stopped (same seeds for the same indexes, new ones after)."""

    def __post_init__(self) -> None:
        if self.horizon < 1:
            raise ValueError(f"the horizon must be at least 1 turn, got {self.horizon}")
        if self.rollouts < 2:
            raise ValueError(f"an estimate needs at least 2 rollouts, got {self.rollouts}")
        make_bot(self.level)  # raises BotError for an unknown level

    @property
    def indexes(self) -> range:
        return range(self.first, self.first + self.rollouts)

    def rollout_seed(self, index: int) -> int:
        """The seed of rollout ``index``: the same for every alternative (common random
        numbers), different for every rollout."""
        return (self.seed * 1_000_003 + index * 7_919 + 1) % (2**62)


def players_of(level: str, seats: int, seed: int) -> list[Bot]:
    """The level's players for every seat, seeded from the rollout's seed. The expert's
    registered level is its judge alone (no search): the judge plays, so that the
    simulator's loop calls the compiled player directly."""
    bots = [make_bot(level, seed + seat) for seat in range(seats)]
    return [getattr(bot, "judge", bot) if _searches_nothing(bot) else bot for bot in bots]


def _searches_nothing(bot: Bot) -> bool:
    return getattr(bot, "rollouts", None) == 0


def turns_ahead(horizon: int, players: int) -> int:
    """The horizon rounded up to whole rounds of the ``players`` still in: every player
    moves equally often before the fallback judges (a short look-ahead in which one
    player moved twice and another once would favour the first)."""
    return -(-horizon // players) * players


def play_out(copy: Game, settings: RolloutSettings, seed: int) -> list[float]:
    """Play the determinised ``copy`` on for the horizon; each seat's score."""
    own_limit = copy.rules.turn_limit
    horizon = copy.turn + turns_ahead(settings.horizon, max(1, len(copy.active_seats())))
    if not own_limit or horizon < own_limit:
        copy.rules = copy.rules.with_options(turn_limit=horizon)
    if not copy.over:
        play(copy, players_of(settings.level, copy.players, seed), MAX_ACTIONS)
    return scores(copy, real_limit=own_limit)


def rollout(
    game: Game, settings: RolloutSettings, index: int, first: Sequence[Action] = ()
) -> list[float]:
    """Rollout ``index`` of ``game``: determinise, apply the actions ``first`` (checked),
    play on; each seat's score. ``game`` itself is not changed."""
    seed = settings.rollout_seed(index)
    copy = game.determinised(seed)
    for action in first:
        copy.apply(action)
    return play_out(copy, settings, seed)


def scores(game: Game, real_limit: int = 0) -> list[float]:
    """Each seat's score: its share of the win when the game ended for real (a
    bankruptcy end, or the game's own turn limit ``real_limit``), else its chance by
    the fallback (fallback.py)."""
    seats = range(game.players)
    ended_for_real = game.over and (
        game.end_reason != HORIZON_END or (real_limit > 0 and game.turn >= real_limit)
    )
    if ended_for_real:
        share = 1.0 / len(game.winners)
        return [share if seat in game.winners else 0.0 for seat in seats]
    return fallback(game)
