"""The game: state, the task stack that runs the rules, and the public API.

A game is fully described by its :class:`Setup` and its record (actions and chance
outcomes). ``legal_actions()`` and ``apply()`` share the same checks (``check()``).
The state is mutated in place; nothing is copied per action.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, TypeVar, TypeVarTuple, assert_never

from . import auction, building, debt, jail, mortgage, movement, rent, trade
from . import events as ev
from .actions import (
    BUYS,
    DECLINES,
    ROLLS,
    AcceptTrade,
    Action,
    Bid,
    Build,
    Buy,
    ChooseBreakdown,
    ChooseMove,
    ChooseSpace,
    ClaimRent,
    DeclareBankruptcy,
    DeclareWant,
    DeclineBuy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJailFine,
    PlaceBuilding,
    ProposeTrade,
    RejectTrade,
    Resign,
    Roll,
    RollForDoubles,
    SellBuilding,
    Unmortgage,
    UseJailCard,
    field_types,
)
from .board import BANK, BOARD_SIZE, DECK_ROLES, Board, Edition
from .chance import ChanceSource, Entry
from .editions import get_edition
from .errors import IllegalActionError, NotYourTurnError, RecordError, SetupError
from .memo import remember
from .reasons import Reason, refuse
from .rules import RuleSet
from .state import (
    BID,
    BREAKDOWN,
    BUS,
    BUY,
    JAIL,
    JAIL_DECISIONS,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    ROLL,
    ROLL_DECISIONS,
    TRADE,
    TRIPLES,
    WANT,
    AfterRoll,
    AuctionDue,
    BuildHeld,
    Debt,
    Decision,
    DecisionKind,
    FinishGame,
    Move,
    MrMonopolyMove,
    Pay,
    SettleShortage,
    Task,
    TurnStart,
)
from .tables import tables_for

Fields = TypeVarTuple("Fields")

NOT_YOUR_TURN = frozenset({"not_your_decision"})
"""Refusals (by reason key) raised as :class:`NotYourTurnError`."""
POT_REASONS = frozenset({"tax", "card", "jail_fine"})
"""Payments to the Bank that go into the Free Parking pot (house rule)."""


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    name: str
    token: str = ""


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything needed to start a game; with the record's entries it replays exactly."""

    players: tuple[PlayerSetup, ...]
    edition: str = "classic"
    language: str = "en"
    rules: RuleSet = field(default_factory=RuleSet)
    seed: int = 0
    position: dict[str, Any] | None = None
    """A start position (see ``docs/records.md``); None starts a new game."""
    advice: bool = False
    """The table chose "advice on": everyone sees win chances and trade advice during
    the game (a setting of the game, recorded so a replay tells it; rules ignore it)."""


class Game:
    """One game of MONOPOLY. Create with :meth:`Game.new` or from a record."""

    def __init__(
        self, setup: Setup, script: list[Entry] | None = None, twin_of: Game | None = None
    ) -> None:
        """A new game of ``setup`` (playing the chance outcomes and actions of ``script``
        first), or, with ``twin_of``, a copy of that game (see :meth:`clone`)."""
        if twin_of is not None:
            self._copy_state(twin_of)
            return
        self.setup = setup
        self.rules = setup.rules
        self.edition: Edition = get_edition(setup.edition)
        self.board: Board = self.edition.board
        if setup.language not in self.edition.names:
            raise SetupError(f"unknown language {setup.language!r}: use en or de")
        self.language = setup.language
        count = len(setup.players)
        if not 2 <= count <= self.rules.max_players:
            raise SetupError(f"a game needs 2 to {self.rules.max_players} players, got {count}")
        if self.rules.max_players > 6 and self.edition.key != "classic":
            raise SetupError("more than 6 players is allowed only on the classic edition")
        self._check_tokens(setup.players)
        self.chance = ChanceSource(setup.seed, script)
        self.collect_events = True
        self.events: list[ev.Event] = []
        self._init_state(count)
        if setup.position is None:
            self._start_new_game()
        else:
            from .position import load_position

            load_position(self, setup.position)
        self._run()

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(
        cls,
        players: list[str] | int,
        edition: str = "classic",
        rules: RuleSet | str = "standard",
        seed: int = 0,
        language: str = "en",
        position: dict[str, Any] | None = None,
    ) -> Game:
        """Start a game: ``Game.new(["Ann", "Bob"], "zelda", "speed", seed=7)``."""
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else players
        rule_set = RuleSet.named(rules) if isinstance(rules, str) else rules
        tokens = get_edition(edition).tokens
        seats = tuple(
            PlayerSetup(name, tokens[i].key if i < len(tokens) else "")
            for i, name in enumerate(names)
        )
        return cls(Setup(seats, edition, language, rule_set, seed, position))

    def _check_tokens(self, players: tuple[PlayerSetup, ...]) -> None:
        keys = {t.key for t in self.edition.tokens}
        chosen = [p.token for p in players if p.token]
        for token in chosen:
            if token not in keys:
                raise SetupError(f"unknown token {token!r} for {self.edition.key}: {sorted(keys)}")
        if len(chosen) != len(set(chosen)):
            raise SetupError("two players chose the same token")

    def _init_state(self, count: int) -> None:
        """The state. The per-seat and per-space lists are changed in place, never
        replaced: views (:class:`~.view.PlayerView`) hold them."""
        board = self.board
        self.players = count
        self.names = [p.name for p in self.setup.players]
        self.cash = [self.rules.initial_cash] * count
        self.position = [0] * count
        self.active = [True] * count
        self.jail_turns = [-1] * count
        """-1: not in jail; otherwise the failed rolls for doubles so far."""
        self.jail_cards: list[list[str]] = [[] for _ in range(count)]
        self.speed_active = [False] * count
        self.owner = [BANK] * BOARD_SIZE
        self.deeds: list[tuple[int, ...]] = [() for _ in range(count)]
        """Per seat: the spaces whose title deed it holds, in board order (what
        ``owner`` says, by seat: kept by :meth:`give_deed`, the one path a deed takes)."""
        self.level = [0] * BOARD_SIZE
        """0..H houses (H = houses per hotel); H + 1 is a hotel."""
        self.mortgaged = [False] * BOARD_SIZE
        self.bank_houses = board.houses
        self.bank_hotels = board.hotels
        self.decks: dict[str, deque[str]] = {
            role: deque(card.key for card in board.decks[role]) for role in DECK_ROLES
        }
        self.current = 0
        self.doubles = 0
        self.turn = 0
        self.round = 0
        self.first_seat = -1
        """The seat of the first turn: a round ends when play comes back to it."""
        self.last_roll: tuple[int, ...] = ()
        self.tasks: list[Decision | Task] = []
        self.claims: list[tuple[int, int, int, int]] = []
        """Open rent claims (owner, payer, space, amount) with ``rent_must_be_claimed``
        (changed in place, like the lists above)."""
        self.free_parking_pot = 0
        self.deeds_version = 0
        """Grows whenever an owner or a mortgage changes, and ``buildings_version``
        whenever a building does: cheap ways for players to know that a judgement of
        the board they cached is still good. They grow in the one path each change
        takes (:meth:`give_deed`, :meth:`set_mortgaged`, :meth:`set_level`)."""
        self.buildings_version = 0
        self.holdings_version = [0] * count
        """Per seat: grows whenever the seat gains or loses a deed or one of its deeds is
        mortgaged or lifted (what the seat owns whole, and what it could lift, stay the
        same while it does not grow). Changed in place, like the lists above."""
        self.rent_income = [0] * BOARD_SIZE
        """Rent collected per property so far (a statistic for simulations)."""
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.end_reason = ""
        self.tables = tables_for(board, self.rules)
        """The board's numbers under the rules, as plain lists by space (shared by every
        game of that board and rule set, and by the players' views: never changed)."""

    def _start_new_game(self) -> None:
        for role in DECK_ROLES:
            self.decks[role] = deque(self.chance.shuffle(role, tuple(self.decks[role])))
        if self.rules.short_game:
            self._deal_deeds()
        self.current = self._roll_turn_order()
        self.tasks.append(TurnStart(self.current))

    def _deal_deeds(self) -> None:
        """R-SHORT-1: three free title deeds each, dealt round by round in seat order."""
        order = self.chance.deal(self.board.properties)
        for i, space in enumerate(order[: 3 * self.players]):
            seat = i % self.players
            self.give_deed(space, seat)
            self.emit(ev.PropertyDealt, seat, space)

    def _roll_turn_order(self) -> int:
        """R-SETUP-4: the highest roll starts; ties among the highest roll again."""
        contenders = list(range(self.players))
        rolls: list[tuple[int, ...]] = []
        while True:
            totals = {}
            for seat in contenders:
                dice = self.chance.dice(2)
                rolls.append(dice)
                totals[seat] = dice[0] + dice[1]
            best = max(totals.values())
            contenders = [seat for seat in contenders if totals[seat] == best]
            if len(contenders) == 1:
                break
        first = contenders[0]
        order = tuple((first + i) % self.players for i in range(self.players))
        self.emit(ev.TurnOrderDecided, order, tuple(rolls))
        return first

    # ------------------------------------------------------------------ events
    def emit(self, kind: Callable[[*Fields], ev.Event], *fields: *Fields) -> None:
        """Record the event ``kind(*fields)`` when the game collects events (a simulation
        plays without them). The events of every turn (a turn starts, dice, a move, a
        payment, a purchase, a bid, a card) are appended where they happen, under the
        same condition: through this call they cost the compiled simulator 4 % (see
        ARCHITECTURE.md, "What is compiled")."""
        if self.collect_events:
            self.events.append(kind(*fields))

    # ------------------------------------------------------------------ queries
    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for, or None when the game is over."""
        tasks = self.tasks
        if tasks:
            top = tasks[-1]
            if isinstance(top, Decision):
                return top
        return None

    def active_seats(self) -> list[int]:
        return [seat for seat in range(self.players) if self.active[seat]]

    def next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.active[candidate]:
                return candidate
        return seat

    def seats_from(self, seat: int) -> list[int]:
        """Active seats in seat order, starting with ``seat`` (or the next active one)."""
        return [s for step in range(self.players) if self.active[s := (seat + step) % self.players]]

    def owns_group(self, seat: int, group: str) -> bool:
        return all(self.owner[s] == seat for s in self.board.groups[group])

    def properties_of(self, seat: int) -> list[int]:
        return list(self.deeds[seat])

    def net_worth(self, seat: int) -> int:
        """R-SHORT-4: cash + deeds (mortgaged at half) + buildings at purchase price."""
        total = self.cash[seat]
        price, house_cost = self.tables.price, self.tables.house_cost
        for s in self.deeds[seat]:
            total += price[s] // 2 if self.mortgaged[s] else price[s]
            total += self.level[s] * house_cost[s]
        return total

    def houses_and_hotels(self, seat: int) -> tuple[int, int]:
        houses = hotels = 0
        for s in self.deeds[seat]:
            if self.level[s]:
                if self.level[s] == self.tables.hotel_level:
                    hotels += 1
                else:
                    houses += self.level[s]
        return houses, hotels

    # ------------------------------------------------------------------ the task loop
    def _run(self) -> Decision | None:
        """Run tasks until a decision is on top of the stack (returned) or the game is
        over (None)."""
        tasks = self.tasks
        while not self.over:
            if not tasks:
                self._next_turn()
                continue
            top = tasks[-1]
            if isinstance(top, Decision):
                if self._decision_stands(top):
                    return top
                continue
            tasks.pop()
            self._execute(top)
        return None

    def _next_turn(self) -> None:
        """The stack is empty: the next seat still in the game begins its turn; a round
        ends when play comes back to the first seat."""
        current = self.current
        seat = self.next_active(current)
        first, count = self.first_seat, self.players
        if (seat - first) % count <= (current - first) % count:
            self.round += 1
        self.current = seat
        self._begin_turn(seat)

    def _decision_stands(self, decision: Decision) -> bool:
        """Whether ``decision`` still waits for an answer. An auction that is over closes,
        a debt that the cash now covers is paid, a placement or breakdown that settles
        itself is done, and a decision of a player who has left the game lapses (each
        leaves the stack)."""
        kind = decision.kind
        if kind is BID and auction.is_over(decision):
            auction.end(self, decision)
            return False
        if kind is BID and debt.debt_of(self, decision.seat) is not None:
            auction.pass_in_debt(self, decision)  # R-DEBT-3
            return False
        if not self.active[decision.seat]:
            self.tasks.pop()
            return False
        if kind is RAISE_CASH and self._debt_settles(decision.seat, decision.data):
            self.tasks.pop()
            return False
        if kind is PLACE and building.refund_unplaceable(self, decision):
            return False
        return not (kind is BREAKDOWN and building.breakdown_settles(self, decision))

    def _execute(self, task: Task) -> None:
        if isinstance(task, AfterRoll):
            # R-TURN-4: doubles roll again, unless the roll sent the player to jail.
            seat = task.seat
            if task.doubles and self.active[seat] and self.jail_turns[seat] < 0:
                self.tasks.append(ROLL_DECISIONS[seat])
        elif isinstance(task, Pay):
            self.pay(task.payer, task.payee, task.amount, task.reason)
        elif isinstance(task, MrMonopolyMove):
            movement.mr_monopoly(self, task.seat)
        elif isinstance(task, Move):
            if self.active[task.seat]:
                movement.advance(self, task.seat, task.steps)
                movement.resolve(self, task.seat)
        elif isinstance(task, AuctionDue):
            auction.start(self, task.space, task.starter)
        elif isinstance(task, TurnStart):
            self._begin_turn(task.seat)
        elif isinstance(task, SettleShortage):
            building.settle_shortage(self, task.shortage)
        elif isinstance(task, BuildHeld):
            building.build_if_still_legal(self, task.seat, task.spaces)
        elif isinstance(task, FinishGame):
            self.finish_by_worth(task.reason)
        else:
            assert_never(task)

    def _begin_turn(self, seat: int) -> None:
        if self.first_seat < 0:
            self.first_seat = seat
        limits = self.rules
        turn_limit = limits.turn_limit  # read once: a rule set is a Python object
        if (turn_limit and self.turn >= turn_limit) or (
            limits.round_limit and self.round >= limits.round_limit
        ):
            self.finish_by_worth("limit")
            return
        self.turn += 1
        self.current = seat
        self.doubles = 0
        if self.collect_events:
            self.events.append(ev.TurnStarted(seat, self.turn))
        in_jail = self.jail_turns[seat] >= 0
        self.tasks.append(JAIL_DECISIONS[seat] if in_jail else ROLL_DECISIONS[seat])

    # ------------------------------------------------------------------ money
    def move_cash(self, payer: int, payee: int, amount: int, to_pot: bool = False) -> bool:
        """The one path every change of a player's cash takes (seat -1 is the Bank).

        R-DEBT-3: nobody out of the game receives anything; a payment to such a player
        moves nothing and returns False. ``to_pot`` puts a payment to the Bank into the
        Free Parking pot (house rule).
        """
        if payee != BANK and not self.active[payee]:
            return False
        if payer != BANK:
            self.cash[payer] -= amount
        if payee != BANK:
            self.cash[payee] += amount
        elif to_pot:
            self.free_parking_pot += amount
        return True

    def give_deed(self, space: int, seat: int) -> bool:
        """The one path a title deed takes to a new owner (``BANK`` to return it).

        R-DEBT-3: a player out of the game receives no property; returns False then.
        """
        if seat != BANK and not self.active[seat]:
            return False
        old = self.owner[space]
        if old != BANK:
            self.holdings_version[old] += 1
            self.deeds[old] = tuple([s for s in self.deeds[old] if s != space])
        if seat != BANK:
            self.holdings_version[seat] += 1
            self.deeds[seat] = tuple(sorted(self.deeds[seat] + (space,)))  # board order
        self.owner[space] = seat
        self.deeds_version += 1
        return True

    def set_mortgaged(self, space: int, mortgaged: bool) -> None:
        """The one path a mortgage is taken or lifted by (R-MORT-*): the counters that
        tell players a judgement of the deeds is out of date grow with it."""
        self.mortgaged[space] = mortgaged
        self.deeds_version += 1
        holder = self.owner[space]
        if holder != BANK:
            self.holdings_version[holder] += 1

    def set_level(self, space: int, level: int) -> None:
        """The one path the buildings on a street change by (R-BUILD-*), with the
        counter that tells players a judgement of the buildings is out of date."""
        self.level[space] = level
        self.buildings_version += 1

    def give_jail_card(self, role: str, giver: int, receiver: int) -> bool:
        """The one path a Get Out of Jail Free card takes between players.

        R-DEBT-3: a player out of the game receives no card; returns False then.
        """
        if not self.active[receiver]:
            return False
        self.jail_cards[giver].remove(role)
        self.jail_cards[receiver].append(role)
        return True

    def pay(self, payer: int, payee: int, amount: int, reason: str, space: int = -1) -> None:
        """Move money now, or open a debt the payer must raise cash for (R-DEBT-1).

        ``space`` names the property whose rent is paid. A payment from or to a player
        who has left the game lapses (R-BANKRUPT-1, R-DEBT-3).
        """
        if payer != BANK and not self.active[payer]:
            return
        if payee != BANK and not self.active[payee]:
            return
        if payer == BANK or self.cash[payer] >= amount:
            self._transfer(payer, payee, amount, reason, space)
            return
        self.emit(ev.DebtOwed, payer, payee, amount)
        self.tasks.append(Decision(RAISE_CASH, payer, data=Debt(payee, amount, reason, space)))

    def _transfer(self, payer: int, payee: int, amount: int, reason: str, space: int = -1) -> None:
        to_pot = self.rules.free_parking_pot and reason in POT_REASONS
        if not self.move_cash(payer, payee, amount, to_pot):
            return
        if space >= 0 and reason == "rent":
            self.rent_income[space] += amount
            if self.collect_events:
                self.events.append(ev.RentPaid(payer, payee, space, amount))
            return
        if self.collect_events:
            self.events.append(ev.MoneyPaid(payer, payee, amount, reason))

    def _debt_settles(self, seat: int, owed: Debt) -> bool:
        """Pay a debt once the cash is there (R-DEBT-1); a debt owed to a player who has
        meanwhile left the game lapses (R-DEBT-3). True when the debt is gone."""
        if owed.creditor != BANK and not self.active[owed.creditor]:
            self.emit(ev.DebtLapsed, seat, owed.creditor, owed.amount)
            return True
        if self.cash[seat] < owed.amount:
            return False
        self._transfer(seat, owed.creditor, owed.amount, owed.reason, owed.space)
        return True

    def push_pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        self.tasks.append(Pay(payer, payee, amount, reason))

    # ------------------------------------------------------------------ the end
    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.over = True
        self.winners = winners
        self.end_reason = reason
        self.tasks.clear()
        worth = tuple(self.net_worth(s) if self.active[s] else 0 for s in range(self.players))
        self.emit(ev.GameOver, winners, reason, worth)

    def finish_by_worth(self, reason: str) -> None:
        """R-SHORT-4: the richest player(s) still in the game win; equal fortunes share."""
        worth = {seat: self.net_worth(seat) for seat in self.active_seats()}
        best = max(worth.values())
        self.finish(tuple(seat for seat, value in worth.items() if value == best), reason)

    # ------------------------------------------------------------------ the public API
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default: the deciding seat) now.

        Bids are listed at the lowest legal amount (any amount up to the bidder's cash is
        legal, see :meth:`bid_range`); trade proposals are never listed (check them with
        :meth:`check`). Buildings are listed one space at a time.
        """
        decision = self.decision
        if decision is None:
            return []
        if seat is None:
            seat = decision.seat
        actions = self.decision_actions() if seat == decision.seat else []
        if self.active[seat]:
            actions.extend(self.free_actions(seat))
        return actions

    def decision_actions(self) -> list[Action]:
        """The answers to the pending decision alone: the cheap question bots ask."""
        decision = self.decision
        if decision is None:
            return []
        return list(self.answers(decision))

    def answers(self, decision: Decision) -> Sequence[Action]:
        """:meth:`decision_actions` of ``decision``, the pending decision, read-only
        (the commonest answers are tuples made once). One branch per decision kind,
        by direct calls (a table of functions costs the compiled build a call through
        Python per decision)."""
        kind = decision.kind
        if kind is ROLL:
            return _roll_actions(self, decision)
        if kind is BUY:
            return _buy_actions(self, decision)
        if kind is BID:
            return auction.actions(self, decision)
        if kind is RAISE_CASH:
            return _raise_cash_actions(self, decision)
        if kind is JAIL:
            return jail.actions(self, decision)
        if kind is MORTGAGE_RECEIVED:
            return _mortgage_received_actions(self, decision)
        if kind is TRADE:
            return trade.answer_actions(self, decision)
        if kind is BUS:
            return _bus_actions(self, decision)
        if kind is TRIPLES:
            return _triples_actions(self, decision)
        if kind is WANT:
            return building.want_actions(self, decision)
        if kind is PLACE:
            return building.place_actions(self, decision)
        if kind is BREAKDOWN:
            return building.breakdown_actions(self, decision)
        assert_never(kind)

    def free_actions(self, seat: int) -> list[Action]:
        """Building, selling, mortgaging and claiming: allowed at any time (R-BUILD-1)."""
        actions: list[Action] = []
        actions.extend(Build(seat, (s,)) for s in building.buildable_spaces(self, seat))
        actions.extend(SellBuilding(seat, s) for s in building.sellable_spaces(self, seat))
        actions.extend(Mortgage(seat, s) for s in mortgage.mortgageable(self, seat))
        actions.extend(Unmortgage(seat, s) for s in mortgage.liftable(self, seat))
        actions.extend(ClaimRent(seat, c[2]) for c in self.claims if c[0] == seat)
        return actions

    def free_actions_key(self, seat: int) -> tuple[Any, ...]:
        """Everything the rules read to judge ``seat``'s building, selling, mortgaging,
        lifting and rent claims (:meth:`free_actions`, and :meth:`problem` of those
        steps): whether the game is over and who is still in it, the owners and
        mortgages (``deeds_version``), the buildings (``buildings_version``) and the
        Bank's stock, the seat's cash, whether it is raising cash (R-DEBT-3), a building
        shortage being settled (R-BUILD-6), a hotel's breakdown waiting for its owner
        (R-BUILD-4), the open rent claims. While the key stays equal in this game, so do
        those judgements: the server and the RL mask keep theirs by it (tests compare
        kept judgements with fresh ones at every moment of many games)."""
        settling, breaking = [], []
        for task in self.tasks:
            if type(task) is SettleShortage:
                settling.append(task.shortage.hotel)
            elif type(task) is Decision and task.kind is BREAKDOWN:
                breaking.append(task.space)
        return (
            self.over,
            tuple(self.active),
            self.deeds_version,
            self.buildings_version,
            self.bank_houses,
            self.bank_hotels,
            self.cash[seat],
            debt.debt_of(self, seat) is not None,
            tuple(settling),
            tuple(breaking),
            tuple(self.claims),
        )

    def bid_range(self) -> tuple[int, int]:
        """The lowest and highest legal bid of the seat to bid now."""
        decision = self.decision
        if decision is None or decision.kind is not BID:
            return (0, -1)
        return auction.bid_range(self, decision)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        reason = self.problem(action)
        if reason:
            cls = NotYourTurnError if reason.key in NOT_YOUR_TURN else IllegalActionError
            raise cls(action, reason)

    def is_legal(self, action: Action) -> bool:
        return not self.problem(action)

    def problem(self, action: Action) -> Reason | None:
        """Why ``action`` is illegal now (a keyed :class:`~.reasons.Reason`, English as a
        ``str``; ``Narrator(game).reason`` translates it), or None when it is legal."""
        if self.over:
            return refuse(self, "game_over")
        if not isinstance(action, Action):
            return refuse(self, "not_an_action", value=repr(action))
        if _WELL_FORMED.get(id(action)) is not action:
            malformed = field_problem(action)
            if malformed:
                return malformed
            remember(_WELL_FORMED, id(action), action, 10_000)
        seat = action.seat
        if not 0 <= seat < self.players:
            return refuse(self, "no_seat", number=seat)
        if not self.active[seat]:
            return refuse(self, "player_bankrupt")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            return refuse(self, "unknown_action")
        decision = self.decision
        assert decision is not None  # the game waits for one while it is not over
        answers = handler.answers  # None for actions allowed at any time
        if answers is not None and (decision.kind not in answers or decision.seat != seat):
            return self._not_yours(action, decision)
        return handler.check(self, action, decision)

    def _not_yours(self, action: Action, decision: Decision) -> Reason:
        """Why an answer to a decision that is not the seat's is refused: R-DEBT-3 says
        why to a debtor's bid (their turn to bid passes) and to an answer to a trade offer
        when none is waiting (an offer lapses when its player or partner leaves the game)."""
        seat = action.seat
        if isinstance(action, Bid) and debt.debt_of(self, seat) is not None:
            return refuse(self, "debtor_cannot_bid")
        if isinstance(action, AcceptTrade | RejectTrade) and not trade.offer_pending(self):
            return refuse(self, "no_trade_offer")
        return refuse(self, "not_your_decision", seat=decision.seat, decision=decision.kind)

    def apply(self, action: Action) -> list[ev.Event]:
        """Check and carry out ``action``; returns the events it caused."""
        self.check(action)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> list[ev.Event]:
        """Carry out an action already known to be legal (the fast path)."""
        start = len(self.events)
        self.carry_out(action)
        return self.events[start:]

    def carry_out(self, action: Action, decision: Decision | None = None) -> Decision | None:
        """:meth:`apply_unchecked` without collecting the events it caused (the
        simulator's loop, which plays without events); ``decision``: the pending
        decision, when the caller has it at hand. Returns the decision the game waits
        for next (None when it is over): the loop then need not look it up."""
        if decision is None:
            decision = self.decision
            assert decision is not None
        self.chance.note_action(action)
        if type(action) is ROLL_ACTION:  # the commonest action, by a direct call
            movement.roll(self, decision.seat)
        else:
            _HANDLERS[type(action)].carry_out(self, action, decision)
        return self._run()

    def reseed(self, seed: int) -> None:
        """Take chance from a new seed from now on. The record keeps every outcome, so a
        replay is unaffected; a server reseeds a game it reloads so that nobody can work
        out the coming dice from the game's seed."""
        self.chance.rng.seed(seed)

    def next_scripted_action(self) -> Action | None:
        """The next action of the record this game was built with (None at its end): a
        replay applies them one by one (see :meth:`replay_script`)."""
        action = self.chance.next_action()
        return action if isinstance(action, Action) else None

    def replay_script(self) -> None:
        """Apply the scripted actions of a record, in order, checking each."""
        while True:
            number = self.chance.position + 1
            action = self.chance.next_action()
            if action is None:
                break
            try:
                self.apply(action)
            except IllegalActionError as error:
                raise RecordError(f"log entry {number}: {error}") from None
        left = self.chance.script_left
        if left:
            entry = self.chance.script[self.chance.position]
            where = f"log entry {self.chance.position + 1}"
            if self.over:
                raise RecordError(f"{where}: the game is over but the record goes on")
            raise RecordError(f"{where}: {entry[0]!r} is not needed here ({left} entries left)")

    def determinised(self, seed: int) -> Game:
        """A copy for look-ahead with what no player can know drawn anew from ``seed``:
        the order of every deck and the dice to come (the record's script is dropped)."""
        copy = self.clone()
        copy.collect_events = False
        shuffler = random.Random(seed)
        for deck in copy.decks.values():
            cards = list(deck)
            shuffler.shuffle(cards)
            deck.clear()
            deck.extend(cards)
        copy.reseed(seed)
        copy.chance.script = []
        copy.chance.position = 0
        return copy

    def clone(self) -> Game:
        """An independent copy (for look-ahead): same state, same generator state."""
        return Game(self.setup, twin_of=self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def _copy_state(self, other: Game) -> None:
        """Take a copy of ``other``'s state: attribute by attribute, so that no attribute
        is forgotten, the compiled build's by its class's attribute list."""
        # What never changes in a game is shared: the edition, board and rules, and the
        # board's tables. Events and the record's entries are immutable: their lists
        # are copied, not the entries (deep-copying a long record made every clone
        # slower as the game went on).
        memo: dict[int, Any] = {id(other.events): list(other.events)}
        for never_changes in (other.edition, other.board, other.rules, other.setup, other.tables):
            memo[id(never_changes)] = never_changes
        for name in attribute_names(other):
            setattr(self, name, _state_copy(getattr(other, name), memo))

    @property
    def record(self) -> list[Entry]:
        """Every chance outcome and action so far, in order."""
        if not self.chance.keeping:
            raise RecordError("this game keeps no record (a simulation asked for none)")
        return self.chance.log

    def chance_outcomes(self, action: Action, given: list[Entry] | None = None) -> Any:
        """The next chance event ``action`` would meet (after the chance entries
        ``given``), as a :class:`~.outcomes.ChanceEvent` whose ``outcomes()`` lists the
        outcomes and their probabilities; None when it meets none. Changes nothing."""
        from .outcomes import next_chance_event

        return next_chance_event(self, action, given)


def attribute_names(obj: object) -> list[str]:
    """The names of ``obj``'s own attributes, for a copy that forgets none: a compiled
    class lists them (``__mypyc_attrs__``, with its internal ``__`` names left out here),
    a Python object has them in its ``__dict__``."""
    names = getattr(type(obj), "__mypyc_attrs__", None) or tuple(vars(obj))
    return [name for name in names if not name.startswith("__")]


def _state_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of one attribute of a game's state for :meth:`Game.clone`."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if id(value) in memo:
        return memo[id(value)]
    twin: Any
    if kind is dict:  # the decks by role, a shortage's wants
        twin = {key: _state_copy(item, memo) for key, item in value.items()}
    elif all(_immutable(item) for item in value) if kind in _SEQUENCES else False:
        # Most of the state: lists of numbers and flags, decks of card keys, the seats'
        # deeds (a tuple of them is immutable).
        twin = value if kind is tuple else kind(value)
    else:
        return copy.deepcopy(value, memo)
    memo[id(value)] = twin
    return twin


_ATOMIC: Final = frozenset({int, bool, str, float, type(None)})


def _immutable(value: object) -> bool:
    """A number, flag, text or None, or a tuple of them: shared by a copy, not copied."""
    if type(value) is tuple:
        return all(type(item) in _ATOMIC for item in value)
    return type(value) in _ATOMIC


_SEQUENCES: Final = frozenset({list, tuple, deque})


# ---------------------------------------------------------------------- well-formed


ROLL_ACTION: Final = Roll
"""The roll's class as a constant: actions are Python classes, which the compiled build
otherwise looks up by name in the module at every action (with the simulator's two
roll classes, 3 % of its time; this goes once actions.py is compiled)."""
ROLL_ANSWERS: Final[tuple[tuple[Action], ...]] = tuple((roll,) for roll in ROLLS)
_BUY_ANSWERS: Final[tuple[tuple[Action, Action], ...]] = tuple(zip(BUYS, DECLINES, strict=True))
_DECLINE_ANSWERS: Final[tuple[tuple[Action], ...]] = tuple((decline,) for decline in DECLINES)
"""The answers to a roll and to a buy decision, by seat: made once (actions are values)."""


_FIELD_CHECKS: Final[dict[type, tuple[tuple[str, str, type, bool], ...]]] = {}


_WELL_FORMED: Final[dict[int, Action]] = {}
"""The actions :func:`field_problem` found well formed, by ``id`` (the table keeps each
alive, so that no other object takes its id): an action is frozen, so the answer stays.
Players take the same action objects again and again (bids, sales, mortgages, builds,
made once), and the field checks were a large part of checking one."""


def field_problem(action: Action) -> Reason | None:
    """Why an action built in Python has a field of the wrong type, or None (JSON input
    is checked by :func:`~.actions.action_from_json` already). Runs for every checked
    action: here, compiled with the engine, in plain loops."""
    checks = _FIELD_CHECKS.get(type(action))
    if checks is None:
        checks = tuple(
            (name, f"tuple[{kind.__name__}, ...]" if is_tuple else kind.__name__, kind, is_tuple)
            for name, kind, is_tuple in field_types(type(action))
        )
        _FIELD_CHECKS[type(action)] = checks
    for name, type_name, wanted, is_tuple in checks:
        value = getattr(action, name)
        if is_tuple and type(value) is tuple:
            for item in value:
                if type(item) is not wanted:
                    break
            else:
                continue
        elif not is_tuple and type(value) is wanted:
            continue
        return refuse(
            None, "bad_field", action=action.name, field=name, type=type_name, value=repr(value)
        )
    return None


# ---------------------------------------------------------------------- action table
def _ok(game: Game, action: Action, decision: Decision) -> Reason | None:
    return None


def _roll(game: Game, action: Roll, decision: Decision) -> None:
    movement.roll(game, action.seat)


def _check_buy(game: Game, action: Buy, decision: Decision) -> Reason | None:
    price = game.tables.price[decision.space]
    if game.cash[action.seat] < price:
        return refuse(game, "costs_more_than_cash", price=price, cash=game.cash[action.seat])
    return None


def _buy(game: Game, action: Buy, decision: Decision) -> None:
    game.tasks.pop()
    seat, space = decision.seat, decision.space  # the buyer is the seat deciding
    price = game.tables.price[space]
    game.move_cash(seat, BANK, price)
    game.give_deed(space, seat)
    if game.collect_events:
        game.events.append(ev.PropertyBought(seat, space, price))


def _decline(game: Game, action: DeclineBuy, decision: Decision) -> None:
    game.tasks.pop()
    if not game.rules.no_auctions:
        auction.start(game, decision.space, action.seat)


def _check_choose_move(game: Game, action: ChooseMove, decision: Decision) -> Reason | None:
    if action.steps in decision.data:
        return None
    return refuse(game, "move_by_one_of", choices=decision.data)


def _check_choose_space(game: Game, action: ChooseSpace, decision: Decision) -> Reason | None:
    return None if 0 <= action.space < BOARD_SIZE else refuse(game, "choose_a_space")


def _check_bankrupt(game: Game, action: DeclareBankruptcy, decision: Decision) -> Reason | None:
    return debt.bankruptcy_problem(game, action.seat, decision)


def _check_keep(game: Game, action: KeepMortgaged, decision: Decision) -> Reason | None:
    if action.space == decision.space:
        return None
    return refuse(game, "decision_about_space", space=decision.space)


def _unmortgage(game: Game, action: Unmortgage, decision: Decision) -> None:
    seat, space = action.seat, action.space  # each read of an action's field is a look-up
    if (decision.kind, decision.seat, decision.space) == (MORTGAGE_RECEIVED, seat, space):
        game.tasks.pop()
    mortgage.lift(game, seat, space)


def _keep(game: Game, action: KeepMortgaged, decision: Decision) -> None:
    game.tasks.pop()
    mortgage.keep(game, action.seat, action.space)


def _check_claim(game: Game, action: ClaimRent, decision: Decision) -> Reason | None:
    for claim in game.claims:
        if claim[0] == action.seat and claim[2] == action.space:
            return None
    return refuse(game, "no_rent_to_claim")


def _claim(game: Game, action: ClaimRent, decision: Decision) -> None:
    for claim in game.claims:
        if claim[0] == action.seat and claim[2] == action.space:
            game.claims.remove(claim)
            owner, payer, space, amount = claim
            rent.collect(game, payer, owner, space, amount)
            return


A = TypeVar("A", bound=Action)


class Handler(Generic[A]):
    """How the game checks and carries out one kind of action. ``answers``: the decision
    kinds the action answers (the deciding seat only), or None for an action that any
    seat still in the game may take at any time (building, trading, ...)."""

    __slots__ = ("answers", "carry_out", "check")

    def __init__(
        self,
        check: Callable[[Game, A, Decision], Reason | None],
        carry_out: Callable[[Game, A, Decision], None],
        answers: tuple[DecisionKind, ...] | None,
    ) -> None:
        self.check = check
        self.carry_out = carry_out
        self.answers = answers


def _handle(
    kind: type[A],
    check: Callable[[Game, A, Decision], Reason | None],
    carry_out: Callable[[Game, A, Decision], None],
    answers: tuple[DecisionKind, ...] | None = None,
) -> tuple[type[Action], Handler[Any]]:
    """One row of the handler table; mypy checks that both functions take ``kind``."""
    return kind, Handler(check, carry_out, answers)


_HANDLERS: Final[dict[type[Action], Handler[Any]]] = dict(
    [
        _handle(Roll, _ok, _roll, (ROLL,)),
        _handle(PayJailFine, jail.check_pay, jail.pay_fine, (JAIL,)),
        _handle(UseJailCard, jail.check_card, jail.use_card, (JAIL,)),
        _handle(RollForDoubles, _ok, jail.roll_for_doubles, (JAIL,)),
        _handle(Buy, _check_buy, _buy, (BUY,)),
        _handle(DeclineBuy, _ok, _decline, (BUY,)),
        _handle(Bid, auction.check_bid, auction.bid, (BID,)),
        _handle(PassBid, _ok, auction.pass_bid, (BID,)),
        _handle(ChooseMove, _check_choose_move, movement.choose_move, (BUS,)),
        _handle(ChooseSpace, _check_choose_space, movement.choose_space, (TRIPLES,)),
        _handle(DeclareBankruptcy, _check_bankrupt, debt.declare_bankruptcy, (RAISE_CASH,)),
        _handle(KeepMortgaged, _check_keep, _keep, (MORTGAGE_RECEIVED,)),
        _handle(DeclareWant, building.check_want, building.declare_want, (WANT,)),
        _handle(PlaceBuilding, building.check_place, building.place, (PLACE,)),
        _handle(ChooseBreakdown, building.check_breakdown, building.choose_breakdown, (BREAKDOWN,)),
        _handle(Build, building.check_build, building.request_build),
        _handle(SellBuilding, building.check_sell, building.sell),
        _handle(Mortgage, mortgage.check_mortgage, mortgage.mortgage),
        _handle(Unmortgage, mortgage.check_lift, _unmortgage),
        _handle(ClaimRent, _check_claim, _claim),
        _handle(Resign, _ok, debt.resign),
        _handle(ProposeTrade, trade.check_proposal, trade.propose),
        _handle(AcceptTrade, trade.check_accept, trade.accept, (TRADE,)),
        _handle(RejectTrade, trade.check_reject, trade.reject, (TRADE,)),
    ]
)


def decisions_answered() -> dict[type[Action], tuple[DecisionKind, ...] | None]:
    """Each action type and the decision kinds it answers (None: a free action)."""
    return {kind: handler.answers for kind, handler in _HANDLERS.items()}


def _roll_actions(game: Game, d: Decision) -> Sequence[Action]:
    return ROLL_ANSWERS[d.seat]


def _buy_actions(game: Game, d: Decision) -> Sequence[Action]:
    """R-LAND-1: buying is offered only to a player with the price."""
    if game.cash[d.seat] >= game.tables.price[d.space]:
        return _BUY_ANSWERS[d.seat]
    return _DECLINE_ANSWERS[d.seat]


def _bus_actions(game: Game, d: Decision) -> list[Action]:
    return [ChooseMove(d.seat, steps) for steps in d.data]


def _triples_actions(game: Game, d: Decision) -> list[Action]:
    return [ChooseSpace(d.seat, space) for space in range(BOARD_SIZE)]


def _raise_cash_actions(game: Game, d: Decision) -> list[Action]:
    if debt.can_still_pay(game, d.seat, d.data):  # the cheap question, no refusal text
        return []
    return [DeclareBankruptcy(d.seat)]


def _mortgage_received_actions(game: Game, d: Decision) -> list[Action]:
    actions: list[Action] = [KeepMortgaged(d.seat, d.space)]
    if mortgage.can_lift(game, d.seat, d.space):
        actions.insert(0, Unmortgage(d.seat, d.space))
    return actions
