"""The terminal's tables: the players' status, a title deed, the final ranking, and the
board drawn with its owners, buildings and tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from monopoly.core.board import BOARD_SIZE, SpaceKind
from monopoly.core.view import PlayerView

LineReader = Callable[[str], str]

if TYPE_CHECKING:
    from monopoly.cli.terminal import TerminalGame


# ---------------------------------------------------------------------- tables
def status_table(ui: TerminalGame) -> Table:
    game, t = ui.game, ui.t
    decision = game.decision
    waiting = decision.seat if decision is not None else -1
    caption = [t("status_bank", houses_left=game.bank_houses, hotels_left=game.bank_hotels)]
    if game.rules.free_parking_pot:
        caption.append(t("status_pot", amount=ui.money(game.free_parking_pot)))
    caption.append(t("legend"))
    title = t("status_turn", turn=game.turn, player=game.names[game.current])
    table = Table(
        title=title,
        caption=" · ".join(caption),
        expand=False,
        title_justify="left",
        caption_justify="left",
        padding=(0, 1),
    )
    table.add_column("")
    table.add_column(t("col_player"), style="bold", no_wrap=True)
    table.add_column(t("col_cash"), justify="right", no_wrap=True)
    table.add_column(t("col_where"), max_width=24)
    table.add_column(t("col_deeds"), ratio=1)
    table.add_column(t("col_cards"), max_width=24)
    for seat in range(game.players):
        marker = "▶" if seat == waiting else ("·" if seat == game.current else "")
        table.add_row(marker, *player_cells(ui, seat))
    return table


def player_cells(ui: TerminalGame, seat: int) -> tuple[Any, ...]:
    game, t = ui.game, ui.t
    if not game.active[seat]:
        return (Text(game.names[seat], style="dim strike"), "", t("bankrupt"), "", "")
    where = ui.space(game.position[seat])
    if game.jail_turns[seat] >= 0:
        where = t("in_jail", count=game.jail_turns[seat])
    deeds = Text()
    for spaces in game.board.groups.values():
        owned = [s for s in spaces if game.owner[s] == seat]
        if not owned:
            continue
        if deeds:
            deeds.append("  ")
        for index, space in enumerate(owned):
            if index:
                deeds.append(", ")
            deeds.append_text(ui.deed_mark(space, square=index == 0))
    cards = ", ".join(t.terms[deck] for deck in game.jail_cards[seat])
    return (game.names[seat], ui.money(game.cash[seat]), where, deeds, cards)


def deed_table(ui: TerminalGame, space: int) -> Table:
    game, t = ui.game, ui.t
    deed = game.board.spaces[space]
    table = Table(
        title=Text(ui.space(space), style=f"bold {ui.colour(space)}"),
        show_header=False,
        title_justify="left",
    )
    table.add_column()
    table.add_column(justify="right")
    table.add_row(t("deed_price"), ui.money(deed.price))
    for label, value in deed_rent_rows(ui, space):
        table.add_row(label, value)
    if deed.kind == SpaceKind.STREET:
        table.add_row(t("deed_house_cost"), ui.money(deed.house_cost))
    table.add_row(t("deed_mortgage"), ui.money(deed.mortgage_value))
    owner = game.owner[space]
    table.add_row(t("deed_owner"), ui.narrator.player(owner) if owner >= 0 else t("none"))
    if owner >= 0:
        table.add_row(t("deed_now"), deed_rent_now(ui, space))
        level = game.level[space]
        buildings = "▣" if level == game.tables.hotel_level else f"⌂{level}" if level else t("none")
        table.add_row(t("deed_buildings"), buildings)
    return table


def deed_rent_rows(ui: TerminalGame, space: int) -> list[tuple[str, str]]:
    game, t = ui.game, ui.t
    deed = game.board.spaces[space]
    if deed.kind == SpaceKind.RAILROAD:
        return [
            (t("deed_railroads", count=n), ui.money(rent))
            for n, rent in enumerate(game.board.railroad_rents, 1)
        ]
    if deed.kind == SpaceKind.UTILITY:
        return [
            (t("deed_utilities", count=n), t("deed_utility_rent", times=times))
            for n, times in enumerate(game.board.utility_multipliers, 1)
        ]
    rows = [
        (t("deed_rent"), ui.money(deed.rents[0])),
        (t("deed_rent_group"), ui.money(deed.rents[0] * 2)),
    ]
    per_hotel = game.rules.houses_per_hotel
    for count in range(1, per_hotel + 1):
        word = t.terms["house" if count == 1 else "houses"]
        rows.append(
            (t("deed_rent_houses", count=count, house_word=word), ui.money(deed.rents[count]))
        )
    hotel = t("deed_rent_hotel", count=per_hotel)  # R-SHORT-2: after 3 in the short game
    rows.append((hotel, ui.money(deed.rents[5])))
    return rows


def deed_rent_now(ui: TerminalGame, space: int) -> str:
    rent = PlayerView(ui.game).rent_of(space)
    if ui.game.board.spaces[space].kind == SpaceKind.UTILITY and rent:
        return ui.t("deed_utility_rent", times=rent)
    if ui.game.mortgaged[space]:
        return ui.t("deed_mortgaged")
    return ui.money(rent)


def ranking_table(ui: TerminalGame) -> Table:
    game, t = ui.game, ui.t
    reason = ui.narrator.text(f"end_{game.end_reason}")
    table = Table(title=t("over_title", reason=reason), title_justify="left")
    for key, justify in (
        ("col_rank", "right"),
        ("col_player", "left"),
        ("col_worth", "right"),
        ("col_cash", "right"),
        ("col_deeds", "right"),
        ("col_buildings", "right"),
        ("", "left"),
    ):
        table.add_column(t(key) if key else "", justify=justify)  # type: ignore[arg-type]
    order = sorted(range(game.players), key=lambda s: (not game.active[s], -game.net_worth(s)))
    for rank, seat in enumerate(order, 1):
        houses, hotels = game.houses_and_hotels(seat)
        worth = ui.money(game.net_worth(seat)) if game.active[seat] else t("bankrupt")
        note = "🏆 " + t("winner") if seat in game.winners else ""
        table.add_row(
            str(rank),
            game.names[seat],
            worth,
            ui.money(game.cash[seat]),
            str(len(game.properties_of(seat))),
            f"{houses} / {hotels}",
            note,
        )
    return table


# ---------------------------------------------------------------------- the board
CELL = 7
"""A space's width on the drawn board: 11 spaces a side fit 80 columns."""
SEAT_STYLES = (
    "bold bright_cyan",
    "bold bright_magenta",
    "bold bright_yellow",
    "bold bright_white",
    "bold orange1",
    "bold spring_green1",
    "bold deep_pink1",
    "bold slate_blue1",
)
"""A player's number on the board: colours apart from the colour groups' bars."""


def board_view(ui: TerminalGame) -> Text:
    """The board drawn as a square of spaces (GO at the bottom right), each with its
    name, its owner's number and buildings, and the numbers of the players on it; the
    middle holds the turn, the Bank's stock and who is who."""
    cells = [space_cell(ui, space) for space in range(BOARD_SIZE)]
    blank = Text(" " * CELL)
    middle = board_middle(ui, 9 * 3, CELL * 9)
    top, bottom = range(20, 31), range(10, -1, -1)
    sides = list(zip(range(19, 10, -1), range(31, BOARD_SIZE), strict=True))
    board = Text()
    for line in range(3):
        board.append_text(Text("").join(cells[s][line] for s in top)).append("\n")
    for row, (left, right) in enumerate(sides):
        for line in range(3):
            board.append_text(cells[left][line] if left < BOARD_SIZE else blank)
            board.append_text(middle[row * 3 + line])
            board.append_text(cells[right][line]).append("\n")
    for line in range(3):
        board.append_text(Text("").join(cells[s][line] for s in bottom)).append("\n")
    return board


def space_cell(ui: TerminalGame, space: int) -> list[Text]:
    """Three lines of :data:`CELL` characters: the name (after its group's colour), the
    owner's number and buildings, the players standing there (``#`` before a number:
    in jail)."""
    game = ui.game
    is_property = game.board.spaces[space].is_property
    name = Text("▌" if is_property else " ", style=ui.colour(space) if is_property else "")
    name.append(ui.space(space)[: CELL - 1])
    holding = Text(" ")
    owner = game.owner[space]
    if is_property and owner >= 0:
        holding.append(str(owner + 1), style=seat_style(owner))
        level = game.level[space]
        if game.mortgaged[space]:
            holding.append(" " + ui.t("mark_mortgaged"), style="dim")
        elif level == game.tables.hotel_level:
            holding.append(" ▣", style="bold red")
        elif level:
            holding.append(f" ⌂{level}", style="bold green")
    tokens = Text(" ")
    for seat in range(game.players):
        if game.active[seat] and game.position[seat] == space:
            jailed = game.jail_turns[seat] >= 0
            tokens.append(("#" if jailed else "") + str(seat + 1), style=seat_style(seat))
    return [fit(line) for line in (name, holding, tokens)]


def board_middle(ui: TerminalGame, lines: int, width: int) -> list[Text]:
    """The middle of the board: the turn, the Bank's stock and the players' numbers."""
    game, t = ui.game, ui.t
    texts = [
        Text(game.edition.names[game.language].title, style="bold"),
        Text(t("status_turn", turn=game.turn, player=game.names[game.current])),
        Text(t("status_bank", houses_left=game.bank_houses, hotels_left=game.bank_hotels)),
        Text(t("board_key")),
        Text(""),
    ]
    for seat in range(game.players):
        entry = Text(f"{seat + 1} ", style=seat_style(seat))
        if game.active[seat]:
            entry.append(f"{game.names[seat]}: {ui.money(game.cash[seat])}")
        else:
            entry.append(f"{game.names[seat]}: {t('bankrupt')}", style="dim strike")
        texts.append(entry)
    texts += [Text("")] * (lines - len(texts))
    return [fit(Text("  ").append_text(text), width) for text in texts[:lines]]


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def fit(text: Text, width: int = CELL) -> Text:
    """``text`` cut or padded to ``width`` cells."""
    text = text.copy()
    text.truncate(width, overflow="crop", pad=True)
    return text
