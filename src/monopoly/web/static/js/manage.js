// "Manage properties": the building, selling, mortgaging and lifting the server says are
// legal now, per title deed. Usable at any time, also out of turn.

import { asSentence, h, inWords, replaceChildren } from "./util.js";
import { t, language } from "./i18n.js";
import { freeLabel } from "./decision.js";

/** Actions grouped by the space they concern. */
function bySpace(actions) {
  const grouped = new Map();
  for (const action of actions) {
    const space = action.space ?? action.spaces?.[0];
    if (!grouped.has(space)) grouped.set(space, []);
    grouped.get(space).push(action);
  }
  return grouped;
}

/** A step the rules refuse now: its button, disabled, and the engine's reason beside it. */
function refusedStep(screen, action, index) {
  const id = `refusal-${action.act}-${index}`;
  const reason = asSentence(inWords(action.reason_text[language()] || action.reason_text.en));
  return h("span", { class: "refused", dataset: { refused: action.act, reason: action.reason } },
    h("button", { type: "button", class: "small", disabled: true, "aria-describedby": id, dataset: { key: `${action.act}-${index}-refused` } }, freeLabel(screen, action)),
    h("small", { class: "refusal", id }, reason));
}

export class ManageDialog {
  constructor(screen) {
    this.screen = screen;
    this.body = h("div", { class: "dialog-body" });
    this.dialog = h("dialog", { class: "manage-dialog", "aria-labelledby": "manage-heading" },
      h("div", { class: "dialog-head" },
        h("h2", { id: "manage-heading" }, t("manage_properties")),
        h("button", { type: "button", class: "close", "aria-label": t("close"), onclick: () => this.close() }, "×")),
      this.body);
    document.body.append(this.dialog);
  }

  /**
   * "Build evenly" and "sell evenly" per colour group: one building on (or from) each
   * street of the group, lowest first (highest first when selling), as the even-building
   * rule wants (R-BUILD-2, R-BUILD-4). Offered where the server lists a building or a
   * sale on every street of the group that needs one.
   */
  groupActions(player) {
    const screen = this.screen;
    const game = screen.state.game;
    const terms = screen.edition.terms;
    const free = screen.state.free_actions;
    const can = (act, space) => free.some((a) => a.act === act && (a.space ?? a.spaces?.[0]) === space);
    const buttons = [];
    for (const [key, group] of Object.entries(screen.edition.groups)) {
      const spaces = group.spaces;
      if (spaces.length < 2 || !spaces.every((s) => game.owner[s] === player.seat) || !screen.space(spaces[0]).rents) continue;
      const levels = spaces.map((s) => game.level[s]);
      const cost = screen.space(spaces[0]).house_cost;
      const low = Math.min(...levels);
      const high = Math.max(...levels);
      const toBuild = [...spaces].sort((a, b) => game.level[a] - game.level[b]);
      if (low === high && low < game.hotel_level && player.cash >= cost * spaces.length && spaces.some((s) => can("build", s))) {
        buttons.push(h("button", {
          type: "button", class: "small", dataset: { act: "build", key: `build-evenly-${key}` }, disabled: screen.busy,
          onclick: () => screen.act({ act: "build", seat: player.seat, spaces: toBuild }),
        }, `${group.name}: ${t("build_evenly", { house: low === game.hotel_level - 1 ? terms.hotel : terms.house, count: spaces.length, streets: terms.streets, cost: screen.money(cost * spaces.length) })}`));
      }
      if (low === high && low > 0 && spaces.some((s) => can("sell", s))) {
        const toSell = [...spaces];
        buttons.push(h("button", {
          type: "button", class: "small", dataset: { key: `sell-evenly-${key}` }, disabled: screen.busy,
          onclick: () => this.sellInTurn(player.seat, toSell),
        }, `${group.name}: ${t("sell_evenly", { count: spaces.length, streets: terms.streets, amount: screen.money(Math.floor(cost / 2) * spaces.length) })}`));
      }
    }
    return buttons;
  }

  /** Sell one building from each space, one action per state (each must stay legal). */
  sellInTurn(seat, spaces) {
    this.queue = spaces.map((space) => ({ act: "sell", seat, space }));
    this.next();
  }

  next() {
    const screen = this.screen;
    const action = this.queue?.[0];
    if (!action || screen.busy) return;
    const legal = screen.state.free_actions.some((a) => a.act === "sell" && a.space === action.space);
    this.queue.shift();
    if (legal) screen.act(action);
    else this.queue = null;
  }

  open() {
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  refresh() {
    if (this.queue?.length) this.next();
    if (this.dialog.open) this.render();
  }

  render() {
    const screen = this.screen;
    const state = screen.state;
    const me = screen.seat;
    const player = me === null ? null : state.game.players[me];
    const active = document.activeElement;
    const focusKey = active && this.dialog.contains(active) ? active.dataset.key : null;
    if (!player) {
      replaceChildren(this.body, h("p", {}, t("spectating")));
      return;
    }
    const byspace = bySpace(state.free_actions);
    const refusedBySpace = bySpace(state.refused_actions || []);
    const terms = screen.edition.terms;
    const rows = [...player.properties].sort((a, b) => a - b).map((index) => {
      const space = screen.space(index);
      const level = state.game.level[index];
      const mortgaged = state.game.mortgaged[index];
      const what = mortgaged ? t("mortgaged") : level >= state.game.hotel_level ? `1 ${terms.hotel}` : level ? `${level} ${level === 1 ? terms.house : terms.houses}` : "";
      const actions = byspace.get(index) || [];
      const refused = refusedBySpace.get(index) || [];
      return h("li", { class: "manage-row", dataset: { space: index } },
        h("span", { class: "swatch", style: `background:${space.colour || "#ccc"}`, "aria-hidden": "true" }),
        h("span", { class: "manage-name" }, space.name, what ? h("small", { class: "muted" }, ` — ${what}`) : null),
        h("span", { class: "manage-actions" }, actions.map((action) => h("button", {
          type: "button", class: "small", dataset: { act: action.act, key: `${action.act}-${index}` }, disabled: screen.busy,
          onclick: () => screen.act(action),
        }, freeLabel(screen, action))), refused.map((action) => refusedStep(screen, action, index))));
    });
    const evenly = this.groupActions(player);
    const claims = state.free_actions.filter((a) => a.act === "claim_rent");
    replaceChildren(this.body,
      h("p", {}, t("your_cash", { cash: screen.money(player.cash) }), " · ",
        t("bank_stock", { houses: state.game.bank.houses, houses_word: terms.houses, hotels: state.game.bank.hotels, hotels_word: terms.hotels })),
      h("p", { class: "muted small" }, t("manage_hint", { houses: terms.houses })),
      evenly.length ? h("div", { class: "actions evenly" }, evenly) : null,
      rows.length ? h("ul", { class: "manage-list" }, rows) : h("p", {}, t("no_deeds")),
      claims.length ? h("div", { class: "actions" }, claims.map((action) => h("button", {
        type: "button", dataset: { act: "claim_rent", key: `claim-${action.space}` }, onclick: () => screen.act(action),
      }, freeLabel(screen, action)))) : null);
    if (focusKey) {
      const again = this.body.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      (again || this.dialog.querySelector(".close")).focus();
    }
  }
}
