"""The seat driver: the one loop that lets computer players take their decisions.

The simulator, the analysis' rollouts, the RL environments, the terminal game and the
browser game's server all move their computer players through :class:`SeatDriver`, so a
computer player behaves the same everywhere.

**A player's bad answer** — an action the rules refuse now, or an exception raised by
the player — is handled by one policy: the game does not change, the driver calls its
``report`` hook with the seat, the action (None after an exception) and the error, and
then plays :func:`fallback` for that seat so that the game goes on. The default hook
raises :class:`BadAnswerError` instead: simulations and tests stop at the first mistake
of a computer player, while the terminal and the browser log it and play on.

**What is checked.** An answer that is one of the listed legal answers, or the action
the player's view has just found legal (``view.is_legal``: the game cannot change
between that question and the answer, players only read it), is carried out as it is;
anything else is checked first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from monopoly.core.actions import Action, DeclareBankruptcy
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.view import PlayerView

from .player import LevelPlayer

if TYPE_CHECKING:
    from .base import Bot


class BadAnswerError(MonopolyError):
    """A computer player answered with an action the rules refuse, or failed."""

    def __init__(self, seat: int, action: Action | None, error: BaseException) -> None:
        self.seat = seat
        self.action = action
        self.error = error
        what = f"answered {action}" if action is not None else "failed"
        super().__init__(f"the computer player of seat {seat} {what}: {error}")


Report = Callable[[int, "Action | None", BaseException], None]
Observe = Callable[[int, Action], None]


def strict(seat: int, action: Action | None, error: BaseException) -> None:
    """The default report: a bad answer is an error (simulations and tests)."""
    raise BadAnswerError(seat, action, error) from error


def fallback(game: Game, seat: int) -> Action:
    """A legal move for ``seat`` when its player failed: the first answer to the pending
    decision; when there is none (raising cash while selling could still cover the
    debt), the first free action (a sale or a mortgage), else bankruptcy."""
    legal = game.decision_actions()
    if legal:
        return legal[0]
    free = game.free_actions(seat)
    return free[0] if free else DeclareBankruptcy(seat)


class CheckingView(PlayerView):
    """A player's view that remembers the last action it found legal (see above)."""

    __slots__ = ("checked",)

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__(game, seat)
        self.checked: Action | None = None

    def forget(self) -> None:
        """Nothing is found legal yet (before each decision)."""
        self.checked = None

    def is_legal(self, action: Action) -> bool:
        legal = super().is_legal(action)
        if legal:
            self.checked = action
        return legal


class SeatDriver:
    """Asks the computer players of a game for their decisions and applies them.

    ``bot_for(seat)`` gives the computer player of a seat, or None for a person's seat.
    ``observe(seat, action)`` is told each decision's answer before it is applied.
    ``views()`` are the players' views the driver hands them, one per seat.
    """

    def __init__(
        self,
        game: Game,
        bot_for: Callable[[int], Bot | None],
        report: Report = strict,
        observe: Observe | None = None,
    ) -> None:
        self.game = game
        self.bot_for = bot_for
        self.report = report
        self.observe = observe
        self.views = [CheckingView(game, seat) for seat in range(game.players)]

    def step(self) -> Action | None:
        """Offer rent claims, then make the pending decision if a computer player holds
        it; returns the action applied (None when a person must decide or it is over)."""
        game = self.game
        if game.claims:
            self.claim_rents()
        decision = game.decision
        if decision is None:
            return None
        seat = decision.seat
        bot = self.player(seat)
        if bot is None:
            return None
        legal = game.answers(decision)
        view = self.views[seat]
        view.forget()
        try:
            if isinstance(bot, LevelPlayer):  # a native call on the compiled build
                action = bot.answer(view, decision, legal)
            else:
                action = bot.decide(view, legal)
        except Exception as error:  # a player's bug: the policy above
            return self._bad_answer(seat, None, error)
        self.answered(seat, action)
        if action is not view.checked and action not in legal:
            problem = game.problem(action)
            if problem is not None:
                return self._bad_answer(seat, action, MonopolyError(problem))
        game.carry_out(action, decision)
        return action

    def player(self, seat: int) -> Bot | None:
        """The computer player of ``seat``, or None for a person's seat."""
        return self.bot_for(seat)

    def answered(self, seat: int, action: Action) -> None:
        """Told each decision's answer before it is carried out: calls ``observe``. (The
        simulator's :class:`~monopoly.sim.loop.LandingCount` counts landings here.)"""
        if self.observe is not None:
            self.observe(seat, action)

    def run(self, max_actions: int = 1_000_000) -> int:
        """Step until a person must decide, the game is over or ``max_actions`` were made;
        returns the number of actions made."""
        for made in range(max_actions):
            if self.step() is None:
                return made
        return max_actions

    def claim_rents(self) -> None:
        """R-RENT-5 option: an owner with rent to claim may claim it before play goes on.

        Computer players with an ``interject(view) -> Action | None`` method are asked
        (a free action while another seat decides); the others let unclaimed rent go.
        """
        game = self.game
        for owner in sorted({claim[0] for claim in game.claims}):
            bot = self.player(owner)
            interject = getattr(bot, "interject", None)
            if interject is None:
                continue
            for _ in range(len(game.claims)):
                action = interject(self.views[owner])
                if action is None or game.decision is None:
                    break
                if game.problem(action) is not None:
                    break  # a claim no longer open: nothing to claim
                game.carry_out(action)

    def _bad_answer(self, seat: int, action: Action | None, error: BaseException) -> Action:
        self.report(seat, action, error)
        move = fallback(self.game, seat)
        self.game.apply(move)
        return move
