// Each seat's look: a colour and a shape, the same on the board and in the panels.

import { s } from "./util.js";
import { tokenIcon } from "./tokenicons.js";

/** Seat colours far from every colour group's bar (brown, light blue, pink, orange, red,
 * yellow, green, dark blue, black, grey in all five editions): violet, deep teal, maroon,
 * forest, purple, slate. */
export const COLOURS = ["#6a3fb5", "#006064", "#800000", "#33691e", "#8b008b", "#37474f"];
const SHAPES = ["circle", "square", "triangle", "diamond", "pentagon", "star"];

export function playerColour(seat) {
  return COLOURS[seat % COLOURS.length];
}

export function shapeName(seat) {
  return SHAPES[seat % SHAPES.length];
}

function polygon(count, radius, rotation = -Math.PI / 2, inner = null) {
  const points = [];
  const total = inner ? count * 2 : count;
  for (let i = 0; i < total; i += 1) {
    const r = inner && i % 2 ? inner : radius;
    const angle = rotation + (i * 2 * Math.PI) / total;
    points.push(`${(r * Math.cos(angle)).toFixed(2)},${(r * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

/** The seat's shape, centred on (0, 0), radius ``r``. */
export function tokenShape(seat, r) {
  const attrs = { fill: playerColour(seat), class: "token-shape" };
  switch (shapeName(seat)) {
    case "square":
      return s("rect", { x: -r * 0.85, y: -r * 0.85, width: r * 1.7, height: r * 1.7, rx: 2, ...attrs });
    case "triangle":
      return s("polygon", { points: polygon(3, r * 1.2, -Math.PI / 2), transform: `translate(0 ${r * 0.2})`, ...attrs });
    case "diamond":
      return s("polygon", { points: polygon(4, r * 1.1), ...attrs });
    case "pentagon":
      return s("polygon", { points: polygon(5, r * 1.05), ...attrs });
    case "star":
      return s("polygon", { points: polygon(5, r * 1.25, -Math.PI / 2, r * 0.6), ...attrs });
    default:
      return s("circle", { r, ...attrs });
  }
}

/** A small inline SVG of the seat's token (``key``: its drawing) for panels and lists. */
export function tokenBadge(seat, title, key = null) {
  const svg = s("svg", { viewBox: "-18 -18 36 36", width: 26, height: 26, class: "token-badge", role: "img", "aria-label": title, style: `--seat-colour:${playerColour(seat)}` });
  svg.append(s("title", {}, title));
  svg.append(tokenShape(seat, 15));
  const icon = key ? tokenIcon(key, 1) : null;
  if (icon) svg.append(icon);
  return svg;
}
