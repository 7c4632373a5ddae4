// The analysis board of a finished game: the win-chance chart, the marked decisions, and
// the board at the moment of a marked decision with the better alternative.

import { h, s } from "./util.js";
import { playerColour } from "./tokens.js";

const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const lang = ["en", "de"].includes(params.get("lang")) ? params.get("lang")
  : (localStorage.getItem("monopoly.lang") || "en");
let texts = {};
let edition = null;

function t(key, values = {}) {
  return (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

async function getJson(url, options = {}) {
  const response = await fetch(url, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error?.message || response.statusText);
  return data;
}

const main = () => document.getElementById("main");

async function start() {
  texts = await getJson(`i18n/analysis_${lang}.json`);
  document.documentElement.lang = lang;
  document.title = `${t("title")} · MONOPOLY`;
  document.getElementById("top-title").textContent = t("title");
  if (!gameId) {
    main().replaceChildren(h("p", {}, t("unknown")));
    return;
  }
  const api = `/api/games/${encodeURIComponent(gameId)}/analysis?language=${lang}`;
  try {
    let run = await getJson(api, { method: "POST" });
    while (run.state === "running") {
      showProgress(run);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // POST again rather than GET: with several server processes the next request may
      // reach another one, which then starts (or shows) its own analysis of the game.
      run = await getJson(api, { method: "POST" });
    }
    if (run.state === "failed") throw new Error(run.error);
    await show(run);
  } catch (error) {
    main().replaceChildren(h("p", { class: "error", role: "alert" }, t("failed", { error: error.message })));
  }
}

function showProgress(run) {
  const label = run.planned ? t("progress", { done: run.done, total: run.planned }) : t("starting");
  main().replaceChildren(h("h1", {}, t("title")),
    h("p", { role: "status", dataset: { testid: "analysis-progress" } }, label),
    h("progress", { max: String(run.planned || 1), value: String(run.done) }));
}

async function show(run) {
  const analysis = run.analysis;
  const settings = analysis.settings;
  const moment = h("section", { class: "moment", dataset: { testid: "analysis-moment" } });
  const marks = run.marks.length
    ? h("ul", { class: "marks-list", dataset: { testid: "analysis-marks" } }, run.marks.map((mark) =>
      h("li", {}, h("button", { type: "button", onclick: () => showMoment(moment, mark, analysis) },
        h("span", { class: `mark-badge mark-${mark.mark}` }, mark.mark_text),
        `${t("turn")} ${mark.turn} · ${mark.player}: ${mark.taken} → ${mark.better} (${t("loss", { loss: pointsOf(mark.loss) })})`))))
    : h("p", {}, t("no_marks"));
  main().replaceChildren(
    h("h1", {}, t("title")),
    h("figure", {}, chart(analysis, run.marks, moment), h("figcaption", {}, t("method", settings))),
    h("h2", {}, t("marks")), marks, moment,
    h("p", {}, h("a", { class: "button", href: "/" }, t("back"))));
}

function pointsOf(estimate) {
  return `${(100 * estimate.mean).toFixed(1)} ± ${(100 * estimate.half_width).toFixed(1)}`;
}

const W = 720, H = 280, PAD = { left: 44, right: 12, top: 12, bottom: 30 };

function chart(analysis, marks, moment) {
  const points = analysis.chart;
  const first = points[0]?.turn ?? 0;
  const last = points[points.length - 1]?.turn ?? 1;
  const x = (turn) => PAD.left + ((turn - first) / Math.max(1, last - first)) * (W - PAD.left - PAD.right);
  const y = (chance) => H - PAD.bottom - chance * (H - PAD.top - PAD.bottom);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "img", "aria-label": t("chart"), dataset: { testid: "analysis-chart" } });
  svg.append(s("title", {}, t("chart")));
  svg.append(s("line", { x1: PAD.left, y1: y(0), x2: W - PAD.right, y2: y(0), class: "axis" }));
  svg.append(s("line", { x1: PAD.left, y1: y(0), x2: PAD.left, y2: y(1), class: "axis" }));
  for (const level of [0, 0.5, 1]) {
    svg.append(s("text", { x: PAD.left - 4, y: y(level) + 4, "text-anchor": "end", class: "axis-label" }, `${level * 100} %`));
  }
  svg.append(s("text", { x: (W + PAD.left) / 2, y: H - 6, "text-anchor": "middle", class: "axis-label" }, `${t("turn")} ${first}–${last}`));
  analysis.players.forEach((name, seat) => {
    const chances = points.map((p) => p.players[seat]);
    const upper = chances.map((c, i) => `${x(points[i].turn).toFixed(1)},${y(Math.min(1, c.mean + c.half_width)).toFixed(1)}`);
    const lower = chances.map((c, i) => `${x(points[i].turn).toFixed(1)},${y(Math.max(0, c.mean - c.half_width)).toFixed(1)}`).reverse();
    svg.append(s("polygon", { points: [...upper, ...lower].join(" "), class: "chance-band", fill: playerColour(seat) }));
    const line = s("polyline", { points: chances.map((c, i) => `${x(points[i].turn).toFixed(1)},${y(c.mean).toFixed(1)}`).join(" "), class: "chance-line", stroke: playerColour(seat) });
    line.append(s("title", {}, name));
    svg.append(line);
  });
  for (const mark of marks) {
    const before = points.filter((p) => p.prefix <= mark.prefix).pop() || points[0];
    const dot = s("circle", { cx: x(mark.turn), cy: y(before ? before.players[mark.seat].mean : 0.5), r: 6, class: `mark mark-${mark.mark}`, tabindex: "0", dataset: { testid: "analysis-mark" } });
    dot.append(s("title", {}, `${mark.mark_text}: ${mark.player}, ${mark.taken}`));
    dot.addEventListener("click", () => showMoment(moment, mark, analysis));
    svg.append(dot);
  }
  const legend = h("ul", { class: "chart-legend" }, analysis.players.map((name, seat) => h("li", {},
    h("span", { class: "legend-swatch", style: `background:${playerColour(seat)}` }), name)));
  return h("div", {}, svg, legend);
}

async function showMoment(moment, mark, analysis) {
  const state = await getJson(`/api/games/${encodeURIComponent(gameId)}/analysis/position?prefix=${mark.prefix}`);
  if (!edition || edition.key !== state.edition) {
    edition = await getJson(`/api/editions/${state.edition}?language=${lang}`);
  }
  moment.replaceChildren(
    h("h2", {}, t("board_at", { turn: mark.turn })),
    h("p", { class: "chances" },
      h("span", { class: `mark-badge mark-${mark.mark}` }, mark.mark_text), `${mark.player} · `,
      `${t("taken")}: ${mark.taken} (${pointsOf(mark.taken_chance)} %) · `,
      `${t("better")}: ${mark.better} (${pointsOf(mark.better_chance)} %)`),
    miniBoard(state, analysis));
  moment.scrollIntoView({ block: "nearest" });
}

/** Row and column (1-based, CSS grid) of a space, GO at the bottom right. */
function cellOf(space) {
  if (space <= 10) return [11, 11 - space];
  if (space <= 20) return [11 - (space - 10), 1];
  if (space <= 30) return [1, 1 + (space - 20)];
  return [1 + (space - 30), 11];
}

function miniBoard(state, analysis) {
  const colourOf = {};
  for (const group of Object.values(edition.groups)) for (const space of group.spaces) colourOf[space] = group.colour;
  const board = h("div", { class: "mini-board", dataset: { testid: "analysis-board" } });
  edition.spaces.forEach((space, index) => {
    const [row, column] = cellOf(index);
    const owned = state.properties[String(index)];
    const here = state.players.map((p, seat) => (p.position === index && !p.bankrupt ? seat : -1)).filter((seat) => seat >= 0);
    const buildings = owned && owned.buildings ? ` ${owned.buildings === "hotel" ? "🏨" : "⌂".repeat(owned.buildings)}` : "";
    board.append(h("div", { class: "cell", style: `grid-row:${row};grid-column:${column}`, title: space.name },
      colourOf[index] && space.kind === "street" ? h("div", { class: "band", style: `background:${colourOf[index]}` }) : null,
      `${space.name}${buildings}`,
      owned ? h("span", { class: "owner", style: `background:${playerColour(owned.owner)}${owned.mortgaged ? ";opacity:0.35" : ""}` }) : null,
      here.length ? h("span", { class: "tokens" }, here.map((seat) => h("span", { style: `background:${playerColour(seat)}` }))) : null));
  });
  board.append(h("div", { class: "centre" }, h("table", {},
    h("tr", {}, h("th", {}, ""), h("th", {}, t("cash"))),
    state.players.map((player, seat) => h("tr", {},
      h("th", { style: `color:${playerColour(seat)}` }, analysis.players[seat]),
      h("td", {}, String(player.cash)))))));
  return board;
}

start();
