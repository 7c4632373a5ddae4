"""Analysis, like a chess analysis board: win chances, decisions judged, trade advice.

Every number here comes from Monte Carlo rollouts of a determinised copy of the position
(the decks shuffled anew, the dice drawn from the rollout's seed), played on by a chosen
level (default ``expert``) up to a turn horizon, with common random numbers between
alternatives. See docs/analysis.md for the method, the marks' thresholds and the
calibration.

>>> from monopoly import Game
>>> from monopoly.analysis import RolloutSettings, win_chances
>>> game = Game.new(["Ann", "Bob"], seed=1)
>>> chances = win_chances(game, RolloutSettings(rollouts=20, horizon=20))
>>> round(sum(c.mean for c in chances.chances), 6)
1.0
"""

from __future__ import annotations

from monopoly.core.game import Game

from .advice import TradeAdvice, trade_advice
from .estimates import Estimate, WinChances
from .judge import BLUNDER, INACCURACY, MISTAKE, Judgement, Mark, alternatives_of, judge, mark_of
from .review import GameAnalysis, analyse_game, analyse_live
from .rollout import HORIZON, LEVEL, RolloutSettings
from .runner import Pool

__all__ = [
    "BLUNDER",
    "HORIZON",
    "INACCURACY",
    "LEVEL",
    "MISTAKE",
    "Estimate",
    "GameAnalysis",
    "Judgement",
    "Mark",
    "Pool",
    "RolloutSettings",
    "TradeAdvice",
    "WinChances",
    "alternatives_of",
    "analyse_game",
    "analyse_live",
    "judge",
    "mark_of",
    "trade_advice",
    "win_chances",
]


def win_chances(
    game: Game, settings: RolloutSettings | None = None, pool: Pool | None = None
) -> WinChances:
    """Every seat's chance to win from ``game``'s position (which is not changed)."""
    settings = settings or RolloutSettings()
    if game.over:
        raise ValueError("the game is over: its winners are known")
    (scores,) = (pool or Pool()).run(game, ((),), settings)
    return WinChances.from_scores(tuple(game.names), scores)
