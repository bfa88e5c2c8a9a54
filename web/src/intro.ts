// The first game in this browser (docs/web.md): the first time it is asked to place a tile, a
// dialog says how a turn goes, with three numbered callouts pointing at the tile in hand, the
// board (a cell where the tile fits) and Confirm. Closed by its buttons or Escape, it never shows
// again: localStorage["carc.seen_intro"]. Nothing in it names a game.
import { h } from "./util";
import { t } from "./i18n";
import { trapTab } from "./rules";

export const INTRO_KEY = "carc.seen_intro";

export function introSeen(): boolean {
  try {
    return localStorage.getItem(INTRO_KEY) !== null;
  } catch {
    return true;  // storage off: the dialog would come back on every page
  }
}

// the board's box, the tiles on it and the cells where the tile in hand fits
export interface IntroTargets { tile: Element; board: Element; placed: Element[]; cells: Element[]; confirm: Element }
type Side = "right" | "left" | "above" | "below";
type Box = { left: number; top: number; right: number; bottom: number };

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const area = (a: Box, b: Box) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

export class Intro {
  private el: HTMLElement;
  private back: Element | null;
  private readonly relayout = () => this.layout();

  // onRules: the rules, opened when the player asks for them from here
  constructor(host: HTMLElement, private targets: () => IntroTargets | null, private onRules: () => void, private onClose: () => void) {
    this.back = document.activeElement;
    const steps: [string, string][] = [["tile", t("intro.tile")], ["board", t("intro.board")], ["confirm", t("intro.confirm")]];
    const ok = h("button", { type: "button", class: "primary", "data-intro-close": "", text: t("intro.ok") });
    const rules = h("button", { type: "button", "data-intro-rules": "", text: t("intro.rules") });
    const box = h("div", { class: "intro-box" },
      h("h2", { id: "intro-title", text: t("intro.title") }),
      h("p", { class: "sub", text: t("intro.lead") }),
      h("ol", { id: "intro-steps" }, ...steps.map(([k, text], i) => h("li", { "data-intro-step": k }, h("b", { class: "intro-n", "aria-hidden": "true", text: String(i + 1) }), text))),
      h("div", { class: "intro-actions" }, rules, ok));
    const marks = steps.map(([k], i) => [
      h("div", { class: "intro-ring", "data-intro-ring": k, "aria-hidden": "true" }),
      h("div", { class: "intro-callout", "data-intro-callout": k, "aria-hidden": "true" }, h("b", { class: "intro-n", text: String(i + 1) }), t(`intro.${k}_short`)),
    ]).flat();
    this.el = h("div", { class: "intro", "data-intro": "", role: "dialog", "aria-modal": "true", "aria-labelledby": "intro-title", "aria-describedby": "intro-steps" }, ...marks, box);
    ok.addEventListener("click", () => this.close());
    rules.addEventListener("click", () => { this.close(); this.onRules(); });
    this.el.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.preventDefault(); this.close(); }
      else if (e.key === "Tab") trapTab(e, this.el);
      e.stopPropagation();  // the game's keys (r, c, arrows...) wait until the dialog is closed
    });
    // a click beside the dialog leaves it open and brings the focus back into it
    this.el.addEventListener("mousedown", (e) => { if (!box.contains(e.target as Node)) { e.preventDefault(); ok.focus(); } });
    host.append(this.el);
    this.layout();
    addEventListener("resize", this.relayout);
    ok.focus();
  }

  isOpen(): boolean { return this.el.isConnected; }

  close(): void {
    if (!this.el.isConnected) return;
    try { localStorage.setItem(INTRO_KEY, "1"); } catch { /* storage off */ }
    removeEventListener("resize", this.relayout);
    this.el.remove();
    (this.back as HTMLElement | null)?.focus?.();
    this.onClose();
  }

  // Where everything goes: the box in a corner or at an edge of the board where it hides the
  // fewest tiles and cells where the tile fits; the board's callout at such a cell it does not
  // hide (else the board's middle); each callout beside its target where it covers neither the
  // target, the box nor a tile on the board, its arrow at the target's middle.
  layout(): void {
    const tg = this.targets();
    if (!tg) return;
    const W = innerWidth, H = innerHeight;
    const boardR = tg.board.getBoundingClientRect();
    const placed = tg.placed.map((e) => e.getBoundingClientRect()), cells = tg.cells.map((e) => e.getBoundingClientRect()).filter((r) => r.width > 4);
    const box = this.el.querySelector<HTMLElement>(".intro-box")!;
    const bw = Math.min(440, W - 16);
    box.style.width = `${bw}px`;
    const bh = box.offsetHeight, m = 10, zoomBar = 56;  // the board's zoom buttons, top right
    const xs = [boardR.left + (boardR.width - bw) / 2, boardR.left + m, boardR.right - bw - zoomBar];
    const ys = [boardR.top + m, boardR.bottom - bh - m];
    let best: Box | null = null, bestCost = Infinity;
    for (const y of ys) for (const x0 of xs) {
      const x = Math.max(8, Math.min(W - bw - 8, x0)), top = Math.max(8, y);
      const b = { left: x, top, right: x + bw, bottom: top + bh };
      const cost = 4 * placed.reduce((n, r) => n + area(b, r), 0) + cells.reduce((n, r) => n + area(b, r), 0);
      if (cost < bestCost - 1) { best = b; bestCost = cost; }
    }
    box.style.left = `${best!.left}px`;
    box.style.top = `${best!.top}px`;
    const boxR = box.getBoundingClientRect();
    const avoid: Box[] = [boxR, ...placed];
    // the board's mark: the free cell nearest the board's middle, else the middle itself
    const mx = boardR.left + boardR.width / 2, my = boardR.top + boardR.height / 2;
    const inBoard = (r: Box) => r.left >= boardR.left && r.right <= boardR.right && r.top >= boardR.top && r.bottom <= boardR.bottom;
    const free = cells.filter((r) => inBoard(r) && !overlap(r, boxR)).sort((a, b) =>
      Math.hypot((a.left + a.right) / 2 - mx, (a.top + a.bottom) / 2 - my) - Math.hypot((b.left + b.right) / 2 - mx, (b.top + b.bottom) / 2 - my));
    const cellR: Box = free[0] ?? { left: mx - 30, right: mx + 30, top: my - 30, bottom: my + 30 };
    const tileR = tg.tile.getBoundingClientRect(), confirmR = tg.confirm.getBoundingClientRect();
    const plan: [string, Box, Side[]][] = [
      ["tile", tileR, ["right", "above", "left", "below"]],
      ["confirm", confirmR, ["above", "right", "left", "below"]],
      ["board", cellR, ["right", "left", "below", "above"]],
    ];
    for (const [k, r, sides] of plan) {
      const ring = this.el.querySelector<HTMLElement>(`[data-intro-ring="${k}"]`)!;
      Object.assign(ring.style, { left: `${r.left - 5}px`, top: `${r.top - 5}px`, width: `${r.right - r.left + 10}px`, height: `${r.bottom - r.top + 10}px` });
      const c = this.el.querySelector<HTMLElement>(`[data-intro-callout="${k}"]`)!;
      avoid.push(place(c, r, sides, [...avoid, ...plan.map((p) => p[1])], W, H));
    }
  }
}

function place(el: HTMLElement, r: Box, sides: Side[], avoid: Box[], W: number, H: number): Box {
  const w = el.offsetWidth, hg = el.offsetHeight, gap = 14;
  const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
  const pushed = new Set<Side>();  // sides where the screen's edge pushed the callout onto its target
  const at = (side: Side): Box => {
    let x = side === "right" ? r.right + gap : side === "left" ? r.left - gap - w : cx - w / 2;
    let y = side === "above" ? r.top - gap - hg : side === "below" ? r.bottom + gap : cy - hg / 2;
    const x0 = x, y0 = y;
    x = Math.max(6, Math.min(W - w - 6, x));
    y = Math.max(6, Math.min(H - hg - 6, y));
    if (((side === "left" || side === "right") && x !== x0) || ((side === "above" || side === "below") && y !== y0)) pushed.add(side);
    return { left: x, top: y, right: x + w, bottom: y + hg };
  };
  // a side where it covers nothing; else one where it at least stands clear of its target (a
  // target at the screen's edge, as a cell of a board that fills a phone's width)
  let side = sides[0], b = at(side);
  const boxes = sides.map((sd) => [sd, at(sd)] as const);
  const clear = boxes.find(([, c]) => !avoid.some((a) => a !== r && overlap(c, a)) && !overlap(c, r))
    ?? boxes.find(([sd, c]) => !pushed.has(sd) && !overlap(c, r) && !overlap(c, avoid[0]));  // avoid[0]: the dialog's box
  if (clear) [side, b] = clear;
  el.dataset.side = side;
  el.style.left = `${b.left}px`;
  el.style.top = `${b.top}px`;
  // the arrow points at the target's middle, wherever the callout had to move
  const along = side === "left" || side === "right" ? Math.max(10, Math.min(hg - 10, cy - b.top)) : Math.max(12, Math.min(w - 12, cx - b.left));
  el.style.setProperty("--arrow", `${along}px`);
  return b;
}
