"""The HTML report of a simulation: ``index.html`` beside its PNG plots.

Plots are drawn on matplotlib figures with the Agg canvas (no pyplot, no display, no
global state): win rates by level and
by seat, the distribution of game lengths, the board as 40 squares around its edge
coloured by landing frequency and by rent income, and rent per colour group.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from monopoly.core.board import BOARD_SIZE, Edition, SpaceKind

from .stats import Summary
from .texts import JAIL_SLOT, Texts

IMAGES = {
    "wins": "wins.png",
    "length": "game_length.png",
    "landings": "landings_board.png",
    "rent": "rent_board.png",
    "groups": "rent_groups.png",
}
HEAT = "YlOrRd"
EMPTY = "#eeeeee"


def write_report(
    summary: Summary, setup: dict[str, Any], edition: Edition, texts: Texts, folder: Path
) -> Path:
    """Write the plots and ``index.html`` into ``folder``; returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    save_figure(plot_wins(summary, texts), folder / IMAGES["wins"])
    save_figure(plot_game_length(summary, texts), folder / IMAGES["length"])
    shares = summary.landing_shares()
    landing_board = plot_board(
        edition, texts, shares, texts("plot_landing_board"), partial(texts.percent, digits=2)
    )
    save_figure(landing_board, folder / IMAGES["landings"])
    rent = rent_per_game(summary, edition)
    rent_board = plot_board(edition, texts, rent, texts("plot_rent_board"), texts.number)
    save_figure(rent_board, folder / IMAGES["rent"])
    save_figure(plot_rent_groups(summary, edition, texts), folder / IMAGES["groups"])
    page = folder / "index.html"
    page.write_text(_html(summary, setup, edition, texts), encoding="utf-8")
    return page


def rent_per_game(summary: Summary, edition: Edition) -> list[float | None]:
    """Rent per game for each property; None for spaces that are not properties."""
    games = max(summary.games, 1)
    return [
        summary.rent[s] / games if space.is_property else None
        for s, space in enumerate(edition.board.spaces)
    ]


def blank_figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` x ``height`` inches, drawn without a display (the
    simulator's and the analysis' charts)."""
    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    return figure


def save_figure(figure: Figure, path: Path) -> None:
    """Write ``figure`` as the reports' images are written (its format from ``path``)."""
    figure.savefig(path, dpi=110, bbox_inches="tight")


# ---------------------------------------------------------------------- charts
def plot_wins(summary: Summary, texts: Texts) -> Figure:
    figure = blank_figure(10, 3.6)
    by_level, by_seat = figure.subplots(1, 2)
    rates = summary.win_rate_by_level()
    levels = sorted(rates)
    by_level.bar(levels, [rates[level] for level in levels], color="#4c72b0")
    by_level.set_title(texts("plot_wins_by_level"))
    seats = [str(seat + 1) for seat in range(summary.players)]
    by_seat.bar(seats, summary.win_rate_by_seat(), color="#55a868")
    by_seat.set_title(texts("plot_wins_by_seat"))
    by_seat.set_xlabel(texts("seat"))
    for axes in (by_level, by_seat):
        axes.axhline(1 / summary.players, color="grey", linestyle="--", linewidth=1)
        axes.set_ylabel(texts("win_rate"))
        axes.set_ylim(0, 1)
    figure.tight_layout()
    return figure


def plot_game_length(summary: Summary, texts: Texts) -> Figure:
    figure = blank_figure(8, 3.6)
    axes = figure.subplots()
    axes.hist(summary.turns, bins=min(40, max(5, summary.games // 5)), color="#8172b2")
    axes.set_xlabel(texts("plot_game_length"))
    axes.set_ylabel(texts("plot_games"))
    axes.set_title(texts("plot_game_length"))
    figure.tight_layout()
    return figure


def plot_rent_groups(summary: Summary, edition: Edition, texts: Texts) -> Figure:
    totals = summary.rent_by_group(edition)
    groups = list(totals)
    games = max(summary.games, 1)
    figure = blank_figure(8, 3.8)
    axes = figure.subplots()
    axes.barh(
        [texts.group_name(g) for g in groups],
        [totals[g] / games for g in groups],
        color=[edition.group_colours.get(g, "#999999") for g in groups],
        edgecolor="black",
        linewidth=0.5,
    )
    axes.invert_yaxis()
    axes.set_title(texts("plot_rent_groups"))
    figure.tight_layout()
    return figure


# ---------------------------------------------------------------------- the board
def square_of(space: int) -> tuple[int, int]:
    """The (column, row) of a space on an 11 x 11 grid, GO at the bottom right."""
    if space <= 10:
        return 10 - space, 0
    if space <= 20:
        return 0, space - 10
    if space <= 30:
        return space - 20, 10
    return 10, BOARD_SIZE - space


def _band(space: int, x: int, y: int) -> tuple[float, float, float, float]:
    """The group-colour band of a square, on its side facing the middle of the board."""
    if space < 10:
        return x, y + 0.8, 1, 0.2
    if space < 20:
        return x + 0.8, y, 0.2, 1
    if space < 30:
        return x, y, 1, 0.2
    return x, y, 0.2, 1


def _text_rows(space: int) -> tuple[float, float]:
    """Where (as a fraction of the square's height) the name and the value go."""
    return (0.38, 0.8) if 20 < space < 30 else (0.55, 0.18)


def plot_board(
    edition: Edition,
    texts: Texts,
    values: Sequence[float | None],
    title: str,
    label: Callable[[float], str],
) -> Figure:
    """The board with every square coloured by its value (41 values: slot 40 is "in
    jail", drawn as the inner part of the jail corner; None leaves a square grey)."""
    known = [v for v in values if v is not None]
    norm = Normalize(0, max(known) if known and max(known) > 0 else 1)
    paint = _Painter(norm, label)
    figure = blank_figure(11, 11)
    axes = figure.subplots()
    jail = edition.board.jail_index
    for space in range(BOARD_SIZE):
        if space != jail:
            _square(axes, edition, texts, space, values[space], paint)
    in_jail = values[JAIL_SLOT] if len(values) > JAIL_SLOT else None
    _jail_corner(axes, texts, jail, values[jail], in_jail, paint)
    axes.text(5.5, 6.2, title, ha="center", va="center", fontsize=15, weight="bold", wrap=True)
    axes.text(5.5, 5.5, edition.names[texts.language].title, ha="center", fontsize=11)
    inset = axes.inset_axes((2.5, 3.6, 6, 0.35), transform=axes.transData)
    figure.colorbar(ScalarMappable(norm, colormaps[HEAT]), cax=inset, orientation="horizontal")
    inset.xaxis.set_major_formatter(lambda v, _: label(v))
    axes.set_xlim(0, 11)
    axes.set_ylim(0, 11)
    axes.set_aspect("equal")
    axes.axis("off")
    return figure


class _Painter:
    """Colours and labels of values on one board."""

    def __init__(self, norm: Normalize, label: Callable[[float], str]) -> None:
        self.norm = norm
        self.label = label

    def fill(self, value: float | None) -> Any:
        return EMPTY if value is None else colormaps[HEAT](self.norm(value))

    def ink(self, value: float | None) -> str:
        """White text on the darkest squares, black elsewhere."""
        return "white" if value is not None and self.norm(value) > 0.75 else "black"

    def box(
        self, axes: Axes, corner: tuple[float, float], size: float, value: float | None
    ) -> None:
        axes.add_patch(
            Rectangle(corner, size, size, facecolor=self.fill(value), edgecolor="black", lw=0.6)
        )


def _square(
    axes: Axes, edition: Edition, texts: Texts, space: int, value: float | None, paint: _Painter
) -> None:
    x, y = square_of(space)
    paint.box(axes, (x, y), 1, value)
    deed = edition.board.spaces[space]
    if deed.group and deed.kind == SpaceKind.STREET:
        left, bottom, width, height = _band(space, x, y)
        colour = edition.group_colours[deed.group]
        axes.add_patch(Rectangle((left, bottom), width, height, facecolor=colour, lw=0))
    name_row, value_row = _text_rows(space)
    ink = paint.ink(value)
    name = _wrap(texts.slot_name(space))
    size = 6.2 * min(1.0, 12 / max(len(line) for line in name.split("\n")))
    axes.text(x + 0.5, y + name_row, name, ha="center", va="center", fontsize=size, color=ink)
    if value is not None:
        text = paint.label(value)
        axes.text(x + 0.5, y + value_row, text, ha="center", va="center", fontsize=7, color=ink)


def _jail_corner(
    axes: Axes,
    texts: Texts,
    jail: int,
    visiting: float | None,
    in_jail: float | None,
    paint: _Painter,
) -> None:
    """The jail corner: "just visiting" around the edge, "in jail" the inner square."""
    x, y = square_of(jail)
    paint.box(axes, (x, y), 1, visiting)
    paint.box(axes, (x + 0.3, y + 0.3), 0.7, in_jail)
    visit = texts.slot_name(jail)
    if visiting is not None:
        visit += " " + paint.label(visiting)
    axes.text(x + 0.5, y + 0.14, visit, ha="center", va="center", fontsize=5.5)
    inside = _wrap(texts.slot_name(JAIL_SLOT), 10)
    ink = paint.ink(in_jail)
    axes.text(x + 0.65, y + 0.8, inside, ha="center", va="center", fontsize=6, color=ink)
    if in_jail is not None:
        text = paint.label(in_jail)
        axes.text(x + 0.65, y + 0.5, text, ha="center", va="center", fontsize=7, color=ink)


def _wrap(text: str, width: int = 12) -> str:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines[:4])


# ---------------------------------------------------------------------- the page
def _html(summary: Summary, setup: dict[str, Any], edition: Edition, texts: Texts) -> str:
    esc = html.escape
    title = f"{texts('report_heading')} · {edition.names[texts.language].title}"
    setup_rows = [
        (texts("edition"), edition.names[texts.language].title),
        (texts("rules"), str(setup["rules"])),
        (texts("players"), str(setup["players"])),
        (texts("bots"), ", ".join(setup["bots"])),
        (texts("seed"), str(setup["seed"])),
        (texts("games"), str(summary.games)),
        (texts("rolls"), str(summary.rolls)),
    ]
    reasons = [(texts.end_reason(k), str(v)) for k, v in sorted(summary.end_reasons.items())]
    stopped = ""
    if not summary.complete:
        note = texts("stopped_early", done=summary.games, total=summary.planned)
        stopped = f"<p><b>{esc(note)}</b></p>"
    return page(
        texts.language,
        title,
        f"""{stopped}
<h2>{esc(texts("report_setup"))}</h2>
{html_table([], setup_rows)}
<h2>{esc(texts("report_results"))}</h2>
<h3>{esc(texts("end_reasons"))}</h3>
{html_table([], reasons)}
<img src="{IMAGES["wins"]}" alt="{esc(texts("plot_wins_by_level"))}">
<img src="{IMAGES["length"]}" alt="{esc(texts("plot_game_length"))}">
<h2>{esc(texts("report_landings"))}</h2>
<p>{esc(texts("landing_definition"))}</p>
<img src="{IMAGES["landings"]}" alt="{esc(texts("plot_landing_board"))}">
{_landing_table(summary, texts)}
<h2>{esc(texts("report_rent"))}</h2>
<img src="{IMAGES["rent"]}" alt="{esc(texts("plot_rent_board"))}">
<img src="{IMAGES["groups"]}" alt="{esc(texts("plot_rent_groups"))}">
{_rent_table(summary, edition, texts)}
""",
    )


def page(language: str, title: str, body: str) -> str:
    """A whole report page: the reports' one look (the analysis board's report too)."""
    esc = html.escape
    return f"""<!DOCTYPE html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<title>{esc(title)}</title>
<style>
body {{ font-family: sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}
td.n {{ text-align: right; }}
img {{ max-width: 100%; }}
</style>
</head>
<body>
<h1>{esc(title)}</h1>
{body}</body>
</html>
"""


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table of text cells, escaped; numbers right-aligned; no head row when
    ``header`` is empty."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "\n".join(
        "<tr>"
        + "".join(
            f'<td class="n">{html.escape(c)}</td>' if _numeric(c) else f"<td>{html.escape(c)}</td>"
            for c in row
        )
        + "</tr>"
        for row in rows
    )
    return f"<table>{f'<tr>{head}</tr>' if head else ''}\n{body}\n</table>"


def _numeric(cell: str) -> bool:
    return cell.replace(",", "").replace(".", "").replace("%", "").strip().isdigit()


def _landing_table(summary: Summary, texts: Texts) -> str:
    shares = summary.landing_shares()
    order = sorted(range(len(shares)), key=lambda slot: -shares[slot])
    share = partial(texts.percent, digits=2)
    rows = [
        (str(rank), texts.slot_name(slot), str(summary.landings[slot]), share(shares[slot]))
        for rank, slot in enumerate(order, 1)
    ]
    header = [texts("rank"), texts("space"), texts("landings"), texts("share")]
    return html_table(header, rows)


def _rent_table(summary: Summary, edition: Edition, texts: Texts) -> str:
    games = max(summary.games, 1)
    order = sorted(edition.board.properties, key=lambda s: -summary.rent[s])
    rows = [
        (
            texts.slot_name(s),
            texts.group_name(edition.board.spaces[s].group),
            texts.number(summary.rent[s]),
            texts.number(summary.rent[s] / games),
        )
        for s in order
    ]
    header = [texts("space"), texts("group"), texts("rent"), texts("rent_per_game")]
    return html_table(header, rows)
