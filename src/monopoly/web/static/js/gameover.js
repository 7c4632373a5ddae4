// The results: ranking with net worth and a few statistics, how the game ended.

import { h } from "./util.js";
import { t } from "./i18n.js";
import { tokenBadge } from "./tokens.js";

let dialog = null;

function capitalise(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

export function showGameOver(screen, over) {
  dialog?.remove();
  const rows = over.ranking.map((entry) => {
    const player = screen.player(entry.seat);
    return h("tr", { class: entry.rank === 1 ? "winner" : entry.bankrupt ? "out" : "" },
      h("td", { class: "rank" }, entry.rank === 1 ? `★ ${entry.rank}` : String(entry.rank)),
      h("th", { scope: "row" }, h("span", { class: "rank-name" }, tokenBadge(entry.seat, screen.tokenName(player?.token), player?.token), entry.name,
        entry.bankrupt ? h("small", { class: "muted" }, `(${t("bankrupt")})`) : null)),
      h("td", { class: "num" }, screen.money(entry.net_worth)),
      h("td", { class: "num" }, screen.money(entry.cash)),
      h("td", { class: "num" }, String(entry.properties)),
      h("td", { class: "num" }, `${entry.houses} / ${entry.hotels}`),
      h("td", { class: "num" }, String(entry.turns)));
  });
  const terms = screen.edition.terms;
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
          h("th", { scope: "col" }, `${capitalise(terms.houses)} / ${capitalise(terms.hotels)}`), h("th", { scope: "col" }, t("turns")))),
        h("tbody", {}, rows))),
      h("div", { class: "actions" },
        h("a", { class: "button primary", href: "/" }, t("back_to_lobby")),
        h("button", { type: "button", onclick: () => dialog.close() }, t("look_at_board")))));
  document.body.append(dialog);
  dialog.showModal();
}
