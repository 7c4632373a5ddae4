// Before a game: the home page (create a game, open games, your games), the join form
// of an invite link and the waiting room until the host starts.

import { api } from "./api.js";
import { language, t } from "./i18n.js";
import { h, formatMoney, replaceChildren, saveSeatToken, seatToken, myGameIds, forgetGame, savedName, saveName, copyText, toast } from "./util.js";
import { tokenBadge } from "./tokens.js";
import { errorText } from "./errors.js";

const MAX_NAME = 24;

function gameUrl(gameId) {
  return `/?game=${encodeURIComponent(gameId)}`;
}

function field(labelText, control, hint) {
  const id = control.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, labelText), control, hint ? h("small", { class: "hint" }, hint) : null);
}

function select(options, value, attrs = {}) {
  const node = h("select", attrs);
  for (const option of options) {
    const title = option.about ? { title: option.about } : {};
    node.append(h("option", { value: option.key, selected: option.key === value, ...title }, option.name));
  }
  return node;
}

function editionTitle(edition) {
  return edition.title[language()] || edition.title.en || edition.key;
}

/** A one-line summary of a game's rules: the preset and the options that differ. */
export function rulesSummary(rules, options) {
  const preset = options.presets.find((p) => p.key === rules.preset)?.name || rules.preset;
  const extra = Object.entries(rules.options || {}).map(([key, value]) => {
    const option = options.rule_options.find((o) => o.key === key);
    if (!option || value === option.default) return null;
    if (option.type === "bool") return option.name;
    const choice = option.choices?.find((c) => c.key === value);
    return `${option.name}: ${choice ? choice.name : value}`;
  }).filter(Boolean);
  return [preset, ...extra].join(" · ");
}

/** What a game's rules mean and the cash everyone really starts with (join, waiting). */
function rulesDetails(rules, options, edition, gameLanguage) {
  const preset = options.presets.find((p) => p.key === rules.preset);
  const cashOption = options.rule_options.find((o) => o.key === "starting_cash");
  const base = rules.options?.starting_cash ?? cashOption?.default ?? 1500;
  const cash = formatMoney(base + (preset?.extra_cash || 0), edition.terms.currency_symbol, gameLanguage);
  const houseRules = Object.keys(rules.options || {})
    .map((key) => options.rule_options.find((o) => o.key === key))
    .filter((option) => option && option.key !== "starting_cash" && rules.options[option.key] !== option.default && option.about);
  // Only the parts that exist: Element.append would write a missing one as "null".
  return [
    preset?.about ? h("p", { class: "rules-about" }, preset.about) : null,
    h("p", { class: "cash-line", dataset: { testid: "starting-cash" } }, t("starting_cash_line", { cash })),
    houseRules.length ? h("ul", { class: "rules-list" }, houseRules.map((option) => h("li", {}, option.about))) : null,
  ].filter(Boolean);
}

// ---------------------------------------------------------------- home
export async function renderHome(main) {
  const [editions, options] = await Promise.all([api.editions(), api.options(language())]);
  const createSection = h("section", { class: "card create-card", "aria-labelledby": "create-heading" },
    h("h1", { id: "create-heading" }, t("create_game")));
  const openSection = h("section", { class: "card", "aria-labelledby": "open-heading" },
    h("h2", { id: "open-heading" }, t("open_games")));
  const mineSection = h("section", { class: "card", "aria-labelledby": "mine-heading", hidden: true },
    h("h2", { id: "mine-heading" }, t("your_games")));
  replaceChildren(main, h("div", { class: "lobby-grid" }, createSection, h("div", { class: "lobby-lists" }, mineSection, openSection)));
  createSection.append(createForm(editions.editions, options));
  renderOpenGames(openSection, editions.editions, options);
  renderMyGames(mineSection, editions.editions);
}

function createForm(editions, options) {
  const form = h("form", { class: "create-form", novalidate: true });
  const name = h("input", { type: "text", name: "name", required: true, maxlength: MAX_NAME, autocomplete: "nickname", value: savedName() });
  const edition = select(editions.map((e) => ({ key: e.key, name: editionTitle(e) })), "classic", { name: "edition" });
  const gameLanguage = select(options.languages, language(), { name: "language" });
  const token = h("select", { name: "token" });
  const preset = select(options.presets, "standard", { name: "preset" });
  const seats = seatList(options);
  const houseRules = ruleOptions(options.rule_options);
  const advice = h("input", { type: "checkbox", name: "advice", dataset: { testid: "advice-on" } });
  const adviceField = h("div", { class: "field" },
    h("label", { class: "check" }, advice, t("advice_choice")), h("small", { class: "hint" }, t("advice_choice_hint")));
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", dataset: { testid: "create" } }, t("create_button"));

  const presetAbout = h("small", { class: "hint", id: "preset-about", dataset: { testid: "preset-about" } });
  const cashLine = h("p", { class: "cash-line", dataset: { testid: "starting-cash" }, "aria-live": "polite" });
  let currency = "$";
  /** The chosen rule set's meaning and the cash everyone really starts with. */
  function explainRules() {
    const chosen = options.presets.find((p) => p.key === preset.value);
    presetAbout.textContent = chosen?.about || "";
    const base = Number.parseInt(houseRules.control("starting_cash")?.value, 10);
    const cash = (Number.isNaN(base) ? 1500 : base) + (chosen?.extra_cash || 0);
    cashLine.textContent = t("starting_cash_line", { cash: formatMoney(cash, currency, gameLanguage.value) });
  }
  async function loadTokens() {
    const data = await api.edition(edition.value, gameLanguage.value);
    const previous = token.value;
    replaceChildren(token, ...data.tokens.map((item) => h("option", { value: item.key, selected: item.key === previous }, item.name)));
    currency = data.terms.currency_symbol;
    explainRules();
  }
  edition.addEventListener("change", loadTokens);
  gameLanguage.addEventListener("change", loadTokens);
  preset.addEventListener("change", explainRules);
  houseRules.control("starting_cash")?.addEventListener("input", explainRules);
  loadTokens();

  form.append(
    field(t("your_name"), name),
    field(t("edition"), edition, t("italics_hint")),
    field(t("game_language"), gameLanguage, t("game_language_hint")),
    field(t("your_token"), token),
    field(t("rules"), preset),
    presetAbout,
    cashLine,
    houseRules.node,
    adviceField,
    seats.node,
    error,
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!name.value.trim()) {
      error.textContent = t("name_needed");
      name.focus();
      return;
    }
    submit.disabled = true;
    try {
      const answer = await api.create({
        edition: edition.value,
        language: gameLanguage.value,
        rules: { preset: preset.value, options: houseRules.values() },
        name: name.value.trim(),
        token: token.value,
        seats: seats.values(),
        advice: advice.checked,
      });
      saveName(name.value.trim());
      saveSeatToken(answer.game_id, answer.seat_token);
      location.href = gameUrl(answer.game_id);
    } catch (problem) {
      error.textContent = errorText(problem);
      submit.disabled = false;
    }
  });
  return form;
}

function ruleOptions(ruleOptions, current = {}) {
  const node = h("details", { class: "house-rules" }, h("summary", {}, t("house_rules")));
  const inputs = [];
  for (const option of ruleOptions) {
    const value = option.key in current ? current[option.key] : option.default;
    let control;
    if (option.type === "bool") {
      control = h("input", { type: "checkbox", name: option.key, checked: value });
      node.append(h("div", { class: "field" }, h("label", { class: "check" }, control, " ", option.name),
        option.about ? h("small", { class: "hint" }, option.about) : null));
    } else if (option.choices) {
      control = select(option.choices, value, { name: option.key });
      node.append(field(option.name, control, option.about));
    } else {
      control = h("input", { type: "number", name: option.key, value, min: 0, step: option.type === "int" ? 1 : "any", inputmode: "numeric" });
      node.append(field(option.name, control, option.about));
    }
    inputs.push([option, control]);
  }
  return {
    node,
    control(key) {
      return inputs.find(([option]) => option.key === key)?.[1];
    },
    values() {
      const values = {};
      for (const [option, control] of inputs) {
        let value;
        if (option.type === "bool") value = control.checked;
        else if (option.type === "int") value = Number.parseInt(control.value, 10);
        else value = control.value;
        if (option.type === "int" && Number.isNaN(value)) value = option.default;
        if (value !== option.default) values[option.key] = value;
      }
      return values;
    },
  };
}

function seatList(options) {
  const list = h("ol", { class: "seat-list" });
  const node = h("fieldset", { class: "seats" }, h("legend", {}, t("seats")), list);
  const levels = options.levels;
  const defaultLevel = levels.find((l) => l.key === "normal")?.key || levels[0]?.key;
  const rows = [];
  const add = h("button", { type: "button", class: "small" }, t("add_seat"));
  const remove = h("button", { type: "button", class: "small" }, t("remove_seat"));
  node.append(h("div", { class: "row" }, add, remove));

  function addRow(kind) {
    const number = rows.length + 2;
    const type = select([{ key: "bot", name: t("computer") }, { key: "human", name: t("person") }], kind, { "aria-label": t("seat_type", { number }) });
    const level = select(levels, defaultLevel, { "aria-label": t("seat_level", { number }) });
    type.addEventListener("change", () => { level.hidden = type.value !== "bot"; });
    level.hidden = kind !== "bot";
    const item = h("li", { class: "seat-row" }, h("span", { class: "seat-number" }, t("seat_n", { number })), type, level);
    list.append(item);
    rows.push({ item, type, level });
    sync();
  }
  function sync() {
    add.disabled = rows.length + 1 > options.seats.max;
    remove.disabled = rows.length + 1 <= options.seats.min;
  }
  add.addEventListener("click", () => addRow("bot"));
  remove.addEventListener("click", () => {
    const row = rows.pop();
    row?.item.remove();
    sync();
  });
  list.append(h("li", { class: "seat-row" }, h("span", { class: "seat-number" }, t("seat_n", { number: 1 })), h("span", {}, t("you_host"))));
  addRow("bot");
  addRow("bot");
  return {
    node,
    values() {
      return [{ type: "human" }, ...rows.map((row) => (row.type.value === "bot" ? { type: "bot", level: row.level.value } : { type: "human" }))];
    },
  };
}

async function renderOpenGames(section, editions, options) {
  const body = h("div", { class: "open-games" });
  const refresh = h("button", { type: "button", class: "small", onclick: () => load() }, t("refresh"));
  section.append(h("div", { class: "row" }, refresh), body);
  async function load() {
    try {
      const { games } = await api.openGames();
      if (!games.length) {
        replaceChildren(body, h("p", { class: "muted" }, t("no_open_games")));
        return;
      }
      replaceChildren(body, h("ul", { class: "game-list" }, games.map((game) => openGameItem(game, editions, options))));
    } catch (problem) {
      replaceChildren(body, h("p", { class: "form-error" }, errorText(problem)));
    }
  }
  load();
}

function openGameItem(game, editions, options) {
  const edition = editions.find((e) => e.key === game.edition);
  const host = game.seats.find((seat) => seat.host)?.name || "";
  const free = game.seats.filter((seat) => !seat.taken).length;
  return h("li", { class: "game-item" },
    h("div", {},
      h("strong", {}, edition ? editionTitle(edition) : game.edition),
      h("div", { class: "muted" }, `${t("host")}: ${host} · ${t("free_seats", { count: free })} · ${game.language.toUpperCase()}`),
      h("div", { class: "muted" }, rulesSummary(game.rules, options)),
      game.advice ? h("span", { class: "badge advice-badge" }, t("advice_on")) : null),
    h("div", { class: "game-item-links" },
      h("a", { class: "button", href: `/?join=${encodeURIComponent(game.game_id)}` }, t("join")),
      h("a", { class: "button secondary", href: `/?watch=${encodeURIComponent(game.game_id)}` }, t("watch"))));
}

async function renderMyGames(section, editions) {
  const ids = myGameIds();
  if (!ids.length) return;
  const list = h("ul", { class: "game-list" });
  const games = await Promise.all(ids.map((id) => api.game(id).catch((problem) => {
    if (problem.code === "unknown_game") forgetGame(id);
    return null;
  })));
  const known = games.filter(Boolean).sort((a, b) => b.created.localeCompare(a.created));
  for (const game of known.slice(0, 8)) {
    const edition = editions.find((e) => e.key === game.edition);
    list.append(h("li", { class: "game-item" },
      h("div", {}, h("strong", {}, edition ? editionTitle(edition) : game.edition),
        h("div", { class: "muted" }, `${t(`status_${game.status}`)} · ${game.seats.map((seat) => seat.name || "—").join(", ")}`)),
      h("a", { class: "button", href: gameUrl(game.game_id) }, game.status === "over" ? t("view") : t("continue"))));
  }
  if (known.length) {
    section.append(list);
    section.hidden = false;
  }
}

// ---------------------------------------------------------------- join form
export async function renderJoin(main, gameId) {
  if (seatToken(gameId)) {
    location.replace(gameUrl(gameId));
    return;
  }
  let game;
  try {
    game = await api.game(gameId);
  } catch (problem) {
    replaceChildren(main, h("section", { class: "card" }, h("h1", {}, t("join_game")), h("p", { class: "form-error" }, errorText(problem)), h("a", { href: "/" }, t("back_to_lobby"))));
    return;
  }
  const [edition, options] = await Promise.all([api.edition(game.edition, game.language), api.options(language())]);
  const card = h("section", { class: "card join-card", "aria-labelledby": "join-heading" }, h("h1", { id: "join-heading" }, t("join_game_title", { title: edition.title })));
  card.append(h("p", { class: "muted" }, rulesSummary(game.rules, options)), ...adviceNotice(game), ...rulesDetails(game.rules, options, edition, game.language));
  card.append(seatTable(game, edition));
  if (game.status !== "open" || !game.seats.some((seat) => !seat.taken)) {
    card.append(h("p", {}, t(game.status === "open" ? "game_full" : "already_started")),
      h("a", { class: "button", href: `/?watch=${encodeURIComponent(gameId)}` }, t("watch_game")));
    replaceChildren(main, card);
    return;
  }
  const name = h("input", { type: "text", required: true, maxlength: MAX_NAME, autocomplete: "nickname", value: savedName() });
  const token = select(edition.tokens.filter((item) => game.free_tokens.includes(item.key)).map((item) => ({ key: item.key, name: item.name })), game.free_tokens[0]);
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", dataset: { testid: "join" } }, t("join_button"));
  const form = h("form", { class: "join-form" }, field(t("your_name"), name), field(t("your_token"), token), error, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (!name.value.trim()) {
      error.textContent = t("name_needed");
      name.focus();
      return;
    }
    submit.disabled = true;
    try {
      const answer = await api.join(gameId, name.value.trim(), token.value);
      saveName(name.value.trim());
      saveSeatToken(answer.game_id, answer.seat_token);
      location.href = gameUrl(answer.game_id);
    } catch (problem) {
      error.textContent = errorText(problem);
      submit.disabled = false;
    }
  });
  card.append(form);
  replaceChildren(main, card);
  name.focus();
}

function seatTable(game, edition) {
  const list = h("ul", { class: "seat-table" });
  for (const seat of game.seats) {
    const tokenName = edition.tokens.find((item) => item.key === seat.token)?.name;
    const label = seat.taken ? seat.name : t("free_seat");
    const kind = seat.type === "bot" ? t("computer") : t("person");
    list.append(h("li", { class: `seat-entry${seat.taken ? "" : " free"}` },
      tokenBadge(seat.seat, tokenName || label, seat.token),
      h("span", { class: "seat-name" }, label),
      h("span", { class: "muted" }, [kind, tokenName, seat.host ? t("host") : null, seat.connected ? t("online") : null].filter(Boolean).join(" · "))));
  }
  return list;
}

// ---------------------------------------------------------------- waiting room
/** A game created with "advice on" says so to everyone who joins, watches or waits. */
function adviceNotice(game) {
  if (!game.advice) return [];
  return [h("p", { class: "notice advice-notice", role: "note", dataset: { testid: "advice-notice" } }, t("advice_on_about"))];
}

/** A game whose creator chose the dice (seed) or the start (position) says so. */
function testSetupNotice(game) {
  const chosen = game.test_setup || [];
  if (!chosen.length) return [];
  const what = chosen.map((key) => t(`test_setup_${key}`)).join(t("list_and"));
  return [h("p", { class: "notice", role: "note", dataset: { testid: "test-setup" } }, t("test_setup_notice", { what }))];
}

/** The page of a game that has not started: seats, links, the host's start button. */
export async function renderWaiting(main, game, mySeat, chat = null, setSeat = null, setRules = null) {
  const [edition, options] = await Promise.all([api.edition(game.edition, game.language), api.options(language())]);
  const card = h("section", { class: "card waiting-card", "aria-labelledby": "waiting-heading" },
    h("h1", { id: "waiting-heading" }, edition.title),
    h("p", { class: "muted" }, rulesSummary(game.rules, options)),
    ...testSetupNotice(game),
    ...adviceNotice(game),
    ...rulesDetails(game.rules, options, edition, game.language),
    h("h2", {}, t("players")), seatTable(game, edition));
  const free = game.seats.filter((seat) => !seat.taken).length;
  card.append(linkBox(t("invite_link"), game.invite_url, "invite"), linkBox(t("watch_link"), game.watch_url, "watch"));
  if (mySeat === 0) {
    const start = h("button", { type: "button", class: "primary", disabled: free > 0, dataset: { testid: "start" } }, t("start_game"));
    const error = h("p", { class: "form-error", role: "alert" });
    start.addEventListener("click", async () => {
      start.disabled = true;
      try {
        await api.start(game.game_id, seatToken(game.game_id));
      } catch (problem) {
        error.textContent = errorText(problem);
        start.disabled = false;
      }
    });
    if (setSeat) card.append(hostSeats(game, options, setSeat));
    if (setRules && !game.fixed_rules) card.append(hostRules(game, options, setRules));
    card.append(h("p", {}, free ? t("waiting_for_players", { count: free }) : t("all_seated")), start, error);
  } else {
    card.append(h("p", {}, t("waiting_for_host")));
  }
  if (chat) card.append(chat);
  replaceChildren(main, card);
}

/** The host's seat controls: each other seat a person (free) or a computer of a level;
 * a person who joined can be removed. */
function hostSeats(game, options, setSeat) {
  const rows = game.seats.filter((seat) => !seat.host).map((seat) => {
    const choices = [{ key: "person", name: t("person_seat") }, ...options.levels.map((level) => ({ key: `bot:${level.key}`, name: `${t("computer")}: ${level.name}` }))];
    const current = seat.type === "bot" ? `bot:${seat.level}` : "person";
    const pick = select(choices, current, { "aria-label": t("seat_type", { number: seat.seat + 1 }), dataset: { testid: `host-seat-${seat.seat}` } });
    pick.addEventListener("change", () => {
      const [to, level] = pick.value.split(":");
      setSeat(seat.seat, to === "bot" ? "bot" : "person", level);
    });
    const remove = seat.type === "human" && seat.taken
      ? h("button", { type: "button", class: "small", dataset: { testid: `remove-${seat.seat}` }, onclick: () => setSeat(seat.seat, "person") }, t("remove_player", { name: seat.name }))
      : null;
    return h("li", { class: "seat-row" }, h("span", { class: "seat-number" }, t("seat_n", { number: seat.seat + 1 })), pick, remove);
  });
  return h("details", { class: "host-seats", open: true }, h("summary", {}, t("host_seats")), h("ul", { class: "seat-list" }, rows));
}

/** The host's rules form: the rule set and the house rules, as when creating. */
function hostRules(game, options, setRules) {
  const preset = select(options.presets, game.rules.preset, { name: "preset", id: "host-preset" });
  const house = ruleOptions(options.rule_options, game.rules.options || {});
  const apply = h("button", { type: "button", class: "small", dataset: { testid: "host-rules" },
    onclick: () => setRules({ preset: preset.value, options: house.values() }) }, t("change_rules"));
  return h("details", { class: "host-rules" }, h("summary", {}, t("host_rules")),
    field(t("rules"), preset), house.node, apply);
}

function linkBox(label, url, name) {
  const input = h("input", { type: "text", readonly: true, value: url, class: "link-input", id: `${name}-url` });
  const copy = h("button", { type: "button", class: "small", dataset: { testid: `copy-${name}` } }, t("copy"));
  copy.addEventListener("click", async () => {
    const done = await copyText(url, input);
    toast(done ? t("copied") : t("copy_failed"));
  });
  return h("div", { class: "link-box" }, h("label", { for: input.id }, label), h("div", { class: "row" }, input, copy));
}
