"""The terminal's tables: the players' status, a title deed and the final ranking."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from monopoly.core.board import SpaceKind
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
        buildings = "▣" if level == game.hotel_level else f"⌂{level}" if level else t("none")
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
