// What happened, drawn over the board (docs/web.md, "What happened"): the last turn of every other
// player framed in that player's colour until this seat moves again (its tile and pieces animate
// in: motion.ts), the features that scored outlined with their points
// (+N), the cells' coordinates on the board's edges (a setting), and the tile a hovered log line
// names. A layer of its own on top of the board, which takes no clicks.
import { s } from "./util";
import { CELL } from "./board";
import type { View } from "./types";

const S = CELL;

export interface Seen { me: number; colours: string[]; coords: boolean; hover: string | null }

// The tile of each other player's last turn, while it is newer than this seat's last tile
// (a spectator sees every player's).
export function lastTurns(v: View, me: number): { seat: number; x: number; y: number; index: number }[] {
  const tiles = v.board.tiles;
  let mine = -1;
  if (me >= 0) tiles.forEach((t, i) => { if (t.player === me) mine = i; });
  const out: { seat: number; x: number; y: number; index: number }[] = [];
  for (const p of v.players) {
    if (p.seat === me) continue;
    let last = -1;
    tiles.forEach((t, i) => { if (t.player === p.seat) last = i; });
    if (last > mine) out.push({ seat: p.seat, x: tiles[last].x, y: tiles[last].y, index: last });
  }
  return out;
}

export function drawSeen(svg: SVGSVGElement, v: View, o: Seen): void {
  svg.querySelector(":scope > g.seen")?.remove();
  const layer = s("g", { class: "seen", "pointer-events": "none" });
  const recent = lastTurns(v, o.me);
  for (const r of recent) {
    const c = o.colours[r.seat] ?? "#888";
    const key = `${r.x},${r.y}`;
    layer.append(s("rect", { class: "last-turn", x: r.x * S + 2.5, y: r.y * S + 2.5, width: S - 5, height: S - 5, rx: 4, stroke: c, "data-last-turn": r.seat, "data-last-cell": key }));
    const pieces = v.board.pieces.filter((p) => p.player === r.seat && p.x === r.x && p.y === r.y);
    for (const p of pieces) layer.append(s("circle", { class: "last-piece", cx: (p.x + p.anchor[0]) * S, cy: (p.y + p.anchor[1]) * S, r: 15, stroke: c, "data-last-piece": `${p.x},${p.y},${p.port}` }));
  }
  // the features the last tile completed: outlined, with their points, in the scorer's colour
  const lastCells = new Set(v.board.tiles.filter((t) => t.last).map((t) => `${t.x},${t.y}`));
  if (!lastCells.size && v.board.tiles.length) { const t = v.board.tiles[v.board.tiles.length - 1]; if (t.player >= 0) lastCells.add(`${t.x},${t.y}`); }
  // a feature the last tile is part of; or, for a scoring of the last turn that none of those
  // is (a monastery completed by its last neighbour), a feature of that type and scorer on a cell
  // next to the last tile (one completed before has no empty cell around it for a tile to come)
  const scored = v.board.features.filter((f) => f.completed && f.owners.length && f.points > 0);
  const shown = scored.filter((f) => f.cells.some(([x, y]) => lastCells.has(`${x},${y}`)));
  const near = (f: (typeof scored)[number]) => f.cells.some(([x, y]) => [-1, 0, 1].some((dx) => [-1, 0, 1].some((dy) => lastCells.has(`${x + dx},${y + dy}`))));
  const told = new Set<string>();  // "feature:seat": a scoring of the last turn matched
  for (const e of v.last_turn) {
    if (!e.feature || e.points <= 0) continue;
    const fits = (q: (typeof scored)[number]) => q.type === e.feature && q.owners.includes(e.player) && !told.has(`${q.id}:${e.player}`);
    let f = shown.find(fits);
    if (!f) { f = scored.find((q) => fits(q) && !shown.includes(q) && near(q)); if (f) shown.push(f); }
    if (f) told.add(`${f.id}:${e.player}`);
  }
  for (const f of shown) {
    const c = o.colours[f.owners[0]] ?? "#888";
    const g = s("g", { class: "scored", "data-scored": f.id, "data-feature-type": f.type, "data-points": f.points, "data-owners": f.owners.join(" ") });
    for (const [x, y] of f.cells) g.append(s("rect", { class: "scored-cell", x: x * S + 8, y: y * S + 8, width: S - 16, height: S - 16, rx: 10, stroke: c }));
    const cx = f.cells.reduce((a, [x]) => a + x, 0) / f.cells.length, cy = f.cells.reduce((a, [, y]) => a + y, 0) / f.cells.length;
    const label = s("text", { class: "points", x: (cx + 0.5) * S, y: (cy + 0.5) * S + 9, fill: c });
    label.textContent = `+${f.points}`;
    g.append(label);
    layer.append(g);
  }
  if (o.hover) {
    // a log line's tile, or a cell a game's panel names (a tile there or not)
    const [x, y] = o.hover.split(",").map(Number);
    layer.append(s("rect", { class: "log-hover", "data-log-hover": o.hover, x: x * S - 2, y: y * S - 2, width: S + 4, height: S + 4, rx: 6 }));
  }
  if (o.coords) layer.append(coordinates(v));
  svg.append(layer);
}

// Each column's x along the top edge and each row's y along the left edge of the board, where
// the notation's "x,y" can be read off.
function coordinates(v: View): SVGGElement {
  const cells: [number, number][] = v.board.tiles.map((t) => [t.x, t.y]);
  for (const o of v.decision.options) if (o.x !== undefined && o.y !== undefined) cells.push([o.x, o.y]);
  const g = s("g", { class: "coords", "data-coords": "" });
  if (!cells.length) return g;
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  for (let x = x0; x <= x1; x++) {
    const tx = s("text", { x: (x + 0.5) * S, y: y0 * S - 10, "data-coord-x": x, "text-anchor": "middle" });
    tx.textContent = String(x);
    g.append(tx);
  }
  for (let y = y0; y <= y1; y++) {
    const ty = s("text", { x: x0 * S - 10, y: (y + 0.5) * S + 7, "data-coord-y": y, "text-anchor": "end" });
    ty.textContent = String(y);
    g.append(ty);
  }
  return g;
}

// The cell a log line's placement names ("Ann: 12 0,-1 r90, ..."), or null.
export function logCell(line: string): string | null {
  const m = /: \S+ (-?\d+),(-?\d+) r\d+/.exec(line);
  return m ? `${m[1]},${m[2]}` : null;
}
