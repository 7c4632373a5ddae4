// A space's card, opened by clicking or tapping the space on the board: its title deed
// with the owner, the rent it costs now, its buildings and its mortgage.

import { h, replaceChildren } from "./util.js";
import { t } from "./i18n.js";
import { deedCard, liftCost } from "./decision.js";

/** The rent landing on ``index`` costs now: {amount} or {times} (× the dice), or null. */
export function currentRent(screen, index) {
  const game = screen.state.game;
  const space = screen.space(index);
  const owner = game.owner[index];
  if (owner === undefined || owner < 0 || game.mortgaged[index]) return null;
  const owned = (kind) => screen.edition.spaces.filter((s) => s.kind === kind && game.owner[s.index] === owner).length;
  if (space.kind === "street") {
    const level = game.level[index];
    if (level >= game.hotel_level) return { amount: space.rents[5] };
    if (level > 0) return { amount: space.rents[level] };
    const group = screen.edition.groups[space.group]?.spaces || [index];
    const whole = group.every((s) => game.owner[s] === owner);
    return { amount: whole ? space.rents[0] * 2 : space.rents[0] };
  }
  if (space.kind === "railroad") return { amount: screen.edition.numbers.railroad_rents[owned("railroad") - 1] };
  if (space.kind === "utility") return { times: screen.edition.numbers.utility_multipliers[owned("utility") - 1] };
  return null;
}

function buildingsText(screen, level) {
  const terms = screen.edition.terms;
  const game = screen.state.game;
  if (level >= game.hotel_level) return `1 ${terms.hotel}`;
  if (level === 0) return t("no_buildings");
  return `${level} ${level === 1 ? terms.house : terms.houses}`;
}

/** What landing on (or passing) a space that is no deed does, in this game's rules. */
function spaceRule(screen, space) {
  const terms = screen.edition.terms;
  const options = screen.state.game.rules?.options || {};
  const salary = screen.edition.numbers.go_salary;
  switch (space.kind) {
    case "go":
      return [options.double_go_salary
        ? t("space_go_double", { go: terms.go, amount: screen.money(salary), double: screen.money(2 * salary) })
        : t("space_go", { go: terms.go, amount: screen.money(salary) })];
    case "tax":
      return [t("space_tax", { amount: screen.money(space.tax) })];
    case "chance":
    case "community_chest":
      return [t("space_draw", { deck: screen.edition.decks[space.deck] || terms[space.deck] }),
        t("space_deck_size", { count: screen.state.game.decks?.[space.deck] ?? 0 })];
    case "jail":
      return [t("space_visiting", { visiting: terms.just_visiting })];
    case "free_parking":
      return [options.free_parking_pot
        ? t("space_pot", { amount: screen.money(screen.state.game.free_parking_pot) })
        : t("space_nothing")];
    case "go_to_jail":
      return [t("space_go_to_jail", { jail: terms.jail, go: terms.go })];
    default:
      return [];
  }
}

export class SpaceDialog {
  constructor(screen) {
    this.screen = screen;
    this.body = h("div", { class: "dialog-body" });
    this.heading = h("h2", { id: "space-heading" });
    this.dialog = h("dialog", { class: "space-dialog", "aria-labelledby": "space-heading", dataset: { testid: "space-card" } },
      h("div", { class: "dialog-head" }, this.heading,
        h("button", { type: "button", class: "close", "aria-label": t("close"), onclick: () => this.close() }, "×")),
      this.body);
    this.dialog.addEventListener("click", (event) => { if (event.target === this.dialog) this.close(); });
    document.body.append(this.dialog);
  }

  open(index) {
    this.index = index;
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  refresh() {
    if (this.dialog.open) this.render();
  }

  render() {
    const screen = this.screen;
    const game = screen.state.game;
    const index = this.index;
    const space = screen.space(index);
    this.heading.textContent = space.name;
    const facts = [];
    if ("price" in space) {
      const owner = game.owner[index];
      facts.push(owner >= 0 ? t("space_owner", { name: screen.playerName(owner) }) : t("space_unowned", { price: screen.money(space.price) }));
      if (game.mortgaged[index]) {
        facts.push(t("space_mortgaged", { amount: screen.money(liftCost(space.mortgage)) }));
      } else if (owner >= 0) {
        const rent = currentRent(screen, index);
        if (rent?.amount !== undefined) facts.push(t("space_rent_now", { amount: screen.money(rent.amount) }));
        if (rent?.times !== undefined) facts.push(t("space_rent_dice", { times: rent.times }));
      }
      if (space.kind === "street") facts.push(t("space_buildings", { what: buildingsText(screen, game.level[index]) }));
    } else {
      facts.push(...spaceRule(screen, space));
    }
    const here = game.players.filter((p) => p.active && p.position === index && !(space.kind === "jail" && p.in_jail)).map((p) => p.name);
    if (here.length) facts.push(t("space_here", { names: here.join(", ") }));
    const jailed = game.players.filter((p) => p.active && p.in_jail).map((p) => p.name);
    if (space.kind === "jail" && jailed.length) facts.push(t("space_in_jail", { names: jailed.join(", "), jail: screen.edition.terms.jail }));
    replaceChildren(this.body,
      h("ul", { class: "space-facts" }, facts.map((fact) => h("li", {}, fact))),
      "price" in space ? deedCard(screen, space) : null);
  }
}
