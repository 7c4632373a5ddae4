"""The game in the terminal: people at the keyboard against computer players.

:class:`TerminalGame` drives a :class:`~monopoly.core.game.Game`: computer players move
by themselves, and for each decision of a person it prints the game log since the last
prompt, a compact status of the table and a numbered menu built from
``game.legal_actions(seat)``, then reads one line. Input and output are a Rich
:class:`~rich.console.Console` and a line reader (``read_line(prompt) -> str``, raising
``EOFError`` at the end of the input), so tests can script a whole session.

Every text comes from ``locales/terminal_<language>.toml`` or the game's narrator, in
the game's language and the edition's words.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from monopoly.bots.base import Bot
from monopoly.bots.driver import SeatDriver
from monopoly.cli.menus import HEADER_DETAILS, LABELS
from monopoly.cli.tables import board_view, deed_table, ranking_table, status_table
from monopoly.core import events as ev
from monopoly.core.actions import (
    Action,
    Bid,
    ChooseSpace,
    ClaimRent,
    ProposeTrade,
    Resign,
)
from monopoly.core.board import BOARD_SIZE
from monopoly.core.debt import debt_of
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.records import record_of
from monopoly.core.state import (
    BID,
    TRADE,
    TRIPLES,
    Decision,
)
from monopoly.core.wording import one_stop, plural_key

LineReader = Callable[[str], str]
SAVE_KEY = "terminal"
"""The record's extra top-level key naming the people's and computers' seats (a replay
ignores it): ``{"humans": [0], "bots": {"1": "normal"}}``."""


@cache
def terminal_catalog(language: str) -> dict[str, str]:
    """The menu and status texts of a language (``locales/terminal_<language>.toml``)."""
    path = resources.files("monopoly").joinpath("locales", f"terminal_{language}.toml")
    return tomllib.loads(path.read_text("utf-8"))


class Texts:
    """Formats terminal texts with the edition's words (``{house}``, ``{jail}`` ...)."""

    def __init__(self, game: Game) -> None:
        self.language = game.language
        self.messages: dict[str, str] = terminal_catalog(game.language)
        self.terms: dict[str, str] = game.edition.names[game.language].terms

    def __call__(self, key: str, **values: Any) -> str:
        key = plural_key(self.messages, key, self.language, values)
        return one_stop(self.messages[key].format_map({**self.terms, **values}))


@dataclass(frozen=True)
class Choice:
    """One menu entry: ``run()`` carries it out and says whether the prompt is done."""

    label: str
    run: Callable[[], bool]


class Quit(Exception):
    """The player asked to save and quit (or the input ended)."""


class Cancel(Exception):
    """The player cancelled a guided step (the trade)."""


class TerminalGame:
    """Plays ``game`` in a terminal; seats in ``bots`` are computer players."""

    game: Game
    t: Texts
    narrator: Narrator

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot],
        console: Console,
        read_line: LineReader,
        *,
        save_path: Path | None = None,
        levels: Mapping[int, str] | None = None,
        news_from: int = 0,
    ) -> None:
        self.game = game
        self.bots = dict(bots)
        self.driver = SeatDriver(game, self.bots.get, report=self.bot_erred)
        self.console = console
        self.read_line = read_line
        self.save_path = save_path
        self.levels = dict(levels or {})
        self.t = Texts(game)
        self.narrator = Narrator(game)
        self.shown_events = news_from
        self.shown_status: tuple[int, int] = (-1, -1)
        """Shown once per turn and person deciding (``v`` draws the board)."""
        self.let_go: set[tuple[int, int, int, int]] = set()

    @property
    def humans(self) -> list[int]:
        return [seat for seat in range(self.game.players) if seat not in self.bots]

    # ------------------------------------------------------------------ the main loop
    def run(self, max_actions: int = 1_000_000) -> str:
        """Play until the game ends ("over"), the player quits ("saved"/"quit") or
        ``max_actions`` decisions were taken ("paused")."""
        try:
            for _ in range(max_actions):
                if self.game.over:
                    break
                self.step()
        except (Quit, EOFError):
            self.show_news()
            return self.save_and_quit()
        self.show_news()
        if not self.game.over:
            return "paused"
        self.show_ranking()
        if self.save_path is not None:
            self.save(self.save_path)
        return "over"

    def step(self) -> None:
        """One decision: a computer's move, or a person's answer (and free actions)."""
        self.bots_claim()
        self.humans_claim()
        decision = self.game.decision
        if decision is None:
            return
        if decision.seat in self.bots:
            self.bot_moves(decision.seat)
        else:
            self.human_decides(decision.seat)

    def bot_moves(self, seat: int) -> None:
        self.driver.step()

    def bot_erred(self, seat: int, action: Action | None, error: BaseException) -> None:
        """The seat driver's policy: a computer player's mistake is shown, and the game
        goes on with a legal move for it."""
        self.console.print(f"[dim]{self.t('bot_erred', player=self.game.names[seat])}[/]")

    def bots_claim(self) -> None:
        """R-RENT-5 option: computer players claim their rent before play goes on."""
        self.driver.claim_rents()

    def humans_claim(self) -> None:
        """A person owed rent while someone else decides is asked to claim it now."""
        game = self.game
        decision = game.decision
        self.let_go &= set(game.claims)  # a later claim alike is asked again
        for owner in sorted({claim[0] for claim in game.claims} - set(self.bots)):
            if decision is not None and decision.seat == owner:
                continue  # the claim is in their own menu
            open_claims = [c for c in game.claims if c[0] == owner and c not in self.let_go]
            if open_claims:
                self.ask(
                    owner,
                    self.t("ask_claim", player=game.names[owner]),
                    self.claim_choices(owner, open_claims),
                )

    def claim_choices(self, owner: int, claims: list[tuple[int, int, int, int]]) -> list[Choice]:
        choices = [self.action_choice(ClaimRent(owner, claim[2])) for claim in claims]

        def let_go() -> bool:
            self.let_go.update(claims)
            return True

        return [*choices, Choice(self.t("do_let_go"), let_go)]

    # ------------------------------------------------------------------ a person decides
    def human_decides(self, seat: int) -> None:
        decision = self.game.decision
        assert decision is not None
        answers = self.decision_choices(seat, decision)
        free = [self.action_choice(action) for action in self.game.free_actions(seat)]
        self.ask(seat, self.header(decision), answers, free)

    def ask(
        self, seat: int, header: str, choices: list[Choice], free: list[Choice] | None = None
    ) -> None:
        """Show the news and the menu, then read lines until one changes the game."""
        self.show_news()
        self.show_status()
        menu = [*choices, *(free or [])]
        self.show_menu(header, choices, free or [])
        prompt = self.t("prompt", player=self.game.names[seat])
        while True:
            line = self.read_line(prompt).strip()
            if not line and len(choices) == 1:
                line = "1"  # Enter picks the only answer to the decision
            if self.answer(seat, line, menu):
                return
            if not line:
                self.show_menu(header, choices, free or [])

    def answer(self, seat: int, line: str, menu: list[Choice]) -> bool:
        """Carry out one line of input; False: nothing changed, ask again."""
        if not line:
            return False
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(menu):
                return self.say("bad_choice", number=number, count=len(menu))
            return menu[number - 1].run()
        word, _, rest = line.partition(" ")
        command = COMMANDS.get(word.lower())
        if command is None:
            return self.say("bad_number", text=line, count=len(menu))
        return command(self, seat, rest.strip())

    def say(self, key: str, **values: Any) -> bool:
        """Print a message (an answer to bad input); nothing changed."""
        self.console.print(f"[yellow]{self.t(key, **values)}[/]")
        return False

    def apply(self, action: Action) -> bool:
        """Apply a person's action, or explain in the game's language why not."""
        problem = self.game.problem(action)
        if problem:
            return self.say("refused", reason=self.narrator.reason(problem))
        self.game.apply(action)
        return True

    # ------------------------------------------------------------------ the menu
    def header(self, decision: Decision) -> str:
        """What the person must decide now, with the numbers that matter."""
        if decision.kind == BID:
            return self.bid_header(decision)
        seat = decision.seat
        values = {"player": self.game.names[seat], "cash": self.money(self.game.cash[seat])}
        details = HEADER_DETAILS.get(decision.kind)
        if details is not None:
            values.update(details(self, decision))
        return self.t(f"ask_{decision.kind}", **values)

    def bid_header(self, decision: Decision) -> str:
        running = decision.data
        low, most = self.game.bid_range()
        values = {
            "player": self.game.names[decision.seat],
            "item": self.item(running.item),
            "low": self.money(low),
            "most": self.money(most),
        }
        if running.high_bidder < 0:
            return self.t("ask_bid_first", **values)
        high = f"{self.money(running.high_bid)} ({self.game.names[running.high_bidder]})"
        return self.t("ask_bid", high=high, **values)

    def decision_choices(self, seat: int, decision: Decision) -> list[Choice]:
        if decision.seat != seat:
            return []
        answers = self.game.decision_actions()
        if decision.kind == TRIPLES:
            return [Choice(self.t("do_choose_space"), lambda: self.choose_space(seat))]
        choices = [self.action_choice(a) for a in answers if not isinstance(a, Bid)]
        if decision.kind == BID and any(isinstance(a, Bid) for a in answers):
            low, high = self.game.bid_range()
            label = self.t("do_bid", low=self.money(low), high=self.money(high))
            choices.append(Choice(label, lambda: self.bid_flow(seat, "")))
        if decision.kind == TRADE:
            partner = decision.data.seat
            choices.append(Choice(self.t("do_counter"), lambda: self.trade(seat, partner)))
        return choices

    def action_choice(self, action: Action) -> Choice:
        return Choice(self.label(action), lambda: self.apply(action))

    def label(self, action: Action) -> str:
        """The menu text of an action, in the game's language."""
        maker = LABELS.get(type(action))
        return maker(self, action) if maker else str(action)

    def show_menu(self, header: str, choices: list[Choice], free: list[Choice]) -> None:
        self.console.print(f"\n[bold]{header}[/]")
        only = len(choices) == 1
        for number, choice in enumerate(choices, 1):
            enter = f"  [dim]{self.t('menu_enter')}[/]" if only else ""
            self.console.print(f"  [bold cyan]{number:>2}[/]  {choice.label}{enter}")
        if free:
            self.console.print(f"  [dim]{self.t('menu_free')}[/]")
            first = len(choices) + 1
            cells = [f"  [cyan]{n:>2}[/]  {c.label}" for n, c in enumerate(free, first)]
            self.console.print(columns_grid(cells, 2 if len(cells) > 6 else 1))
        self.console.print(f"[dim]{self.t('commands')}[/]")

    # ------------------------------------------------------------------ follow-ups
    def choose_space(self, seat: int) -> bool:
        space = self.read_space(self.read_line(self.t("ask_space")))
        return space is not None and self.apply(ChooseSpace(seat, space))

    def bid_flow(self, seat: int, text: str) -> bool:
        decision = self.game.decision
        if decision is None or decision.kind != BID or decision.seat != seat:
            return self.say("no_auction")
        if not text:
            low, high = self.game.bid_range()
            text = self.read_line(self.t("ask_amount", low=low, high=high)).strip()
        amount = parse_amount(text)
        if amount is None:
            return self.say("bad_amount", text=text)
        return self.apply(Bid(seat, amount))

    def read_space(self, text: str) -> int | None:
        """A space by number or (part of its) name; None after explaining the problem."""
        text = text.strip()
        if text.isdigit():
            if int(text) < BOARD_SIZE:
                return int(text)
            self.say("no_space", text=text)
            return None
        names = self.game.edition.names[self.game.language].spaces
        wanted = text.casefold()
        exact = [i for i, name in enumerate(names) if name.casefold() == wanted]
        found = exact or [i for i, name in enumerate(names) if wanted and wanted in name.casefold()]
        if len(set(names[i] for i in found)) == 1:
            return found[0]
        if not found:
            self.say("no_space", text=text)
        else:
            self.say("many_spaces", text=text, names=", ".join(names[i] for i in found[:6]))
        return None

    # ------------------------------------------------------------------ trading
    def trade(self, seat: int, partner: int | None = None) -> bool:
        """The guided trade: partner, deeds / cash / cards each way, check, confirm."""
        try:
            offer = self.build_offer(seat, partner)
        except Cancel:
            return self.say("trade_cancelled")
        problem = self.game.problem(offer)
        if problem:
            return self.say("refused", reason=self.narrator.reason(problem))
        self.console.print(
            self.t(
                "trade_summary",
                partner=self.game.names[offer.partner],
                give=self.bundle(offer.give, offer.give_cash, offer.give_cards),
                take=self.bundle(offer.take, offer.take_cash, offer.take_cards),
            )
        )
        answer = self.read_line(self.t("trade_confirm")).strip().casefold()
        if answer not in self.t("yes_words").split(","):
            return self.say("trade_cancelled")
        return self.apply(offer)

    def build_offer(self, seat: int, partner: int | None) -> ProposeTrade:
        self.console.print(f"[dim]{self.t('trade_cancel_hint')}[/]")
        if partner is None:
            partner = self.pick_partner(seat)
        sides = []
        for owner, heading in ((seat, "trade_you_give"), (partner, "trade_you_take")):
            self.console.print(f"[bold]{self.t(heading)}[/]")
            sides.append((self.pick_deeds(owner), self.pick_cash(owner), self.pick_cards(owner)))
        (give, give_cash, give_cards), (take, take_cash, take_cards) = sides
        return ProposeTrade(seat, partner, give, give_cash, give_cards, take, take_cash, take_cards)

    def ask_line(self, prompt: str) -> str:
        line = self.read_line(prompt).strip()
        if line.casefold() == "x":
            raise Cancel
        return line

    def pick_partner(self, seat: int) -> int:
        others = [s for s in self.game.active_seats() if s != seat]
        if len(others) == 1:
            return others[0]
        for number, other in enumerate(others, 1):
            self.console.print(f"  [bold cyan]{number:>2}[/]  {self.game.names[other]}")
        while True:
            picks = self.pick_numbers(self.ask_line(self.t("trade_partner") + " "), len(others))
            if picks is not None and len(picks) == 1:
                return others[picks[0]]
            self.say("bad_choice", number="?", count=len(others))

    def pick_deeds(self, owner: int) -> tuple[int, ...]:
        deeds = self.game.properties_of(owner)
        if not deeds:
            self.console.print(f"  [dim]{self.t('trade_no_deeds')}[/]")
            return ()
        for number, space in enumerate(deeds, 1):
            self.console.print(f"  [cyan]{number:>2}[/]  {self.deed_mark(space)}")
        while True:
            picks = self.pick_numbers(self.ask_line(self.t("trade_pick_deeds")), len(deeds))
            if picks is not None:
                return tuple(deeds[i] for i in picks)
            self.say("bad_picks", count=len(deeds))

    def pick_cash(self, owner: int) -> int:
        most = self.game.cash[owner]
        while True:
            text = self.ask_line(self.t("trade_pick_cash", most=self.money(most)))
            amount = parse_amount(text or "0")
            if amount is not None:
                return amount
            self.say("bad_amount", text=text)

    def pick_cards(self, owner: int) -> tuple[str, ...]:
        cards = self.game.jail_cards[owner]
        if not cards:
            return ()
        for number, deck in enumerate(cards, 1):
            self.console.print(f"  [cyan]{number:>2}[/]  {self.t.terms[deck]}")
        while True:
            text = self.ask_line(self.t("trade_pick_cards"))
            picks = self.pick_numbers(text, len(cards))
            if picks is not None:
                return tuple(cards[i] for i in picks)
            self.say("bad_picks", count=len(cards))

    @staticmethod
    def pick_numbers(text: str, count: int) -> list[int] | None:
        """Zero-based indexes from "1, 3" (each 1..count, no repeats); None if bad."""
        parts = [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]
        if not all(part.isdigit() and 1 <= int(part) <= count for part in parts):
            return None
        picks = [int(part) - 1 for part in parts]
        return picks if len(set(picks)) == len(picks) else None

    # ------------------------------------------------------------------ what is shown
    def show_news(self) -> None:
        """The game log since the last prompt."""
        events = self.game.events
        for event in events[self.shown_events :]:
            text = self.narrator.describe(event)
            if isinstance(event, ev.TurnStarted):
                self.console.print(f"\n[bold cyan]{text}[/]")
            elif isinstance(event, ev.GameOver | ev.PlayerBankrupt):
                self.console.print(f"[bold red]{text}[/]")
            else:
                self.console.print(f"  {text}")
        self.shown_events = len(events)

    def show_status(self) -> None:
        """The table: every player's cash, place, deeds and cards; the Bank's stock."""
        key = (self.game.turn, self.game.decision.seat if self.game.decision else -1)
        if self.shown_status == key:
            return
        self.shown_status = key
        self.console.print(status_table(self))

    def show_ranking(self) -> None:
        self.console.print()
        self.console.print(ranking_table(self))

    # ------------------------------------------------------------------ words
    def money(self, amount: int) -> str:
        return self.narrator.money(amount)

    def space(self, index: int) -> str:
        return self.narrator.space(index)

    def item(self, item: int) -> str:
        """What is auctioned: a deed's name, or "one house" / "one hotel"."""
        return self.narrator.item(item)

    def bundle(self, spaces: tuple[int, ...], cash: int, cards: tuple[str, ...]) -> str:
        parts = [self.space(s) for s in spaces]
        if cash:
            parts.append(self.money(cash))
        parts.extend(self.t("jail_card", deck=self.t.terms[deck]) for deck in cards)
        return ", ".join(parts) or self.narrator.text("nothing")

    def deed_mark(self, space: int, square: bool = True) -> Text:
        """A deed's name (after a square in its group's colour), with its buildings or
        mortgage mark."""
        game = self.game
        text = Text("▌", style=self.colour(space)) if square else Text()
        name = self.space(space)
        level = game.level[space]
        if game.mortgaged[space]:
            text.append(name, style="dim strike")
            text.append(" " + self.t("mark_mortgaged"), style="dim")
        else:
            text.append(name)
        if level == game.tables.hotel_level:
            text.append(" ▣", style="bold red")
        elif level:
            text.append(f" ⌂{level}", style="bold green")
        return text

    def colour(self, space: int) -> str:
        """The group's colour; railroads' black shows as grey on a dark terminal."""
        colour = self.game.edition.group_colours.get(self.game.board.spaces[space].group, "")
        return "grey62" if colour in ("", "#000000") else colour

    # ------------------------------------------------------------------ saving
    def save(self, path: Path) -> None:
        record = record_of(self.game)
        record[SAVE_KEY] = {
            "humans": self.humans,
            "bots": {str(seat): self.levels.get(seat, "normal") for seat in sorted(self.bots)},
        }
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1), "utf-8")

    def save_and_quit(self) -> str:
        if self.save_path is None:
            self.console.print(self.t("quit_unsaved"))
            return "quit"
        self.save(self.save_path)
        self.console.print(f"[bold]{self.t('saved', path=self.save_path)}[/]", soft_wrap=True)
        return "saved"


def columns_grid(cells: list[str], columns: int) -> Table:
    """Cells in ``columns`` columns, filled top to bottom."""
    grid = Table.grid(padding=(0, 3))
    for _ in range(columns):
        grid.add_column()
    rows = -(-len(cells) // columns)
    for row in range(rows):
        grid.add_row(*(cells[i] for i in range(row, len(cells), rows)))
    return grid


def parse_amount(text: str) -> int | None:
    """A whole non-negative amount ("120", "1.500", "1,500"), or None."""
    digits = text.strip().replace(",", "").replace(".", "").replace("_", "")
    return int(digits) if digits.isdigit() else None


# ---------------------------------------------------------------------- commands
def _trade_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    decision = ui.game.decision
    if decision is not None and decision.kind == TRADE and decision.seat == seat:
        return ui.trade(seat, decision.data.seat)  # a counter-offer
    return ui.trade(seat)


def _bid_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    return ui.bid_flow(seat, rest)


def _deed_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    space = ui.read_space(rest or ui.read_line(ui.t("ask_space")))
    if space is None:
        return False
    if not ui.game.board.spaces[space].is_property:
        return ui.say("not_property", space=ui.space(space))
    ui.console.print(deed_table(ui, space))
    return False


def _view_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    ui.console.print(board_view(ui), soft_wrap=True)
    return False


def _resign_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    """Leave the game after a confirmation that says to whom: the player the seat is
    raising cash for (R-BANKRUPT-2), otherwise the Bank (R-BANKRUPT-3)."""
    owed = debt_of(ui.game, seat)
    if owed is not None and owed.creditor >= 0:  # R-BANKRUPT-2: to the creditor
        who = ui.narrator.player(owed.creditor)
        question = ui.t("resign_confirm_player", creditor=who, amount=ui.money(owed.amount))
    else:  # R-BANKRUPT-3: to the Bank
        question = ui.t("resign_confirm")
    answer = ui.read_line(question).strip().casefold()
    if answer not in ui.t("yes_words").split(","):
        return ui.say("resign_cancelled")
    return ui.apply(Resign(seat))


def _help_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    ui.console.print(ui.t("help", example=ui.space(39).split(" ")[0]), markup=False)
    return False


def _quit_command(ui: TerminalGame, seat: int, rest: str) -> bool:
    raise Quit


COMMANDS: dict[str, Callable[[TerminalGame, int, str], bool]] = {
    "t": _trade_command,
    "b": _bid_command,
    "s": _deed_command,
    "v": _view_command,
    "r": _resign_command,
    "h": _help_command,
    "?": _help_command,
    "q": _quit_command,
}
