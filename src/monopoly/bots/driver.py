"""The seat driver: the one loop that lets computer players take their decisions.

The simulator (:func:`monopoly.bots.base.play`), the terminal game and the browser game's
server all move their computer players through :class:`SeatDriver`, so a computer player
behaves the same everywhere. (``monopoly.sim.loop.play_counting`` is the simulator's
compiled copy of :meth:`SeatDriver.run` that also counts landings.)

**A player's bad answer** — an action the rules refuse now, or an exception raised by
the player — is handled by one policy: the game does not change, the driver calls its
``report`` hook with the seat, the action (None after an exception) and the error, and
then plays :func:`fallback` for that seat so that the game goes on. The default hook
raises :class:`BadAnswerError` instead: simulations and tests stop at the first mistake
of a computer player, while the terminal and the browser log it and play on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from monopoly.core.actions import Action, DeclareBankruptcy
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.view import PlayerView

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


class SeatDriver:
    """Asks the computer players of a game for their decisions and applies them.

    ``bot_for(seat)`` gives the computer player of a seat, or None for a person's seat.
    With ``checked=False`` an answer taken from the legal list is applied without checking
    it again (the simulator's fast path); anything else is always checked.
    ``observe(seat, action)`` is told each decision's answer before it is applied;
    ``views`` gives the players' views to use (made on demand otherwise).
    """

    def __init__(
        self,
        game: Game,
        bot_for: Callable[[int], Bot | None],
        report: Report = strict,
        checked: bool = True,
        observe: Callable[[int, Action], None] | None = None,
        views: Mapping[int, PlayerView] | None = None,
    ) -> None:
        self.game = game
        self.bot_for = bot_for
        self.report = report
        self.checked = checked
        self.observe = observe
        self._views: dict[int, PlayerView] = dict(views or {})

    def view(self, seat: int) -> PlayerView:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = PlayerView(self.game, seat)
        return view

    def computer_to_move(self) -> int | None:
        """The deciding seat if a computer player holds it, else None."""
        decision = self.game.decision
        if decision is None or self.bot_for(decision.seat) is None:
            return None
        return decision.seat

    def step(self) -> Action | None:
        """Offer rent claims, then make the pending decision if a computer player holds
        it; returns the action applied (None when a person must decide or it is over)."""
        self.claim_rents()
        seat = self.computer_to_move()
        if seat is None:
            return None
        bot = self.bot_for(seat)
        assert bot is not None
        game = self.game
        legal = game.decision_actions()
        try:
            action = bot.decide(self.view(seat), legal)
        except Exception as error:  # a player's bug: the policy above
            return self._bad_answer(seat, None, error)
        if self.observe is not None:
            self.observe(seat, action)
        if not self.checked and action in legal:
            game.apply_unchecked(action)
            return action
        problem = game.problem(action)
        if problem is not None:
            return self._bad_answer(seat, action, MonopolyError(problem))
        game.apply_unchecked(action)
        return action

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
        if not game.claims:
            return
        for owner in sorted({claim[0] for claim in game.claims}):
            bot = self.bot_for(owner)
            interject = getattr(bot, "interject", None)
            if interject is None:
                continue
            for _ in range(len(game.claims)):
                action = interject(self.view(owner))
                if action is None or game.decision is None:
                    break
                if game.problem(action) is not None:
                    break  # a claim no longer open: nothing to claim
                game.apply_unchecked(action)

    def _bad_answer(self, seat: int, action: Action | None, error: BaseException) -> Action:
        self.report(seat, action, error)
        move = fallback(self.game, seat)
        self.game.apply(move)
        return move
