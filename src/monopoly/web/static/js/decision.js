// The decision panel: what the game waits for and, when it is this player's decision, a
// button for each answer the server offers (roll, jail, buy, bid, raise cash, trade...).

import { h, readableOn, replaceChildren } from "./util.js";
import { hasLabel, language, t } from "./i18n.js";
import { showGameOver } from "./gameover.js";
import { offerSummary } from "./trade.js";
import { handOverIn } from "./players.js";

const QUICK_BIDS = [1, 10, 50];
const HOW_SEEN_KEY = "monopoly.how-seen";

/**
 * "How this works" for a decision kind, always at hand (closed, so the panel keeps its
 * size); marked "new" the first time this browser meets the kind, until that decision
 * is over.
 */
function howPart(screen, kind) {
  if (!hasLabel(`how_${kind}`)) return null;
  screen.howNew ||= new Set();
  for (const other of screen.howNew) if (other !== kind) screen.howNew.delete(other);
  let seen = [];
  try {
    seen = JSON.parse(localStorage.getItem(HOW_SEEN_KEY) || "[]");
  } catch {
    seen = [];
  }
  if (!seen.includes(kind)) {
    localStorage.setItem(HOW_SEEN_KEY, JSON.stringify([...seen, kind]));
    screen.howNew.add(kind);
  }
  const first = screen.howNew.has(kind);
  return h("details", { class: `how${first ? " how-new" : ""}`, dataset: { testid: "how", kind, first: first ? "true" : "false" } },
    h("summary", {}, first ? h("span", { class: "badge how-badge" }, t("how_new")) : null, " ", t("how_this_works")),
    h("p", {}, t(`how_${kind}`, screen.edition.terms)));
}

/** Render the panel unless nothing it shows has changed (keeps a half-typed bid). */
export function renderDecision(screen, node, force) {
  const state = screen.state;
  const raising = state.free_actions.filter((a) => a.act === "sell" || a.act === "mortgage" || a.act === "claim_rent");
  const key = JSON.stringify([state.decision, state.decision_actions, state.bid_range, raising, Boolean(screen.over), language(), state.game.players.map((p) => p.cash)]);
  if (!force && node.__key === key) return;
  node.__key = key;
  screen.board.stopChoosing();
  const parts = [];
  const mine = isMine(screen, state);
  if (screen.over) {
    parts.push(...gameOverPart(screen));
  } else if (mine) {
    parts.push(...myDecision(screen, state), howPart(screen, state.decision.kind));
  } else if (state.decision) {
    parts.push(...othersDecision(screen, state));
  }
  node.dataset.kind = screen.over ? "over" : mine ? state.decision.kind : "wait";
  const claims = claimPart(screen, state);
  replaceChildren(node, ...parts, claims);
}

/**
 * Whether this page's player must decide now. Not "the server offered answers": a debtor
 * who can still sell or mortgage gets no answers to the debt itself (the free actions are
 * the way out), and must never read "Waiting for" their own name.
 */
export function isMine(screen, state) {
  const decision = state.decision;
  if (!decision || screen.spectator || screen.seat === null || decision.seat !== screen.seat) return false;
  return Boolean(state.game.players[screen.seat]?.active);
}

function button(screen, action, label, { primary = false, danger = false, key } = {}) {
  return h("button", {
    type: "button",
    class: primary ? "primary" : danger ? "danger" : "",
    dataset: { act: action.act, key: key || `${action.act}-${action.space ?? action.steps ?? action.count ?? action.deck ?? ""}`, ...(primary ? { primary: "" } : {}) },
    disabled: screen.busy,
    onclick: () => screen.act(action),
  }, label);
}

function heading(text) {
  return h("h2", { id: "decision-heading" }, text);
}

function gameOverPart(screen) {
  return [
    heading(t("game_over")),
    h("p", { class: "big" }, screen.over.text),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", dataset: { primary: "", key: "results" }, onclick: () => showGameOver(screen, screen.over) }, t("show_results")),
      againControl(screen)),
  ];
}

/** "Play again" (seated players), or the way into the next game once it exists. */
export function againControl(screen) {
  const next = screen.next;
  if (next) {
    const href = next.seat_token ? `/?game=${encodeURIComponent(next.game_id)}` : `/?watch=${encodeURIComponent(next.game_id)}`;
    return h("a", { class: "button", href, dataset: { testid: "next-game" } }, t(next.seat_token ? "join_next_game" : "watch_next_game"));
  }
  if (screen.spectator) return null;
  return h("button", { type: "button", dataset: { key: "again", testid: "play-again" }, onclick: () => screen.playAgain() }, t("play_again"));
}

function othersDecision(screen, state) {
  const decision = state.decision;
  const name = decision.name;
  const space = decision.space >= 0 ? screen.spaceName(decision.space) : "";
  const parts = [heading(screen.spectator ? t("watching") : t("waiting_for", { name }))];
  let text = t(`others_${decision.kind}`, { name, space });
  if (decision.kind === "bid") text = auctionLine(screen, decision.auction);
  if (decision.kind === "trade") {
    const offer = decision.offer;
    text = t("others_trade", { name, proposer: screen.playerName(offer.seat) });
  }
  if (decision.kind === "raise_cash") {
    text = t("others_raise_cash", { name, amount: screen.money(decision.debt.amount), creditor: screen.creditorName(decision.debt.creditor) });
  }
  const offline = offlineText(screen, decision.seat, name);
  if (offline) text = offline;
  parts.push(h("p", { dataset: { testid: offline ? "offline" : "waiting" } }, text));
  return parts;
}

/** Whether the person the game waits for is away: then say so, with the hand-over countdown. */
export function offlineText(screen, seat, name) {
  const presence = screen.presence?.find((p) => p.seat === seat);
  if (!presence || presence.type !== "human" || presence.connected || presence.bot_standin) return null;
  if (screen.canHandOver(presence)) return t("others_offline_hand", { name });
  const left = handOverIn(screen, screen.player(seat), presence);
  return left === null ? t("others_offline", { name }) : t("others_offline_countdown", { name, seconds: left });
}

function auctionItem(screen, item) {
  if (item === -1) return screen.edition.terms.house;
  if (item === -2) return screen.edition.terms.hotel;
  return screen.spaceName(item);
}

function auctionLine(screen, auction) {
  const item = auctionItem(screen, auction.item);
  if (auction.high_bidder < 0 || auction.high_bid <= 0) return t("auction_no_bid", { item });
  return t("auction_high", { item, amount: screen.money(auction.high_bid), name: screen.playerName(auction.high_bidder) });
}

function myDecision(screen, state) {
  const decision = state.decision;
  const actions = state.decision_actions;
  const render = KINDS[decision.kind] || genericDecision;
  return render(screen, state, decision, actions);
}

/** Any decision without a layout of its own (also kinds newer than this page): one
 * button per answer the server offers. */
function genericDecision(screen, state, decision, actions) {
  const space = decision.space >= 0 ? screen.spaceName(decision.space) : "";
  const intro = hasLabel(`mine_${decision.kind}`) ? t(`mine_${decision.kind}`, { space }) : "";
  return [
    heading(hasLabel(`heading_${decision.kind}`) ? t(`heading_${decision.kind}`) : t("your_decision")),
    intro ? h("p", {}, intro) : null,
    actions.length
      ? h("div", { class: "actions" }, actions.map((action, i) => button(screen, action, actionLabel(screen, action), { primary: i === 0, key: `answer-${i}` })))
      : h("p", { class: "muted" }, t("no_answers")),
  ];
}

/** A label for any action (used where no special layout exists). */
export function actionLabel(screen, action) {
  const params = {
    name: action.space !== undefined ? screen.spaceName(action.space) : "",
    steps: action.steps,
    count: action.count,
    amount: action.amount !== undefined ? screen.money(action.amount) : "",
    card: action.deck ? screen.cardName(action.deck) : "",
  };
  if (hasLabel(`act_${action.act}`)) return t(`act_${action.act}`, params);
  return plainLabel(screen, action);
}

/** An action this page has no words for: its name and its fields, readable. */
function plainLabel(screen, action) {
  const words = action.act.replaceAll("_", " ");
  const details = Object.entries(action)
    .filter(([key]) => key !== "act" && key !== "seat")
    .map(([key, value]) => {
      if (key === "space") return screen.spaceName(value);
      return `${key.replaceAll("_", " ")}: ${Array.isArray(value) ? value.join(" · ") : value}`;
    });
  return details.length ? `${words[0].toUpperCase()}${words.slice(1)} (${details.join(", ")})` : `${words[0].toUpperCase()}${words.slice(1)}`;
}

/** The streets of the group a breakdown decision is about, in board order. */
function breakdownGroup(screen, decision, actions) {
  const size = actions[0]?.levels?.length || 0;
  const key = decision.data?.group ?? (decision.space >= 0 ? screen.space(decision.space)?.group : undefined);
  const spaces = key !== undefined ? screen.edition.groups[key]?.spaces : undefined;
  if (spaces && spaces.length === size) return spaces;
  const owned = screen.player(decision.seat).properties;
  const candidates = Object.values(screen.edition.groups).filter((g) => g.spaces.length === size
    && g.spaces.every((s) => owned.includes(s)) && g.spaces.some((s) => screen.state.game.level[s] >= screen.state.game.hotel_level));
  return candidates.length === 1 ? candidates[0].spaces : null;
}

function buildingCount(screen, level) {
  const terms = screen.edition.terms;
  const hotelLevel = screen.state.game.hotel_level;
  if (level >= hotelLevel) return `1 ${terms.hotel}`;
  if (level === 0) return t("no_buildings");
  return `${level} ${level === 1 ? terms.house : terms.houses}`;
}

const KINDS = {
  roll(screen, state, decision, actions) {
    const player = screen.player(decision.seat);
    const again = state.game.doubles > 0 && state.game.current === decision.seat;
    return [
      heading(t("your_turn")),
      h("p", {}, again ? t("roll_again") : t("roll_text", { space: screen.spaceName(player.position) })),
      h("div", { class: "actions" }, actions.map((action, i) => button(screen, action, actionLabel(screen, action), { primary: i === 0 }))),
    ];
  },

  jail(screen, state, decision, actions) {
    const player = screen.player(decision.seat);
    const fine = screen.money(screen.edition.numbers.jail_fine);
    return [
      heading(t("in_jail")),
      h("p", {}, t("jail_rules", { fine })),
      h("p", {}, t("jail_text", { tries: Math.max(0, player.jail_turns) })),
      h("div", { class: "actions" }, actions.map((action) => {
        if (action.act === "pay_fine") return button(screen, action, t("act_pay_fine", { amount: fine }));
        if (action.act === "roll_doubles") return button(screen, action, t("act_roll_doubles"), { primary: true });
        return button(screen, action, actionLabel(screen, action));
      })),
    ];
  },

  buy(screen, state, decision, actions) {
    const space = screen.space(decision.space);
    const cash = screen.player(decision.seat).cash;
    return [
      heading(space.name),
      h("div", { class: "deed-beside" },
        deedCard(screen, space),
        h("div", {},
          h("p", {}, t("buy_text", { price: screen.money(space.price), cash: screen.money(cash) })),
          h("div", { class: "actions" }, actions.map((action) => {
            if (action.act === "buy") return button(screen, action, t("act_buy", { price: screen.money(space.price) }), { primary: true });
            if (action.act === "decline") return button(screen, action, t(state.game.rules.options?.no_auctions ? "act_decline_plain" : "act_decline"));
            return button(screen, action, actionLabel(screen, action));
          })))),
    ];
  },

  bid(screen, state, decision, actions) {
    const auction = decision.auction;
    const [low, high] = state.bid_range || [0, 0];
    const canBid = actions.some((a) => a.act === "bid") && state.bid_range;
    const pass = actions.find((a) => a.act === "pass");
    const parts = [
      heading(t("auction_heading", { item: auctionItem(screen, auction.item) })),
      h("p", { class: "auction-about" }, t("auction_about", { bank: screen.edition.terms.bank })),
    ];
    const status = [
      h("p", { class: "big" }, auctionLine(screen, auction)),
      h("p", { class: "muted" }, t("bidders", { names: auction.bidders.map((s) => screen.playerName(s)).join(", ") })),
    ];
    if (auction.item >= 0) parts.push(h("div", { class: "deed-beside" }, deedCard(screen, screen.space(auction.item)), h("div", {}, ...status)));
    else parts.push(...status);
    if (canBid) {
      const previous = screen.bidDraft;
      const start = previous && previous.item === auction.item && previous.amount >= low && previous.amount <= high ? previous.amount : low;
      const input = h("input", { type: "number", min: low, max: high, step: 1, value: start, inputmode: "numeric", id: "bid-amount", dataset: { key: "bid-amount" }, "aria-describedby": "bid-range" });
      const problem = h("p", { class: "form-error", role: "alert" });
      const remember = () => { screen.bidDraft = { item: auction.item, amount: Number(input.value) }; };
      input.addEventListener("input", remember);
      const send = () => {
        const amount = Number.parseInt(input.value, 10);
        if (!Number.isInteger(amount) || amount < low || amount > high) {
          problem.textContent = t("bid_out_of_range", { low: screen.money(low), high: screen.money(high) });
          input.focus();
          return;
        }
        screen.bidDraft = null;
        screen.act({ act: "bid", seat: screen.seat, amount });
      };
      input.addEventListener("keydown", (event) => { if (event.key === "Enter") send(); });
      const base = Math.max(auction.high_bid, 0);
      const quick = QUICK_BIDS.map((step) => h("button", {
        type: "button", class: "small", dataset: { key: `quick-${step}`, quick: step },
        "aria-label": t("bid_plus_label", { step }),
        onclick: () => {
          const value = Math.min(high, Math.max(low, base + step));
          input.value = value;
          remember();
        },
      }, `+${step}`));
      parts.push(h("div", { class: "bid-row" },
        h("label", { for: "bid-amount" }, t("your_bid")), input, ...quick));
      parts.push(h("small", { id: "bid-range", class: "hint" }, t("bid_range", { low: screen.money(low), high: screen.money(high) })));
      parts.push(problem);
      parts.push(h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", dataset: { act: "bid", key: "bid", primary: "" }, disabled: screen.busy, onclick: send }, t("act_bid_plain")),
        pass ? button(screen, pass, t("act_pass")) : null));
    } else if (pass) {
      parts.push(h("div", { class: "actions" }, button(screen, pass, t("act_pass"), { primary: true })));
    }
    return parts;
  },

  /** Owing more than you hold: what, to whom, why, how much can still be raised, and
   * every way to raise it (sell, mortgage, trade); bankruptcy only when it is legal. */
  raise_cash(screen, state, decision, actions) {
    const debt = decision.debt;
    const cash = screen.player(decision.seat).cash;
    const raising = state.free_actions.filter((a) => a.act === "sell" || a.act === "mortgage");
    const missing = Math.max(0, debt.amount - cash);
    const owe = debt.reason_text
      ? t("you_owe_for", { amount: screen.money(debt.amount), creditor: screen.creditorName(debt.creditor), reason: debt.reason_text })
      : t("you_owe", { amount: screen.money(debt.amount), creditor: screen.creditorName(debt.creditor) });
    const parts = [
      heading(t("raise_cash_heading")),
      h("p", { class: "big", dataset: { testid: "debt" } }, owe),
      h("p", {}, t("cash_and_missing", { cash: screen.money(cash), missing: screen.money(missing) })),
    ];
    if (debt.raisable !== undefined) {
      parts.push(h("p", { dataset: { testid: "raisable" } }, t("can_raise", { amount: screen.money(Math.max(0, debt.raisable - cash)) })));
    }
    if (raising.length) {
      parts.push(h("p", { class: "muted" }, t("raise_cash_hint")));
      parts.push(h("ul", { class: "raise-list" }, raising.map((action) => h("li", {}, button(screen, action, raiseLabel(screen, action), { key: `${action.act}-${action.space}` })))));
    }
    if (state.game.players.some((p) => p.active && p.seat !== screen.seat)) {
      parts.push(h("div", { class: "actions inline-hint" },
        h("button", { type: "button", dataset: { key: "raise-trade", testid: "raise-trade" }, onclick: () => screen.trade.open() }, t("act_propose_trade")),
        h("small", { class: "muted" }, t("raise_trade_hint"))));
    }
    const bankrupt = actions.find((a) => a.act === "bankrupt");
    const rest = actions.filter((a) => a.act !== "bankrupt");
    if (rest.length) parts.push(h("div", { class: "actions" }, rest.map((a) => button(screen, a, actionLabel(screen, a)))));
    if (bankrupt) {
      parts.push(h("p", { class: "muted" }, t("bankrupt_hint")));
      parts.push(h("div", { class: "actions" }, button(screen, bankrupt, t("act_bankrupt"), { danger: true })));
    } else {
      parts.push(h("p", { class: "muted small" }, t("bankrupt_not_yet")));
    }
    return parts;
  },

  /** A hotel broken down while the Bank lacks houses: one button per arrangement. */
  breakdown(screen, state, decision, actions) {
    const spaces = breakdownGroup(screen, decision, actions);
    if (!spaces) return genericDecision(screen, state, decision, actions);
    return [
      heading(t("breakdown_heading", { hotel: screen.edition.terms.hotel })),
      h("p", {}, t("breakdown_text", { houses: screen.edition.terms.houses, hotel: screen.edition.terms.hotel })),
      h("div", { class: "actions stacked" }, actions.map((action, i) => button(screen, action,
        action.levels.map((level, j) => `${screen.spaceName(spaces[j])}: ${buildingCount(screen, level)}`).join(" · "),
        { primary: i === 0, key: `breakdown-${action.levels.join("-")}` }))),
    ];
  },

  mortgage_received(screen, state, decision, actions) {
    const space = screen.space(decision.space);
    return [
      heading(space.name),
      h("p", {}, t("mortgage_received_text", { name: space.name, mortgage: screen.money(space.mortgage) })),
      h("div", { class: "actions" }, actions.map((action) => {
        if (action.act === "unmortgage") return button(screen, action, t("act_lift_now"), { primary: true });
        if (action.act === "keep_mortgaged") return button(screen, action, t("act_keep_mortgaged"));
        return button(screen, action, actionLabel(screen, action));
      })),
    ];
  },

  trade(screen, state, decision, actions) {
    const offer = decision.offer;
    const from = screen.playerName(offer.seat);
    return [
      heading(t("trade_offer_from", { name: from })),
      offerSummary(screen, offer, screen.seat),
      screen.advice.on && screen.seat === offer.partner ? screen.advice.line(offer) : null,
      h("div", { class: "actions" },
        actions.map((action) => {
          if (action.act === "accept_trade") return button(screen, action, t("act_accept_trade"), { primary: true });
          if (action.act === "reject_trade") return button(screen, action, t("act_reject_trade"));
          return button(screen, action, actionLabel(screen, action));
        }),
        h("button", { type: "button", dataset: { key: "counter", testid: "counter" }, onclick: () => screen.trade.open(counterOf(offer)) }, t("counter_offer"))),
    ];
  },

  bus(screen, state, decision, actions) {
    const position = screen.player(decision.seat).position;
    return [
      heading(screen.edition.terms.bus),
      h("p", {}, t("bus_text")),
      h("div", { class: "actions" }, actions.map((action, i) => button(screen, action,
        t("act_choose_move", { steps: action.steps, name: screen.spaceName((position + action.steps) % 40) }), { primary: i === 0 }))),
    ];
  },

  triples(screen, state, decision, actions) {
    return spaceChoice(screen, actions, t("triples_heading"), t("triples_text"), "act_choose_space");
  },

  place(screen, state, decision, actions) {
    const word = decision.hotel ? screen.edition.terms.hotel : screen.edition.terms.house;
    return spaceChoice(screen, actions, t("place_heading", { building: word }), t("place_text", { building: word }), "act_place");
  },

  want(screen, state, decision, actions) {
    const hotel = decision.shortage?.hotel;
    const word = hotel ? screen.edition.terms.hotels : screen.edition.terms.houses;
    return [
      heading(t("shortage_heading", { buildings: word })),
      h("p", {}, t("want_text", { buildings: word })),
      h("div", { class: "actions" }, actions.map((action, i) => button(screen, action, t("act_want", { count: action.count, buildings: word }), { primary: i === 0 }))),
    ];
  },
};

/** Choosing a space: click it on the board, or pick it from a list (keyboard). */
function spaceChoice(screen, actions, title, text, labelKey) {
  const choices = actions.filter((a) => a.space !== undefined);
  const other = actions.filter((a) => a.space === undefined);
  const bySpace = new Map(choices.map((a) => [a.space, a]));
  screen.board.choose([...bySpace.keys()], (space) => screen.act(bySpace.get(space)));
  const picker = h("select", { id: "space-pick", dataset: { key: "space-pick" } },
    choices.map((a) => h("option", { value: a.space }, screen.spaceName(a.space))));
  const go = h("button", { type: "button", class: "primary", dataset: { act: choices[0]?.act || "", key: "space-go", primary: "" }, disabled: screen.busy,
    onclick: () => screen.act(bySpace.get(Number(picker.value))) }, t(labelKey));
  return [
    heading(title),
    h("p", {}, text),
    h("div", { class: "bid-row" }, h("label", { for: "space-pick" }, t("space")), picker, go),
    other.length ? h("div", { class: "actions" }, other.map((a) => button(screen, a, actionLabel(screen, a)))) : null,
  ];
}

/** The counter-offer form's start: the offer seen from the other side. */
function counterOf(offer) {
  return {
    partner: offer.seat,
    give: offer.take || [],
    give_cash: offer.take_cash || 0,
    give_cards: offer.take_cards || [],
    take: offer.give || [],
    take_cash: offer.give_cash || 0,
    take_cards: offer.give_cards || [],
  };
}

/** A way to raise cash, with what it brings: "Sell a house on X (+$25)". */
function raiseLabel(screen, action) {
  if (action.act !== "sell") return freeLabel(screen, action);
  const info = screen.space(action.space);
  const terms = screen.edition.terms;
  const hotel = screen.state.game.level[action.space] >= screen.state.game.hotel_level;
  return t(hotel ? "raise_sell_hotel" : "raise_sell_house", {
    house: terms.house, hotel: terms.hotel, name: info.name, amount: screen.money(Math.floor(info.house_cost / 2)),
  });
}

/** What lifting a mortgage costs: its value plus 10 % interest, rounded up (R-MORT-2). */
export function liftCost(mortgage) {
  return mortgage + Math.ceil(mortgage / 10);
}

/** A free action's label: build, sell, mortgage, lift, claim (with the edition's words). */
export function freeLabel(screen, action) {
  const terms = screen.edition.terms;
  const space = action.space ?? action.spaces?.[0];
  const info = screen.space(space);
  const name = info?.name ?? "";
  const level = screen.state.game.level[space];
  const hotelLevel = screen.state.game.hotel_level;
  switch (action.act) {
    case "build":
      return level >= hotelLevel - 1
        ? t("build_hotel", { hotel: terms.hotel, name, cost: screen.money(info.house_cost) })
        : t("build_house", { house: terms.house, name, cost: screen.money(info.house_cost) });
    case "sell": {
      const refund = screen.money(Math.floor(info.house_cost / 2));
      return level >= hotelLevel ? t("sell_hotel", { hotel: terms.hotel, name, amount: refund }) : t("sell_house", { house: terms.house, name, amount: refund });
    }
    case "mortgage":
      return t("mortgage_for", { name, amount: screen.money(info.mortgage) });
    case "unmortgage":
      return t("lift_mortgage", { name, amount: screen.money(liftCost(info.mortgage)) });
    case "claim_rent": {
      const claim = screen.state.game.claims.find((c) => c.space === space && c.owner === screen.seat);
      return t("claim_rent", { name, amount: claim ? screen.money(claim.amount) : "", payer: claim ? screen.playerName(claim.payer) : "" });
    }
    default:
      return actionLabel(screen, action);
  }
}

function claimPart(screen, state) {
  const claims = state.free_actions.filter((a) => a.act === "claim_rent");
  if (!claims.length) return null;
  return h("div", { class: "claims" }, h("h3", {}, t("claims_heading")),
    h("div", { class: "actions" }, claims.map((action) => button(screen, action, freeLabel(screen, action), { primary: true, key: `claim-${action.space}` }))));
}

/** A small title deed: price and rents. */
export function deedCard(screen, space) {
  const rows = [];
  if (space.rents) {
    // The rule set's building ladder: a hotel after 4 houses, or after 3 in the short
    // game (R-SHORT-2, whose hotel rent is the printed one); no row for a 4th house there.
    const terms = screen.edition.terms;
    const perHotel = screen.state.game.hotel_level - 1;
    const rentRow = (name, rent) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, screen.money(rent)));
    rows.push(rentRow(t("rent_site"), space.rents[0]));
    for (let count = 1; count <= perHotel; count += 1) rows.push(rentRow(`${count} ${count === 1 ? terms.house : terms.houses}`, space.rents[count]));
    rows.push(rentRow(t("hotel_after_houses", { hotel: terms.hotel, count: perHotel, houses: terms.houses }), space.rents[5]));
    rows.push(h("tr", {}, h("th", { scope: "row" }, t("building_cost", { house: terms.house })), h("td", {}, screen.money(space.house_cost))));
  } else if (space.kind === "railroad") {
    screen.edition.numbers.railroad_rents.forEach((rent, i) => rows.push(h("tr", {}, h("th", { scope: "row" }, t("owning_n", { count: i + 1 })), h("td", {}, screen.money(rent)))));
  } else if (space.kind === "utility") {
    screen.edition.numbers.utility_multipliers.forEach((times, i) => rows.push(h("tr", {}, h("th", { scope: "row" }, t("owning_n", { count: i + 1 })), h("td", {}, t("times_dice", { times })))));
  }
  rows.push(h("tr", {}, h("th", { scope: "row" }, t("mortgage_value")), h("td", {}, screen.money(space.mortgage))));
  return h("div", { class: "deed" },
    h("div", { class: "deed-bar", style: `background:${space.colour || "#cccccc"};color:${readableOn(space.colour || "#cccccc")}` }, screen.edition.groups[space.group]?.name || ""),
    h("div", { class: "deed-name" }, space.name),
    h("table", { class: "deed-table" }, h("tbody", {}, rows)));
}
