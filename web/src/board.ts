// The board: an SVG composed from the engine's tile pictures (GET /api/tiles/GAME), placed at
// their cells and turned clockwise about their centres, with pieces at the anchors the view gives.
// Pan and zoom by mouse drag, wheel, keyboard and touch (drag, pinch) change only the viewBox.
import { t, word } from "./i18n";
import { s, names } from "./util";
import type { TileIndex, View, OptionView } from "./types";

export const CELL = 100;

export interface BoardHandlers {
  cell(x: number, y: number): void;          // a highlighted cell (a placement or a cell target)
  option(o: OptionView): void;               // a piece spot or a piece target
  rotate(dir: 1 | -1): void;                 // wheel over the tentative tile
  cellOptions(key: string): void;            // a cell several options name: show those
}

export interface Overlay {
  fits: OptionView[];                        // placement cells
  tentative: { tile: string; x: number; y: number; rot: number } | null;
  spots: OptionView[];                       // piece options (anchors)
  cellTargets: OptionView[];                 // actions/choices naming a cell
  pieceTargets: OptionView[];                // actions/choices naming a piece on the board
  cellFilter: string | null;                 // the cell whose options the turn bar lists
  colours: string[];
}


export class Board {
  readonly svg: SVGSVGElement;
  private urls = new Map<string, string>();
  private vb = { x: -250, y: -250, w: 500, h: 500 };
  private autoFit = true;
  private bounds = { x0: 0, y0: 0, x1: 1, y1: 1 };
  private pointers = new Map<number, { x: number; y: number }>();
  private dragged = false;
  private pinch: { d: number; w: number } | null = null;

  constructor(private tiles: TileIndex, private h: BoardHandlers) {
    for (const t of tiles.tiles) this.urls.set(t.id, "data:image/svg+xml;charset=utf-8," + encodeURIComponent(t.svg));
    this.svg = s("svg", { class: "board", "data-board": "", tabindex: 0, role: "img", "aria-label": t("board.label") });
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    const up = (e: PointerEvent) => this.up(e);
    this.svg.addEventListener("pointerup", up);
    this.svg.addEventListener("pointercancel", up);
    this.svg.addEventListener("click", (e) => { if (this.dragged) { e.stopPropagation(); e.preventDefault(); } }, true);
    this.svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    new ResizeObserver(() => this.apply()).observe(this.svg);
  }

  tileURL(id: string): string { return this.urls.get(id) ?? ""; }

  render(v: View, o: Overlay): void {
    const S = CELL;
    const root = s("g");
    const tiles = s("g", { class: "tiles" });
    let x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    const grow = (x: number, y: number) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); };
    v.board.tiles.forEach((t, i) => {
      grow(t.x, t.y);
      const g = s("g", { "data-tile": `${t.x},${t.y}`, "data-tile-id": t.id, "data-rot": t.rot });
      g.append(this.image(t.id, t.x, t.y, t.rot));
      if (i === v.board.tiles.length - 1 && t.player >= 0) g.append(s("rect", { class: "last", x: t.x * S + 2, y: t.y * S + 2, width: S - 4, height: S - 4 }));
      tiles.append(g);
    });
    root.append(tiles);
    // the tentative tile under the marks: a cell an option names stays clickable on top of it
    if (o.tentative) {
      const t = o.tentative;
      const g = s("g", { class: "tentative", "data-tentative": `${t.x},${t.y}`, "data-rot": t.rot });
      g.append(this.image(t.tile, t.x, t.y, t.rot));
      g.append(s("rect", { class: "tentative-frame", x: t.x * S + 1.5, y: t.y * S + 1.5, width: S - 3, height: S - 3 }));
      g.addEventListener("wheel", (e) => { e.preventDefault(); e.stopPropagation(); this.h.rotate(e.deltaY > 0 ? 1 : -1); }, { passive: false });
      root.append(g);
    }
    const marks = s("g", { class: "fits" });
    for (const f of o.fits) {
      grow(f.x!, f.y!);
      const chosen = o.tentative && o.tentative.x === f.x && o.tentative.y === f.y;
      const r = s("rect", { class: chosen ? "fit chosen" : "fit", x: f.x! * S + 3, y: f.y! * S + 3, width: S - 6, height: S - 6, rx: 6, "data-cell": `${f.x},${f.y}`, "data-rots": (f.rots ?? []).join(" ") });
      r.addEventListener("click", () => this.h.cell(f.x!, f.y!));
      marks.append(r);
    }
    // cells that options name: one mark per cell; a cell named by several options picks them out
    const byCell = new Map<string, OptionView[]>();
    for (const c of o.cellTargets) byCell.set(`${c.x},${c.y}`, [...(byCell.get(`${c.x},${c.y}`) ?? []), c]);
    for (const [key, list] of byCell) {
      const c = list[0];
      grow(c.x!, c.y!);
      const chosen = o.cellFilter === key;
      const r = s("rect", { class: chosen ? "fit target chosen-cell" : "fit target", x: c.x! * S + 3, y: c.y! * S + 3, width: S - 6, height: S - 6, rx: 6, "data-target-cell": key, "data-notation": list.length === 1 ? c.notation : undefined, "data-count": list.length });
      r.append(s("title", {}, document.createTextNode(list.map((x) => x.text).join("\n"))));
      r.addEventListener("click", () => list.length === 1 ? this.h.option(c) : this.h.cellOptions(key));
      marks.append(r);
    }
    root.append(marks);
    // what the game stands on the board besides tiles and pieces (overlays), with the look's glyphs
    const overlays = s("g", { class: "overlays", "pointer-events": "none" });  // the marks under them take the clicks
    for (const ov of v.board.overlays) {
      if (ov.at === "track") continue;
      const cell = ov.at === "cell";
      const g = s("g", { class: `overlay ${ov.glyph ?? ov.id.split(":")[0]}${ov.done ? " done" : ""}`, "data-overlay": ov.id, "data-at": ov.at, "data-x": ov.x, "data-y": ov.y,
        transform: `translate(${(ov.x + (cell ? 0.5 : 0)) * S},${(ov.y + (cell ? 0.5 : 0)) * S})` });
      g.append(s("title", {}, document.createTextNode(names(ov.label, v.players))));
      if (ov.glyph) { const gl = this.glyph(ov.glyph, ov.seat ?? -1, o.colours); if (gl) g.append(gl); }
      for (const p of ov.parts) {
        const gl = this.glyph(p.glyph, p.seat ?? -1, o.colours);
        if (!gl) continue;
        const part = s("g", { class: `part ${p.glyph}`, transform: `translate(${p.dx * S},${p.dy * S})${p.rot ? ` rotate(${p.rot})` : ""}`, "data-player": p.seat });
        if (p.label) part.append(s("title", {}, document.createTextNode(names(p.label, v.players))));
        part.append(gl);
        g.append(part);
      }
      overlays.append(g);
    }
    root.append(overlays);
    const pieces = s("g", { class: "pieces" });
    for (const p of v.board.pieces) {
      const g = this.piece(p.piece, p.feature, p.player, o.colours, (p.x + p.anchor[0]) * S, (p.y + p.anchor[1]) * S);
      g.setAttribute("data-piece", `${p.x},${p.y},${p.port}`);
      g.setAttribute("data-owner", String(p.player));
      g.append(s("title", {}, document.createTextNode(t("board.piece", { name: v.players[p.player]?.name ?? "", piece: word("piece", p.piece), feature: word("feature", p.feature) }))));
      pieces.append(g);
    }
    root.append(pieces);
    const spots = s("g", { class: "spots" });
    // marks at their anchors, then spread: options at the same spot (a tribe member on a river and
    // a network piece on its network) end side by side, marks of nearby ports apart
    const at = o.spots.map((o2) => {
      const a = o2.anchor ?? [0.5, 0.5];
      return { x: (o2.x! + a[0]) * S, y: (o2.y! + a[1]) * S };
    });
    spreadSpots(at, 28);
    o.spots.forEach((o2, i) => {
      const key = `${o2.x},${o2.y},${o2.port}`;
      const { x: cx, y: cy } = at[i];
      const second = o2.piece === this.tiles.piece_names[1];
      const g = s("g", { class: second ? "spot second" : "spot", "data-spot": key, "data-notation": o2.notation, "data-piece-kind": o2.piece, tabindex: 0 });
      g.append(second ? s("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24, rx: 3 }) : s("circle", { cx, cy, r: 13 }));
      const worth = s("text", { x: cx, y: cy + 4.5, class: "spot-worth" });
      worth.textContent = String(o2.worth?.points ?? "");
      g.append(worth, s("title", {}, document.createTextNode(o2.text)));
      g.addEventListener("click", () => this.h.option(o2));
      spots.append(g);
    });
    for (const o2 of o.pieceTargets) {
      const p = v.board.pieces.find((q) => q.x === o2.x && q.y === o2.y && q.port === o2.port);
      const a = p?.anchor ?? [0.5, 0.5];
      const g = s("g", { class: "spot target", "data-target-piece": `${o2.x},${o2.y},${o2.port}`, "data-notation": o2.notation });
      g.append(s("circle", { cx: (o2.x! + a[0]) * S, cy: (o2.y! + a[1]) * S, r: 17 }), s("title", {}, document.createTextNode(o2.text)));
      g.addEventListener("click", () => this.h.option(o2));
      spots.append(g);
    }
    root.append(spots);
    this.svg.replaceChildren(root);
    this.svg.setAttribute("data-tiles", String(v.board.tiles.length));
    this.bounds = { x0, y0, x1: x1 + 1, y1: y1 + 1 };
    if (this.autoFit) this.fit(); else this.apply();
  }

  private image(id: string, x: number, y: number, rot: number): SVGImageElement {
    const S = CELL;
    return s("image", { href: this.tileURL(id), x: x * S, y: y * S, width: S, height: S, transform: rot ? `rotate(${rot} ${x * S + S / 2} ${y * S + S / 2})` : undefined });
  }

  // A piece: the look's glyph for it (by name; a piece claiming a feature's network; by kind), in
  // its owner's colour; a piece of the first kind on a field lies down.
  private piece(name: string, feature: string, player: number, colours: string[], x: number, y: number): SVGGElement {
    const L = this.tiles.look;
    const kind = name === this.tiles.piece_names[0] ? 0 : 1;
    const ft = this.tiles.feature_types.find((f) => f.name === feature);
    const network = !!ft && ft.piece !== name && ft.network_piece === name;
    const glyph = L.pieces[name] ?? (network ? L.pieces["network"] : undefined) ?? L.pieces[String(kind)] ?? "meeple";
    const lying = kind === 0 && ft?.class === "field";
    const g = s("g", { class: `piece ${name.replace(/ /g, "-")}`, transform: `translate(${x},${y})${lying ? " rotate(90)" : ""}` });
    const gl = this.glyph(glyph, player, colours);
    if (gl) g.append(gl);
    return g;
  }

  // A glyph of the look scaled to the board (a tile is CELL units here, 64 in the look), in a
  // seat's colour when seat >= 0.
  glyph(name: string, seat: number, colours: string[], scale = CELL / 64): SVGGElement | null {
    const gl = this.tiles.look.glyphs[name];
    if (!gl) return null;
    const g = s("g", { transform: `scale(${scale})` });
    if (seat >= 0) {
      const c = colours[seat] ?? "#888";
      g.setAttribute("fill", c); g.setAttribute("color", c);
      g.setAttribute("stroke", seat === 4 ? "#eee" : "#111"); g.setAttribute("stroke-width", "1.2"); g.setAttribute("stroke-linejoin", "round");
    }
    g.innerHTML = gl.svg;
    return g;
  }

  // ---- view box: fit, pan, zoom ----
  fit(): void {
    this.autoFit = true;
    const m = CELL * 0.6;
    const b = this.bounds;
    this.vb = { x: b.x0 * CELL - m, y: b.y0 * CELL - m, w: (b.x1 - b.x0) * CELL + 2 * m, h: (b.y1 - b.y0) * CELL + 2 * m };
    this.apply();
  }
  zoom(f: number, cx?: number, cy?: number): void {
    this.autoFit = false;
    const x = cx ?? this.vb.x + this.vb.w / 2, y = cy ?? this.vb.y + this.vb.h / 2;
    const w = Math.min(Math.max(this.vb.w / f, CELL * 1.5), CELL * 80);
    const k = w / this.vb.w;
    this.vb = { x: x - (x - this.vb.x) * k, y: y - (y - this.vb.y) * k, w, h: this.vb.h * k };
    this.apply();
  }
  pan(dx: number, dy: number): void {  // in board units
    this.autoFit = false;
    this.vb.x += dx;
    this.vb.y += dy;
    this.apply();
  }
  panKey(dirx: number, diry: number): void { this.pan(dirx * this.scaleW() * 0.15, diry * this.scaleW() * 0.15); }
  private scaleW(): number { const r = this.svg.getBoundingClientRect(); return Math.max(this.vb.w, (this.vb.h * r.width) / Math.max(1, r.height)); }
  private apply(): void {
    // keep the aspect of the element: the view box grows along the longer side
    const r = this.svg.getBoundingClientRect();
    let { x, y, w, h } = this.vb;
    if (r.width > 0 && r.height > 0) {
      const want = r.width / r.height;
      if (w / h < want) { const nw = h * want; x -= (nw - w) / 2; w = nw; } else { const nh = w / want; y -= (nh - h) / 2; h = nh; }
    }
    this.svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
    this.svg.setAttribute("data-zoom", (CELL * 5 / w).toFixed(3));
  }
  private toBoard(px: number, py: number): { x: number; y: number; k: number } {
    const r = this.svg.getBoundingClientRect();
    const vb = this.svg.viewBox.baseVal;
    const k = vb.width / Math.max(1, r.width);
    return { x: vb.x + (px - r.left) * k, y: vb.y + (py - r.top) * k, k };
  }
  private down(e: PointerEvent): void {
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 1) this.dragged = false;
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), w: this.vb.w };
    }
  }
  private move(e: PointerEvent): void {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    if (this.pointers.size >= 2 && this.pinch) {
      p.x = e.clientX; p.y = e.clientY;
      const [a, b] = [...this.pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const mid = this.toBoard((a.x + b.x) / 2, (a.y + b.y) / 2);
      const target = this.pinch.w * (this.pinch.d / Math.max(1, d));
      this.zoom(this.vb.w / target, mid.x, mid.y);
      this.dragged = true;
      return;
    }
    if (!this.dragged && Math.hypot(dx, dy) < 6) return;
    if (!this.dragged) { this.dragged = true; try { this.svg.setPointerCapture(e.pointerId); } catch { /* gone */ } }
    const k = this.toBoard(0, 0).k;
    p.x = e.clientX; p.y = e.clientY;
    this.pan(-dx * k, -dy * k);
  }
  private up(e: PointerEvent): void {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    // a click after a drag is swallowed (capture listener), then clicks work again
    if (this.dragged) setTimeout(() => { if (this.pointers.size === 0) this.dragged = false; }, 0);
  }
  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const p = this.toBoard(e.clientX, e.clientY);
    this.zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, p.x, p.y);
  }
}

// Moves spots whose marks would overlap apart until their centres are at least `gap` apart (two
// ports of one tile can sit close together, as a river's S and SSW can, and the
// later mark would hide the earlier one): a few rounds of pushing each close pair apart evenly,
// deterministic for the same spots.
export function spreadSpots(at: { x: number; y: number }[], gap: number): void {
  for (let round = 0; round < 30; round++) {
    let moved = false;
    for (let i = 0; i < at.length; i++) {
      for (let j = i + 1; j < at.length; j++) {
        const dx = at[j].x - at[i].x, dy = at[j].y - at[i].y;
        const d = Math.hypot(dx, dy);
        if (d >= gap - 0.01) continue;
        const [ux, uy] = d < 0.01 ? [1, 0] : [dx / d, dy / d];  // the same point: side by side
        const push = (gap - d) / 2;
        at[i].x -= ux * push; at[i].y -= uy * push;
        at[j].x += ux * push; at[j].y += uy * push;
        moved = true;
      }
    }
    if (!moved) return;
  }
}
