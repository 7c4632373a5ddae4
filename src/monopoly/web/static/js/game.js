// The game screen: one WebSocket, the board, the decision panel, the players, the log,
// and the dialogs (manage properties, trade, results). The server decides everything;
// this shows its state and sends back the answers it offers.

import { api } from "./api.js";
import { Connection } from "./connection.js";
import { language, loadLabels, t, onLanguageChange } from "./i18n.js";
import { h, replaceChildren, formatMoney, toast, forgetGame, saveSeatToken } from "./util.js";
import { Board } from "./board.js";
import { renderWaiting } from "./lobby.js";
import { isMine, offlineText, renderDecision } from "./decision.js";
import { renderPlayers } from "./players.js";
import { ManageDialog } from "./manage.js";
import { ResignDialog } from "./resign.js";
import { TradeDialog } from "./trade.js";
import { AdviceDesk, WinChanceBar } from "./advice.js";
import { SpaceDialog } from "./spacecard.js";
import { chatForm, chatItem } from "./chat.js";
import { showGameOver } from "./gameover.js";
import { errorText } from "./errors.js";

const LOG_LIMIT = 600;
/** Marks a line that explains the one before (monopoly.web.explain.WHY_PREFIX). */
const WHY_PREFIX = "↳ ";

export class GameScreen {
  constructor(main, gameId, token) {
    this.main = main;
    this.gameId = gameId;
    this.token = token;
    this.seat = null;
    this.spectator = token === null;
    this.state = null;
    this.presence = null;
    this.over = null;
    this.edition = null;
    this.layout = null;
    this.busy = false;
    this.winChances = null;
    this.chanceBar = null;
    this.advice = new AdviceDesk(this);
    // Messages are handled one after another, in the order they came: a handler that
    // waits (for the edition, the labels) must not be overtaken by the next message — a
    // waiting room drawn after the game's first state would hide the board for good.
    this.inbox = Promise.resolve();
    this.connection = new Connection(gameId, token, (m) => this.enqueue(m), (s) => this.showStatus(s));
    onLanguageChange(() => this.relabel());
  }

  start() {
    this.connection.open();
  }

  // ---------------------------------------------------------------- messages
  enqueue(message) {
    this.inbox = this.inbox.then(() => this.receive(message)).catch(reportError);
  }

  async receive(message) {
    switch (message.type) {
      case "welcome":
        this.seat = message.seat;
        this.spectator = message.spectator;
        break;
      case "lobby":
        await this.showLobby(message.game);
        break;
      case "state":
        await this.showState(message);
        break;
      case "presence":
        this.presence = message.seats;
        this.watchers = message.watchers || 0;
        this.presenceAt = performance.now();
        if (this.layout) this.renderPlayers();
        this.schedulePresence();
        break;
      case "game_over":
        this.over = message;
        if (this.layout) {
          this.renderDecision();
          showGameOver(this, message);
        }
        break;
      case "chat_history":
        this.chat = message.messages;
        this.showChat();
        break;
      case "chat":
        this.chat = [...(this.chat || []), message].slice(-50);
        this.showChat(message);
        break;
      case "removed":
        forgetGame(this.gameId);
        toast(t("removed_by_host"), "error");
        setTimeout(() => location.replace(`/?join=${encodeURIComponent(this.gameId)}`), 1500);
        break;
      case "play_again":
        this.nextGame(message);
        break;
      case "timed_out":
        toast(t("timed_out", { name: message.name }), message.seat === this.seat ? "error" : "info");
        break;
      case "check_result":
        this.trade?.checked(message);
        break;
      case "win_chances":
        this.winChances = message;
        this.chanceBar?.render();
        break;
      case "advice":
        this.advice.answered(message);
        break;
      case "error":
        this.showError(message);
        break;
      default:
        break;
    }
  }

  showError(message) {
    this.busy = false;
    if (message.request === "advice") this.advice.refused();
    if (message.code === "stale_state") return;
    if (message.code === "bad_token") {
      forgetGame(this.gameId);
      toast(t("error_bad_token"), "error");
      setTimeout(() => location.replace(`/?join=${encodeURIComponent(this.gameId)}`), 1500);
      return;
    }
    if (message.code === "unknown_game") {
      replaceChildren(this.main, h("section", { class: "card" }, h("p", { class: "form-error" }, errorText(message)), h("a", { href: "/" }, t("back_to_lobby"))));
      return;
    }
    toast(errorText(message), "error");
    if (this.layout) {
      this.renderDecision(true);
      this.manage.refresh();
    }
  }

  async showLobby(game) {
    this.lobby = game;
    document.body.dataset.edition = game.edition;
    document.getElementById("top-title").textContent = "";
    await renderWaiting(this.main, game, this.seat, this.waitingChat(), ...this.hostControls());
  }

  /** The waiting room's host controls (seats, rules), for the host only. */
  hostControls() {
    if (this.seat !== 0) return [null, null];
    return [(seat, to, level) => this.setSeat(seat, to, level), (rules) => this.connection.send({ type: "host_rules", rules })];
  }

  /** The host changes a seat before the start (a computer, or a free seat). */
  setSeat(seat, to, level) {
    this.connection.send({ type: "host_seat", seat, to, ...(to === "bot" ? { level } : {}) });
  }

  /** The waiting room's chat: the messages so far and, for seated players, the form. */
  waitingChat() {
    this.waitingList = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" }, (this.chat || []).map(chatItem));
    return h("section", { class: "chat-box", "aria-labelledby": "chat-heading" },
      h("h2", { id: "chat-heading" }, t("chat")), this.waitingList, this.spectator ? null : chatForm(this));
  }

  /** Ask for the next game with the same people (from the results). */
  playAgain() {
    this.wantsAgain = true;
    this.connection.send({ type: "play_again" });
  }

  /** The next game exists: keep this seat's token for it; go there if we asked. */
  nextGame(message) {
    this.next = message;
    if (message.seat_token) saveSeatToken(message.game_id, message.seat_token);
    if (this.wantsAgain && message.seat_token) {
      location.href = `/?game=${encodeURIComponent(message.game_id)}`;
      return;
    }
    toast(t("next_game_ready"), "good");
    if (this.layout) this.renderDecision(true);
    if (this.over && document.querySelector("dialog[data-testid=game-over][open]")) showGameOver(this, this.over);
  }

  /** New chat: into the game log (or the waiting room's list). */
  showChat(message = null) {
    if (this.layout) {
      if (message) {
        this.logList.append(chatItem(message));
        this.scrollLog();
      } else {
        this.replaceLog(this.logLines || []);
      }
    } else if (this.waitingList) {  // also a list still being put on the page (a re-render awaits)
      replaceChildren(this.waitingList, ...(this.chat || []).map(chatItem));
    }
  }


  async showState(message) {
    const first = !this.state;
    const previous = this.state;
    this.state = message;
    this.busy = false;
    if (!this.edition) {
      await loadLabels(message.game.language);
      this.edition = await api.edition(message.game.edition, message.game.language);
      document.body.dataset.edition = message.game.edition;
    }
    if (!this.layout) this.buildLayout();
    this.board.update(message, message.game.players);
    if (message.full) {
      this.replaceLog(message.log || []);
    } else {
      this.board.animate(message.events);
      this.appendLog(message.events.flatMap((event) => (event.why ? [event.text, `${WHY_PREFIX}${event.why}`] : [event.text])));
      this.notify(message.events);
    }
    this.renderPlayers();
    if (previous && previous.game.turn !== message.game.turn) this.advice.forget();
    this.chanceBar?.render();
    this.timerEnds = message.turn_timer == null ? null : performance.now() + message.turn_timer * 1000;
    const showDecision = () => {
      this.renderDecision();
      if (!first && previous) this.focusIfMyTurn(previous, message);
    };
    clearTimeout(this.decisionDelay);
    // The next decision waits until the dice have settled and the token has arrived
    // (asked again when the time is up: a slow device may still be walking). It shows
    // the decision of the newest state: a state shown meanwhile may have cleared its own
    // timer (showState awaits the labels the first time), and a panel that never appears
    // would stall the game.
    const showWhenSettled = () => {
      const wait = this.board.settlingFor();
      if (wait > 0) {
        this.decisionDelay = setTimeout(() => this.layout && showWhenSettled(), wait + 30);
      } else {
        showDecision();
      }
    };
    showWhenSettled();
    this.manage.refresh();
    this.trade.refresh();
    this.spaceCard.refresh();
    this.updateTitle();
  }

  /** Tell the player about trade answers and similar news that concern them. */
  notify(events) {
    for (const event of events) {
      if (event.type === "TradeAccepted" || event.type === "TradeRejected" || event.type === "TradeLapsed") {
        if (event.seat === this.seat || event.partner === this.seat) toast(event.text, event.type === "TradeAccepted" ? "good" : "info");
      } else if (event.type === "TradeProposed" && event.partner === this.seat) {
        toast(event.text);
      }
    }
  }

  // ---------------------------------------------------------------- layout
  buildLayout() {
    this.boardNode = h("div", { class: "board", id: "board", tabindex: "0", role: "region", "aria-label": t("board_window") });
    this.stripNode = h("div", { class: "turn-strip", dataset: { testid: "turn-strip" } });
    this.decisionNode = h("section", { class: "card decision", id: "decision", "aria-live": "polite", tabindex: "-1", "aria-labelledby": "decision-heading" });
    this.toolbar = h("div", { class: "toolbar", role: "toolbar", "aria-label": t("tools") });
    this.playersNode = h("section", { class: "card players", "aria-labelledby": "players-heading" });
    this.logList = h("ol", { class: "log-list", id: "log" }, (this.chat || []).map(chatItem));
    this.chanceBar = this.state.game.advice ? new WinChanceBar(this) : null;
    this.logNode = h("section", { class: "card log", "aria-labelledby": "log-heading" },
      h("div", { class: "log-head" }, h("h2", { id: "log-heading" }, t("game_log")), this.spectator ? null : chatForm(this)),
      h("div", { class: "log-scroll", tabindex: "0", role: "log", "aria-live": "polite", "aria-label": t("game_log") }, this.logList));
    this.layout = h("div", { class: `game-layout${this.spectator ? " spectating" : ""}` },
      h("div", { class: "board-area" }, this.boardNode),
      h("div", { class: "side" }, this.stripNode, h("div", { id: "news", class: "news" }), this.decisionNode, this.toolbar, this.chanceBar?.node, this.logNode, this.playersNode));
    replaceChildren(this.main, this.layout);
    const rules = this.state.game.rules;
    this.board = new Board(this.boardNode, this.edition, {
      language: this.state.game.language,
      freeParkingPot: Boolean(rules.options?.free_parking_pot),
      onSpace: (index) => this.spaceCard.open(index),
    });
    this.board.addDiceStrip(this.stripNode);
    this.spaceCard = new SpaceDialog(this);
    this.manage = new ManageDialog(this);
    this.trade = new TradeDialog(this);
    this.resign = new ResignDialog(this);
    this.renderToolbar();
    document.querySelector(".skip-link").setAttribute("href", "#decision");
    document.querySelector(".skip-link").textContent = t("skip_to_actions");
    if (this.absenceTimeout === undefined) {
      api.options(language()).then((options) => {
        this.absenceTimeout = options.absence_timeout;
        this.schedulePresence();
        if (this.layout) this.renderPlayers();
      }).catch(() => {});
    }
  }

  relabel() {
    document.querySelector(".skip-link").textContent = t(this.layout ? "skip_to_actions" : "skip_to_content");
    const conn = document.getElementById("conn");
    if (conn?.dataset.status) conn.textContent = t(`conn_${conn.dataset.status}`);
    if (!this.layout) {
      if (this.lobby) renderWaiting(this.main, this.lobby, this.seat, this.waitingChat(), ...this.hostControls());
      return;
    }
    const state = this.state;
    this.layout = null;
    this.manage.close();
    this.trade.close();
    this.resign.close();
    this.resign.dialog.remove();
    this.spaceCard.close();
    this.manage.dialog.remove();
    this.trade.dialog.remove();
    this.spaceCard.dialog.remove();
    this.buildLayout();
    this.board.update(state, state.game.players);
    this.replaceLog(this.logLines);
    this.renderPlayers();
    this.renderDecision(true);
    this.updateTitle();
  }

  renderToolbar() {
    const buttons = [];
    if (!this.spectator && !this.over) {
      buttons.push(h("button", { type: "button", dataset: { testid: "manage" }, onclick: () => this.manage.open() }, t("manage_properties")));
      buttons.push(h("button", { type: "button", dataset: { testid: "trade" }, onclick: () => this.trade.open() }, t("propose_trade")));
      if (this.state.game.players[this.seat]?.active) {
        buttons.push(h("button", { type: "button", class: "secondary", dataset: { testid: "resign" }, onclick: () => this.resign.open() }, t("resign")));
      }
    } else if (this.spectator) {
      buttons.push(h("span", { class: "badge" }, t("spectating")));
    }
    if (this.state.game.advice) {
      buttons.push(h("span", { class: "badge advice-badge", title: t("advice_on_about"), dataset: { testid: "advice-badge" } }, t("advice_on")));
    }
    if (this.over) buttons.push(h("button", { type: "button", onclick: () => showGameOver(this, this.over) }, t("show_results")));
    buttons.push(h("a", { class: "button secondary", href: "/" }, t("lobby")));
    replaceChildren(this.toolbar, ...buttons);
  }

  updateTitle() {
    const game = this.state.game;
    const words = [this.edition.title, t("turn_n", { turn: game.turn, round: game.round + 1 })];
    document.getElementById("top-title").textContent = words.join(" · ");
    document.title = `${this.edition.title} — MONOPOLY`;
  }

  showStatus(status) {
    const node = document.getElementById("conn");
    node.hidden = false;
    node.dataset.status = status;
    node.textContent = t(`conn_${status}`);
  }

  // ---------------------------------------------------------------- parts
  renderDecision(force = false) {
    if (!this.layout) return;
    keepFocus(this.decisionNode, () => renderDecision(this, this.decisionNode, force));
    const decision = this.state.decision;
    this.shownOffline = decision && !this.over ? offlineText(this, decision.seat, decision.name) : null;
    this.renderToolbar();
    this.tickTimer();
  }

  /** The turn timer's seconds left, at the top of the decision panel, every second. */
  tickTimer() {
    clearTimeout(this.timerTick);
    let clock = this.decisionNode.querySelector(".turn-timer");
    if (this.timerEnds == null || this.over) {
      clock?.remove();
      return;
    }
    const left = Math.max(0, Math.ceil((this.timerEnds - performance.now()) / 1000));
    if (!clock) {
      clock = h("p", { class: "turn-timer", dataset: { testid: "turn-timer" }, role: "timer" });
      this.decisionNode.prepend(clock);
    }
    clock.textContent = t("turn_timer", { seconds: left });
    if (left > 0) this.timerTick = setTimeout(() => this.tickTimer(), 1000);
  }

  renderPlayers() {
    keepFocus(this.playersNode, () => renderPlayers(this, this.playersNode));
    // The panel of a person who is away counts down with the players' list.
    const decision = this.state?.decision;
    if (decision && !this.over && offlineText(this, decision.seat, decision.name) !== (this.shownOffline ?? null)) {
      this.renderDecision(true);
    }
  }

  replaceLog(lines) {
    this.logLines = lines.slice(-LOG_LIMIT);
    replaceChildren(this.logList, ...this.logLines.map((line) => logItem(line)), ...(this.chat || []).map(chatItem));
    this.scrollLog();
  }

  appendLog(lines) {
    this.logLines = (this.logLines || []).concat(lines).slice(-LOG_LIMIT);
    for (const line of lines) this.logList.append(logItem(line));
    while (this.logList.children.length > LOG_LIMIT) this.logList.firstChild.remove();
    this.scrollLog();
  }

  scrollLog() {
    const box = this.logList.parentElement;
    box.scrollTop = box.scrollHeight;
  }

  focusIfMyTurn(previous, current) {
    const mine = (state) => isMine(this, state);
    if (!mine(current) || (mine(previous) && previous.decision.kind === current.decision.kind)) return;
    const active = document.activeElement;
    if (active && active !== document.body && !this.decisionNode.contains(active)) return;
    this.decisionNode.querySelector("[data-primary]")?.focus();
  }

  /**
   * Whether others may hand ``seat`` to a computer player now: the server says so, or the
   * seat has been away for the absence timeout since the last presence message.
   */
  canHandOver(presence) {
    if (!presence || presence.can_hand_to_bot) return Boolean(presence?.can_hand_to_bot);
    const player = this.state?.game.players[presence.seat];
    if (!player?.active || presence.type === "bot" || player.type === "bot" || presence.connected || presence.bot_standin) return false;
    if (this.absenceTimeout === undefined || this.state.game.over) return false;
    const away = presence.absent_for + (performance.now() - this.presenceAt) / 1000;
    return away >= this.absenceTimeout;
  }

  /** Show the hand-over button when an absent seat passes the timeout. */
  schedulePresence() {
    clearTimeout(this.presenceTimer);
    if (this.absenceTimeout === undefined || !this.presence) return;
    const waits = this.presence
      .filter((p) => !p.connected && !p.bot_standin && !p.can_hand_to_bot && p.type !== "bot")
      .map((p) => this.absenceTimeout - p.absent_for - (performance.now() - this.presenceAt) / 1000);
    const next = Math.min(...waits.filter((wait) => wait > 0));
    if (Number.isFinite(next)) this.presenceTimer = setTimeout(() => this.layout && this.renderPlayers(), next * 1000 + 50);
  }

  // ---------------------------------------------------------------- helpers for the parts
  money(amount) {
    return formatMoney(amount, this.edition.terms.currency_symbol, this.state.game.language);
  }

  space(index) {
    return this.edition.spaces[index];
  }

  spaceName(index) {
    return this.edition.spaces[index]?.name ?? String(index);
  }

  player(seat) {
    return this.state.game.players[seat];
  }

  /** Whom a debt is owed to: a player's name, or "the Bank" / "der Bank". */
  creditorName(seat) {
    return seat < 0 ? t("bank_as_creditor", { bank: this.edition.terms.bank }) : this.playerName(seat);
  }

  playerName(seat) {
    if (seat < 0) return this.edition.terms.bank;
    return this.state.game.players[seat]?.name ?? String(seat);
  }

  tokenName(key) {
    return this.edition.tokens.find((token) => token.key === key)?.name || key || "";
  }

  cardName(deck) {
    return `${this.edition.terms.get_out_of_jail_free} (${this.edition.decks[deck] || deck})`;
  }

  /** Take an action (one the server offered); buttons wait for the next state. */
  act(action) {
    if (this.busy || !this.state) return;
    const sent = this.connection.send({ type: "action", state_id: this.state.state_id, action });
    if (!sent) {
      toast(t("conn_reconnecting"), "error");
      return;
    }
    this.busy = true;
    for (const button of this.layout.querySelectorAll("[data-act]")) button.disabled = true;
    // The panel's buttons are off now, so it no longer shows the decision it was drawn
    // for: the next state redraws it, even when that state asks the same (a new turn's
    // roll, with nobody's cash changed, looks just like the last).
    delete this.decisionNode.__key;
  }

  check(action) {
    return this.connection.send({ type: "check", action });
  }

  handToBot(seat) {
    this.connection.send({ type: "hand_to_bot", seat });
  }
}

/** A log line: a turn's heading, an event, or (marked by the server) why it happened. */
function logItem(line) {
  if (line.startsWith(WHY_PREFIX)) return h("li", { class: "log-why" }, line.slice(WHY_PREFIX.length));
  const turn = line.startsWith("—");
  return h("li", { class: turn ? "log-turn" : "" }, line);
}

/** Re-render ``node`` and give focus back to the control with the same data-key. */
function keepFocus(node, render) {
  const active = document.activeElement;
  const key = active && node.contains(active) ? active.dataset.key : null;
  render();
  if (key) {
    const again = node.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus();
    else node.focus();
  }
}
