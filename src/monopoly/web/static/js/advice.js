// "Advice on" (chosen when the game was created, shown to everyone): the win-chance bar,
// updated by the server after each turn, and the advice line of the trade dialog and of
// an offer to answer ("This trade: you about +4 %, Bot 2 about −6 %"). The server computes
// both in its analysis pool; the page only asks (debounced) and shows.

import { h, replaceChildren } from "./util.js";
import { t } from "./i18n.js";

const ASK_DELAY = 400;

/** The same offer, whatever the order of its lists or its omitted fields. */
export function offerKey(offer) {
  const sorted = (list) => [...(list || [])].sort();
  return JSON.stringify([offer.seat, offer.partner, sorted(offer.give), offer.give_cash || 0, sorted(offer.give_cards),
    sorted(offer.take), offer.take_cash || 0, sorted(offer.take_cards)]);
}

function points(value) {
  return Math.round(100 * value);
}

/** Asks the server for trade advice and keeps its answers, by offer. */
export class AdviceDesk {
  constructor(screen) {
    this.screen = screen;
    this.answers = new Map();
    this.asked = new Set();
    this.timer = null;
    this.listeners = new Set();
  }

  get on() {
    return Boolean(this.screen.state?.game?.advice) && !this.screen.spectator;
  }

  /** Ask about ``offer`` soon (a newer offer within the delay replaces it). */
  ask(offer) {
    if (!this.on) return;
    const key = offerKey(offer);
    clearTimeout(this.timer);
    if (this.asked.has(key)) return;
    this.timer = setTimeout(() => {
      this.asked.add(key);
      const { act, ...fields } = offer;
      this.screen.connection.send({ type: "advice", offer: fields });
    }, ASK_DELAY);
  }

  /** The server's answer: kept, and every open view told. */
  answered(message) {
    this.answers.set(offerKey(message.offer), message);
    for (const listener of this.listeners) listener();
  }

  /** A refused or dropped request may be asked again. */
  refused() {
    this.asked.clear();
    for (const listener of this.listeners) listener();
  }

  /** A new position: earlier answers are about another game state. */
  forget() {
    this.answers.clear();
    this.asked.clear();
  }

  /** The advice line of ``offer`` for this page's seat (asking for it if needed). */
  line(offer) {
    const node = h("p", { class: "advice-line", role: "status", dataset: { testid: "advice-line" } });
    const fill = () => {
      if (!node.isConnected) this.listeners.delete(fill);  // a closed dialog, an old panel
      else replaceChildren(node, this.text(offer));
    };
    replaceChildren(node, this.text(offer));
    this.listeners.add(fill);
    this.ask(offer);
    return node;
  }

  text(offer) {
    const answer = this.answers.get(offerKey(offer));
    if (!answer) return t("advice_working");
    const me = this.screen.seat;
    const other = offer.seat === me ? offer.partner : offer.seat;
    const widest = Math.max(...[me, other].map((seat) => points(answer.change[seat].half_width)));
    const sides = [me, other].map((seat) => {
      const { mean, half_width: width } = answer.change[seat];
      const name = seat === me ? t("advice_you") : this.screen.playerName(seat);
      if (Math.abs(mean) <= width) return t("advice_unclear", { name });
      const sign = mean > 0 ? "+" : "−";
      return t("advice_side", { name, change: `${sign}${Math.abs(points(mean))} %` });
    });
    return t("advice_trade", { sides: sides.join(", "), width: widest });
  }
}

/** The win-chance bar: every player's chance, and whether a newer turn is being estimated. */
export class WinChanceBar {
  constructor(screen) {
    this.screen = screen;
    this.node = h("section", { class: "card win-chances", "aria-labelledby": "win-chances-heading", dataset: { testid: "win-chances" } });
  }

  render() {
    const screen = this.screen;
    const chances = screen.winChances;
    const game = screen.state.game;
    const updating = !game.over && (!chances || chances.turn < game.turn);
    // Once the game is over the bar shows how it ended (the winners share it), not the
    // last estimate, which would contradict the results beside it.
    const shown = game.over
      ? game.players.map((player) => ({ seat: player.seat, mean: game.winners.includes(player.seat) ? 1 / game.winners.length : 0 }))
      : chances?.players || [];
    const rows = shown.map((player) => {
      const percent = points(player.mean);
      const value = game.over
        ? t("win_chance_final", { percent })
        : t("win_chance_value", { percent, width: points(player.half_width) });
      return h("li", { class: "win-chance", dataset: { seat: player.seat } },
        h("span", { class: "win-chance-name" }, screen.playerName(player.seat)),
        h("span", { class: "win-chance-track", "aria-hidden": "true" },
          h("span", { class: `win-chance-fill seat-${player.seat}`, style: `width:${Math.max(0, Math.min(100, percent))}%` })),
        h("span", { class: "win-chance-value" }, value));
    });
    replaceChildren(this.node,
      h("h2", { id: "win-chances-heading" }, t("win_chances")),
      rows.length ? h("ol", { class: "win-chance-list" }, rows) : null,
      updating ? h("p", { class: "muted updating", dataset: { testid: "win-chances-updating" } }, t("win_chances_updating")) : null);
  }
}
