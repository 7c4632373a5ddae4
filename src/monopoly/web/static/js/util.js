// Small helpers shared by every part of the client: DOM building, money, storage.

/** Build an element: h("button", {class: "x", onclick: fn}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an SVG element the same way. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

function setAttributes(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "text") {
      node.textContent = value;
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Remove every child of ``node`` and put ``children`` in. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** "$1,500" in English, "1.500 €" in German: the same as the server's log texts. */
export function formatMoney(amount, symbol, language) {
  const number = new Intl.NumberFormat(language === "de" ? "de-DE" : "en-US").format(amount);
  if (language === "en" && [...symbol].length === 1) return `${symbol}${number}`;
  return `${number}${NO_BREAK}${symbol}`;  // "130 ₵" never splits over two lines
}

const NO_BREAK = "\u00a0";

const SEAT_KEY = "monopoly.seat.";
const NAME_KEY = "monopoly.name";

/** The secret seat token of a game this browser plays in (or null). */
export function seatToken(gameId) {
  return localStorage.getItem(SEAT_KEY + gameId);
}

export function saveSeatToken(gameId, token) {
  localStorage.setItem(SEAT_KEY + gameId, token);
}

/** The ids of the games this browser holds a seat in. */
export function myGameIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(SEAT_KEY)) ids.push(key.slice(SEAT_KEY.length));
  }
  return ids;
}

export function forgetGame(gameId) {
  localStorage.removeItem(SEAT_KEY + gameId);
}

export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function saveName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/** Copy text to the clipboard; falls back to selecting it in ``input``. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}

/**
 * Show a short message (announced to screen readers). One at a time: a new one replaces
 * the last (everything is in the game log too). Beside the board on wide screens; on a
 * phone in the page's own news line above the decision, so it never covers the board.
 */
export function toast(text, kind = "info") {
  const news = document.getElementById("news");
  const area = news && window.matchMedia("(max-width: 900px)").matches ? news : document.getElementById("toasts");
  if (!area) return;
  for (const old of document.querySelectorAll(".toast")) old.remove();
  const item = h("div", { class: `toast toast-${kind}`, role: "status" }, text);
  area.append(item);
  setTimeout(() => item.classList.add("toast-out"), 4000);
  setTimeout(() => item.remove(), 4600);
}

/** WCAG relative luminance of a #rrggbb (or #rgb) colour. */
function luminance(colour) {
  let hex = colour.replace("#", "");
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever reads better on ``background`` (at least 4.5:1 on any). */
export function readableOn(background) {
  if (!/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(background || "")) return "#000";
  return contrastRatio(background, "#000000") >= contrastRatio(background, "#ffffff") ? "#000" : "#fff";
}

/** The rules specification's ID at a reason's end ("(R-BUILD-1)") is for developers and
 * logs; a player reads the reason in words, so the page leaves it out. */
const RULE_ID = /\s*\(R-[A-Z]+-\d+\)(?=[.]?$)/;

export function inWords(reason) {
  return String(reason).replace(RULE_ID, "");
}

/** A reason shown on a line of its own starts as a sentence does ("you need..." reads
 * "You need..."); inside another sentence it stays as the engine words it. */
export function asSentence(text) {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
