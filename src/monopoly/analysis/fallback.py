"""The fallback: each player's chance in a game still open at a rollout's horizon.

A rollout stopped at its horizon is scored by a model of the position instead of a
result. The model weighs two things each active player holds, as shares of what all
active players hold:

* **worth**: net worth (R-SHORT-4 counting: cash, deeds at price, mortgaged at half,
  buildings at cost);
* **income**: the rent the player's deeds bring per landing of an opponent, weighted by
  how often each space is landed on; a whole colour group counts at its hotel rent (what
  it earns once built: a monopoly's worth is its future rent, not its price).

A seat's chance is ``worth^a · income^b`` normalised over the active seats (a logit model
in the log-shares). With ``a = 1, b = 0`` it is the plain net-worth share. The weights
were fitted by maximum likelihood to simulated expert games (positions every 5th
player-turn, the games' real results): ``scripts/fit_fallback.py``
reproduces the fit and prints the weights and the fit's log-loss against the plain
net-worth share (docs/analysis.md).

Why it matters: with a fallback that is itself a calibrated chance, the mean of rollouts
stopped at any horizon estimates the same chance, and a short horizon scores more
rollouts by the smooth model than by a won-or-lost end, so it needs far fewer rollouts
(trade advice, docs/analysis.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from monopoly.bots.valuation import BoardFacts
from monopoly.core.game import Game
from monopoly.core.tables import Tables
from monopoly.core.view import PlayerView

WORTH_WEIGHT = 3.281
INCOME_WEIGHT = 0.381
"""Fitted to 64,490 positions of 3,000 expert games (1,000 each of 2, 3 and 4 players,
seed 0): a mean log-loss of 0.692 per position, against 0.843 for the plain net-worth
share and 1.017 for guessing evenly. A third share, of the rent the groups a player
lacks one street of would bring, was tried and got no weight (log-loss 0.690)."""
SMALL = 0.01
"""Added to every share before its logarithm: a player with no deed keeps a chance."""

_FACTS: dict[Tables, BoardFacts] = {}


def facts_of(game: Game) -> BoardFacts:
    facts = _FACTS.get(game.tables)
    if facts is None:
        facts = _FACTS[game.tables] = BoardFacts(game.tables)
    return facts


def income(game: Game, facts: BoardFacts, seat: int) -> float:
    """Rent per opponent's landing the seat's deeds bring, a whole group at hotel rent."""
    view = PlayerView(game)
    owner, level, mortgaged = view.owner, view.level, view.mortgaged
    total = 0.0
    for space in game.deeds[seat]:
        if mortgaged[space]:
            continue
        tables = facts.tables
        group = tables.group_of[space]
        whole = tables.is_street_group[group] and all(
            owner[other] == seat for other in tables.groups[group]
        )
        rent = tables.rent_at(space, tables.hotel_level) if whole else None
        if rent is None:
            rent = facts.rent_now(space, owner, level, mortgaged)
        total += facts.freq[space] * rent
    return total


Shares = tuple[float, float]
"""A seat's shares of the worth and of the income of the active seats."""
Weights = tuple[float, float]


def features(game: Game) -> list[Shares]:
    """Each seat's shares; (0, 0) for a seat out of the game."""
    seats = range(game.players)
    facts = facts_of(game)
    worth = [max(game.net_worth(s), 0) if game.active[s] else 0 for s in seats]
    rents = [income(game, facts, s) if game.active[s] else 0.0 for s in seats]
    worth_total, rent_total = sum(worth), sum(rents)
    return [(_share(worth[s], worth_total), _share(rents[s], rent_total)) for s in seats]


def _share(value: float, total: float) -> float:
    return value / total if total > 0 else 0.0


def chances_from(
    shares: Sequence[Shares],
    active: Sequence[bool],
    weights: Weights = (WORTH_WEIGHT, INCOME_WEIGHT),
) -> list[float]:
    """Each seat's chance from its shares (seats out of the game: 0)."""
    logits = [
        sum(w * math.log(x + SMALL) for w, x in zip(weights, seat_shares, strict=True))
        if active[s]
        else -math.inf
        for s, seat_shares in enumerate(shares)
    ]
    top = max(logits)
    odds = [math.exp(logit - top) if logit > -math.inf else 0.0 for logit in logits]
    total = sum(odds)
    return [value / total for value in odds]


def fallback(game: Game) -> list[float]:
    """Each seat's chance to win ``game``, judged from the position alone."""
    return chances_from(features(game), game.active)
