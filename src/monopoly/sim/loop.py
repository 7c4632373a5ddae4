"""The simulator's play loop, counting landings as it goes.

It does what ``bots.base.play(game, bots, checked=False, observe=...)`` does, with the
landing count written inline: no callback per action, and no second check of an action
the player has just checked itself (:class:`CheckingView`). It is a module of its own, with
nothing to pickle, so that ``setup.py`` compiles it with the engine and the
players (the calls into the game are then native calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from monopoly.bots.base import Bot, offer_claims
from monopoly.bots.player import LevelPlayer
from monopoly.core.actions import Action, RollForDoubles
from monopoly.core.game import ROLL_ACTION, Game
from monopoly.core.view import PlayerView

from .texts import JAIL_SLOT, SLOTS

ROLL_FOR_DOUBLES_ACTION: Final = RollForDoubles
"""As :data:`~monopoly.core.game.ROLL_ACTION`: a constant until actions.py is compiled."""
MAX_ACTIONS = 1_000_000
"""A game still running after this many actions ends as "unfinished"."""


class CheckingView(PlayerView):
    """A player's view that remembers the last action it found legal.

    Players ask ``view.is_legal(action)`` before they build or propose a trade; the
    game cannot change between that question and the action being applied (players only
    read the view), so the loop applies such an action without checking it again.
    """

    __slots__ = ("checked",)

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__(game, seat)
        self.checked: Action | None = None

    def forget(self) -> None:
        """Nothing is checked (before a decision: the loop also clears ``checked``
        right after reading it)."""
        self.checked = None

    def is_legal(self, action: Action) -> bool:
        legal = not self._game.problem(action)
        if legal:
            self.checked = action
        return legal


def play_counting(game: Game, bots: Sequence[Bot], max_actions: int = MAX_ACTIONS) -> list[int]:
    """Let ``bots`` play ``game`` (fast path) and count landings per slot.

    A roll's landing is taken when the next roll starts (or the game ends): by then
    everything the roll caused — including a Speed Die move that waits for the buy
    decision of the first space — is resolved. Answers from the legal list are applied
    unchecked; anything else a bot does is checked.
    """
    landings = [0] * SLOTS
    position, jail_turns = game.position, game.jail_turns
    views = [CheckingView(game, seat) for seat in range(game.players)]
    # The levels' players by their own class: a native call when compiled (a Bot is a
    # Protocol, called through Python's attribute look-up).
    players: list[LevelPlayer | None] = [
        bot if isinstance(bot, LevelPlayer) else None for bot in bots
    ]
    roller = -1
    decision = game.decision
    claims = game.claims  # one list all game long (changed in place)
    for _ in range(max_actions):
        if claims:
            offer_claims(game, bots, views)
            decision = game.decision
            for checking in views:
                checking.forget()
        if decision is None:
            break
        seat = decision.seat
        legal = game.answers(decision)
        view = views[seat]  # nothing checked yet: see the end of the loop
        player = players[seat]
        if player is not None:
            action = player.answer(view, decision, legal)
        else:
            action = bots[seat].decide(view, legal)
        kind = type(action)
        if kind is ROLL_ACTION or kind is ROLL_FOR_DOUBLES_ACTION:
            if roller >= 0:
                landings[JAIL_SLOT if jail_turns[roller] >= 0 else position[roller]] += 1
            roller = seat
        # ``action in legal`` by identity alone: the players answer with the listed
        # objects themselves, and anything else is checked (an equal copy too, as
        # legal as the listed one): a dataclass's Python-level ``__eq__`` at every bid
        # of another amount than the listed one cost more than the checks of copies.
        listed = action is view.checked
        view.checked = None  # for the seat's next decision (and for claims: above)
        if not listed:
            for answer in legal:
                if answer is action:
                    listed = True
                    break
        if not listed and game.problem(action):
            game.check(action)  # raises the error of the problem
        # The bot only read the game: the decision is still pending. carry_out returns
        # the next one.
        decision = game.carry_out(action, decision)
    if roller >= 0:
        landings[JAIL_SLOT if jail_turns[roller] >= 0 else position[roller]] += 1
    return landings
