// "Resign": a player can always leave a lost game. The dialog says what it means and asks
// for a confirmation; the server then makes the seat bankrupt to the player it is raising
// cash for (who receives its cash, deeds and cards), otherwise to the Bank (its deeds are
// auctioned), and, in the short game, ends the game once that is settled.

import { h, replaceChildren } from "./util.js";
import { t } from "./i18n.js";

export class ResignDialog {
  constructor(screen) {
    this.screen = screen;
    this.body = h("div", { class: "dialog-body" });
    this.dialog = h("dialog", { class: "resign-dialog", "aria-labelledby": "resign-heading", dataset: { testid: "resign-dialog" } },
      h("div", { class: "dialog-head" },
        h("h2", { id: "resign-heading" }, t("resign_title")),
        h("button", { type: "button", class: "close", "aria-label": t("close"), onclick: () => this.close() }, "×")),
      this.body);
    document.body.append(this.dialog);
  }

  open() {
    const screen = this.screen;
    const short = String(screen.state.game.rules?.preset || "").includes("short");
    const terms = screen.edition.terms;
    const words = { bank: terms.bank, houses: terms.houses, hotels: terms.hotels, card: terms.get_out_of_jail_free };
    // Raising cash for a debt to a player, resigning makes you bankrupt to that player
    // (R-BANKRUPT-2); otherwise to the Bank, whose auctions sell your deeds (R-BANKRUPT-3).
    const owed = screen.state.resign_to;
    const toPlayer = owed && owed.creditor >= 0;
    const explained = toPlayer
      ? t("resign_to_player", { ...words, creditor: screen.playerName(owed.creditor), amount: screen.money(owed.amount) })
      : t("resign_explained", words);
    replaceChildren(this.body,
      h("p", { dataset: { testid: "resign-explained", to: toPlayer ? String(owed.creditor) : "bank" } }, explained),
      short ? h("p", {}, t("resign_short_game")) : null,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger", dataset: { testid: "resign-confirm" }, onclick: () => this.confirm() }, t("resign_confirm")),
        h("button", { type: "button", class: "secondary", dataset: { testid: "resign-cancel" }, onclick: () => this.close() }, t("cancel"))));
    if (!this.dialog.open) this.dialog.showModal();
    this.body.querySelector("[data-testid=resign-cancel]").focus();
  }

  confirm() {
    this.close();
    this.screen.connection.send({ type: "resign" });
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }
}
