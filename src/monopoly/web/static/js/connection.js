// The WebSocket of one open game (docs/protocol.md): hello with the seat token, messages
// in, actions out, and an automatic reconnect (with a visible status) when it drops.
// The server sends the game's table whole once, then only what changed (`delta`): this
// turns every delta back into a whole `state`, so the rest of the client sees states only.

import { applyPatch } from "./patch.js";

const FATAL = new Set(["bad_token", "unknown_game"]);
const PING_EVERY = 20000;

export class Connection {
  /**
   * @param {string} gameId
   * @param {string|null} token the seat token, or null to watch
   * @param {(message: object) => void} onMessage every message from the server
   * @param {(status: string) => void} onStatus "connecting" | "online" | "reconnecting" | "closed"
   */
  constructor(gameId, token, onMessage, onStatus) {
    this.gameId = gameId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.retries = 0;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
    /** Messages typed while the socket was down, sent in order once the server welcomes us. */
    this.outbox = [];
    /** The last game table the server sent, and its number (the base of the next delta). */
    this.table = null;
    this.seq = null;
    this.syncing = false;
  }

  open() {
    this.stopped = false;
    this.onStatus(this.retries ? "reconnecting" : "connecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}`);
    this.socket = socket;
    this.table = null;
    this.syncing = false;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, deltas: true }));
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => this.dropped(socket));
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "welcome") {
      this.retries = 0;
      this.onStatus("online");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
      this.flush();
    }
    if (message.type === "error" && FATAL.has(message.code)) this.stopped = true;
    if (message.type === "error" && message.request === "sync") this.syncing = false;  // ask again at the next delta
    if (message.type === "state") {
      this.table = message.game;
      this.seq = message.seq;
      this.syncing = false;
    } else if (message.type === "delta") {
      message = this.undelta(message);
      if (!message) return;
    }
    this.onMessage(message);
  }

  /** The whole state a delta stands for; null (and a sync asked for) if its base is not
   * the table we have. */
  undelta(delta) {
    let game = null;
    if (this.table && delta.base === this.seq) {
      try {
        game = applyPatch(this.table, delta.patch);
      } catch {
        game = null;
      }
    }
    if (!game) {
      this.table = null;
      if (!this.syncing) this.syncing = this.send({ type: "sync" });  // a state follows
      return null;
    }
    this.table = game;
    this.seq = delta.seq;
    const { type, base, patch, ...rest } = delta;
    return { type: "state", full: false, log: null, ...rest, game };
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    clearInterval(this.pinger);
    this.socket = null;
    if (this.stopped) {
      this.onStatus("closed");
      return;
    }
    this.retries += 1;
    this.onStatus("reconnecting");
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.retries, 5));
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Send a message; false when the connection is down (the caller may tell the player). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Send a message now, or keep it until the connection is back (chat typed while it
   * reconnects). ``onSent`` runs when it actually goes out. Returns "sent" or "queued".
   */
  sendWhenOnline(message, onSent = () => {}) {
    if (this.send(message)) {
      onSent();
      return "sent";
    }
    this.outbox.push({ message, onSent });
    return "queued";
  }

  flush() {
    const waiting = this.outbox;
    this.outbox = [];
    for (const { message, onSent } of waiting) this.sendWhenOnline(message, onSent);
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
  }
}
