// The edition's board in SVG: 40 spaces with names, colour bars and prices; owners,
// buildings and mortgages; the players' tokens (moving space by space); dice and decks.

import { h, s, formatMoney } from "./util.js";
import { tIn } from "./i18n.js";
import { playerColour, tokenBadge, tokenShape } from "./tokens.js";
import { tokenIcon } from "./tokenicons.js";

const SIZE = 1000;
const CORNER = 150;
const CELL = (SIZE - 2 * CORNER) / 9;
const BAR = 20;
const OWNER = 9;
const FONT = "system-ui, 'DejaVu Sans', Arial, sans-serif";
/** The spaces' names and prices: a narrow face where the system has one (as app.css). */
const NARROW = "'Liberation Sans Narrow', 'Arial Narrow', 'DejaVu Sans Condensed', 'Roboto Condensed', system-ui, sans-serif";
let fittingFont = FONT;
const STEP_MS = 110;
/**
 * The smallest type on the board, in board units (the board is SIZE units wide): 12 CSS
 * px on the desktop board (696 px at 1366×768), 11 px on a phone, where the board is
 * drawn at least 640 px wide (app.css) inside a window that follows the play.
 */
export const MIN_TEXT = 17.5;
/** How long the board window leaves the player's own scrolling alone (ms). */
const HANDS_OFF_MS = 5000;

/** The rectangle of space ``index`` and the side its colour bar sits on. */
export function spaceRect(index) {
  const far = SIZE - CORNER;
  if (index === 0) return { x: far, y: far, w: CORNER, h: CORNER, side: "corner" };
  if (index < 10) return { x: far - index * CELL, y: far, w: CELL, h: CORNER, side: "bottom" };
  if (index === 10) return { x: 0, y: far, w: CORNER, h: CORNER, side: "corner" };
  if (index < 20) return { x: 0, y: far - (index - 10) * CELL, w: CORNER, h: CELL, side: "left" };
  if (index === 20) return { x: 0, y: 0, w: CORNER, h: CORNER, side: "corner" };
  if (index < 30) return { x: CORNER + (index - 21) * CELL, y: 0, w: CELL, h: CORNER, side: "top" };
  if (index === 30) return { x: far, y: 0, w: CORNER, h: CORNER, side: "corner" };
  return { x: far, y: CORNER + (index - 31) * CELL, w: CORNER, h: CELL, side: "right" };
}

/**
 * The colour bar (toward the centre), the owner band (toward the edge of the board) and
 * the text area between them, of a side space.
 */
function areas(rect) {
  const { x, y, w, h, side } = rect;
  const mid = h - BAR - OWNER;
  const across = w - BAR - OWNER;
  switch (side) {
    case "bottom":
      return { bar: { x, y, w, h: BAR }, owner: { x, y: y + h - OWNER, w, h: OWNER }, text: { x, y: y + BAR, w, h: mid } };
    case "top":
      return { bar: { x, y: y + h - BAR, w, h: BAR }, owner: { x, y, w, h: OWNER }, text: { x, y: y + OWNER, w, h: mid } };
    case "left":
      return { bar: { x: x + w - BAR, y, w: BAR, h }, owner: { x, y, w: OWNER, h }, text: { x: x + OWNER, y, w: across, h } };
    case "right":
      return { bar: { x, y, w: BAR, h }, owner: { x: x + w - OWNER, y, w: OWNER, h }, text: { x: x + BAR, y, w: across, h } };
    default:
      return { bar: null, owner: null, text: { x, y, w, h } };
  }
}

// ---------------------------------------------------------------- text fitting
let measureContext = null;

function textWidth(text, size, weight = 600) {
  measureContext ||= document.createElement("canvas").getContext("2d");
  measureContext.font = `${weight} ${size}px ${fittingFont}`;
  return measureContext.measureText(text).width;
}

/** Split a name into words, keeping hyphens and slashes as break chances. */
function words(name) {
  return name.split(/\s+/).flatMap((word) => word.match(/[^-/]+[-/]?|[-/]/g) || [word]);
}

function joinable(previous, word) {
  return previous.endsWith("-") || previous.endsWith("/") ? `${previous}${word}` : `${previous} ${word}`;
}

function wrap(name, size, width) {
  const lines = [];
  let line = "";
  for (const word of words(name)) {
    const candidate = line ? joinable(line, word) : word;
    if (!line || textWidth(candidate, size) <= width) {
      line = candidate;
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const VOWEL = /[aeiouyäöüàáâéèêëíìîóòôúùû]/i;
const ONSETS = {
  de: ["schr", "schw", "schl", "schm", "schn", "sch", "spr", "str", "sp", "st", "pf", "bl", "br", "ch", "dr", "fl", "fr", "gl", "gr", "kl", "kn", "kr", "pl", "pr", "tr", "zw", "ph", "qu"],
  en: ["str", "spr", "spl", "scr", "squ", "shr", "thr", "sch", "sh", "ch", "th", "ph", "wh", "st", "sp", "sk", "sc", "sl", "sm", "sn", "sw", "bl", "br", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "pl", "pr", "tr", "tw", "qu", "wr"],
};
let hyphenLanguage = "en";

function isLetter(char) {
  return Boolean(char) && /\p{L}/u.test(char);
}

function isConsonant(char) {
  return isLetter(char) && !VOWEL.test(char);
}

/**
 * How good a hyphen is between word[i - 1] and word[i]: syllables start with the longest
 * consonant group the language allows ("Theater-straße", "Überlebens-handbuch",
 * "Mediter-ranean"): 2 inside a consonant cluster there, 1 before a single consonant.
 */
function cutQuality(word, i) {
  if (!isLetter(word[i - 1]) || !isConsonant(word[i])) return 0;
  let start = i;
  while (isConsonant(word[start - 1])) start -= 1;
  let end = i;
  while (isConsonant(word[end])) end += 1;
  if (!VOWEL.test(word[start - 1] || "") || !VOWEL.test(word[end] || "")) return 0;
  const cluster = word.slice(start, end).toLowerCase();
  const onsets = ONSETS[hyphenLanguage] || ONSETS.en;
  let onset = 1;
  for (let length = cluster.length; length > 1; length -= 1) {
    if (onsets.includes(cluster.slice(-length))) {
      onset = length;
      break;
    }
  }
  if (i !== end - onset) return 0;
  return cluster.length > 1 ? 2 : 1;
}

/** Break a too-long line with hyphens so each piece fits ``width``, at syllable-like places. */
function breakLong(line, size, width) {
  if (textWidth(line, size) <= width) return [line];
  const pieces = [];
  let rest = line;
  while (rest.length > 3 && textWidth(rest, size) > width) {
    let fit = rest.length - 3;
    while (fit > 2 && textWidth(`${rest.slice(0, fit)}-`, size) > width) fit -= 1;
    let cut = fit;
    const lowest = Math.max(3, Math.ceil(fit * 0.5));
    const places = [...Array(fit - lowest + 1).keys()].map((k) => fit - k);
    // An abbreviation breaks after one of its dots, with no hyphen ("S.P.E.C.I.A.L.!"
    // reads "S.P.E.C.I." / "A.L.!", never "S.P.E.C.I.-" / "A.L.!").
    const afterDot = places.find((i) => rest[i - 1] === "." && isLetter(rest[i]));
    if (afterDot) {
      pieces.push(rest.slice(0, afterDot));
      rest = rest.slice(afterDot);
      continue;
    }
    for (const quality of [2, 1]) {
      const found = places.find((i) => cutQuality(rest, i) === quality);
      if (found) {
        cut = found;
        break;
      }
    }
    pieces.push(`${rest.slice(0, cut)}-`);
    rest = rest.slice(cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * Lines and font size for ``name`` in a box of ``maxLines``: whole words at the largest
 * readable size (down to 10.5); else hyphenated at that size; else whole words at a
 * smaller size (down to ``small``); else hyphenated at ``small`` and cut with "…".
 */
export function fitText(name, width, maxLines, big = 13, small = 9.5, font = FONT) {
  fittingFont = font;
  try {
    return fitWith(name, width, maxLines, big, small);
  } finally {
    fittingFont = FONT;
  }
}

function fitWith(name, width, maxLines, big, small) {
  const cleanAt = (size) => {
    const lines = wrap(name, size, width);
    return lines.length <= maxLines && lines.every((line) => textWidth(line, size) <= width) ? lines : null;
  };
  const hyphenatedAt = (size) => wrap(name, size, width).flatMap((line) => breakLong(line, size, width));
  const readable = Math.max(small, 10.5);
  for (let size = big; size >= readable; size -= 0.5) {
    const lines = cleanAt(size);
    if (lines) return { lines, size, clean: true, truncated: false };
  }
  const hyphenated = hyphenatedAt(readable);
  if (hyphenated.length <= maxLines) return { lines: hyphenated, size: readable, clean: false, truncated: false };
  for (let size = readable - 0.5; size >= small; size -= 0.5) {
    const lines = cleanAt(size);
    if (lines) return { lines, size, clean: true, truncated: false };
  }
  let lines = hyphenatedAt(small);
  const truncated = lines.length > maxLines;
  if (truncated) {
    lines = lines.slice(0, maxLines);
    let last = lines[maxLines - 1].replace(/-$/, "");
    while (last.length > 1 && textWidth(`${last}…`, small) > width) last = last.slice(0, -1);
    lines[maxLines - 1] = `${last}…`;
  }
  return { lines, size: small, clean: false, truncated };
}

const LEADING = 1.0;

/** The height of ``count`` lines of type ``size`` set by textBlock. */
function blockHeight(count, size, leading = LEADING) {
  return size * 1.17 + (count - 1) * size * leading;
}

/** A space name's lines at the largest size whose lines fit ``height`` (MIN_TEXT at least). */
function nameFit(name, width, height) {
  const most = Math.max(1, Math.floor((height - blockHeight(1, MIN_TEXT)) / (MIN_TEXT * LEADING)) + 1);
  for (let big = 21; big > MIN_TEXT; big -= 0.5) {
    const fitted = fitText(name, width, most, big, MIN_TEXT, NARROW);
    if (blockHeight(fitted.lines.length, fitted.size) <= height) return fitted;
  }
  return fitText(name, width, most, MIN_TEXT, MIN_TEXT, NARROW);
}

function textBlock(lines, size, cx, top, attrs = {}, leading = 1.12) {
  const block = s("text", { x: cx, y: top, "font-size": size, "text-anchor": "middle", ...attrs });
  lines.forEach((line, i) => {
    block.append(s("tspan", { x: cx, dy: i === 0 ? size * 0.92 : size * leading }, line));
  });
  return block;
}

// ---------------------------------------------------------------- the board
export class Board {
  /**
   * @param {HTMLElement} container where the SVG goes
   * @param {object} edition GET /api/editions/{key} in the game's language
   * @param {object} options {language, freeParkingPot, speedDie}
   */
  constructor(container, edition, options) {
    this.edition = edition;
    this.options = options;
    this.language = options.language;
    hyphenLanguage = options.language;
    this.symbol = edition.terms.currency_symbol;
    this.state = null;
    this.shown = new Map();
    this.walks = new Map();
    this.choosing = null;
    this.svg = s("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      class: "board-svg",
      role: "group",
      "aria-label": this.t("board_label", { edition: edition.title }),
    });
    this.spaceNodes = [];
    this.layers = {};
    this.build();
    this.container = container;
    this.followed = null;
    this.handsOffUntil = 0;
    this.settledAt = 0;
    const handsOff = () => { this.handsOffUntil = performance.now() + HANDS_OFF_MS; };
    for (const kind of ["pointerdown", "wheel", "touchstart"]) container.addEventListener(kind, handsOff, { passive: true });
    container.replaceChildren(this.svg);
  }

  /**
   * Where the board is larger than its window (a phone), scroll the window to the space
   * where the player whose turn it is stands — unless the person is panning it.
   */
  follow(space, inJail) {
    const box = this.container;
    if (box.scrollWidth <= box.clientWidth + 1 && box.scrollHeight <= box.clientHeight + 1) return;
    if (performance.now() < this.handsOffUntil) return;
    const rect = spaceRect(inJail ? 10 : space);
    const scale = this.svg.getBoundingClientRect().width / SIZE;
    const left = (rect.x + rect.w / 2) * scale - box.clientWidth / 2;
    const top = (rect.y + rect.h / 2) * scale - box.clientHeight / 2;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    box.scrollTo({ left, top, behavior: reduced || this.followed === null ? "auto" : "smooth" });
    this.followed = inJail ? "jail" : space;
  }

  money(amount) {
    return formatMoney(amount, this.symbol, this.language);
  }

  /** A label in the game's language: the board speaks it, as the cards and the log do. */
  t(key, params = {}) {
    return tIn(this.language, key, params);
  }

  build() {
    this.svg.append(ownerPatterns());
    this.svg.append(s("rect", { x: 0, y: 0, width: SIZE, height: SIZE, class: "board-bg" }));
    this.svg.append(this.buildCentre());
    const spaces = s("g", { class: "spaces" });
    for (const space of this.edition.spaces) {
      const node = this.buildSpace(space);
      this.spaceNodes.push(node);
      spaces.append(node);
    }
    this.svg.append(spaces);
    this.layers.tokens = s("g", { class: "tokens" });
    this.svg.append(this.layers.tokens);
  }

  spaceTitle(space) {
    const parts = [space.name];
    if (space.group) parts.push(this.edition.groups[space.group]?.name || space.group);
    if (space.price) parts.push(`${this.t("price")}: ${this.money(space.price)}`);
    if (space.rents) {
      const terms = this.edition.terms;
      parts.push(`${this.t("rent")}: ${space.rents.map((rent) => this.money(rent)).join(" / ")}`);
      parts.push(`${this.t("building_cost", { house: terms.house })}: ${this.money(space.house_cost)}`);
    }
    if (space.tax) parts.push(`${this.t("pay")} ${this.money(space.tax)}`);
    return parts.join("\n");
  }

  buildSpace(space) {
    const rect = spaceRect(space.index);
    const group = s("g", {
      class: `space space-${space.kind}${space.printed ? "" : " unprinted"}`,
      dataset: { space: space.index },
    });
    group.append(s("title", {}, this.spaceTitle(space)));
    group.append(s("rect", { x: rect.x, y: rect.y, width: rect.w, height: rect.h, class: "space-bg" }));
    // Every space is a button: a click, a tap, or Enter / Space on the focused space
    // opens its card (while choosing a space, choose() takes these over).
    this.spaceDefaults(group, space.index);
    const open = (event) => {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      if (event.type === "keydown") event.preventDefault();
      if (!this.choosing && this.options.onSpace) this.options.onSpace(space.index);
    };
    group.addEventListener("click", open);
    group.addEventListener("keydown", open);
    if (rect.side === "corner") {
      this.buildCorner(group, space, rect);
      return group;
    }
    const area = areas(rect);
    if (space.colour && space.kind === "street") {
      const bar = area.bar;
      group.append(s("rect", { x: bar.x, y: bar.y, width: bar.w, height: bar.h, fill: space.colour, class: "bar" }));
    } else if (space.colour) {
      const bar = area.bar;
      group.append(s("rect", { x: bar.x, y: bar.y, width: bar.w, height: bar.h, fill: space.colour, class: "bar bar-thin", opacity: 0.35 }));
    }
    this.buildLabel(group, space, area.text);
    group.append(s("g", { class: "buildings" }));
    group.append(s("g", { class: "owner-mark" }));
    group.append(s("g", { class: "mortgage-mark" }));
    group.__area = area;
    group.__rect = rect;
    return group;
  }

  /**
   * The space's name (as large as its box allows, never below MIN_TEXT), its price and,
   * on a card space with room to spare, the card symbol.
   */
  /** A space's keyboard focus and its name for screen readers, when no choice is on. */
  spaceDefaults(node, index) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", this.t("open_space_card", { name: this.edition.spaces[index].name }));
  }

  buildLabel(group, space, box) {
    const pad = 3;
    const priceText = space.price ? this.money(space.price) : space.tax ? this.money(space.tax) : "";
    const symbol = space.kind === "chance" ? "?" : space.kind === "community_chest" ? "▣" : "";
    const room = box.h - 4 - (priceText ? MIN_TEXT + 6 : 0);
    const symbolRoom = box.h * 0.32;
    const withSymbol = symbol ? nameFit(space.name, box.w - 2 * pad, room - symbolRoom) : null;
    const fitted = withSymbol && withSymbol.clean ? withSymbol : nameFit(space.name, box.w - 2 * pad, room);
    const { lines, size } = fitted;
    const cx = box.x + box.w / 2;
    group.append(textBlock(lines, size, cx, box.y + 2, { class: `space-name${space.printed ? "" : " italic"}` }, LEADING));
    if (priceText) {
      group.append(s("text", { x: cx, y: box.y + box.h - 4, "text-anchor": "middle", "font-size": MIN_TEXT, class: "space-price" }, priceText));
    }
    if (symbol && fitted === withSymbol) {
      group.append(s("text", { x: cx, y: box.y + box.h - 8, "text-anchor": "middle", class: "space-symbol" }, symbol));
    }
  }

  buildCorner(group, space, rect) {
    const terms = this.edition.terms;
    const cx = rect.x + rect.w / 2;
    if (space.kind === "jail") {
      const cell = this.jailCell();
      group.append(s("rect", { x: cell.x, y: cell.y, width: cell.w, height: cell.h, class: "jail-cell" }));
      const inside = fitText(terms.jail, cell.w - 8, 2, 20, MIN_TEXT);
      group.append(textBlock(inside.lines, inside.size, cell.x + cell.w / 2, cell.y + 6, { class: "corner-name" }));
      for (let bar = 1; bar < 5; bar += 1) {
        const x = cell.x + (cell.w * bar) / 5;
        group.append(s("line", { x1: x, y1: cell.y + 4 + inside.lines.length * 20, x2: x, y2: cell.y + cell.h - 4, class: "jail-bars" }));
      }
      const visiting = fitText(terms.just_visiting, rect.w - 4, 1, MIN_TEXT, MIN_TEXT);
      group.append(textBlock(visiting.lines, visiting.size, cx, rect.y + rect.h - 24, { class: "corner-note" }));
      return;
    }
    const nameLines = space.kind === "go" ? 2 : 4;
    const { lines, size } = fitText(space.name, rect.w - 12, nameLines, 24, MIN_TEXT);
    group.append(textBlock(lines, size, cx, rect.y + 8, { class: "corner-name" }));
    if (space.kind === "go") {
      const collect = fitText(this.t("collect", { amount: this.money(this.edition.numbers.go_salary) }), rect.w - 8, 2, MIN_TEXT, MIN_TEXT);
      group.append(textBlock(collect.lines, collect.size, cx, rect.y + 14 + lines.length * size * 1.12, { class: "corner-note" }, 1.04));
      group.append(s("path", { d: `M ${rect.x + 100} ${rect.y + rect.h - 12} h -64 l 12 -8 m -12 8 l 12 8`, class: "go-arrow" }));
    } else if (space.kind === "free_parking") {
      group.append(s("text", { x: cx, y: rect.y + rect.h - 16, "text-anchor": "middle", class: "pot-text", id: "pot-text" }, ""));
    } else if (space.kind === "go_to_jail") {
      group.append(s("text", { x: cx, y: rect.y + rect.h - 8, "text-anchor": "middle", class: "space-symbol" }, "➜"));
    }
  }

  /** The "in jail" square inside the jail corner (the rest is "just visiting"). */
  jailCell() {
    const rect = spaceRect(10);
    return { x: rect.x + 38, y: rect.y, w: rect.w - 38, h: rect.h - 38 };
  }

  buildCentre() {
    const centre = s("g", { class: "centre" });
    const inner = CORNER + 10;
    const width = SIZE - 2 * inner;
    const title = fitText(this.edition.title, width - 80, 2, 54, 26);
    centre.append(textBlock(title.lines, title.size, SIZE / 2, 300, { class: "board-title" }));
    this.deckNodes = {};
    const decks = Object.entries(this.edition.decks);
    decks.forEach(([role, name], i) => {
      const x = i === 0 ? 215 : 585;
      const y = i === 0 ? 420 : 545;
      const card = s("g", { class: `deck deck-${role}`, transform: `rotate(-8 ${x + 100} ${y + 60})` });
      card.append(s("rect", { x, y, width: 200, height: 120, rx: 8, class: "deck-card" }));
      const label = fitText(name, 184, 2, 24, MIN_TEXT, NARROW);
      card.append(textBlock(label.lines, label.size, x + 100, y + 14, { class: "deck-name" }));
      const count = s("text", { x: x + 100, y: y + 106, "text-anchor": "middle", class: "deck-count" }, "");
      card.append(count);
      this.deckNodes[role] = count;
      centre.append(card);
    });
    this.diceNode = s("g", { class: "dice", role: "img", transform: "translate(500 560)" });
    this.diceViews = [this.diceNode];
    centre.append(this.diceNode);
    this.potNode = s("text", { x: 500, y: 700, "text-anchor": "middle", class: "pot-centre" }, "");
    centre.append(this.potNode);
    this.stockNode = s("text", { x: 500, y: 740, "text-anchor": "middle", class: "stock-text" }, "");
    centre.append(this.stockNode);
    if (this.edition.spaces.some((space) => !space.printed)) {
      centre.append(s("text", { x: 500, y: 775, "text-anchor": "middle", class: "italics-note" }, this.t("italics_note")));
    }
    return centre;
  }

  // ---------------------------------------------------------------- updates
  /** Show ``state`` (a protocol ``state`` message). */
  update(state, players) {
    this.state = state;
    this.players = players;
    const game = state.game;
    for (const space of this.edition.spaces) {
      if (!("price" in space)) continue;
      this.updateProperty(space, game);
    }
    this.updateCentre(game);
    this.updateTokens(game);
    const current = game.players[game.current];
    if (current && (current.in_jail ? "jail" : current.position) !== this.followed) this.follow(current.position, current.in_jail);
  }

  updateProperty(space, game) {
    const node = this.spaceNodes[space.index];
    const owner = game.owner[space.index];
    const level = game.level[space.index];
    const mortgaged = game.mortgaged[space.index];
    const rect = node.__rect;
    const area = node.__area;
    const ownerGroup = node.querySelector(".owner-mark");
    const buildingGroup = node.querySelector(".buildings");
    const mortgageGroup = node.querySelector(".mortgage-mark");
    ownerGroup.replaceChildren();
    buildingGroup.replaceChildren();
    mortgageGroup.replaceChildren();
    node.classList.toggle("owned", owner >= 0);
    node.classList.toggle("mortgaged", mortgaged);
    node.dataset.owner = owner;
    node.dataset.level = level;
    if (owner >= 0) {
      const player = game.players[owner];
      const spot = area.owner;
      // The owner's mark: a band striped in the player's colour (no group bar is striped)
      // with the player's shape at its start (not a colour alone: R, G, B players and
      // red, green, blue groups stay apart).
      ownerGroup.append(s("rect", {
        x: spot.x, y: spot.y, width: spot.w, height: spot.h, fill: `url(#owner-stripes-${owner})`, class: "owner-strip",
      }, s("title", {}, this.t("owned_by", { name: player.name }))));
      const along = spot.w > spot.h;
      const mark = tokenShape(owner, 6.5);
      mark.classList.add("owner-shape");
      ownerGroup.append(s("g", {
        transform: `translate(${spot.x + (along ? 11 : spot.w / 2)} ${spot.y + (along ? spot.h / 2 : 11)})`,
      }, mark));
    }
    if (level > 0) this.drawBuildings(buildingGroup, area.bar, level, game.hotel_level, rect.side);
    if (mortgaged) {
      mortgageGroup.append(s("rect", { x: rect.x + 2, y: rect.y + 2, width: rect.w - 4, height: rect.h - 4, class: "mortgage-cover" }));
      const cx = rect.x + rect.w / 2;
      const cy = rect.y + rect.h / 2;
      // Along the long side of the space: the word stays whole at a readable size.
      const upright = rect.side === "top" || rect.side === "bottom";
      const word = fitText(this.t("mortgaged_short").toUpperCase(), (upright ? rect.h : rect.w) - 8, 1, MIN_TEXT, MIN_TEXT);
      mortgageGroup.append(s("text", {
        x: cx, y: cy + word.size / 2.6, "text-anchor": "middle", "font-size": word.size, class: "mortgage-text",
        transform: upright ? `rotate(-90 ${cx} ${cy})` : null,
      }, word.lines[0]));
      mortgageGroup.append(s("title", {}, `${this.edition.spaces[space.index].name}: ${this.t("mortgaged")}`));
    }
  }

  drawBuildings(group, bar, level, hotelLevel, side) {
    const terms = this.edition.terms;
    const hotel = level >= hotelLevel;
    const horizontal = side === "top" || side === "bottom";
    const count = hotel ? 1 : level;
    const label = hotel ? `1 ${terms.hotel}` : `${level} ${level === 1 ? terms.house : terms.houses}`;
    group.append(s("title", {}, label));
    for (let i = 0; i < count; i += 1) {
      const long = hotel ? 34 : 14;
      const short = 14;
      const step = hotel ? 0 : 18;
      const offset = hotel ? 0 : (i - (count - 1) / 2) * step;
      const cx = bar.x + bar.w / 2 + (horizontal ? offset : 0);
      const cy = bar.y + bar.h / 2 + (horizontal ? 0 : offset);
      const w = horizontal ? long : short;
      const hgt = horizontal ? short : long;
      group.append(s("rect", {
        x: cx - w / 2, y: cy - hgt / 2, width: w, height: hgt, rx: 2,
        class: hotel ? "hotel" : "house",
      }));
    }
  }

  updateCentre(game) {
    for (const [role, node] of Object.entries(this.deckNodes)) {
      const count = game.decks?.[role];
      node.textContent = count === undefined ? "" : this.t("cards_left", { count });
    }
    const pot = this.options.freeParkingPot ? this.t("pot", { amount: this.money(game.free_parking_pot) }) : "";
    this.potNode.textContent = pot;
    const potCorner = this.svg.querySelector("#pot-text");
    if (potCorner) potCorner.textContent = this.options.freeParkingPot ? this.money(game.free_parking_pot) : "";
    const terms = this.edition.terms;
    const word = (count, one, many) => (new Intl.PluralRules(this.language).select(count) === "one" ? one : many);
    this.stockNode.textContent = this.t("bank_stock", {
      houses: game.bank.houses, houses_word: word(game.bank.houses, terms.house, terms.houses),
      hotels: game.bank.hotels, hotels_word: word(game.bank.hotels, terms.hotel, terms.hotels),
    });
    this.drawDice(game.last_roll || []);
    this.updateStrip(game);
  }

  /**
   * A second view of the dice and whose roll it is, outside the board: the phone's strip
   * that stays at the top of the screen while a long decision pushes the board down.
   */
  addDiceStrip(container) {
    this.stripWho = h("span", { class: "strip-who" });
    const dice = s("g", { class: "dice", role: "img" });
    const svg = s("svg", { viewBox: "-110 -32 220 64", class: "strip-dice" }, dice);
    this.stripTotal = h("span", { class: "strip-total" });
    this.diceViews.push(dice);
    container.replaceChildren(this.stripWho, svg, this.stripTotal);
  }

  /** The strip's player (who rolled these dice) and the total of the dice's numbers. */
  updateStrip(game) {
    if (!this.stripWho) return;
    const player = game.players[game.last_roller ?? game.current];
    // A long name ends in "…" before the dice; the whole name is its tooltip.
    this.stripWho.title = player ? player.name : "";
    this.stripWho.replaceChildren(...(player ? [tokenBadge(player.seat, player.name, player.token), h("span", { class: "strip-name" }, player.name)] : []));
    const numbers = (game.last_roll || []).map((value, i) => speedValue(value, i)).filter((value) => typeof value === "number");
    this.stripTotal.textContent = numbers.length ? `= ${numbers.reduce((a, b) => a + b, 0)}` : "";
  }

  /** Show the dice; ``rolling``: tumble through random faces for a moment first. */
  drawDice(dice, rolling = false) {
    clearInterval(this.tumble);
    this.tumble = null;
    if (!rolling || !dice.length) {
      this.renderDice(dice, false);
      this.markSettled("true");
      return;
    }
    const random = () => dice.map((value, i) => (i === 2 ? SPEED_FACES : [1, 2, 3, 4, 5, 6])[Math.floor(Math.random() * (i === 2 ? SPEED_FACES.length : 6))]);
    let flips = 0;
    this.markSettled("false");
    this.renderDice(random(), true);
    this.settledAt = Math.max(this.settledAt, performance.now() + TUMBLE_FLIPS * TUMBLE_MS);
    this.tumble = setInterval(() => {
      flips += 1;
      if (flips < TUMBLE_FLIPS) {
        this.renderDice(random(), true);
        return;
      }
      clearInterval(this.tumble);
      this.tumble = null;
      this.renderDice(dice, false);
      this.markSettled("true");
    }, TUMBLE_MS);
  }

  markSettled(settled) {
    for (const view of this.diceViews) view.dataset.settled = settled;
  }

  renderDice(dice, rolling) {
    for (const view of this.diceViews) this.renderDiceInto(view, dice, rolling);
  }

  renderDiceInto(view, dice, rolling) {
    view.replaceChildren();
    const total = dice.length;
    dice = dice.map((value, i) => speedValue(value, i));
    dice.forEach((value, i) => {
      const x = (i - (total - 1) / 2) * 70 - 28;
      const die = s("g", { class: `die${i === 2 ? " speed-die" : ""}${rolling ? " rolling" : ""}`, transform: `translate(${x} -28)` });
      die.append(s("rect", { width: 56, height: 56, rx: 10, class: "die-face" }));
      die.append(s("title", {}, i === 2 ? `${this.edition.terms.speed_die}: ${this.speedFace(value)}` : String(value)));
      if (typeof value === "number") {
        for (const [px, py] of pips(value)) die.append(s("circle", { cx: px, cy: py, r: 5.5, class: "pip" }));
      } else {
        die.dataset.face = value;
        die.append(value === "bus" ? busFace() : mrMonopolyFace());
      }
      view.append(die);
    });
    view.setAttribute("aria-label", this.t("dice_label", { dice: dice.map((d) => this.speedFace(d)).join(", ") }));
  }

  speedFace(value) {
    if (value === "bus") return this.edition.terms.bus;
    if (value === "mr_monopoly") return this.edition.terms.mr_monopoly;
    return String(value);
  }

  // ---------------------------------------------------------------- tokens
  updateTokens(game) {
    const layer = this.layers.tokens;
    const atSpace = new Map();
    game.players.forEach((player) => {
      let node = layer.querySelector(`[data-seat="${player.seat}"]`);
      if (!player.active) {
        if (node) node.remove();
        return;
      }
      if (!node) {
        node = this.buildToken(player);
        layer.append(node);
      }
      const key = player.in_jail ? "jail" : String(player.position);
      const slot = atSpace.get(key) || 0;
      atSpace.set(key, slot + 1);
      node.__slot = slot;
      node.classList.toggle("current", game.current === player.seat);
      if (!this.walks.has(player.seat)) this.placeToken(node, player.position, player.in_jail, slot);
    });
  }

  buildToken(player) {
    const tokenName = this.tokenName(player.token);
    const node = s("g", { class: "token", dataset: { seat: player.seat }, style: `--seat-colour:${playerColour(player.seat)}` });
    node.append(s("title", {}, `${player.name} — ${tokenName}`));
    node.append(tokenShape(player.seat, 15));
    const icon = tokenIcon(player.token, 1.05);
    node.append(icon || s("text", { x: 0, y: 5, "text-anchor": "middle", class: "token-letter" }, (tokenName || "?").slice(0, 1)));
    node.dataset.token = player.token || "";
    return node;
  }

  tokenName(key) {
    return this.edition.tokens.find((token) => token.key === key)?.name || key || "";
  }

  tokenSpot(space, inJail, slot) {
    if (inJail) {
      const cell = this.jailCell();
      return { x: cell.x + 22 + (slot % 3) * 28, y: cell.y + 48 + Math.floor(slot / 3) * 28 };
    }
    const rect = spaceRect(space);
    if (space === 10) {
      const along = [[19, 22], [19, 57], [19, 92], [55, 127], [90, 127], [125, 127]];
      const [dx, dy] = along[slot % 6];
      return { x: rect.x + dx, y: rect.y + dy };
    }
    if (rect.side === "corner") {
      return { x: rect.x + 38 + (slot % 3) * 37, y: rect.y + rect.h - 36 - Math.floor(slot / 3) * 30 };
    }
    // Beside the colour bar, toward the centre: the space's name stays readable.
    const along = ((slot % 2) - 0.5) * 28;
    const out = 17 + Math.floor(slot / 2) * 28;
    switch (rect.side) {
      case "bottom":
        return { x: rect.x + rect.w / 2 + along, y: rect.y - out };
      case "top":
        return { x: rect.x + rect.w / 2 + along, y: rect.y + rect.h + out };
      case "left":
        return { x: rect.x + rect.w + out, y: rect.y + rect.h / 2 + along };
      default:
        return { x: rect.x - out, y: rect.y + rect.h / 2 + along };
    }
  }

  placeToken(node, space, inJail, slot) {
    const { x, y } = this.tokenSpot(space, inJail, slot);
    node.style.transform = `translate(${x}px, ${y}px)`;
    node.dataset.space = inJail ? "jail" : String(space);
  }

  /** How long until the dice have settled and every token has finished its walk (ms). */
  settlingFor() {
    // A slow device runs the walk's timer late: while a token still walks or the dice
    // still tumble, it is not settled, whatever the planned end said.
    const moving = this.walks.size > 0 || this.tumble ? SETTLE_CHECK_MS : 0;
    return Math.max(moving, this.settledAt - performance.now());
  }

  /** Walk tokens along the spaces for the ``Moved`` events of a state. */
  animate(events) {
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    for (const event of events) {
      if (event.type === "DiceRolled") this.drawDice(event.dice, !reduced);
      if (event.type !== "Moved" || reduced) continue;
      const steps = pathOf(event.seat, event.start, event.end, events);
      if (steps.length < 2) continue;
      this.walk(event.seat, steps);
    }
  }

  walk(seat, steps) {
    const node = this.layers.tokens.querySelector(`[data-seat="${seat}"]`);
    if (!node) return;
    clearInterval(this.walks.get(seat));
    let i = 0;
    const pace = Math.min(STEP_MS, Math.max(30, 1200 / steps.length));
    this.settledAt = Math.max(this.settledAt, performance.now() + steps.length * pace);
    const timer = setInterval(() => {
      i += 1;
      const player = this.state.game.players[seat];
      if (i >= steps.length || !player) {
        clearInterval(timer);
        this.walks.delete(seat);
        if (player) this.placeToken(node, player.position, player.in_jail, node.__slot || 0);
        return;
      }
      this.placeToken(node, steps[i], false, seat);
    }, pace);
    this.walks.set(seat, timer);
  }

  // ---------------------------------------------------------------- choosing a space
  /** Let the player pick one of ``spaces`` on the board (Speed Die triples, placing). */
  choose(spaces, onChoose) {
    this.stopChoosing();
    const allowed = new Set(spaces);
    const handlers = [];
    for (const node of this.spaceNodes) {
      const index = Number(node.dataset.space);
      if (!allowed.has(index)) continue;
      node.classList.add("choosable");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", this.t("choose_this_space", { name: this.edition.spaces[index].name }));
      const pick = (event) => {
        if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        onChoose(index);
      };
      node.addEventListener("click", pick);
      node.addEventListener("keydown", pick);
      handlers.push([node, pick]);
    }
    this.svg.classList.add("choosing");
    this.choosing = handlers;
  }

  stopChoosing() {
    if (!this.choosing) return;
    for (const [node, pick] of this.choosing) {
      node.classList.remove("choosable");
      this.spaceDefaults(node, Number(node.dataset.space));
      node.removeEventListener("click", pick);
      node.removeEventListener("keydown", pick);
    }
    this.svg.classList.remove("choosing");
    this.choosing = null;
  }
}

/** Each seat's striped fill for the owner band of its deeds. */
function ownerPatterns() {
  const defs = s("defs");
  for (let seat = 0; seat < 8; seat += 1) {
    const pattern = s("pattern", { id: `owner-stripes-${seat}`, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    pattern.append(s("rect", { width: 8, height: 8, fill: "#fff" }));
    pattern.append(s("rect", { width: 5, height: 8, fill: playerColour(seat) }));
    defs.append(pattern);
  }
  return defs;
}

/** The spaces a token passes from ``start`` to ``end`` (a jump when sent to jail). */
function pathOf(seat, start, end, events) {
  if (start === end) return [];
  const jailed = events.some((event) => event.type === "SentToJail" && event.seat === seat);
  if (jailed && end === 10) return [start, end];
  const forward = (end - start + 40) % 40;
  const steps = [start];
  if (40 - forward <= 3) {
    for (let i = 1; i <= 40 - forward; i += 1) steps.push((start - i + 40) % 40);
  } else {
    for (let i = 1; i <= forward; i += 1) steps.push((start + i) % 40);
  }
  return steps;
}

const SPEED_FACES = [1, 2, 3, "bus", "mr_monopoly", "mr_monopoly"];
const TUMBLE_FLIPS = 6;
const TUMBLE_MS = 80;
const SETTLE_CHECK_MS = 50;

/** The Speed Die's third face value as a word: old servers sent the engine's codes. */
function speedValue(value, index) {
  if (index !== 2) return value;
  if (value === 4) return "bus";
  if (value === 5) return "mr_monopoly";
  return value;
}

/** The Speed Die's Bus face: a small bus seen from the side. */
function busFace() {
  const g = s("g", { class: "face-bus", "aria-hidden": "true" });
  g.append(s("rect", { x: 8, y: 16, width: 40, height: 22, rx: 4, class: "bus-body" }));
  for (const x of [12, 22, 32]) g.append(s("rect", { x, y: 20, width: 7, height: 7, rx: 1, class: "bus-window" }));
  g.append(s("rect", { x: 41, y: 20, width: 4, height: 14, rx: 1, class: "bus-window" }));
  for (const cx of [17, 39]) g.append(s("circle", { cx, cy: 39, r: 5, class: "bus-wheel" }));
  return g;
}

/** The Speed Die's Mr. Monopoly face: top hat, face and moustache. */
function mrMonopolyFace() {
  const g = s("g", { class: "face-mr", "aria-hidden": "true" });
  g.append(s("rect", { x: 19, y: 6, width: 18, height: 14, rx: 2, class: "mr-hat" }));
  g.append(s("rect", { x: 14, y: 19, width: 28, height: 4, rx: 2, class: "mr-hat" }));
  g.append(s("circle", { cx: 28, cy: 34, r: 12, class: "mr-head" }));
  g.append(s("circle", { cx: 24, cy: 31, r: 1.6, class: "mr-eye" }));
  g.append(s("circle", { cx: 32, cy: 31, r: 1.6, class: "mr-eye" }));
  g.append(s("path", { d: "M18 39 Q23 34 28 38 Q33 34 38 39 Q33 42 28 40 Q23 42 18 39 Z", class: "mr-moustache" }));
  return g;
}

function pips(value) {
  const a = 14;
  const b = 28;
  const c = 42;
  const layouts = {
    1: [[b, b]],
    2: [[a, a], [c, c]],
    3: [[a, a], [b, b], [c, c]],
    4: [[a, a], [c, a], [a, c], [c, c]],
    5: [[a, a], [c, a], [b, b], [a, c], [c, c]],
    6: [[a, a], [c, a], [a, b], [c, b], [a, c], [c, c]],
  };
  return layouts[value] || [];
}
