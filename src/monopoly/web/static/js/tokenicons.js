// A small drawing of every token of every edition (the dog, the Triforce, the Vault
// door...), white on the seat's coloured shape. Drawn in a box from -10 to 10 around
// (0, 0); our own simple figures, one per token key.

import { s } from "./util.js";

const fill = (d) => s("path", { d, class: "glyph" });
const line = (d) => s("path", { d, class: "glyph-line" });
const dot = (cx, cy, r) => s("circle", { cx, cy, r, class: "glyph" });
const ring = (cx, cy, r) => s("circle", { cx, cy, r, class: "glyph-line" });
const box = (x, y, width, height, rx = 0) => s("rect", { x, y, width, height, rx, class: "glyph" });

const ICONS = {
  // classic
  scottie_dog: () => [fill("M-9 -1 L-7 -6 L-5 -2 L4 -2 L6 -7 L8 -6 L8 -3 L10 -2 L8 0 L7 6 L5 6 L4 2 L-4 2 L-5 6 L-7 6 L-7 1 Z")],
  top_hat: () => [box(-6, -9, 12, 13, 1), box(-10, 3, 20, 3, 1.5), s("rect", { x: -6, y: 0, width: 12, height: 2, class: "glyph-cut" })],
  race_car: () => [fill("M-10 3 L-9 -1 L-4 -2 L-1 -6 L4 -6 L6 -2 L10 -1 L10 3 Z"), dot(-5, 4, 3), dot(6, 4, 3)],
  battleship: () => [fill("M-10 1 L10 1 L7 6 L-7 6 Z"), box(-4, -4, 8, 5), box(-1, -9, 2, 6), box(4, -2, 5, 1.5)],
  cat: () => [fill("M-7 -2 L-7 -10 L-2 -5 L2 -5 L7 -10 L7 -2 A7 7 0 1 1 -7 -2 Z"), s("circle", { cx: -3, cy: 0, r: 1.3, class: "glyph-cut" }), s("circle", { cx: 3, cy: 0, r: 1.3, class: "glyph-cut" })],
  boot: () => [fill("M-5 -10 L3 -10 L3 1 L9 3 L10 8 L-6 8 L-6 2 Z")],
  thimble: () => [fill("M-7 8 L-6 -4 A6 6 0 0 1 6 -4 L7 8 Z"), ...[-3, 0, 3].map((x) => s("circle", { cx: x, cy: 1, r: 1, class: "glyph-cut" }))],
  wheelbarrow: () => [fill("M-10 -4 L6 -4 L3 3 L-6 3 Z"), line("M6 -4 L10 -7"), dot(-2, 6, 3)],
  // Cthulhu
  necronomicon: () => [box(-8, -9, 16, 18, 1.5), s("polygon", { points: "0,-5 1.5,-0.5 5,-0.5 2,2 3.5,6 0,3.5 -3.5,6 -2,2 -5,-0.5 -1.5,-0.5", class: "glyph-cut" })],
  cultists_tablet: () => [fill("M-7 9 L-7 -5 A7 5 0 0 1 7 -5 L7 9 Z"), ...[-3, 1, 5].map((y) => s("rect", { x: -4, y, width: 8, height: 1.3, class: "glyph-cut" }))],
  cthulhu_statuette: () => [s("ellipse", { cx: 0, cy: -4, rx: 7, ry: 6, class: "glyph" }), line("M-4 1 Q-6 6 -3 9 M0 2 L0 9 M4 1 Q6 6 3 9"), s("circle", { cx: -2.5, cy: -5, r: 1.2, class: "glyph-cut" }), s("circle", { cx: 2.5, cy: -5, r: 1.2, class: "glyph-cut" })],
  shining_trapezohedron: () => [s("polygon", { points: "0,-10 8,-3 5,9 -5,9 -8,-3", class: "glyph" }), line("M0 -10 L0 9 M-8 -3 L8 -3")],
  hound_amulet: () => [ring(0, 0, 8), s("polygon", { points: "0,-5 5,4 -5,4", class: "glyph" })],
  dagon_dagger: () => [fill("M-1.5 -10 L1.5 -10 L2 3 L-2 3 Z"), box(-6, 3, 12, 2), box(-1.5, 5, 3, 5)],
  // Fallout
  vault_boy: () => [ring(0, -1, 8), s("circle", { cx: -3, cy: -3, r: 1.3, class: "glyph" }), s("circle", { cx: 3, cy: -3, r: 1.3, class: "glyph" }), line("M-4 2 Q0 6 4 2")],
  mini_nuke: () => [s("ellipse", { cx: 0, cy: 1, rx: 6, ry: 8, class: "glyph" }), fill("M-6 -6 L-9 -10 L9 -10 L6 -6 Z")],
  nuka_cola_bottle: () => [fill("M-2 -10 L2 -10 L2 -5 Q6 -3 6 2 L6 10 L-6 10 L-6 2 Q-6 -3 -2 -5 Z"), s("rect", { x: -6, y: 1, width: 12, height: 3, class: "glyph-cut" })],
  pistol_10mm: () => [fill("M-10 -6 L8 -6 L8 -1 L-1 -1 L-2 8 L-8 8 L-6 -1 L-10 -1 Z")],
  power_armor_helmet: () => [fill("M-8 6 L-8 -2 A8 8 0 0 1 8 -2 L8 6 Z"), s("rect", { x: -6, y: -2, width: 12, height: 3, rx: 1, class: "glyph-cut" }), s("rect", { x: -2, y: 3, width: 4, height: 3, class: "glyph-cut" })],
  vault_111_door: () => [s("circle", { cx: 0, cy: 0, r: 9, class: "glyph" }), ...Array.from({ length: 8 }, (_, i) => s("rect", { x: -1.2, y: -10.5, width: 2.4, height: 3, class: "glyph", transform: `rotate(${i * 45})` })), s("circle", { cx: 0, cy: 0, r: 4, class: "glyph-cut" })],
  // Transformers
  autobot_insignia: () => [fill("M0 -10 L8 -6 L7 4 L0 10 L-7 4 L-8 -6 Z"), s("polygon", { points: "-5,-2 -1,0 -1,3 -5,1", class: "glyph-cut" }), s("polygon", { points: "5,-2 1,0 1,3 5,1", class: "glyph-cut" })],
  decepticon_insignia: () => [fill("M-9 -9 L0 -4 L9 -9 L6 3 L0 10 L-6 3 Z"), s("polygon", { points: "-5,-4 -1,-1 -2,3", class: "glyph-cut" }), s("polygon", { points: "5,-4 1,-1 2,3", class: "glyph-cut" })],
  energon_cube: () => [s("polygon", { points: "0,-9 8,-5 8,5 0,9 -8,5 -8,-5", class: "glyph" }), line("M-8 -5 L0 -1 L8 -5 M0 -1 L0 9")],
  matrix_of_leadership: () => [s("polygon", { points: "0,-10 7,-3 5,8 -5,8 -7,-3", class: "glyph" }), s("circle", { cx: 0, cy: 0, r: 3, class: "glyph-cut" })],
  allspark: () => [box(-8, -8, 16, 16, 2), line("M-4 -4 L4 -4 L4 0 L-4 0 L-4 4 L4 4")],
  ion_blaster: () => [fill("M-10 -4 L6 -4 L10 -2 L6 0 L2 0 L1 7 L-4 7 L-3 0 L-10 0 Z")],
  // Zelda
  hylian_shield: () => [fill("M-8 -9 L8 -9 L8 1 Q8 7 0 10 Q-8 7 -8 1 Z"), s("polygon", { points: "0,-6 3,-1 -3,-1", class: "glyph-cut" })],
  triforce: () => [s("polygon", { points: "0,-9 4.5,-1 -4.5,-1", class: "glyph" }), s("polygon", { points: "-4.5,-1 0,7 -9,7", class: "glyph" }), s("polygon", { points: "4.5,-1 9,7 0,7", class: "glyph" })],
  fairy_slingshot: () => [line("M0 9 L0 0 M0 0 L-6 -8 M0 0 L6 -8 M-6 -8 Q0 -3 6 -8")],
  boomerang: () => [fill("M-9 -6 Q0 -2 9 -6 L6 -1 Q0 2 -6 -1 Z"), fill("M-9 -6 L-6 -1 L-3 8 L-6 8 Z")],
  hookshot: () => [box(-9, -2, 8, 5, 1), line("M-1 0 L5 0"), fill("M5 -5 L10 0 L5 5 L7 0 Z")],
  fairy_bow: () => [line("M-4 -10 Q8 0 -4 10 M-4 -10 L-4 10 M-8 0 L8 0"), fill("M8 0 L5 -2 L5 2 Z")],
};

/** The drawing of ``key`` (an edition's token), or null when there is none. */
export function tokenIcon(key, scale = 1) {
  const draw = ICONS[key];
  if (!draw) return null;
  return s("g", { class: "token-icon", transform: `scale(${scale})`, "aria-hidden": "true" }, ...draw());
}

export function hasTokenIcon(key) {
  return key in ICONS;
}
