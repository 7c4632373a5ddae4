"""One game driven for agents: whose move it is, the mask, applying an id, the bots.

Shared by the PettingZoo and the Gymnasium environments. Seats listed in ``bots`` are
played by built-in levels inside :meth:`Driver.advance`; every other seat is an agent's.

Two rules keep every episode finite and every decision reachable:

* An agent moves when it must answer the game's decision, or when it is owed rent it
  may claim (rule ``rent_must_be_claimed``): then it may claim or ``waive_claims``.
* Building, selling, mortgaging, lifting mortgages and trade offers are allowed at any
  of the agent's own decisions, at most ``max_free_actions`` per seat and game turn
  (in a debt, selling and mortgaging stay allowed: they pay it). Without such a limit
  a random agent could mortgage and lift the same deed forever.
* With ``out_of_turn=True``, players also act out of turn (R-BUILD-1, R-TRADE-1):
  whenever a game turn starts, before its player's first move, each *other* agent seat
  in play order from that player gets an out-of-turn window, if it has a legal
  building, selling, mortgaging, mortgage-lifting or trade id left in its budget. In
  its window it takes such ids (they count against the same ``max_free_actions``) and
  ends the window with ``done`` (or by running out of budget). A trade offered there
  is answered at once (by its partner, agent or bot); then the window goes on.
"""

from __future__ import annotations

from collections.abc import Mapping

from monopoly.bots.base import Bot, make_bot, offer_claims
from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE


class IllegalAction(ValueError):
    """An id that is not in the current mask."""


class Driver:
    def __init__(
        self,
        game: Game,
        bots: Mapping[int, str | Bot] | None = None,
        seed: int = 0,
        max_free_actions: int = 8,
        trades: bool = True,
        out_of_turn: bool = False,
    ) -> None:
        self.game = game
        game.collect_events = False  # nobody reads them here, and clones stay small
        self.views = [PlayerView(game, seat) for seat in range(game.players)]
        self.bots: dict[int, Bot] = {}
        for seat, spec in (bots or {}).items():
            if not 0 <= seat < game.players:
                raise ValueError(f"bot seat {seat} is outside 0..{game.players - 1}")
            self.bots[seat] = make_bot(spec, seed * 97 + seat) if isinstance(spec, str) else spec
        self.max_free_actions = max_free_actions
        self.trades = trades
        self._free_used: dict[int, int] = {}
        self._free_turn = -1
        self._waived: set[tuple[int, int, int, int]] = set()
        self.claim_seat = -1
        """The agent seat asked about open rent claims now, or -1."""
        self.out_of_turn = out_of_turn
        self.window_seat = -1
        """The agent seat in its out-of-turn window now, or -1."""
        self._window_turn = -1
        self._window_decision: object = None
        self._window_queue: list[int] = []
        self._legal: list[int] | None = None
        self.advance()

    # ------------------------------------------------------------------ whose move
    def to_move(self) -> int:
        """The agent seat to move now, or -1 when the game is over."""
        if self.game.decision is None:
            return -1
        if self.claim_seat >= 0:
            return self.claim_seat
        if self.window_seat >= 0:
            return self.window_seat
        return self.game.decision.seat

    def advance(self) -> None:
        """Let bots play until an agent must move (or the game ends)."""
        game = self.game
        bot_list: list[Bot | None] = [self.bots.get(s) for s in range(game.players)]
        while True:
            self.claim_seat = -1
            self.window_seat = -1
            decision = game.decision
            if decision is None:
                return
            if game.claims:
                if self.bots:
                    offer_claims(game, bot_list, self.views)  # type: ignore[arg-type]
                    decision = game.decision
                    if decision is None:
                        return
                waiting = self._claims_waiting()
                if waiting >= 0:
                    self.claim_seat = waiting
                    return
            if self.out_of_turn and self._open_window():
                return
            bot = self.bots.get(decision.seat)
            if bot is None:
                return
            legal = game.decision_actions()
            game.apply(bot.decide(self.views[decision.seat], legal))

    def _open_window(self) -> bool:
        """Start the turn's out-of-turn windows when a turn has started; give the next
        seat its window; False when none is open (the game goes on)."""
        game = self.game
        if game.turn != self._window_turn:
            self._window_turn = game.turn
            self._window_decision = game.decision
            self._window_queue = [
                s for s in game.seats_from(game.current)[1:] if s not in self.bots
            ]
        if game.decision is None or game.decision is not self._window_decision:
            return False  # a trade offered in a window is answered first
        while self._window_queue:
            seat = self._window_queue[0]
            if game.active[seat] and seat != game.decision.seat and self._window_ids(seat):
                self.window_seat = seat
                return True
            self._window_queue.pop(0)
        return False

    def _window_ids(self, seat: int) -> list[int]:
        if not self._free_allowed(seat):
            return []
        return CATALOGUE.legal_ids(self.game, seat, True, self.trades, out_of_turn=True)

    def _claims_waiting(self) -> int:
        for claim in self.game.claims:
            owner = claim[0]
            if owner not in self.bots and claim not in self._waived and self.game.active[owner]:
                return owner
        return -1

    # ------------------------------------------------------------------ the mask
    def _free_allowed(self, seat: int) -> bool:
        if self._free_turn != self.game.turn:
            self._free_turn = self.game.turn
            self._free_used.clear()
        return self._free_used.get(seat, 0) < self.max_free_actions

    def legal_ids(self, seat: int | None = None) -> list[int]:
        if seat is None:
            seat = self.to_move()
        if seat < 0 or seat != self.to_move():
            return []
        if self._legal is None:
            self._legal = self._compute_legal(seat)
        return list(self._legal)

    def _compute_legal(self, seat: int) -> list[int]:
        game = self.game
        if self.claim_seat >= 0:
            claims = [CATALOGUE.id("claim", c[2]) for c in game.claims if c[0] == seat]
            return [*claims, CATALOGUE.WAIVE_CLAIMS]
        if self.window_seat >= 0:
            return [*self._window_ids(seat), CATALOGUE.DONE]
        return CATALOGUE.legal_ids(game, seat, self._free_allowed(seat), self.trades)

    def action_of(self, action_id: int) -> Action | None:
        return CATALOGUE.action(self.game, self.to_move(), action_id)

    # ------------------------------------------------------------------ moving
    def step(self, action_id: int) -> Action | None:
        """Apply the action ``action_id`` means for the seat to move, then let the bots
        play. Raises :class:`IllegalAction` (changing nothing) for an id not masked."""
        action = self.begin(action_id)
        if action is not None:
            self.game.apply(action)
        self.advance()
        return action

    def begin(self, action_id: int) -> Action | None:
        """Check ``action_id`` and count it; the engine action to apply next (None for
        ``waive_claims``, which is done here). For callers that apply the action
        themselves (the OpenSpiel game, with its own chance nodes) and then call
        :meth:`advance`."""
        seat = self.to_move()
        if seat < 0:
            raise IllegalAction("the game is over")
        if action_id not in self.legal_ids(seat):
            raise IllegalAction(
                f"action {action_id} ({CATALOGUE.describe(action_id)}) is not legal now"
            )
        game = self.game
        self._legal = None
        if action_id == CATALOGUE.WAIVE_CLAIMS:
            self._waived.update(c for c in game.claims if c[0] == seat)
            return None
        if action_id == CATALOGUE.DONE:
            self._window_queue.pop(0)
            return None
        action = CATALOGUE.action(game, seat, action_id)
        assert action is not None
        decision = game.decision
        assert decision is not None
        answers = decision.seat == seat and action in game.decision_actions()
        if not answers and CATALOGUE.split(action_id)[0] not in ("claim", "bid"):
            self._free_allowed(seat)
            self._free_used[seat] = self._free_used.get(seat, 0) + 1
        return action

    def set_game(self, game: Game) -> None:
        """Go on with ``game`` (a clone of this one with an action applied)."""
        self.game = game
        self.views = [PlayerView(game, seat) for seat in range(game.players)]
        self._legal = None
