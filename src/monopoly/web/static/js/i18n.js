// The client's own labels (buttons, headings) in English and German, from i18n/*.json.
// Everything about the game itself (names, terms, log lines) comes from the server.

const LANG_KEY = "monopoly.lang";
export const LANGUAGES = ["en", "de"];
const tables = {};
let current = "en";
const listeners = [];

/** The language chosen before (?lang=, saved choice, the browser's language). */
function initialLanguage() {
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(fromUrl)) return fromUrl;
  const saved = localStorage.getItem(LANG_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

async function load(language) {
  if (!tables[language]) {
    const response = await fetch(`i18n/${language}.json`);
    tables[language] = await response.json();
  }
  return tables[language];
}

export async function initI18n() {
  await load("en");
  // A language asked for in the address (?lang=de) is the person's choice: it stays for
  // the pages that follow (the game a form created, a reload), whatever the game speaks.
  const asked = LANGUAGES.includes(new URLSearchParams(location.search).get("lang"));
  await setLanguage(initialLanguage(), asked);
}

export function language() {
  return current;
}

/** Switch the UI language; ``remember`` keeps the choice for the next visit. */
export async function setLanguage(language, remember = true) {
  if (!LANGUAGES.includes(language)) return;
  await load(language);
  current = language;
  document.documentElement.lang = language;
  if (remember) localStorage.setItem(LANG_KEY, language);
  for (const listener of listeners) listener(language);
}

export function onLanguageChange(listener) {
  listeners.push(listener);
}

/** The label ``key`` with {placeholders} filled in. */
export function t(key, params = {}) {
  return tIn(current, key, params);
}

/** Load another language's labels (the game's, for the board) beside the page's. */
export async function loadLabels(language) {
  if (LANGUAGES.includes(language)) await load(language);
}

/** The label ``key`` in ``language`` (loaded by loadLabels), else in English. */
export function tIn(language, key, params = {}) {
  const text = plural(language, key, params) ?? tables[language]?.[key] ?? tables.en?.[key];
  if (text === undefined) {
    console.warn(`missing label: ${key}`);
    return key;
  }
  return oneStop(text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match)));
}

/**
 * No full stop right after a name's own ".", "!" or "?" ("Sie sind S.P.E.C.I.A.L." at
 * a sentence's end); an ellipsis stays (monopoly.core.wording.one_stop, the server's).
 */
export function oneStop(text) {
  return text.replace(/((?<!\.)\.|[!?])\.(?![.\w])/gu, "$1");
}

/**
 * The label's form for its number (``count`` or ``steps``) by the language's plural
 * rules (Intl.PluralRules, CLDR's, as Babel's on the server): "key_one" where the
 * language says "one" ("1 Feld", not "1 Felder"); otherwise the plain key.
 */
function plural(language, key, params) {
  const number = params.count ?? params.steps;
  if (typeof number !== "number") return undefined;
  const form = new Intl.PluralRules(language).select(number);
  return tables[language]?.[`${key}_${form}`];
}

export function hasLabel(key) {
  return key in (tables[current] || {}) || key in (tables.en || {});
}
