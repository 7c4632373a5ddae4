// Trades: the proposal form (partner, title deeds, cash and Get Out of Jail Free cards
// each way, checked live by the server) and the summary of an offer to answer.

import { h, inWords, replaceChildren, toast } from "./util.js";
import { t } from "./i18n.js";

const CHECK_DELAY = 150;

function emptyDraft(partner) {
  return { partner, give: [], give_cash: 0, give_cards: [], take: [], take_cash: 0, take_cards: [] };
}

function normalise(offer) {
  const sorted = (list) => [...(list || [])].sort();
  return JSON.stringify([offer.partner, sorted(offer.give), offer.give_cash || 0, sorted(offer.give_cards),
    sorted(offer.take), offer.take_cash || 0, sorted(offer.take_cards)]);
}

export class TradeDialog {
  constructor(screen) {
    this.screen = screen;
    this.draft = null;
    this.locked = false;
    this.timer = null;
    this.lastCheck = null;
    this.legal = false;
    this.body = h("div", { class: "dialog-body" });
    this.dialog = h("dialog", { class: "trade-dialog", "aria-labelledby": "trade-heading" },
      h("div", { class: "dialog-head" },
        h("h2", { id: "trade-heading" }, t("propose_trade")),
        h("button", { type: "button", class: "close", "aria-label": t("close"), onclick: () => this.close() }, "×")),
      this.body);
    document.body.append(this.dialog);
  }

  partners() {
    const screen = this.screen;
    return screen.state.game.players.filter((p) => p.active && p.seat !== screen.seat);
  }

  /** Open the form; ``prefill`` (a counter-offer) fixes the partner and the items. */
  open(prefill = null) {
    const partners = this.partners();
    if (!partners.length || this.screen.seat === null) return;
    this.locked = Boolean(prefill);
    this.draft = prefill ? { ...emptyDraft(prefill.partner), ...prefill } : emptyDraft(partners[0].seat);
    this.dialog.querySelector("h2").textContent = prefill ? t("counter_offer") : t("propose_trade");
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
    this.scheduleCheck();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
    clearTimeout(this.timer);
  }

  refresh() {
    if (!this.dialog.open) return;
    const players = this.screen.state.game.players;
    if (!players[this.draft.partner]?.active) {
      this.close();
      return;
    }
    const key = this.sidesKey();
    if (key === this.renderedKey) return;
    this.render();
    this.scheduleCheck();
  }

  /** What the form shows of the two players (re-render only when it changes). */
  sidesKey() {
    const game = this.screen.state.game;
    return JSON.stringify([this.screen.seat, this.draft.partner].map((seat) => {
      const p = game.players[seat];
      return [p.cash, p.properties, p.jail_cards, p.properties.map((i) => [game.level[i], game.mortgaged[i]])];
    }));
  }

  render() {
    this.renderedKey = this.sidesKey();
    const screen = this.screen;
    const me = screen.player(screen.seat);
    const partner = screen.player(this.draft.partner);
    const active = document.activeElement;
    const focusKey = active && this.dialog.contains(active) ? active.dataset.key : null;
    const partnerPick = h("select", { id: "trade-partner", dataset: { key: "partner" }, disabled: this.locked },
      this.partners().map((p) => h("option", { value: p.seat, selected: p.seat === this.draft.partner }, p.name)));
    partnerPick.addEventListener("change", () => {
      const { give, give_cash: giveCash, give_cards: giveCards } = this.draft;
      this.draft = { ...emptyDraft(Number(partnerPick.value)), give, give_cash: giveCash, give_cards: giveCards };
      this.render();
      this.scheduleCheck();
    });
    this.status = h("p", { class: "trade-status", role: "status", id: "trade-status" }, this.statusText());
    this.adviceNode = h("p", { class: "advice-line", hidden: true });
    this.proposeButton = h("button", { type: "button", class: "primary", dataset: { key: "propose", testid: "propose" }, disabled: !this.legal, "aria-describedby": "trade-status",
      onclick: () => this.propose() }, t(this.locked ? "send_counter" : "send_offer"));
    replaceChildren(this.body,
      h("div", { class: "field" }, h("label", { for: "trade-partner" }, t("trade_with")), partnerPick),
      h("div", { class: "trade-sides" },
        this.side(me, "give", t("you_give")),
        this.side(partner, "take", t("you_get_from", { name: partner.name }))),
      this.status,
      this.adviceNode,
      h("div", { class: "actions" }, this.proposeButton,
        h("button", { type: "button", dataset: { key: "cancel" }, onclick: () => this.close() }, t("cancel"))));
    if (focusKey) this.body.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  /** One side of the trade: ``player``'s deeds, cash and cards, into draft[way]. */
  side(player, way, title) {
    const screen = this.screen;
    const game = screen.state.game;
    const chosen = new Set(this.draft[way]);
    const deeds = [...player.properties].sort((a, b) => a - b).map((index) => {
      const space = screen.space(index);
      const notes = [];
      if (game.mortgaged[index]) notes.push(t("mortgaged"));
      if (game.level[index] > 0) notes.push(t("has_buildings"));
      const box = h("input", { type: "checkbox", value: index, checked: chosen.has(index), dataset: { key: `${way}-${index}` } });
      box.addEventListener("change", () => {
        const set = new Set(this.draft[way]);
        if (box.checked) set.add(index);
        else set.delete(index);
        this.draft[way] = [...set];
        this.scheduleCheck();
      });
      return h("li", {}, h("label", { class: "check" }, box,
        h("span", { class: "swatch", style: `background:${space.colour || "#ccc"}`, "aria-hidden": "true" }),
        space.name, notes.length ? h("small", { class: "muted" }, ` (${notes.join(", ")})`) : null));
    });
    const cashKey = `${way}_cash`;
    const cash = h("input", { type: "number", min: 0, max: player.cash, step: 1, value: this.draft[cashKey], inputmode: "numeric", id: `trade-${cashKey}`, dataset: { key: cashKey } });
    cash.addEventListener("input", () => {
      const value = Number.parseInt(cash.value, 10);
      this.draft[cashKey] = Number.isInteger(value) && value > 0 ? value : 0;
      this.scheduleCheck();
    });
    const cardKey = `${way}_cards`;
    const cards = player.jail_cards.map((deck) => {
      const box = h("input", { type: "checkbox", checked: this.draft[cardKey].includes(deck), dataset: { key: `${cardKey}-${deck}` } });
      box.addEventListener("change", () => {
        const set = new Set(this.draft[cardKey]);
        if (box.checked) set.add(deck);
        else set.delete(deck);
        this.draft[cardKey] = [...set];
        this.scheduleCheck();
      });
      return h("li", {}, h("label", { class: "check" }, box, screen.cardName(deck)));
    });
    return h("fieldset", { class: `trade-side trade-${way}` },
      h("legend", {}, title),
      deeds.length ? h("ul", { class: "trade-deeds" }, deeds) : h("p", { class: "muted" }, t("no_deeds")),
      h("div", { class: "field" }, h("label", { for: cash.id }, t("cash_amount", { max: screen.money(player.cash) })), cash),
      cards.length ? h("ul", { class: "trade-cards" }, cards) : null);
  }

  action() {
    return { act: "propose_trade", seat: this.screen.seat, ...this.draft };
  }

  isEmpty() {
    const d = this.draft;
    return !d.give.length && !d.take.length && !d.give_cash && !d.take_cash && !d.give_cards.length && !d.take_cards.length;
  }

  scheduleCheck() {
    clearTimeout(this.timer);
    this.legal = false;
    this.problem = "";
    this.updateStatus();
    if (this.isEmpty()) return;
    this.timer = setTimeout(() => {
      this.lastCheck = normalise(this.draft);
      this.screen.check(this.action());
    }, CHECK_DELAY);
  }

  /** The server's answer to a ``check`` of the current offer. */
  checked(result) {
    if (!this.dialog.open || normalise(result.action) !== this.lastCheck || normalise(this.draft) !== this.lastCheck) return;
    this.legal = result.legal;
    this.problem = inWords(result.problem || "");
    this.updateStatus();
  }

  statusText() {
    if (this.isEmpty()) return t("trade_empty");
    if (this.legal) return t("trade_ok");
    return this.problem ? t("trade_problem", { problem: this.problem }) : t("trade_checking");
  }

  updateStatus() {
    if (!this.status) return;
    this.status.textContent = this.statusText();
    this.status.classList.toggle("form-error", Boolean(this.problem));
    this.proposeButton.disabled = !this.legal;
    this.showAdvice();
  }

  /** With "advice on": what the offer, once legal, does to both sides' win chances. */
  showAdvice() {
    const advice = this.screen.advice;
    if (!advice.on || !this.adviceNode) return;
    const line = this.legal ? advice.line(this.action()) : h("p", { class: "advice-line", hidden: true });
    this.adviceNode.replaceWith(line);
    this.adviceNode = line;
  }

  propose() {
    if (!this.legal) return;
    const partner = this.screen.playerName(this.draft.partner);
    this.screen.act(this.action());
    this.close();
    toast(t("offer_sent", { name: partner }));
  }
}

/** What an offer gives and takes, seen by ``viewer`` (the partner or anyone else). */
export function offerSummary(screen, offer, viewer) {
  const list = (spaces, cash, cards) => {
    const items = spaces.map((index) => {
      const space = screen.space(index);
      return h("li", {}, h("span", { class: "swatch", style: `background:${space.colour || "#ccc"}`, "aria-hidden": "true" }), space.name,
        screen.state.game.mortgaged[index] ? h("small", { class: "muted" }, ` (${t("mortgaged")})`) : null);
    });
    if (cash) items.push(h("li", {}, screen.money(cash)));
    for (const deck of cards || []) items.push(h("li", {}, screen.cardName(deck)));
    return items.length ? h("ul", { class: "offer-list" }, items) : h("p", { class: "muted" }, t("nothing"));
  };
  const proposer = screen.playerName(offer.seat);
  const partner = screen.playerName(offer.partner);
  const forMe = viewer === offer.partner;
  return h("div", { class: "offer" },
    h("div", {}, h("h3", {}, forMe ? t("you_get") : t("x_gives", { name: proposer })), list(offer.give || [], offer.give_cash, offer.give_cards)),
    h("div", {}, h("h3", {}, forMe ? t("you_give") : t("x_gives", { name: partner })), list(offer.take || [], offer.take_cash, offer.take_cards)));
}
