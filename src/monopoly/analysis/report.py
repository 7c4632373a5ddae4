"""The HTML report of a game's analysis: the win-chance chart over the turns, with the
marked decisions on it, and a table of those decisions. It looks like the simulator's
report (:mod:`monopoly.sim.report`): the same figures, page style and tables."""

from __future__ import annotations

import html
from pathlib import Path

from matplotlib.figure import Figure

from monopoly.core.game import Game
from monopoly.sim.report import blank_figure, html_table, page, save_figure

from .judge import Mark
from .review import GameAnalysis, ReviewedDecision
from .texts import AnalysisTexts, decision_rows

CHART = "win_chances.png"
MARK_COLOURS = {Mark.INACCURACY: "#e6b800", Mark.MISTAKE: "#e67e22", Mark.BLUNDER: "#c0392b"}
SEAT_COLOURS = (
    "#4c72b0",
    "#55a868",
    "#c44e52",
    "#8172b2",
    "#ccb974",
    "#64b5cd",
    "#8c8c8c",
    "#da8bc3",
)


def plot_chart(analysis: GameAnalysis, texts: AnalysisTexts) -> Figure:
    """Each player's win chance at the start of every turn, its 95 % band, and the
    marked decisions as markers on the decider's line."""
    figure = blank_figure(10, 4.2)
    axes = figure.subplots()
    turns = [point.turn for point in analysis.points]
    for seat, name in enumerate(analysis.names):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        chances = [point.chances[seat] for point in analysis.points]
        axes.plot(turns, [c.mean for c in chances], color=colour, label=name, linewidth=1.6)
        low = [max(0.0, c.low) for c in chances]
        high = [min(1.0, c.high) for c in chances]
        axes.fill_between(turns, low, high, color=colour, alpha=0.15, linewidth=0)
    for decision in analysis.marked():
        mark = decision.judgement.mark
        y = _chance_at(analysis, decision)
        axes.scatter(
            [decision.turn],
            [y],
            color=MARK_COLOURS[mark],
            s=60,
            zorder=3,
            edgecolors="black",
            linewidths=0.5,
        )
    for mark, colour in MARK_COLOURS.items():
        axes.scatter([], [], color=colour, s=60, edgecolors="black", label=texts.mark(mark))
    axes.axhline(1 / max(1, len(analysis.names)), color="grey", linestyle="--", linewidth=1)
    axes.set_ylim(0, 1)
    axes.set_xlabel(texts("turn"))
    axes.set_ylabel(texts("win_chance"))
    axes.set_title(texts("win_chances"))
    axes.legend(loc="upper left", fontsize=8, ncols=2)
    figure.tight_layout()
    return figure


def _chance_at(analysis: GameAnalysis, decision: ReviewedDecision) -> float:
    """The decider's chance at the last chart point before the decision."""
    before = [p for p in analysis.points if p.prefix <= decision.prefix] or analysis.points
    return before[-1].chances[decision.judgement.seat].mean if before else 0.5


def write_report(analysis: GameAnalysis, game: Game, texts: AnalysisTexts, folder: Path) -> Path:
    """Write the chart and ``index.html`` into ``folder``; returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    save_figure(plot_chart(analysis, texts), folder / CHART)
    page = folder / "index.html"
    page.write_text(_html(analysis, game, texts), encoding="utf-8")
    return page


def _html(analysis: GameAnalysis, game: Game, texts: AnalysisTexts) -> str:
    esc = html.escape
    title = f"{texts('analysis_title')} · {texts.names.title}"
    settings = analysis.settings
    winners = ", ".join(analysis.names[s] for s in analysis.winners) or "–"
    setup_rows = [
        (texts("players"), ", ".join(analysis.names)),
        (texts("winner"), winners),
        (texts("turn"), str(analysis.turns)),
        (texts("level"), settings.level),
        (texts("horizon"), str(settings.horizon)),
        (texts("rollouts"), str(settings.rollouts)),
        (texts("seed"), str(settings.seed)),
    ]
    header = [
        texts("turn"),
        texts("player"),
        texts("taken"),
        texts("better"),
        texts("loss"),
        texts("mark"),
    ]
    rows = decision_rows(analysis, game, texts)
    marked = html_table(header, rows) if rows else f"<p>{esc(texts('no_marks'))}</p>"
    stopped = ""
    if not analysis.complete:
        note = texts("stopped_early", done=analysis.done, total=analysis.planned)
        stopped = f"<p><b>{esc(note)}</b></p>"
    return page(
        texts.language,
        title,
        f"""{stopped}
<h2>{esc(texts("settings"))}</h2>
{html_table([], setup_rows)}
<p>{esc(texts("method"))}</p>
<h2>{esc(texts("win_chances"))}</h2>
<img src="{CHART}" alt="{esc(texts("win_chances"))}">
<p>{esc(texts("chart_note"))}</p>
<h2>{esc(texts("marked_decisions"))}</h2>
{marked}
""",
    )
