"""The parts of the mask remembered from one state to the next: the trade templates
(:class:`TradeTemplates`); a seat's ids of building, selling, mortgaging and lifting
are kept by a ``core.memo.FreeActionsMemo`` (see ``Driver.kept``).

A full-mode mask lists every trade template (``trade_buy``, ``trade_buy_high``,
``trade_sell``: 360 ids) that the engine accepts now, and asking the engine about each
one is most of what a mask costs. Between two steps of a game almost nothing that those
answers depend on changes, so :class:`TradeTemplates` keeps the engine's answers and
asks again only about the templates a change touched.

What the engine reads to judge a template offer (``Game.is_legal`` →
``trade.check_proposal`` → ``trade.offer_problem``; R-TRADE-*, R-DEBT-3, R-MORT-4):

* the cash of the paying side (``cash >= price``): tested afresh at every mask, before
  the engine is asked, exactly as the from-scratch mask did;
* the owner of the template's space and the buildings of its colour group: a change
  forgets the answers about that space (an owner) or that whole group (a building);
* who is still in the game and the trade offer waiting for an answer (only a counter
  offer to its proposer may be made meanwhile): part of the key the answers are kept
  under, so each combination keeps its own answers;
* a debt being raised or a received mortgaged deed waiting (R-DEBT-3, R-MORT-4): then
  the engine also reads mortgages and what a debtor could raise, so while one is on the
  game's task stack nothing is remembered and every template is asked afresh.

The answers are the engine's own, never a second copy of the rules: a test compares the
remembered mask with one asked afresh, over random games of every edition and rule set.
"""

from __future__ import annotations

from bisect import bisect_right

from monopoly.core.actions import ProposeTrade
from monopoly.core.board import BOARD_SIZE
from monopoly.core.game import Game
from monopoly.core.state import MORTGAGE_RECEIVED, RAISE_CASH, TRADE, Decision
from monopoly.core.view import PlayerView

MAX_SEATS = 8
HIGH_BUY_FACTOR = 1.5
TRADE_BUY = 385
"""The first ``trade_buy`` id; ``trade_buy_high`` follows at +40, ``trade_sell`` at +80
(``Catalogue`` checks this layout when it is made)."""
TRADE_BUY_HIGH = TRADE_BUY + BOARD_SIZE
TRADE_SELL = TRADE_BUY_HIGH + BOARD_SIZE
MAX_KEYS = 64
"""How many (seat, players in, offer waiting) combinations keep their answers."""


def buy_price(price: int, high: bool) -> int:
    """The cash a ``trade_buy`` (or ``trade_buy_high``) template offers for a deed."""
    return round(price * HIGH_BUY_FACTOR) if high else price


GameOrView = Game | PlayerView
"""What an id's action is read from: the game, or a player's view of it (a computer
player that asks a policy has only its view)."""


def trade_action(game: GameOrView, seat: int, action_id: int) -> ProposeTrade:
    """The offer a trade template id means for ``seat`` now."""
    spaces = game.board.spaces
    if action_id >= TRADE_SELL:
        index = action_id - TRADE_SELL
        space = index % BOARD_SIZE
        partner = (seat + index // BOARD_SIZE + 1) % game.players
        return ProposeTrade(seat, partner, give=(space,), take_cash=spaces[space].price)
    high = action_id >= TRADE_BUY_HIGH
    space = action_id - (TRADE_BUY_HIGH if high else TRADE_BUY)
    price = buy_price(spaces[space].price, high)
    return ProposeTrade(seat, game.owner[space], give_cash=price, take=(space,))


def waiting_offer(game: Game) -> tuple[int, int] | None:
    """The key of the task stack for the trade answers: (partner, proposer) of the
    newest offer waiting, (-1, -1) when none waits; None when a debt or a received
    mortgaged deed is pending (the answers then read more: ask afresh)."""
    waiting = (-1, -1)
    for task in game.tasks:
        if type(task) is Decision:
            kind = task.kind
            if kind is RAISE_CASH or kind is MORTGAGE_RECEIVED:
                return None
            if kind is TRADE:
                offer: ProposeTrade = task.data
                waiting = (task.seat, offer.seat)
    return waiting


TEMPLATES = TRADE_SELL + (MAX_SEATS - 1) * BOARD_SIZE - TRADE_BUY
"""How many trade template ids there are."""
NOT_ASKED = -1


class Answers:
    """The engine's answers about one seat's trade templates while the players in the
    game and the offer waiting stay the same, and the owners and buildings they were
    given for (the ones that changed since are forgotten by :meth:`catch_up`)."""

    __slots__ = ("legal", "level", "offers", "owner", "prices", "reach", "result")

    def __init__(self, game: Game) -> None:
        self.owner = list(game.owner)
        self.level = list(game.level)
        self.legal = [NOT_ASKED] * TEMPLATES
        """By id - TRADE_BUY: 1 the engine accepts the offer (when its payer has the
        cash), 0 it refuses it, NOT_ASKED not asked since the last change."""
        self.offers: list[tuple[int, int, int]] | None = None
        """The seat's templates for the owners now: (id, payer, cash paid), by space;
        None when they must be listed again."""
        self.prices: list[list[int]] = []
        """By payer: the cash the offers ask of them, in increasing order."""
        self.reach: list[int] = []
        """By payer: how many of their prices their cash reached for :attr:`result`."""
        self.result: list[int] | None = None
        """The legal ids for that reach (None: to be worked out)."""

    def catch_up(self, game: Game) -> None:
        """Forget the answers about spaces whose owner changed and about groups whose
        buildings changed."""
        owner, level = game.owner, game.level
        if owner != self.owner:
            known = self.owner
            for space in range(len(owner)):
                if owner[space] != known[space]:
                    known[space] = owner[space]
                    self.forget(space)
        if level != self.level:
            known = self.level
            for space in range(len(level)):
                if level[space] != known[space]:
                    known[space] = level[space]
                    for member in game.tables.members[space]:
                        self.forget(member)

    def forget(self, space: int) -> None:
        legal = self.legal
        legal[space] = legal[BOARD_SIZE + space] = NOT_ASKED  # trade_buy, trade_buy_high
        for offset in range(MAX_SEATS - 1):
            legal[2 * BOARD_SIZE + offset * BOARD_SIZE + space] = NOT_ASKED
        self.offers = None
        self.result = None

    def list_offers(self, game: Game, seat: int) -> list[tuple[int, int, int]]:
        """Every template of ``seat`` that names a deed of a player in the game, with
        who pays how much."""
        offers: list[tuple[int, int, int]] = []
        active, owners, prices, players = game.active, game.owner, game.tables.price, game.players
        asked: list[list[int]] = [[] for _ in range(players)]  # by payer
        partners = [
            (offset, partner)
            for offset in range(1, players)
            if active[partner := (seat + offset) % players]
        ]
        mine = asked[seat]
        for space in game.board.properties:
            owner = owners[space]
            if owner < 0 or not active[owner]:
                continue
            price = prices[space]
            if owner == seat:
                for offset, partner in partners:
                    offers.append((TRADE_SELL + (offset - 1) * BOARD_SIZE + space, partner, price))
                    asked[partner].append(price)
                continue
            low, high = buy_price(price, False), buy_price(price, True)
            offers.append((TRADE_BUY + space, seat, low))
            offers.append((TRADE_BUY_HIGH + space, seat, high))
            mine.append(low)
            mine.append(high)
        for payer_prices in asked:
            payer_prices.sort()
        self.prices = asked
        return offers

    def reach_of(self, cash: list[int]) -> list[int]:
        """By payer: how many of the prices asked of them their cash reaches (the legal
        ids depend on cash through these counts alone)."""
        return [bisect_right(prices, cash[payer]) for payer, prices in enumerate(self.prices)]


class TradeTemplates:
    """The legal trade template ids of a seat, kept between the states of one game (or
    of clones of it: the answers are checked against the state they are used for)."""

    def __init__(self) -> None:
        self._answers: dict[tuple[int, tuple[bool, ...], tuple[int, int]], Answers] = {}

    def legal_ids(self, game: Game, seat: int) -> list[int]:
        """The trade template ids the engine accepts for ``seat`` now, by space."""
        answers = self._answers_for(game, seat)
        offers = answers.offers
        if offers is None:
            offers = answers.offers = answers.list_offers(game, seat)
        cash = game.cash
        reach = answers.reach_of(cash)
        if answers.result is not None and reach == answers.reach:
            return list(answers.result)
        legal = answers.legal
        result: list[int] = []
        for action_id, payer, paid in offers:
            if cash[payer] < paid:
                continue  # the engine refuses cash the payer does not have: not asked
            known = legal[action_id - TRADE_BUY]
            if known == NOT_ASKED:
                known = int(game.is_legal(trade_action(game, seat, action_id)))
                legal[action_id - TRADE_BUY] = known
            if known:
                result.append(action_id)
        answers.reach, answers.result = reach, result
        return list(result)

    def _answers_for(self, game: Game, seat: int) -> Answers:
        waiting = waiting_offer(game)
        if waiting is None:
            return Answers(game)  # asked afresh and not kept
        key = (seat, tuple(game.active), waiting)
        answers = self._answers.get(key)
        if answers is None:
            if len(self._answers) >= MAX_KEYS:
                self._answers.clear()
            answers = self._answers[key] = Answers(game)
        else:
            answers.catch_up(game)
        return answers
