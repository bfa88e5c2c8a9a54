// The board: an SVG composed from the engine's tile pictures (GET /api/tiles/GAME), placed at
// their cells and turned clockwise about their centres, with pieces at the anchors the view gives.
// Pan and zoom by mouse drag, wheel, keyboard and touch (drag, pinch) change only the viewBox.
import { t, word } from "./i18n";
import { s, names } from "./util";
import type { TileIndex, View, OptionView, OverlayView } from "./types";

export const CELL = 100;

export interface BoardHandlers {
  cell(x: number, y: number): void;          // a highlighted placement cell
  option(o: OptionView): void;               // a target that names one option
  rotate(dir: 1 | -1): void;                 // wheel over the tentative tile
  select(key: string | null): void;          // a target that names several options: pick them out
}

// A target on the board that stands for several options (a cell, an overlay, a grid point, a
// quarter of one, a cell where a menu of tiles or tokens acts): selecting it shows what follows.
export interface Group { key: string; x: number; y: number; options: OptionView[] }

export interface Overlay {
  fits: OptionView[];                        // placement cells
  tentative: { tile: string; x: number; y: number; rot: number } | null;
  spots: OptionView[];                       // piece options (anchors)
  cells: Group[];                            // cells options name (now: with the overlay selected)
  pieceTargets: OptionView[];                // actions/choices naming a piece on the board
  overlayTargets: Group[];                   // overlays on cells to select first, key "ov:ID"
  points: Group[];                           // grid points options name, key "pt:x,y"
  quarters: Group[];                         // the selected point's quarters (x, y the cell), key "q:..."
  located: Group[];                          // cells where a menu acts (tiles, tokens), key "loc:x,y"
  selected: string | null;
  menu: { key: string; x: number; y: number; items: OptionView[]; label: (o: OptionView) => Node[] } | null;
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
  private box = { w: 0, h: 0 };  // the board's size on the screen, from its ResizeObserver (no layout read while drawing)

  constructor(private tiles: TileIndex, private h: BoardHandlers) {
    for (const t of tiles.tiles) this.urls.set(t.id, "data:image/svg+xml;charset=utf-8," + encodeURIComponent(t.svg));
    this.svg = s("svg", { class: "board", "data-board": "", tabindex: 0, role: "group", "aria-label": t("board.label") });
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    const up = (e: PointerEvent) => this.up(e);
    this.svg.addEventListener("pointerup", up);
    this.svg.addEventListener("pointercancel", up);
    this.svg.addEventListener("click", (e) => { if (this.dragged) { e.stopPropagation(); e.preventDefault(); } }, true);
    this.svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    // Enter and Space act on the focused target only
    this.svg.addEventListener("keydown", (e) => {
      const el = e.target as Element;
      if ((e.key === "Enter" || e.key === " ") && el !== this.svg && el.closest("[data-act]")) {
        e.preventDefault(); e.stopPropagation();
        (el.closest("[data-act]") as any).__act?.();
      }
    });
    this.svg.addEventListener("focusin", (e) => this.showTip(e.target as Element));
    this.svg.addEventListener("click", () => { if (this.selected) this.h.select(null); });
    this.svg.addEventListener("focusout", () => { this.tip.hidden = true; });
    new ResizeObserver((es) => { const r = es[es.length - 1].contentRect; this.box = { w: r.width, h: r.height }; if (this.autoFit) this.fit(); else this.apply(); }).observe(this.svg);
  }

  // what a focused target does and is worth, beside it (the tooltip for keys and touch)
  readonly tip: HTMLElement = Object.assign(document.createElement("div"), { className: "focus-tip", hidden: true });
  private menuEl: HTMLElement | null = null;
  private selected: string | null = null;
  private menuAt: { x: number; y: number } | null = null;
  private showTip(el: Element): void {
    const label = el.getAttribute("aria-label");
    const wrap = this.svg.parentElement;
    if (!label || el === this.svg || !wrap || !el.matches(":focus-visible")) { this.tip.hidden = true; return; }
    if (this.tip.parentElement !== wrap) wrap.append(this.tip);
    this.tip.textContent = label;
    this.tip.setAttribute("data-focus-tip", el.getAttribute("data-key") ?? "");
    const r = el.getBoundingClientRect(), w = wrap.getBoundingClientRect();
    this.tip.hidden = false;
    this.tip.style.left = `${Math.max(4, Math.min(w.width - 260, r.left - w.left))}px`;
    this.tip.style.top = `${r.bottom - w.top + 6 > w.height - 40 ? r.top - w.top - 34 : r.bottom - w.top + 6}px`;
  }

  // The focusable targets (the cursor's stops) and moving the cursor by arrow keys: to the nearest
  // target in that direction, the view following.
  targets(): SVGElement[] { return [...this.svg.querySelectorAll<SVGElement>("[data-act]")]; }
  moveCursor(dx: number, dy: number): void {
    const list = this.targets();
    if (!list.length) return;
    const active = document.activeElement as Element | null;
    const cur = active && this.svg.contains(active) && active !== this.svg ? active : null;
    const c = (el: Element) => { const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; };
    let best: SVGElement | null = null;
    if (!cur) {
      // the first stop: the chosen cell or the selected target, else the one nearest the view's centre
      const pick = this.svg.querySelector<SVGElement>("[data-act].chosen, [data-act].selected");
      if (pick) best = pick;
      else {
        const r = this.svg.getBoundingClientRect(), m = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        let bd = Infinity;
        for (const el of list) { const p = c(el); const d = Math.hypot(p.x - m.x, p.y - m.y); if (d < bd) { bd = d; best = el; } }
      }
    } else {
      const p0 = c(cur);
      const forward = dx + dy > 0;
      const at = list.indexOf(cur as SVGElement);
      let bd = Infinity;
      for (const [i, el] of list.entries()) {
        if (el === cur) continue;
        const p = c(el);
        if (Math.hypot(p.x - p0.x, p.y - p0.y) < 4) {
          // targets at the same place (a spot at the centre of its cell): the next in order that way
          const d = forward ? (i > at ? i - at : Infinity) : (i < at ? at - i : Infinity);
          if (d * 0.01 < bd) { bd = d * 0.01; best = el; }
          continue;
        }
        const along = (p.x - p0.x) * dx + (p.y - p0.y) * dy;
        if (along < 2) continue;
        const across = Math.abs((p.x - p0.x) * dy - (p.y - p0.y) * dx);
        const d = along + 2.5 * across;
        if (d < bd) { bd = d; best = el; }
      }
    }
    if (best) { best.focus({ preventScroll: true }); this.reveal(best); }
  }
  // pans so that an element shows
  reveal(el: Element): void {
    const r = el.getBoundingClientRect(), b = this.svg.getBoundingClientRect();
    const k = this.svg.viewBox.baseVal.width / Math.max(1, b.width);
    let dx = 0, dy = 0;
    if (r.left < b.left + 20) dx = (r.left - b.left - 60) * k; else if (r.right > b.right - 20) dx = (r.right - b.right + 60) * k;
    if (r.top < b.top + 20) dy = (r.top - b.top - 60) * k; else if (r.bottom > b.bottom - 20) dy = (r.bottom - b.bottom + 60) * k;
    if (dx || dy) this.pan(dx, dy);
    this.showTip(el);
  }
  // which target has the focus, to give it back after a redraw
  focusedKey(): string | null {
    const a = document.activeElement;
    if (!a || !this.svg.contains(a)) return null;
    return a === this.svg ? "" : a.getAttribute("data-key");
  }
  refocus(key: string | null): void {
    if (key === null) return;
    const el = key ? [...this.svg.querySelectorAll<SVGElement>("[data-act]")].find((e) => e.getAttribute("data-key") === key) : null;
    (el ?? this.svg).focus({ preventScroll: true });
    if (el) this.showTip(el);
  }
  // a target: focusable (tabindex), a button to assistive technology, named by what it does and is
  // worth, acting on click, Enter and Space
  private target<E extends SVGElement>(el: E, key: string, label: string, act: () => void): E {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
    el.setAttribute("data-act", "");
    el.setAttribute("data-key", key);
    el.append(s("title", {}, document.createTextNode(label)));
    (el as any).__act = act;
    el.addEventListener("click", (e) => { e.stopPropagation(); act(); });
    return el;
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
      marks.append(this.target(r, `cell:${f.x},${f.y}`, t("board.cell", { x: f.x!, y: f.y! }), () => this.h.cell(f.x!, f.y!)));
    }
    // cells that options name: one mark per cell; a cell named by several options opens a menu
    for (const g of o.cells) {
      const c = g.options[0];
      grow(g.x, g.y);
      const key = `cell:${g.x},${g.y}`;
      const chosen = o.selected === key;
      const r = s("rect", { class: chosen ? "fit target chosen-cell selected" : "fit target", x: g.x * S + 3, y: g.y * S + 3, width: S - 6, height: S - 6, rx: 6, "data-target-cell": `${g.x},${g.y}`, "data-notation": g.options.length === 1 ? c.notation : undefined, "data-count": g.options.length });
      marks.append(this.target(r, `t${key}`, g.options.map((x) => x.text).join("\n"), () => g.options.length === 1 ? this.h.option(c) : this.h.select(chosen ? null : key)));
    }
    // menus at the cells where their options act (a tile where it goes, a token at its feature)
    for (const g of o.located) {
      grow(g.x, g.y);
      const key = `loc:${g.x},${g.y}`;
      const sel = o.selected === key;
      const wide = g.options.some((x) => x.target === "tile");
      const r = s("rect", { class: sel ? "fit target located selected" : "fit target located", x: g.x * S + 3, y: g.y * S + 3, width: (wide ? 2 : 1) * S - 6, height: S - 6, rx: 6, "data-target-menu": `${g.x},${g.y}`, "data-count": g.options.length });
      marks.append(this.target(r, key, g.options.map((x) => x.text).join("\n"), () => this.h.select(sel ? null : key)));
    }
    root.append(marks);
    // what the game stands on the board besides tiles and pieces (overlays), with the look's glyphs
    const overlays = s("g", { class: "overlays", "pointer-events": "none" });  // the marks under them take the clicks
    for (const ov of v.board.overlays) {
      if (ov.at === "track") continue;
      const cell = ov.at === "cell";
      grow(ov.x - (cell ? 0 : 1), ov.y - (cell ? 0 : 1));
      overlays.append(this.overlayGlyph(ov, v, o, (ov.x + (cell ? 0.5 : 0)) * S, (ov.y + (cell ? 0.5 : 0)) * S));
    }
    root.append(overlays);
    // the game's track (board.track) under the board, drawn as a river winding in rows from its
    // source (space 1) to its end (the last space, opening into the sea), the spaces stepping
    // stones along it, with what stands on them (in their seats' colours)
    const track = v.board.track;
    if (track && track.length > 0) {
      const w = 76, rowH = 124, top = (y1 + 1) * S + 110, left = x0 * S + 70;
      const g = s("g", { class: "track river", "data-track": track.length });
      // in rows that turn at their ends: as many rows as make the board with its river largest
      // in the board's box (a tall board in a wide window: one long row; else as wide as the board)
      const r = { width: this.box.w, height: this.box.h }, bw = (x1 - x0 + 1) * S + 2 * S * 0.3, bh = (y1 - y0 + 1) * S + 2 * S * 0.3;
      let perRow = Math.max(6, Math.floor(((x1 - x0 + 1) * S - 140) / w)), best = 0;
      for (let n = 1; n <= 4; n++) {
        const pr = Math.max(6, Math.ceil(track.length / n)), rs = Math.ceil(track.length / pr);
        const k = Math.min((r.width || 800) / Math.max(bw, 140 + pr * w + 2 * S * 0.3), (r.height || 600) / (bh + 110 + (rs - 1) * rowH + 80));
        if (k > best * 1.02) { best = k; perRow = pr; }
      }
      const rows = Math.ceil(track.length / perRow);
      // its heading as wide as the river at most (a phone's narrow one: smaller, then two lines;
      // estimated, since no layout is read while drawing)
      const avail = 90 + Math.min(perRow, track.length) * w, est = (text: string, f: number) => text.length * f * 0.56;
      const fs = Math.max(18, Math.min(26, avail / (track.title.length * 0.56)));
      const words = track.title.split(" ");
      let cut = words.length;
      if (est(track.title, fs) > avail && words.length > 1) {
        cut = 1;
        while (cut < words.length - 1 && est(words.slice(0, cut + 1).join(" "), fs) <= avail) cut++;
      }
      const lines = [words.slice(0, cut).join(" "), words.slice(cut).join(" ")].filter((l) => l);
      const title = s("text", { x: left - 50, y: top - 72 - (lines.length - 1) * fs * 1.15, class: "track-title", style: `font-size:${fs.toFixed(1)}px` });
      lines.forEach((l, i) => title.append(s("tspan", { x: left - 50, dy: i ? (fs * 1.15).toFixed(1) : undefined }, document.createTextNode(l))));
      g.append(title);
      const at = (i: number) => {
        const r = Math.floor((i - 1) / perRow), c = (i - 1) % perRow;
        return { x: left + (r % 2 ? perRow - 1 - c : c) * w, y: top + r * rowH, r };
      };
      // the river's course: from the source, along each row, round each bend, out to the sea
      const p0 = at(1), pe = at(track.length), out = pe.r % 2 ? -1 : 1;
      let d = `M${p0.x - 54} ${p0.y}`;
      for (let i = 1; i <= track.length; i++) {
        const p = at(i);
        if (i > 1 && p.r !== at(i - 1).r) { const q = at(i - 1); d += ` A${rowH / 2} ${rowH / 2} 0 0 ${q.r % 2 ? 0 : 1} ${p.x} ${p.y}`; }
        else d += ` L${p.x} ${p.y}`;
      }
      d += ` L${pe.x + out * 60} ${pe.y}`;
      g.append(s("path", { class: "bank", d }), s("path", { class: "water", d }), s("path", { class: "ripple", d }));
      // the source: a spring; at the end the river fans out into the sea, with waves
      g.append(s("circle", { class: "spring", cx: p0.x - 54, cy: p0.y, r: 16 }));
      const mx = pe.x + out * 58, my = pe.y;
      g.append(s("path", { class: "sea", d: `M${mx} ${my - 26} L${mx + out * 70} ${my - 58} Q${mx + out * 96} ${my} ${mx + out * 70} ${my + 58} L${mx} ${my + 26} Z` }));
      for (const k of [-1, 0, 1]) g.append(s("path", { class: "wave", d: `M${mx + out * 30} ${my + k * 22 - 4} q${out * 9} -8 ${out * 18} 0 t${out * 18} 0` }));
      for (let i = 1; i <= track.length; i++) {
        const p = at(i);
        const r = s("rect", { x: p.x - 22, y: p.y - 22, width: 44, height: 44, rx: 14, class: i === track.length ? "space end" : "space", "data-track-space": i });
        const n = s("text", { x: p.x, y: p.y + 7, class: "space-n" });
        n.textContent = String(i);
        g.append(r, n);
      }
      // what stands on one space side by side, raised above the stone
      const here = new Map<number, number>(), count = new Map<number, number>();
      for (const ov of v.board.overlays) if (ov.at === "track") count.set(ov.x, (count.get(ov.x) ?? 0) + 1);
      for (const ov of v.board.overlays) {
        if (ov.at !== "track") continue;
        const k = here.get(ov.x) ?? 0, n = count.get(ov.x) ?? 1;
        here.set(ov.x, k + 1);
        const p = at(Math.max(1, Math.min(track.length, ov.x)));
        g.append(this.overlayGlyph(ov, v, o, p.x + (k - (n - 1) / 2) * 46, p.y - 30, 2));
      }
      root.append(g);
      grow(x0 - 1, y1 + 1 + Math.ceil((110 + (rows - 1) * rowH + 80 - S) / S));
      grow(x0 + Math.ceil((140 + Math.min(perRow, track.length) * w) / S), y1 + 1);
    }
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
    // overlays with options that move them: select one, then the cells it may go to show
    for (const g of o.overlayTargets) {
      const key = g.key;
      const sel = o.selected === key;
      const id = key.slice(3);
      const m = s("g", { class: sel ? "spot overlay-target selected" : "spot overlay-target", "data-target-overlay": id, "data-count": g.options.length });
      m.append(s("circle", { cx: (g.x + 0.5) * S, cy: (g.y + 0.5) * S, r: 30 }));
      const ov = v.board.overlays.find((q) => q.id === id);
      spots.append(this.target(m, key, t("board.select", { what: ov ? names(ov.label, v.players) : id, n: g.options.length }), () => this.h.select(sel ? null : key)));
    }
    // grid points options name, then the selected point's quarters
    for (const g of o.points) {
      grow(g.x, g.y);
      const sel = o.selected === g.key || (o.selected ?? "").startsWith(`q:${g.x},${g.y},`);
      const m = s("g", { class: sel ? "spot point-target selected" : "spot point-target", "data-target-point": `${g.x},${g.y}`, "data-count": g.options.length });
      const cx = g.x * S, cy = g.y * S;
      m.append(s("path", { d: `M${cx} ${cy - 15} L${cx + 15} ${cy} L${cx} ${cy + 15} L${cx - 15} ${cy} Z` }));
      const best = Math.max(...g.options.map(worthOf));
      const txt = s("text", { x: cx, y: cy + 4.5, class: "spot-worth" });
      txt.textContent = best > 0 ? `+${best}` : "";
      m.append(txt);
      spots.append(this.target(m, g.key, t("board.point", { x: g.x, y: g.y, n: g.options.length, best }) + "\n" + summarize(g.options), () => this.h.select(o.selected === g.key ? null : g.key)));
    }
    for (const g of o.quarters) {
      const [px, py] = g.key.slice(2).split(",").map(Number);
      const qx = (px + (g.x + 0.5 - px) * 0.42) * S, qy = (py + (g.y + 0.5 - py) * 0.42) * S;
      const sel = o.selected === g.key;
      const m = s("g", { class: sel ? "spot quarter-target selected" : "spot quarter-target", "data-target-quarter": `${px},${py},${g.x},${g.y}`, "data-count": g.options.length });
      m.append(s("circle", { cx: qx, cy: qy, r: 12 }));
      spots.append(this.target(m, g.key, t("board.quarter", { x: g.x, y: g.y }) + "\n" + summarize(g.options), () => this.h.select(g.key)));
    }
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
      const g = s("g", { class: second ? "spot second" : "spot", "data-spot": key, "data-notation": o2.notation, "data-piece-kind": o2.piece });
      g.append(second ? s("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24, rx: 3 }) : s("circle", { cx, cy, r: 13 }));
      const worth = s("text", { x: cx, y: cy + 4.5, class: "spot-worth" });
      const shown = String(o2.worth?.points ?? "");
      worth.textContent = shown;
      g.append(worth);
      // the name holds the number written on the mark (a player who reads it may say it)
      const said = !shown || new RegExp(`(^|[^0-9])${shown}([^0-9]|$)`).test(o2.text);
      spots.append(this.target(g, `spot:${key}:${o2.piece}`, said ? o2.text : `${o2.text}; ${t("board.worth", { n: Number(shown) })}`, () => this.h.option(o2)));
    });
    for (const o2 of o.pieceTargets) {
      const p = v.board.pieces.find((q) => q.x === o2.x && q.y === o2.y && q.port === o2.port);
      const a = p?.anchor ?? [0.5, 0.5];
      const g = s("g", { class: "spot target", "data-target-piece": `${o2.x},${o2.y},${o2.port}`, "data-notation": o2.notation });
      g.append(s("circle", { cx: (o2.x! + a[0]) * S, cy: (o2.y! + a[1]) * S, r: 17 }));
      spots.append(this.target(g, `piece:${o2.x},${o2.y},${o2.port}`, o2.text, () => this.h.option(o2)));
    }
    root.append(spots);
    this.svg.replaceChildren(root);
    this.svg.setAttribute("data-tiles", String(v.board.tiles.length));
    this.bounds = { x0, y0, x1: x1 + 1, y1: y1 + 1 };
    this.selected = o.selected;
    this.setMenu(o);
    if (this.autoFit) this.fit(); else this.apply();
  }

  // The menu of a selected target beside it (HTML over the board, following pan and zoom): one
  // button per option, its worth in its words.
  private setMenu(o: Overlay): void {
    this.menuEl?.remove();
    this.menuEl = null;
    this.menuAt = null;
    const m = o.menu;
    const wrap = this.svg.parentElement;
    if (!m || !wrap) return;
    const el = document.createElement("div");
    el.className = "board-menu";
    el.setAttribute("data-menu", m.key);
    el.setAttribute("role", "menu");
    for (const it of m.items) {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "menuitem");
      b.setAttribute("data-menu-option", "");
      b.setAttribute("data-kind", it.kind);
      if (it.notation) b.setAttribute("data-notation", it.notation);
      b.title = it.text;
      b.append(...m.label(it));
      b.addEventListener("click", () => this.h.option(it));
      el.append(b);
    }
    el.addEventListener("keydown", (e) => {
      const items = [...el.querySelectorAll<HTMLButtonElement>("button")];
      const i = items.indexOf(document.activeElement as HTMLButtonElement);
      if (e.key === "ArrowDown" || e.key === "ArrowRight") { items[(i + 1) % items.length].focus(); e.preventDefault(); e.stopPropagation(); }
      else if (e.key === "ArrowUp" || e.key === "ArrowLeft") { items[(i - 1 + items.length) % items.length].focus(); e.preventDefault(); e.stopPropagation(); }
    });
    wrap.append(el);
    this.menuEl = el;
    this.menuAt = { x: m.x, y: m.y };
  }
  menuOpen(): HTMLElement | null { return this.menuEl; }
  private placeMenu(): void {
    const el = this.menuEl, at = this.menuAt, wrap = this.svg.parentElement;
    if (!el || !at || !wrap) return;
    const vb = this.svg.viewBox.baseVal, r = this.svg.getBoundingClientRect(), w = wrap.getBoundingClientRect();
    if (!vb || !vb.width || !r.width) return;
    const k = r.width / vb.width;
    const px = r.left - w.left + (at.x - vb.x) * k, py = r.top - w.top + (at.y - vb.y) * k;
    const mw = el.offsetWidth || 200, mh = el.offsetHeight || 100;
    el.style.left = `${Math.max(4, Math.min(w.width - mw - 4, px + 8))}px`;
    el.style.top = `${Math.max(4, Math.min(w.height - mh - 4, py - mh / 2))}px`;
  }

  private image(id: string, x: number, y: number, rot: number): SVGImageElement {
    const S = CELL;
    return s("image", { href: this.tileURL(id), x: x * S, y: y * S, width: S, height: S, transform: rot ? `rotate(${rot} ${x * S + S / 2} ${y * S + S / 2})` : undefined });
  }

  private overlayGlyph(ov: OverlayView, v: View, o: Overlay, x: number, y: number, scale = 1): SVGGElement {
    const S = CELL;
    const g = s("g", { class: `overlay ${ov.glyph ?? ov.id.split(":")[0]}${ov.done ? " done" : ""}`, "data-overlay": ov.id, "data-at": ov.at, "data-x": ov.x, "data-y": ov.y,
      transform: `translate(${x},${y})${scale !== 1 ? ` scale(${scale})` : ""}` });
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
    return g;
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
    if (gl) g.append(s("g", { class: "pop" }, gl));  // what motion.ts pops in (the outer g keeps its place)
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
    const m = CELL * 0.3;  // a small margin: the tiles as large as the box allows
    const b = this.bounds;
    this.vb = { x: b.x0 * CELL - m, y: b.y0 * CELL - m, w: (b.x1 - b.x0) * CELL + 2 * m, h: (b.y1 - b.y0) * CELL + 2 * m };
    // a small board (the first turns) no larger than 100 px a tile (its picture's size): a first
    // tile filling a phone's width left no room beside its cells
    const W = this.box.w, H = this.box.h, most = 100 / CELL;
    if (W > 0 && H > 0 && Math.min(W / this.vb.w, H / this.vb.h) > most) {
      const cx = this.vb.x + this.vb.w / 2, cy = this.vb.y + this.vb.h / 2;
      this.vb = { x: cx - W / most / 2, y: cy - H / most / 2, w: W / most, h: H / most };
    }
    this.apply();
  }
  // Brings cells into view, centred, at least `across` cells across the board's shorter side (a
  // chosen decision's tiles: readable, not the whole board's 30 px tiles); stays until the
  // player pans, zooms or fits.
  frame(cells: [number, number][], across = 4): void {
    if (!cells.length) return;
    const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
    const x0 = Math.min(...xs), x1 = Math.max(...xs) + 1, y0 = Math.min(...ys), y1 = Math.max(...ys) + 1;
    const w = Math.max(across, x1 - x0 + 2) * CELL, hh = Math.max(across, y1 - y0 + 2) * CELL;
    this.autoFit = false;
    this.vb = { x: ((x0 + x1) / 2) * CELL - w / 2, y: ((y0 + y1) / 2) * CELL - hh / 2, w, h: hh };
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
    this.placeMenu();
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

// What an option is worth, from its words ("...: +3") or its feature, 0 unknown.
export function worthOf(o: OptionView): number {
  if (o.worth) return o.worth.points;
  const m = /\+(\d+)\s*$/.exec(o.text) ?? /\+(\d+)/.exec(o.text);
  return m ? Number(m[1]) : 0;
}
function summarize(list: OptionView[]): string {
  const shown = list.slice(0, 6).map((x) => x.text);
  return list.length > 6 ? [...shown, "…"].join("\n") : shown.join("\n");
}
