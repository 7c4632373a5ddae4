"""Advice during a game, for a table that chose "advice on" when creating it.

Two things, both computed in the analysis pool's worker processes (web/analysis.py), never
in the server's own process, so players' actions never wait for them:

* **the win-chance bar**: after each player-turn every seat's chance to win, broadcast to
  everyone at the table as a ``win_chances`` message. At most one update per game runs
  at a time; turns played meanwhile are coalesced into one update of the newest turn
  (the stale ones are dropped);
* **trade advice**: a seated player asks (``advice`` with an offer they are composing,
  or the offer they are answering) and alone gets ``advice``: each seat's change of win
  chance if the trade is carried out, with its interval. One request per player runs at
  a time; a newer one replaces a waiting older one.

A game without "advice on" refuses the requests (``advice_off``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from monopoly.analysis.advice import ADVICE_HORIZON, trade_advice, trade_alternatives
from monopoly.analysis.estimates import WinChances
from monopoly.analysis.rollout import RolloutSettings
from monopoly.analysis.runner import Pool
from monopoly.core.actions import ProposeTrade, action_from_json
from monopoly.core.chance import Entry
from monopoly.core.errors import IllegalActionError, MalformedActionError
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.records import entry_to_json, replay
from monopoly.core.state import TRADE

from .limits import shown
from .protocol import Refusal, error_message

if TYPE_CHECKING:
    from .analysis import AnalysisService
    from .client import Client
    from .session import GameSession

CHANCES_SETTINGS = RolloutSettings(horizon=ADVICE_HORIZON, rollouts=200)
"""The bar's chances: the trade advice's estimator (expert players, a few player-turns
ahead, then the fitted fallback; its calibration is in docs/analysis.md), 200 rollouts:
a fraction of a second of one worker."""
ADVICE_BUDGET = 2.0
"""Seconds a trade's advice may take (it stops sooner once its interval is ±3 points)."""

Snapshot = tuple[dict[str, Any], list[Entry]]
"""A live game's setup and record entries: pickled to a worker, which replays them."""


def snapshot(setup: dict[str, Any], game: Game) -> Snapshot:
    """The position now, cheaply (the entries are converted to JSON in the worker)."""
    return dict(setup), list(game.record)


def position_of(position: Snapshot) -> Game:
    setup, entries = position
    log = [entry_to_json(entry) for entry in entries]
    return replay({"setup": setup, "log": log}, check_result=False)


def chances_in_worker(position: Snapshot, settings: RolloutSettings) -> dict[str, Any]:
    """Every seat's chance to win the position (in a worker process)."""
    game = position_of(position)
    (scores,) = Pool().run(game, ((),), settings)
    return WinChances.from_scores(tuple(game.names), scores).to_json()


def advice_in_worker(position: Snapshot, offer: ProposeTrade, budget: float) -> dict[str, Any]:
    """What ``offer`` does to each seat's chance (in a worker process)."""
    return trade_advice(position_of(position), offer, budget=budget).to_json()


def requested_offer(game: Game, seat: int, value: object) -> ProposeTrade:
    """The offer an ``advice`` message asks about: one the sender may propose now, or
    the pending offer made to the sender (then it names the proposer's seat)."""
    if not isinstance(value, dict):
        raise Refusal("bad_message", f"advice.offer must be a JSON object, got {shown(value)}")
    try:
        offer = action_from_json({"seat": seat, **value, "act": "propose_trade"})
    except MalformedActionError as error:
        raise Refusal("bad_action", str(error)) from None
    assert isinstance(offer, ProposeTrade)
    decision = game.decision
    answering = decision is not None and decision.kind is TRADE and decision.data == offer
    if offer.seat != seat and not (answering and offer.partner == seat):
        raise Refusal("not_your_seat", f"you play seat {seat}: ask about your own offers")
    try:
        trade_alternatives(game, offer)
    except IllegalActionError as error:
        text, key = Narrator(game).reason(error.reason), getattr(error.reason, "key", None)
        raise Refusal("illegal_action", text, key) from None
    return offer


@dataclass(frozen=True)
class Moment:
    """A position to update the bar for: the player-turn and state it was taken at."""

    position: Snapshot
    turn: int
    state_id: int | None


@dataclass
class LiveAdvice:
    """One game's advice work under way (see the module's text)."""

    session: GameSession
    service: AnalysisService
    asked_turn: int = -1
    """The player-turn of the last win-chance update started."""
    waiting: Moment | None = None
    """A newer position to update the bar for once the running update ends."""
    running: asyncio.Task[None] | None = None
    last: dict[str, Any] | None = None
    """The last ``win_chances`` message (for a client who arrives later)."""
    asked: dict[Client, tuple[Snapshot, ProposeTrade, int | None]] = field(default_factory=dict)
    """Each player's trade advice waiting for its turn (the newest request only)."""
    advising: dict[Client, asyncio.Task[None]] = field(default_factory=dict)

    def changed(self, game: Game) -> None:
        """After a change was published: a new player-turn updates the bar."""
        if game.over or game.turn == self.asked_turn:
            return
        self.asked_turn = game.turn
        moment = Moment(snapshot(self.session.setup, game), game.turn, self.session.state_id)
        if self.running is not None and not self.running.done():
            self.waiting = moment  # replaces an older waiting one: it is stale now
            return
        self.running = asyncio.create_task(self._update(moment))

    async def _update(self, moment: Moment | None) -> None:
        while moment is not None:
            chances = await self.service.live(chances_in_worker, moment.position, CHANCES_SETTINGS)
            if chances is not None:
                self.last = {
                    "type": "win_chances",
                    "turn": moment.turn,
                    "state_id": moment.state_id,
                    **chances,
                }
                self.session.broadcast(self.last)
            moment, self.waiting = self.waiting, None

    def ask(self, client: Client, offer: ProposeTrade, state_id: int | None) -> None:
        """A player's request for advice on ``offer`` at the position now."""
        game = self.session.game
        assert game is not None
        request = (snapshot(self.session.setup, game), offer, state_id)
        task = self.advising.get(client)
        if task is not None and not task.done():
            self.asked[client] = request  # the newest request replaces a waiting one
            return
        self.advising[client] = asyncio.create_task(self._advise(client, request))

    async def _advise(
        self, client: Client, request: tuple[Snapshot, ProposeTrade, int | None]
    ) -> None:
        next_request: tuple[Snapshot, ProposeTrade, int | None] | None = request
        while next_request is not None:
            position, offer, state_id = next_request
            advice = await self.service.live(advice_in_worker, position, offer, ADVICE_BUDGET)
            if advice is None:
                busy = Refusal("analyses_busy", "the server is busy analysing: ask again soon")
                client.send(error_message(busy, state_id, "advice"))
            else:
                client.send({"type": "advice", "state_id": state_id, **advice})
            next_request = self.asked.pop(client, None)
        self.advising.pop(client, None)

    def stop(self) -> None:
        for task in [self.running, *self.advising.values()]:
            if task is not None:
                task.cancel()
