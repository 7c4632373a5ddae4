// Chat at the table: a line to type in (seated players only) and the messages, shown as
// plain text. In the game they join the log; in the waiting room they have a list.

import { h } from "./util.js";
import { t } from "./i18n.js";

export const MAX_CHAT = 300;

/** One chat message as a list item ("Ann: hello"), text only. */
export function chatItem(message) {
  return h("li", { class: "log-chat", dataset: { seat: message.seat } },
    h("span", { class: "chat-name" }, `${message.name}: `), message.text);
}

/**
 * The form to send a message. A message typed while the connection is down is kept and
 * sent when it is back; a note under the line says so until then.
 */
export function chatForm(screen) {
  const input = h("input", {
    type: "text", maxlength: MAX_CHAT, class: "chat-input", id: "chat-input", autocomplete: "off",
    placeholder: t("chat_placeholder"), "aria-label": t("chat_label"), dataset: { key: "chat-input" },
  });
  const note = h("p", { class: "chat-note", role: "status", dataset: { testid: "chat-queued" }, hidden: true });
  const form = h("form", { class: "chat-form", dataset: { testid: "chat-form" } }, input,
    h("button", { type: "submit", class: "small", dataset: { key: "chat-send" } }, t("chat_send")), note);
  const sent = () => {
    note.hidden = true;
    note.textContent = "";
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    if (screen.connection.sendWhenOnline({ type: "chat", text }, sent) === "queued") {
      note.textContent = t("chat_queued");
      note.hidden = false;
    }
  });
  return form;
}
