// The results: ranking with net worth and a few statistics, how the game ended.

import { h, s } from "./util.js";
import { language, t } from "./i18n.js";
import { playerColour, tokenBadge } from "./tokens.js";
import { againControl } from "./decision.js";

let dialog = null;

function capitalise(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

export function showGameOver(screen, over) {
  dialog?.remove();
  const terms = screen.edition.terms;
  const buildingsColumn = `${capitalise(terms.houses)} / ${capitalise(terms.hotels)}`;
  // Each cell names its column (data-label): on a phone a row is a small card to read
  // downwards, not a table to scroll sideways.
  const cell = (label, value) => h("td", { class: "num", dataset: { label } }, value);
  const rows = over.ranking.map((entry) => {
    const player = screen.player(entry.seat);
    return h("tr", { class: entry.rank === 1 ? "winner" : entry.bankrupt ? "out" : "" },
      h("td", { class: "rank", dataset: { label: t("rank") } }, entry.rank === 1 ? `★ ${entry.rank}` : String(entry.rank)),
      h("th", { scope: "row" }, h("span", { class: "rank-name" }, tokenBadge(entry.seat, screen.tokenName(player?.token), player?.token), entry.name,
        entry.bankrupt ? h("small", { class: "muted" }, `(${t("bankrupt")})`) : null)),
      cell(t("net_worth_col"), screen.money(entry.net_worth)),
      cell(t("cash"), screen.money(entry.cash)),
      cell(t("deeds"), String(entry.properties)),
      cell(buildingsColumn, `${entry.houses} / ${entry.hotels}`),
      cell(t("turns"), String(entry.turns)));
  });
  dialog = h("dialog", { class: "over-dialog", "aria-labelledby": "over-heading", dataset: { testid: "game-over" } },
    h("div", { class: "dialog-head" },
      h("h2", { id: "over-heading" }, t("game_over")),
      h("button", { type: "button", class: "close", "aria-label": t("close"), onclick: () => dialog.close() }, "×")),
    h("div", { class: "dialog-body" },
      h("p", { class: "big winner-text" }, over.text),
      h("p", { class: "muted" }, t(`reason_${over.reason}`), " · ", t("game_length", { turns: over.turns, rounds: over.rounds })),
      h("div", { class: "table-scroll" }, h("table", { class: "ranking" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("rank")), h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("net_worth_col")),
          h("th", { scope: "col" }, t("cash")), h("th", { scope: "col" }, t("deeds")),
          h("th", { scope: "col" }, buildingsColumn), h("th", { scope: "col" }, t("turns")))),
        h("tbody", {}, rows))),
      over.history ? worthChart(screen, over) : null,
      statsTable(screen, over),
      // The results are a modal dialog, above any notification: the news goes in here.
      screen.next ? h("p", { class: "next-note", role: "status", dataset: { testid: "next-note" } }, t("next_game_ready")) : null,
      h("div", { class: "actions" },
        againControl(screen),
        h("a", { class: "button primary", href: "/" }, t("back_to_lobby")),
        h("a", { class: "button", href: `/analysis.html?game=${encodeURIComponent(screen.gameId)}&lang=${language()}`, dataset: { testid: "analyse-game" } }, t("analyse_game")),
        h("button", { type: "button", onclick: () => dialog.close() }, t("look_at_board")))));
  document.body.append(dialog);
  dialog.showModal();
}

const CHART_H = 220;

/** The chart's drawing width: narrower on a phone, so that its labels are not shrunk
 * below a readable size when the chart is fitted to the screen. */
function chartWidth() {
  return window.matchMedia("(max-width: 600px)").matches ? 340 : 600;
}
const PAD = { left: 56, right: 12, top: 10, bottom: 28 };

/** Everyone's net worth turn by turn: one line per player in the seat's colour. */
function worthChart(screen, over) {
  const CHART_W = chartWidth();
  const { turns, net_worth: rows } = over.history;
  const seats = rows[0]?.length || 0;
  const top = Math.max(1, ...rows.flat());
  const first = turns[0];
  const span = Math.max(1, turns[turns.length - 1] - first);
  const x = (turn) => PAD.left + ((turn - first) / span) * (CHART_W - PAD.left - PAD.right);
  const y = (value) => CHART_H - PAD.bottom - (value / top) * (CHART_H - PAD.top - PAD.bottom);
  const svg = s("svg", { viewBox: `0 0 ${CHART_W} ${CHART_H}`, class: "worth-chart", role: "img", "aria-label": t("worth_chart"), dataset: { testid: "worth-chart" } });
  svg.append(s("title", {}, t("worth_chart")));
  svg.append(s("line", { x1: PAD.left, y1: y(0), x2: CHART_W - PAD.right, y2: y(0), class: "axis" }));
  svg.append(s("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(0), class: "axis" }));
  svg.append(s("text", { x: PAD.left - 6, y: PAD.top + 10, "text-anchor": "end", class: "axis-label" }, screen.money(top)));
  svg.append(s("text", { x: PAD.left - 6, y: y(0), "text-anchor": "end", class: "axis-label" }, screen.money(0)));
  svg.append(s("text", { x: (CHART_W + PAD.left) / 2, y: CHART_H - 6, "text-anchor": "middle", class: "axis-label" }, t("chart_turns", { first, last: turns[turns.length - 1] })));
  for (let seat = 0; seat < seats; seat += 1) {
    const points = rows.map((row, i) => `${x(turns[i]).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
    const line = s("polyline", { points, class: "worth-line", stroke: playerColour(seat), dataset: { seat } });
    line.append(s("title", {}, screen.playerName(seat)));
    svg.append(line);
  }
  const legend = h("ul", { class: "chart-legend" }, over.ranking.map((entry) => h("li", {},
    h("span", { class: "legend-swatch", style: `background:${playerColour(entry.seat)}` }), entry.name)));
  return h("figure", { class: "chart" }, svg, legend);
}

/** A few numbers per player: rent received and paid, deeds bought, jail, doubles. */
function statsTable(screen, over) {
  if (over.ranking[0]?.rent_received === undefined) return null;
  const columns = ["rent_received", "rent_paid", "bought", "jail", "doubles"];
  return h("div", { class: "table-scroll" }, h("table", { class: "stats-table", dataset: { testid: "stats" } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), columns.map((key) => h("th", { scope: "col" }, t(`stat_${key}`))))),
    h("tbody", {}, over.ranking.map((entry) => h("tr", {},
      h("th", { scope: "row" }, entry.name),
      columns.map((key) => h("td", { class: "num", dataset: { label: t(`stat_${key}`) } }, key.startsWith("rent") ? screen.money(entry[key]) : String(entry[key]))))))));
}
