"""The computer players of a game: who moves for whom, when, and what happens on errors.

One task per game moves for the computer players (and for the stand-ins of absent people)
until a person must decide, pausing ``bot_delay`` before each move (less in auctions).
A failed write or any other error never ends it: it waits longer each time and tries
again. With a turn timer, a person's decision gets a deadline; when it passes, a computer
player makes that one decision for them (in an auction it passes).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from monopoly.bots import levels as _levels  # noqa: F401  (registers the levels)
from monopoly.bots.base import LEVELS, Bot, make_bot
from monopoly.bots.driver import SeatDriver
from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.state import BID

from .part import SessionPart
from .protocol import storage_error_message
from .storage import StorageFailure

if TYPE_CHECKING:
    from .session import GameSession

log = logging.getLogger("monopoly.web")

LEVEL_ORDER = ("easy", "normal", "hard", "expert", "learned", "random")
STANDIN_PREFERENCE = ("normal", "hard", "easy", "random")
AUCTION_PACE = 0.3
"""Computer players bid this much faster than they play (auctions move briskly)."""
BOT_BATCH = 200
"""Without a bot delay, computer players make up to this many moves between two states."""
RETRY_MAX = 10.0
"""The longest wait (seconds) between two tries to store a computer player's move."""


def registered_levels() -> list[str]:
    """The computer-player levels, in a stable order: easy, normal, hard, expert, learned,
    random, others."""
    known = [level for level in LEVEL_ORDER if level in LEVELS]
    return known + sorted(set(LEVELS) - set(known))


class ComputerPlayers(SessionPart):
    """The computer players of one game and the tasks that move for them."""

    def __init__(self, session: GameSession) -> None:
        super().__init__(session)
        self.bots: dict[int, Bot] = {}
        self.task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.timer_deadline: float | None = None

    def seat_to_move(self) -> int | None:
        """The seat a computer player decides for now (None: a person, or nobody)."""
        game = self.session.game
        if game is None or game.over:
            return None
        decision = game.decision
        if decision is None:
            return None
        data = self.session.seats[decision.seat]
        return decision.seat if data.kind == "bot" or data.standin else None

    def kick(self) -> None:
        """Start moving for the computer players if one is to move and no task runs."""
        if self.task is None and self.seat_to_move() is not None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        """Move for the computer players until a person must decide. A failed write (or
        any other error) never ends this task: it waits longer each time and tries again."""
        session = self.session
        delay = session.hub.config.bot_delay
        failures = 0
        while True:
            brisk = session.game is not None and in_auction(session.game)
            pause = delay * AUCTION_PACE if brisk else delay
            await asyncio.sleep(pause if not failures else min(RETRY_MAX, 0.1 * 2**failures))
            try:
                async with session.lock:
                    if await self._moves(1 if delay > 0 else BOT_BATCH):
                        self.task = None
                        return
                failures = 0
            except StorageFailure as failure:
                failures += 1
                if failures == 1:
                    log.warning("game %s waits for the database: %s", session.id, failure)
                    session.broadcast(storage_error_message(session.state_id))
            except Exception:
                failures += 1
                log.exception("game %s: the computer players failed; trying again", session.id)

    async def _moves(self, batch: int) -> bool:
        """Make up to ``batch`` moves and publish them; True when no bot is to move."""
        moves = 0
        while moves < batch and (seat := self.seat_to_move()) is not None:
            self.move(seat)
            moves += 1
        if moves:
            await self.session.publish()
        return self.seat_to_move() is None

    def move(self, seat: int) -> None:
        """A computer player decides for ``seat`` (its own, or a stand-in for an absent or
        timed-out person) through the seat driver, which also lets the computer players
        claim rent and plays a legal move after a bad answer (see bots/driver.py)."""
        game = self.session.game
        assert game is not None
        seats = self.session.seats

        def bot_for(other: int) -> Bot | None:
            data = seats[other]
            computer = other == seat or data.kind == "bot" or data.standin
            return self._bot(other) if computer and game.active[other] else None

        SeatDriver(game, bot_for, report=self._erred).step()

    def _erred(self, seat: int, action: Action | None, error: BaseException) -> None:
        """The seat driver's policy: log the computer player's mistake; it plays on."""
        log.warning(
            "game %s: the computer player of seat %d erred (%s): %s",
            self.session.id,
            seat,
            action,
            error,
        )

    def _bot(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            session = self.session
            data = session.seats[seat]
            level = data.level if data.kind == "bot" and data.level else session.hub.standin_level
            seed = (int(session.setup["seed"]) * 31 + seat) * 100_003 + session.actions
            bot = make_bot(level, seed=seed % 2**32)
            self.bots[seat] = bot
        return bot

    def forget(self, seat: int | None = None) -> None:
        """Drop the computer player of ``seat`` (a person took the seat back), or all of
        them (the game was rolled back: they start afresh from the stored game)."""
        if seat is None:
            self.bots.clear()
        else:
            self.bots.pop(seat, None)

    def pass_for_people_who_cannot_win(self) -> None:
        """Auctions move briskly: a person is asked to bid only while they can still
        win; when passing is all they could do, it is done for them at once."""
        game = self.session.game
        while game is not None and not game.over and cannot_win(game):
            decision = game.decision
            assert decision is not None
            data = self.session.seats[decision.seat]
            if data.kind == "bot" or data.standin:
                return  # computer players pass by themselves, at their pace
            game.apply(game.decision_actions()[0])

    # ------------------------------------------------------------------ turn timer
    def start_turn_timer(self) -> None:
        """With a turn timer, a person's decision gets a deadline (a new one per state)."""
        if self.timer_task is not None:
            self.timer_task.cancel()
        self.timer_task, self.timer_deadline = None, None
        session = self.session
        seconds, game = session.hub.config.turn_timer, session.game
        if seconds <= 0 or game is None or game.over or game.decision is None:
            return
        seat = game.decision.seat
        if session.seats[seat].kind != "human" or session.seats[seat].standin:
            return
        self.timer_deadline = time.monotonic() + seconds
        loop = asyncio.get_running_loop()
        self.timer_task = loop.create_task(self._time_out(session.actions, seat, seconds))

    def seconds_left(self) -> float | None:
        """What is left of the current decision's time (None: no turn timer)."""
        if self.timer_deadline is None:
            return None
        return round(max(0.0, self.timer_deadline - time.monotonic()), 1)

    async def _time_out(self, state_id: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        session = self.session
        async with session.lock:
            game = session.game
            if game is None or game.over or game.decision is None or session.actions != state_id:
                return
            if game.decision.seat != seat:
                return
            self.timer_task = None  # this task must not cancel itself in publish
            name = session.seats[seat].name
            session.broadcast({"type": "timed_out", "seat": seat, "name": name})
            if game.decision.kind == BID:
                game.apply(game.decision_actions()[0])  # pass
            else:
                self.move(seat)
            with contextlib.suppress(StorageFailure):  # told to everyone by publish
                await session.publish()

    def stop(self) -> None:
        """Cancel the tasks (the game leaves memory or the server stops)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        if self.timer_task is not None:
            self.timer_task.cancel()
            self.timer_task = None


def in_auction(game: Game) -> bool:
    return game.decision is not None and game.decision.kind == BID


def cannot_win(game: Game) -> bool:
    """A person in an auction who cannot outbid the highest bid (passing is the only
    answer) is not asked: the server passes for them at once."""
    return in_auction(game) and len(game.decision_actions()) == 1
