"""The analysis board's words in English and German (``locales/analysis_*.toml``, on top
of the simulator's), and actions told in words."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from monopoly.core.actions import Action, Bid, Build, ProposeTrade
from monopoly.core.board import Edition
from monopoly.core.game import Game
from monopoly.core.narrate import money
from monopoly.sim.texts import Texts

from .judge import Mark
from .review import GameAnalysis, ReviewedDecision


@cache
def _catalog(language: str) -> dict[str, str]:
    path = resources.files("monopoly").joinpath("locales", f"analysis_{language}.toml")
    return tomllib.loads(path.read_text("utf-8"))


class AnalysisTexts(Texts):
    """The simulator's labels plus the analysis board's, in one language."""

    def __init__(self, edition: Edition, language: str = "en") -> None:
        super().__init__(edition, language)
        self.messages = {**self.messages, **_catalog(language)}

    def mark(self, mark: Mark | str) -> str:
        return self(f"mark_{mark}")

    def action(self, game: Game, action: Action | None, space: int = -1) -> str:
        """``action`` in words (``space``: the space of the decision it answers; None:
        *not now*)."""
        if action is None:
            return self("not_now")
        key = f"act_{action.name}"
        if key not in self.messages:
            return self("act_other", action=str(action))
        return self(key, **self._values(game, action, space))

    def _values(self, game: Game, action: Action, space: int) -> dict[str, Any]:
        values: dict[str, Any] = {"space": self._space(getattr(action, "space", space))}
        if isinstance(action, Bid):
            values["amount"] = money(game, action.amount)
        if isinstance(action, Build):
            values["spaces"] = ", ".join(self._space(s) for s in action.spaces)
        if isinstance(action, ProposeTrade):
            values["partner"] = game.names[action.partner]
            values["give"] = self._bundle(game, action.give, action.give_cash)
            values["take"] = self._bundle(game, action.take, action.take_cash)
        return values

    def _space(self, space: int) -> str:
        return self.names.spaces[space] if 0 <= space < len(self.names.spaces) else ""

    def _bundle(self, game: Game, spaces: tuple[int, ...], cash: int) -> str:
        parts = [self._space(s) for s in spaces]
        if cash:
            parts.append(money(game, cash))
        return ", ".join(parts) or self("nothing")

    def actions(self, game: Game, actions: tuple[Action, ...], space: int = -1) -> str:
        """An alternative's actions in words (none: *not now*)."""
        if not actions:
            return self("not_now")
        return " + ".join(self.action(game, a, space) for a in actions)


@dataclass(frozen=True, slots=True)
class MarkedRow:
    """A marked decision told in words: who, what was taken, what was better."""

    decision: ReviewedDecision
    player: str
    taken: str
    better: str
    loss: str
    mark: str

    def cells(self) -> tuple[str, str, str, str, str, str]:
        """(turn, player, taken, better, loss, mark): a table's row."""
        turn = str(self.decision.turn)
        return (turn, self.player, self.taken, self.better, self.loss, self.mark)


def marked_rows(analysis: GameAnalysis, game: Game, texts: AnalysisTexts) -> list[MarkedRow]:
    """Each marked decision of ``analysis`` told in ``texts``' language."""
    rows = []
    for decision in analysis.marked():
        judgement = decision.judgement
        taken = judgement.options[judgement.taken].actions
        better = judgement.options[judgement.best].actions
        rows.append(
            MarkedRow(
                decision,
                analysis.names[judgement.seat],
                texts.actions(game, taken, decision.space),
                texts.actions(game, better, decision.space),
                judgement.loss.points(texts),
                texts.mark(judgement.mark),
            )
        )
    return rows


def decision_rows(
    analysis: GameAnalysis, game: Game, texts: AnalysisTexts
) -> list[tuple[str, str, str, str, str, str]]:
    """(turn, player, taken, better, loss, mark) of each marked decision."""
    return [row.cells() for row in marked_rows(analysis, game, texts)]
