"""One game driven for agents: whose move it is, the mask, applying an id, the bots.

Shared by the PettingZoo and the Gymnasium environments (and the OpenSpiel game). Seats
listed in ``bots`` are played by built-in levels through the one seat loop of the
computer players, :class:`monopoly.bots.driver.SeatDriver`; every other seat is an
agent's.

**Every episode ends.** :meth:`Driver.advance` stops, and :attr:`Driver.stopped` says why:

* ``"over"``: the game is over;
* ``"agents_out"``: every agent seat is bankrupt (the computer players are not left to
  play on: nobody would learn from it);
* ``"turn_limit"``: game turn ``max_turns + 1`` is about to begin (``max_turns=0``: no
  limit). The environments report this as a truncation.

**Two action-space modes.** In the ``full`` mode the agent takes every decision of its
seat and may build, sell, mortgage, lift mortgages and offer trades:

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

In the ``core`` mode the agent takes the frequent decisions only — roll, jail, buy or
decline, bids, raising cash, the Speed Die and shortage choices — and may build, sell,
mortgage and lift mortgages before it rolls (``max_free_actions`` a turn). A built-in
level of the agent's choice (``helper``) plays the rest for its seat: it answers trade
offers, offers trades once at the start of the seat's turns, and claims rent. There
are no out-of-turn windows and no trade ids in the mask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from monopoly.bots.base import Bot, make_bot
from monopoly.bots.driver import SeatDriver
from monopoly.core.actions import Action, ClaimRent
from monopoly.core.game import Game, attribute_names
from monopoly.core.memo import FreeActionsMemo
from monopoly.core.state import JAIL, ROLL, TRADE
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE
from .mask import TradeTemplates

MODES = ("full", "core")
DEFAULT_MAX_TURNS = 1000
"""The environments' default turn limit (as the simulator's): standard rules have none,
and two computer players can circle for ever once nobody can win."""


def check_driver_options(mode: str, helper: str | None, max_turns: int) -> None:
    """Raise ValueError for a mode, helper level or turn limit the driver cannot use."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if helper is not None:
        make_bot(helper)  # BotError (a ValueError) names the known levels
    if max_turns < 0:
        raise ValueError(f"max_turns must be 0 (no limit) or more, got {max_turns}")


def worth_share(game: Game, seat: int) -> float:
    """φ of the shaping: the seat's share of the net worth of the players still in."""
    if not game.active[seat]:
        return 0.0
    total = sum(game.net_worth(s) for s in game.active_seats())
    return game.net_worth(seat) / total if total > 0 else 0.0


class IllegalAction(ValueError):
    """An id that is not in the current mask."""


class Helper:
    """The built-in level that plays a ``core``-mode agent's trades: it answers offers
    (``decide``), claims rent (``interject``) and may offer one trade a turn
    (:meth:`offer`, for levels with a ``propose_trade`` search)."""

    def __init__(self, level: str | Bot, seed: int) -> None:
        self.bot = make_bot(level, seed) if isinstance(level, str) else level
        self._board: object = None

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return self.bot.decide(view, legal)

    def interject(self, view: PlayerView) -> Action | None:
        interject = getattr(self.bot, "interject", None)
        return interject(view) if interject is not None else None

    def offer(self, view: PlayerView) -> Action | None:
        """The trade the level would offer before the seat rolls, or None."""
        player: Any = getattr(self.bot, "judge", self.bot)  # expert holds its judge
        propose = getattr(player, "propose_trade", None)
        if propose is None:
            return None
        if self._board is not view.board:
            player.prepare(view)
            self._board = view.board
        seat = view.seat
        spare = view.cash[seat] - player.cash_reserve(view, seat)
        offer: Action | None = propose(view, seat, spare)
        return offer


class Driver:
    def __init__(
        self,
        game: Game,
        bots: Mapping[int, str | Bot] | None = None,
        seed: int = 0,
        max_free_actions: int = 8,
        trades: bool = True,
        out_of_turn: bool = False,
        *,
        mode: str = "full",
        helper: str | Bot = "normal",
        max_turns: int = 0,
        twin_of: Driver | None = None,
    ) -> None:
        """``twin_of``: the driver whose bookkeeping ``game`` (its game's clone) goes on
        with (:meth:`__deepcopy__`); the other arguments are then not read."""
        if twin_of is not None:
            self._take_bookkeeping(twin_of)
            self._attach(game)
            return
        check_driver_options(mode, helper if isinstance(helper, str) else None, max_turns)
        self.game = game
        game.collect_events = False  # nobody reads them here, and clones stay small
        self.bots: dict[int, Bot] = {}
        for seat, spec in (bots or {}).items():
            if not 0 <= seat < game.players:
                raise ValueError(f"bot seat {seat} is outside 0..{game.players - 1}")
            self.bots[seat] = make_bot(spec, seed * 97 + seat) if isinstance(spec, str) else spec
        self.agent_seats = [s for s in range(game.players) if s not in self.bots]
        self.core = mode == "core"
        self.mode = mode
        self.helpers: dict[int, Helper] = (
            {s: Helper(helper, seed * 97 + s) for s in self.agent_seats} if self.core else {}
        )
        self.max_free_actions = max_free_actions
        self.trades = trades and not self.core
        self.max_turns = max_turns
        self.stopped: str | None = None
        """Why the driver stopped: ``over``, ``agents_out``, ``turn_limit``; or None."""
        self._free_used: dict[int, int] = {}
        self._free_turn = -1
        self._waived: set[tuple[int, int, int, int]] = set()
        self._offered = (-1, -1)
        self.claim_seat = -1
        """The agent seat asked about open rent claims now, or -1."""
        self.out_of_turn = out_of_turn and not self.core
        self.window_seat = -1
        """The agent seat in its out-of-turn window now, or -1."""
        self._window_turn = -1
        self._window_decision: object = None
        self._window_queue: list[int] = []
        self._legal: list[int] | None = None
        self.templates = TradeTemplates()
        """The engine's answers about trade templates, kept between states (shared
        with clones: each answer is checked against the state it is used for)."""
        self.kept: FreeActionsMemo[list[int]] = FreeActionsMemo()
        """Each seat's ids of building, selling, mortgaging and lifting, kept between
        states (and with the game they are for)."""
        self._attach(game)
        self.advance()

    def _attach(self, game: Game) -> None:
        self.game = game
        self.seats = SeatDriver(game, self._computer)
        self.views: Sequence[PlayerView] = self.seats.views

    def _computer(self, seat: int) -> Bot | Helper | None:
        """Who plays ``seat``'s pending decision (or its rent claims) for it: its level,
        or in core mode the helper for a trade answer; None for the agent."""
        bot = self.bots.get(seat)
        if bot is not None or not self.core:
            return bot
        decision = self.game.decision
        if decision is not None and decision.seat == seat and decision.kind is not TRADE:
            return None
        return self.helpers[seat]

    # ------------------------------------------------------------------ whose move
    def to_move(self) -> int:
        """The agent seat to move now, or -1 when the driver has stopped."""
        if self.stopped is not None or self.game.decision is None:
            return -1
        if self.claim_seat >= 0:
            return self.claim_seat
        if self.window_seat >= 0:
            return self.window_seat
        return self.game.decision.seat

    def advance(self) -> None:
        """Let the computer players play until an agent must move, or stop."""
        game = self.game
        while True:
            self.claim_seat = -1
            self.window_seat = -1
            self._legal = None
            if self._stop():
                return
            if game.claims:
                self.seats.claim_rents()
                if self.core:
                    self._claim_for_agents()
                if self._stop():
                    return
                waiting = self._claims_waiting()
                if waiting >= 0:
                    self.claim_seat = waiting
                    return
            if self.out_of_turn and self._open_window():
                return
            decision = game.decision
            assert decision is not None
            if self.core and decision.seat not in self.bots and self._helper_offers(decision.seat):
                continue
            if self.seats.step() is None:
                return

    def _stop(self) -> bool:
        game = self.game
        if game.decision is None:
            self.stopped = "over"
        elif not any(game.active[s] for s in self.agent_seats):
            self.stopped = "agents_out"
        elif self.max_turns and game.turn > self.max_turns:
            self.stopped = "turn_limit"
        else:
            self.stopped = None
        return self.stopped is not None

    def _helper_offers(self, seat: int) -> bool:
        """Core mode: at the start of the agent's turn its helper may offer one trade;
        True when it did (the partner answers next)."""
        game = self.game
        decision = game.decision
        assert decision is not None
        if decision.kind not in (ROLL, JAIL) or self._offered == (game.turn, seat):
            return False
        self._offered = (game.turn, seat)
        offer = self.helpers[seat].offer(self.views[seat])
        if offer is None or not game.is_legal(offer):
            return False
        game.apply(offer)
        return True

    def _claim_for_agents(self) -> None:
        """Core mode: an agent seat's open rent claims are always claimed."""
        game = self.game
        for owner, _payer, space, _amount in list(game.claims):
            claim = ClaimRent(owner, space)
            if owner in self.helpers and game.decision is not None and game.is_legal(claim):
                game.apply(claim)

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
            if game.active[seat] and seat != game.decision.seat:
                ids = self._window_ids(seat)
                if ids:
                    self.window_seat = seat
                    self._legal = [*ids, CATALOGUE.DONE]  # the mask until the next move
                    return True
            self._window_queue.pop(0)
        return False

    def _window_ids(self, seat: int) -> list[int]:
        if not self._free_allowed(seat):
            return []
        return CATALOGUE.legal_ids(
            self.game,
            seat,
            True,
            self.trades,
            out_of_turn=True,
            templates=self.templates,
            kept=self.kept,
        )

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
        free = self._free_allowed(seat)
        if self.core:
            decision = game.decision
            free = free and decision is not None and decision.kind in (ROLL, JAIL)
        return CATALOGUE.legal_ids(
            game, seat, free, self.trades, templates=self.templates, kept=self.kept
        )

    def action_of(self, action_id: int) -> Action | None:
        return CATALOGUE.action(self.game, self.to_move(), action_id)

    # ------------------------------------------------------------------ moving
    def step(self, action_id: int) -> Action | None:
        """Apply the action ``action_id`` means for the seat to move, then let the bots
        play. Raises :class:`IllegalAction` (changing nothing) for an id not masked."""
        action = self.begin(action_id)
        if action is not None:
            self.game.apply_unchecked(action)
        self.advance()
        return action

    def begin(self, action_id: int) -> Action | None:
        """Check ``action_id`` and count it; the engine action to apply next (None for
        ``waive_claims`` and ``done``, which are done here). For callers that apply the
        action themselves (the OpenSpiel game, with its own chance nodes) and then call
        :meth:`advance`."""
        seat = self.to_move()
        if seat < 0:
            raise IllegalAction("the game is over")
        if self._legal is None:
            self._legal = self._compute_legal(seat)
        if action_id not in self._legal:
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
        if CATALOGUE.is_free(action_id) and not self._answers(seat, action):
            self._free_allowed(seat)
            self._free_used[seat] = self._free_used.get(seat, 0) + 1
        return action

    def _answers(self, seat: int, action: Action) -> bool:
        """The action answers the seat's pending decision (lifting a received deed's
        mortgage does: it is not one of the seat's free actions)."""
        decision = self.game.decision
        return (
            decision is not None
            and decision.seat == seat
            and action in self.game.decision_actions()
        )

    def __deepcopy__(self, memo: dict[int, object]) -> Driver:
        """A fast independent copy (OpenSpiel clones states by deep copies): the game
        through :meth:`Game.clone`, the driver's own small bookkeeping copied, and the
        computer players shared — they keep no state about one game that a search
        could spoil (the OpenSpiel game has none)."""
        return Driver(self.game.clone(), twin_of=self)

    def _take_bookkeeping(self, other: Driver) -> None:
        """Every attribute of ``other`` (from the compiled class's attribute list, so
        that none is forgotten): its lists, dicts and sets copied, the rest shared; the
        kept free-action ids start afresh (they are for ``other``'s game)."""
        for name in attribute_names(other):
            value = getattr(other, name)
            kind = type(value)
            setattr(self, name, kind(value) if kind in (list, dict, set) else value)
        self.kept = FreeActionsMemo()

    def set_game(self, game: Game) -> None:
        """Go on with ``game`` (a clone of this one with an action applied)."""
        self._attach(game)
        self._legal = None
