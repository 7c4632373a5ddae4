"""Texts for events, in the game's language and the edition's words.

Formatting is lazy: events are plain tuples, and only a UI or a replay that shows them
asks for text. Money is formatted with Babel for the language.
"""

from __future__ import annotations

import tomllib
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from babel import Locale
from babel.numbers import format_decimal

from . import events as ev
from . import reasons
from .state import HOTEL_ITEM, HOUSE_ITEM
from .wording import Fields, one_stop, plural_key

if TYPE_CHECKING:
    from .game import Game


@cache
def catalog(language: str) -> dict[str, str]:
    """The message templates of a language (``locales/<language>.toml``)."""
    text = resources.files("monopoly").joinpath("locales", f"{language}.toml").read_text("utf-8")
    return tomllib.loads(text)


def money(game: Game, amount: int) -> str:
    """``$1,500`` in English, ``1.500 €`` in German (with the edition's currency)."""
    return _money(game.edition.term("currency_symbol", game.language), game.language, amount)


@lru_cache(maxsize=8192)
def _money(symbol: str, language: str, amount: int) -> str:
    """Kept: Babel's number formatting was the larger part of narrating an action, and
    the same amounts come up again and again."""
    number = format_decimal(amount, locale=language)
    if language == "en" and len(symbol) == 1:
        return f"{symbol}{number}"
    return f"{number} {symbol}"


REASONS_KEPT = 4096
"""At most this many narrated reasons are kept per :class:`Narrator`."""


class Narrator:
    """Turns a game's events into sentences."""

    def __init__(self, game: Game, language: str | None = None) -> None:
        """``language``: another than the game's (a page that speaks another language)."""
        self.game = game
        self.language = language or game.language
        self.messages = catalog(self.language)
        self.terms = game.edition.names[self.language].terms
        self._reasons: dict[object, str] = {}
        """Reasons narrated so far, by key and parameters (a server narrates a seat's
        refused steps after every change, mostly the same ones)."""

    def text(self, key: str, **values: Any) -> str:
        """A whole sentence: the template filled in, then tidied where a filled-in name
        brings its own stop (:func:`~.wording.one_stop`). Every event's sentence is made
        here, once; the parts filled into it come from :meth:`phrase`."""
        return one_stop(self.phrase(key, **values))

    def phrase(self, key: str, **values: Any) -> str:
        """Part of a sentence ("gives Boardwalk", "the Bank"), left for the sentence
        it goes into to tidy."""
        key = plural_key(self.messages, key, self.language, values)
        return self.messages[key].format_map(Fields(values, self.terms))

    def player(self, seat: int) -> str:
        if seat < 0:
            return self.terms["bank"]
        return self.game.names[seat]

    def creditor(self, seat: int) -> str:
        """Whom a debt is owed to, as the debt sentences name them: a player's name, or
        "the Bank" / "der Bank" (not a bare "Bank")."""
        return self.phrase("bank_as_creditor") if seat < 0 else self.player(seat)

    def space(self, index: int) -> str:
        return self.game.edition.name_of(index, self.language)

    def item(self, item: int) -> str:
        if item == HOUSE_ITEM:
            return self.phrase("house_item")
        if item == HOTEL_ITEM:
            return self.phrase("hotel_item")
        return self.space(item)

    def money(self, amount: int) -> str:
        return money(self.game, amount)

    def reason(self, why: str | None) -> str:
        """Why an action was refused, in the game's language (a plain string, such as a
        message from elsewhere, is returned as it is; None, no refusal, as "")."""
        if not isinstance(why, reasons.Reason):
            return why or ""
        slot: object = (why.key, *why.params.items())
        try:
            known = self._reasons.get(slot)
        except TypeError:  # a parameter that cannot be a key (a list): narrated each time
            known, slot = None, None
        if known is None:
            values = {name: self._reason_value(name, value) for name, value in why.params.items()}
            known = reasons.fill(reasons.templates(self.language)[why.key], values, self.terms)
            if slot is not None and len(self._reasons) < REASONS_KEPT:
                self._reasons[slot] = known
        return known

    def _reason_value(self, name: str, value: Any) -> Any:
        if name in reasons.SPACE_PARAMS:
            return self.space(value)
        if name in reasons.GROUP_PARAMS:
            return self.game.edition.names[self.language].groups[value]
        if name in reasons.PLAYER_PARAMS:
            return self.player(value)
        if name in reasons.MONEY_PARAMS:
            return self.money(value)
        if name == "deck":
            return self.terms.get(value, value or "?")
        if name == "decision":
            return self.phrase(f"decision_{value}")
        if isinstance(value, tuple):
            return ", ".join(str(v) for v in value)
        return value

    def describe(self, event: Any) -> str:
        """One sentence for ``event`` (each event's method makes it with :meth:`text`)."""
        method = getattr(self, "_" + type(event).__name__, None)
        if method is None:
            return type(event).__name__
        sentence: str = method(event)
        return sentence

    # One method per event type, named after it.
    def _TurnStarted(self, e: ev.TurnStarted) -> str:
        return self.text("turn_started", turn=e.turn, player=self.player(e.seat))

    def _TurnOrderDecided(self, e: ev.TurnOrderDecided) -> str:
        rolls = ", ".join(f"{a}+{b}" for a, b, *_ in e.rolls)
        return self.text("turn_order", rolls=rolls, player=self.player(e.order[0]))

    def _DiceRolled(self, e: ev.DiceRolled) -> str:
        faces = [str(d) for d in e.dice[:2]]
        if len(e.dice) == 3:
            speed = e.dice[2]
            faces.append(
                self.terms["bus"]
                if speed == 4
                else self.terms["mr_monopoly"]
                if speed == 5
                else str(speed)
            )
        key = "dice_rolled_doubles" if e.doubles else "dice_rolled"
        return self.text(key, player=self.player(e.seat), dice=" + ".join(faces))

    def _Moved(self, e: ev.Moved) -> str:
        return self.text("moved", player=self.player(e.seat), space=self.space(e.end))

    def _SalaryCollected(self, e: ev.SalaryCollected) -> str:
        key = "salary_on_go" if e.landed else "salary"
        return self.text(key, player=self.player(e.seat), amount=self.money(e.amount))

    def _PropertyBought(self, e: ev.PropertyBought) -> str:
        return self.text(
            "bought",
            player=self.player(e.seat),
            space=self.space(e.space),
            amount=self.money(e.price),
        )

    def _PropertyDealt(self, e: ev.PropertyDealt) -> str:
        return self.text("dealt", player=self.player(e.seat), space=self.space(e.space))

    def _AuctionStarted(self, e: ev.AuctionStarted) -> str:
        return self.text("auction_started", item=self.item(e.space))

    def _BidPlaced(self, e: ev.BidPlaced) -> str:
        return self.text("bid", player=self.player(e.seat), amount=self.money(e.amount))

    def _BidPassed(self, e: ev.BidPassed) -> str:
        return self.text("bid_passed", player=self.player(e.seat))

    def _BidPassedInDebt(self, e: ev.BidPassedInDebt) -> str:
        return self.text("bid_passed_in_debt", player=self.player(e.seat))

    def _AuctionWon(self, e: ev.AuctionWon) -> str:
        return self.text(
            "auction_won",
            player=self.player(e.seat),
            item=self.item(e.space),
            amount=self.money(e.amount),
        )

    def _AuctionUnsold(self, e: ev.AuctionUnsold) -> str:
        return self.text("auction_unsold", item=self.item(e.space))

    def _RentPaid(self, e: ev.RentPaid) -> str:
        return self.text(
            "rent_paid",
            payer=self.player(e.payer),
            owner=self.player(e.owner),
            amount=self.money(e.amount),
            space=self.space(e.space),
        )

    def _RentOwed(self, e: ev.RentOwed) -> str:
        return self.text(
            "rent_owed",
            payer=self.player(e.payer),
            owner=self.player(e.owner),
            amount=self.money(e.amount),
            space=self.space(e.space),
        )

    def _RentForfeited(self, e: ev.RentForfeited) -> str:
        return self.text("rent_forfeited", owner=self.player(e.owner), space=self.space(e.space))

    def _MoneyPaid(self, e: ev.MoneyPaid) -> str:
        amount = self.money(e.amount)
        reason = self.messages.get(f"reason_{e.reason}", e.reason)
        if e.payer < 0:
            return self.text("paid_by_bank", payee=self.player(e.payee), amount=amount)
        if e.payee < 0:
            return self.text(
                "paid_to_bank", payer=self.player(e.payer), amount=amount, reason=reason
            )
        return self.text(
            "paid_to_player",
            payer=self.player(e.payer),
            payee=self.player(e.payee),
            amount=amount,
            reason=reason,
        )

    def _CardDrawn(self, e: ev.CardDrawn) -> str:
        return self.text(
            "card_drawn",
            player=self.player(e.seat),
            deck=self.terms[e.deck],
            text=self.card_text(e.deck, e.card),
        )

    def card_text(self, role: str, key: str) -> str:
        card = self.game.tables.card(role, key)
        template = self.game.edition.names[self.language].cards[f"{role}.{key}"]
        return template.format(
            amount=self.money(card.amount),
            per_house=self.money(card.per_house),
            per_hotel=self.money(card.per_hotel),
        )

    def _SentToJail(self, e: ev.SentToJail) -> str:
        return self.text("sent_to_jail", player=self.player(e.seat))

    def _LeftJail(self, e: ev.LeftJail) -> str:
        return self.text("left_jail", player=self.player(e.seat), how=self.messages[f"how_{e.how}"])

    def _StayedInJail(self, e: ev.StayedInJail) -> str:
        return self.text("stayed_in_jail", player=self.player(e.seat), count=e.failed_rolls)

    def _JailCardKept(self, e: ev.JailCardKept) -> str:
        return self.text(
            "jail_card_kept", player=self.player(e.seat), card=self.terms["get_out_of_jail_free"]
        )

    def _BuildingBuilt(self, e: ev.BuildingBuilt) -> str:
        return self.text(
            ("hotel" if e.hotel else "house") + ("_placed" if e.won_at_auction else "_built"),
            player=self.player(e.seat),
            space=self.space(e.space),
            amount=self.money(e.price),
        )

    def _BuildingSold(self, e: ev.BuildingSold) -> str:
        return self.text(
            "building_sold",
            player=self.player(e.seat),
            space=self.space(e.space),
            amount=self.money(e.amount),
            left=self.buildings(e.level),
        )

    def buildings(self, level: int) -> str:
        """A street's buildings in words: "1 hotel", "2 houses", "no buildings" (the
        house word's number by the language's plural rules)."""
        if level >= self.game.tables.hotel_level:
            return f"1 {self.terms['hotel']}"
        if level == 0:
            return self.phrase("buildings_none")
        return f"{level} {self.counted(level, 'house')}"

    def counted(self, number: int, term: str) -> str:
        """The edition's word ``term`` ("house") in the number's form: "house" for 1
        and "houses" for 2 in English, by the language's plural rules (Babel's)."""
        one = Locale.parse(self.language).plural_form(number) == "one"
        return self.terms[term if one else f"{term}s"]

    def _BuildingShortage(self, e: ev.BuildingShortage) -> str:
        kind = self.counted(e.stock, "hotel" if e.hotel else "house")
        return self.text("shortage", stock=e.stock, kind=kind, wanted=e.wanted)

    def _PropertyMortgaged(self, e: ev.PropertyMortgaged) -> str:
        return self.text(
            "mortgaged",
            player=self.player(e.seat),
            space=self.space(e.space),
            amount=self.money(e.amount),
        )

    def _MortgageLifted(self, e: ev.MortgageLifted) -> str:
        return self.text(
            "mortgage_lifted",
            player=self.player(e.seat),
            space=self.space(e.space),
            amount=self.money(e.amount),
        )

    def _MortgageInterestPaid(self, e: ev.MortgageInterestPaid) -> str:
        return self.text(
            "interest_paid",
            player=self.player(e.seat),
            space=self.space(e.space),
            amount=self.money(e.amount),
        )

    def _TradeProposed(self, e: ev.TradeProposed) -> str:
        offer = e.offer
        give = self._bundle(offer.give, offer.give_cash, offer.give_cards)
        take = self._bundle(offer.take, offer.take_cash, offer.take_cards)
        summary = f"{self.phrase('gives', what=give)}, {self.phrase('takes', what=take)}"
        return self.text(
            "trade_proposed",
            player=self.player(e.seat),
            partner=self.player(e.partner),
            summary=summary,
        )

    def _bundle(self, spaces: tuple[int, ...], cash: int, cards: tuple[str, ...]) -> str:
        parts = [self.space(s) for s in spaces]
        if cash:
            parts.append(self.money(cash))
        parts.extend(f"{self.terms['get_out_of_jail_free']} ({self.terms[c]})" for c in cards)
        return ", ".join(parts) or self.messages["nothing"]

    def _TradeAccepted(self, e: ev.TradeAccepted) -> str:
        return self.text(
            "trade_accepted", player=self.player(e.seat), partner=self.player(e.partner)
        )

    def _TradeRejected(self, e: ev.TradeRejected) -> str:
        return self.text(
            "trade_rejected", player=self.player(e.seat), partner=self.player(e.partner)
        )

    def _TradeLapsed(self, e: ev.TradeLapsed) -> str:
        return self.text("trade_lapsed", player=self.player(e.seat), partner=self.player(e.partner))

    def _DebtOwed(self, e: ev.DebtOwed) -> str:
        return self.text(
            "debt",
            player=self.player(e.seat),
            creditor=self.creditor(e.creditor),
            amount=self.money(e.amount),
        )

    def _DebtLapsed(self, e: ev.DebtLapsed) -> str:
        return self.text(
            "debt_lapsed",
            player=self.player(e.seat),
            creditor=self.player(e.creditor),
            amount=self.money(e.amount),
        )

    def _PlayerResigned(self, e: ev.PlayerResigned) -> str:
        return self.text("resigned", player=self.player(e.seat))

    def _PlayerBankrupt(self, e: ev.PlayerBankrupt) -> str:
        return self.text("bankrupt", player=self.player(e.seat))

    def _FreeParkingCollected(self, e: ev.FreeParkingCollected) -> str:
        return self.text("free_parking", player=self.player(e.seat), amount=self.money(e.amount))

    def _SpeedDieActivated(self, e: ev.SpeedDieActivated) -> str:
        return self.text("speed_die_on", player=self.player(e.seat))

    def _GameOver(self, e: ev.GameOver) -> str:
        names = f" {self.messages['and']} ".join(self.player(s) for s in e.winners)
        key = "game_over_shared" if len(e.winners) > 1 else "game_over"
        return self.text(key, winners=names)
