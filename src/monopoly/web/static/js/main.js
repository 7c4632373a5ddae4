// The page's entry point: labels, the language switch and the route by the address:
//   /                 the lobby (create a game, open games, your games)
//   /?join=<id>       the join form of an invite link
//   /?game=<id>       play (with the seat token kept in localStorage)
//   /?watch=<id>      watch as a spectator

import { initI18n, language, setLanguage, onLanguageChange, t } from "./i18n.js";
import { renderHome, renderJoin } from "./lobby.js";
import { GameScreen } from "./game.js";
import { seatToken } from "./util.js";
import { errorText } from "./errors.js";
import { h, replaceChildren } from "./util.js";

function labelPage() {
  document.getElementById("lang-label").textContent = t("language");
  document.querySelector(".skip-link").textContent = t(document.querySelector(".game-layout") ? "skip_to_actions" : "skip_to_content");
  const picker = document.getElementById("lang-select");
  picker.value = language();
  picker.setAttribute("aria-label", t("language"));
}

async function route(main) {
  const params = new URLSearchParams(location.search);
  const game = params.get("game");
  const join = params.get("join");
  const watch = params.get("watch");
  if (game) {
    const screen = new GameScreen(main, game, seatToken(game));
    window.monopolyScreen = screen;
    screen.start();
  } else if (watch) {
    const screen = new GameScreen(main, watch, null);
    window.monopolyScreen = screen;
    screen.start();
  } else if (join) {
    await renderJoin(main, join);
  } else {
    await renderHome(main);
  }
}

async function main() {
  await initI18n();
  const main = document.getElementById("main");
  labelPage();
  const picker = document.getElementById("lang-select");
  picker.addEventListener("change", () => setLanguage(picker.value));
  const onHome = () => !new URLSearchParams(location.search).toString().match(/(game|watch|join)=/);
  onLanguageChange(() => {
    labelPage();
    if (onHome()) renderHome(main);
    else if (new URLSearchParams(location.search).get("join")) renderJoin(main, new URLSearchParams(location.search).get("join"));
  });
  try {
    await route(main);
  } catch (problem) {
    replaceChildren(main, h("section", { class: "card" }, h("p", { class: "form-error" }, errorText(problem)), h("a", { href: "/" }, t("back_to_lobby"))));
  }
}

main();
