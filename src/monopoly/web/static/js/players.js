// One panel per player: token, name, cash, deeds by colour group, Get Out of Jail Free
// cards, jail or bankrupt state, whose turn, connection, and the hand-to-computer button.

import { h, replaceChildren } from "./util.js";
import { hasLabel, t } from "./i18n.js";
import { tokenBadge, playerColour } from "./tokens.js";

/** A computer level's name in the UI language (a plug-in's import path as it is). */
function levelName(level) {
  return level && hasLabel(`level_${level}`) ? t(`level_${level}`) : level || "";
}

export function renderPlayers(screen, node) {
  const game = screen.state.game;
  const presence = new Map((screen.presence || []).map((p) => [p.seat, p]));
  const cards = game.players.map((player) => playerCard(screen, player, presence.get(player.seat)));
  floatMoneyChanges(screen, cards);
  const watchers = screen.watchers ? h("span", { class: "watchers muted", dataset: { testid: "watchers" } }, t("watchers", { count: screen.watchers })) : null;
  replaceChildren(node,
    h("h2", { id: "players-heading" }, t("players"), watchers),
    h("div", { class: "player-list" }, cards));
  tickCountdowns(screen, node);
}

/** Seconds until others may hand ``presence``'s absent seat to a computer (null: none). */
export function handOverIn(screen, player, presence) {
  if (!presence || screen.absenceTimeout === undefined || !player.active || screen.state.game.over) return null;
  if (presence.connected || presence.bot_standin || presence.type !== "human" || presence.can_hand_to_bot) return null;
  const away = presence.absent_for + (performance.now() - screen.presenceAt) / 1000;
  const left = Math.ceil(screen.absenceTimeout - away);
  return left > 0 ? left : null;
}

/** While a countdown shows, redraw it every second. */
function tickCountdowns(screen, node) {
  clearTimeout(screen.countdownTimer);
  if (node.querySelector("[data-testid=countdown]")) {
    screen.countdownTimer = setTimeout(() => screen.layout && screen.renderPlayers(), 1000);
  }
}

const FLOAT_MS = 1800;

/**
 * "+200" / "−150" floating up over the panel of each player whose cash changed. The
 * panels are redrawn on every state, so running floats are drawn again where they are.
 */
function floatMoneyChanges(screen, cards) {
  const game = screen.state.game;
  const before = screen.shownCash;
  const now = performance.now();
  screen.shownCash = game.players.map((p) => p.cash);
  screen.floats = (screen.floats || []).filter((float) => now - float.start < FLOAT_MS);
  if (before) {
    game.players.forEach((player, seat) => {
      const change = player.cash - (before[seat] ?? player.cash);
      if (change) screen.floats.push({ seat, change, start: now, text: `${change > 0 ? "+" : "−"}${screen.money(Math.abs(change))}` });
    });
  }
  for (const float of screen.floats) {
    const card = cards[float.seat];
    if (!card) continue;
    // Beside the cash figure, on its left: the change never covers the number it changes.
    let box = card.querySelector(".money-floats");
    if (!box) {
      box = h("span", { class: "money-floats", "aria-hidden": "true" });
      card.querySelector(".cash-wrap").append(box);
    }
    box.append(h("span", {
      class: `money-float ${float.change > 0 ? "gain" : "loss"}`,
      style: `animation-delay:-${Math.round(now - float.start)}ms`,
      dataset: { change: float.change },
    }, float.text));
  }
  if (screen.floats.length) {
    clearTimeout(screen.floatTimer);
    screen.floatTimer = setTimeout(() => screen.layout && screen.renderPlayers(), FLOAT_MS);
  }
}

function playerCard(screen, player, presence) {
  const game = screen.state.game;
  const current = game.current === player.seat && !game.over;
  const me = player.seat === screen.seat;
  const connected = presence ? presence.connected : player.connected;
  const standin = presence ? presence.bot_standin : player.bot_standin;
  const tokenName = screen.tokenName(player.token);
  const classes = ["player-card", current ? "current" : "", me ? "me" : "", player.active ? "" : "bankrupt"].filter(Boolean).join(" ");
  const status = [];
  if (current) status.push(h("span", { class: "tag tag-turn" }, t(me ? "your_turn" : "their_turn")));
  if (!player.active) status.push(h("span", { class: "tag tag-bankrupt" }, t("bankrupt")));
  if (player.in_jail) status.push(h("span", { class: "tag tag-jail" }, t("in_jail_tag", { jail: screen.edition.terms.jail })));
  if (player.type === "bot") status.push(h("span", { class: "tag" }, t("computer_level", { level: levelName(player.level) })));
  if (standin) status.push(h("span", { class: "tag tag-standin" }, t("bot_standin")));
  if (player.type === "human" && !me) {
    status.push(h("span", { class: `tag ${connected ? "tag-online" : "tag-offline"}` }, connected ? t("online") : t("offline")));
    const left = handOverIn(screen, player, presence);
    if (left !== null) status.push(h("span", { class: "tag tag-countdown", dataset: { testid: "countdown" } }, t("hand_over_in", { seconds: left })));
  }
  const card = h("article", { class: classes, dataset: { seat: player.seat }, style: `--seat-colour:${playerColour(player.seat)}`, "aria-label": player.name },
    h("header", { class: "player-head" },
      tokenBadge(player.seat, tokenName, player.token),
      h("span", { class: "player-name", title: tokenName }, player.name, me ? h("span", { class: "muted" }, ` (${t("you")})`) : null),
      h("span", { class: "cash-wrap" }, h("span", { class: "player-cash", dataset: { cash: player.cash } }, screen.money(player.cash)))),
    status.length ? h("div", { class: "player-status" }, status) : null);
  if (player.active) {
    card.append(h("div", { class: "muted small" }, t("net_worth", { amount: screen.money(player.net_worth) }), " · ", tokenName));
    if (player.jail_cards.length) {
      card.append(h("div", { class: "jail-cards" }, player.jail_cards.map((deck) => h("span", { class: "tag tag-card" }, screen.cardName(deck)))));
    }
    card.append(deeds(screen, player));
  }
  if (screen.canHandOver(presence) && !screen.spectator && !me) {
    card.append(h("button", {
      type: "button", class: "small", dataset: { key: `hand-${player.seat}`, testid: "hand-to-bot" },
      onclick: () => screen.handToBot(player.seat),
    }, t("hand_to_bot", { name: player.name })));
  }
  return card;
}

/** The player's title deeds grouped by colour group, in board order. */
function deeds(screen, player) {
  const game = screen.state.game;
  const groups = new Map();
  for (const index of [...player.properties].sort((a, b) => a - b)) {
    const space = screen.space(index);
    const key = space.group || "other";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(space);
  }
  if (!groups.size) return h("div", { class: "deeds muted small" }, t("no_deeds"));
  const terms = screen.edition.terms;
  return h("ul", { class: "deeds", "aria-label": t("deeds") }, [...groups.entries()].map(([group, spaces]) => {
    const info = screen.edition.groups[group];
    const complete = info && info.spaces.every((s) => game.owner[s] === player.seat);
    return h("li", { class: "deed-group" }, h("span", { class: "visually-hidden" }, `${info?.name || group}: `),
      spaces.map((space) => {
        const level = game.level[space.index];
        const mortgaged = game.mortgaged[space.index];
        const buildings = level >= game.hotel_level ? `1 ${terms.hotel}` : level ? `${level} ${level === 1 ? terms.house : terms.houses}` : "";
        const title = [space.name, info?.name, buildings, mortgaged ? t("mortgaged") : "", complete ? t("complete_group") : ""].filter(Boolean).join(" · ");
        return h("span", {
          class: `deed-chip${mortgaged ? " mortgaged" : ""}${complete ? " complete" : ""}`,
          style: `--group-colour:${space.colour || "#999"}`, title, dataset: { space: space.index },
        }, space.name,
          buildings ? h("span", { class: "chip-build" }, level >= game.hotel_level ? "H" : "⌂".repeat(level)) : null,
          mortgaged ? h("span", { class: "chip-mortgaged" }, ` (${t("mortgaged_short")})`) : null);
      }));
  }));
}
