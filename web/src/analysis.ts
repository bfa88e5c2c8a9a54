// The analysis of a finished game (docs/web.md, "Analysis"; docs/server-protocol.md, "Analysis"):
// "Analyse" asks the server for it (POST /api/games/ID/analysis), the progress is polled about once
// a second (or the game's `analysis` event brings it), then a panel under the board shows the
// chance to win after each decision as a graph, every reviewed decision in a list with its mark
// (?!, ?, ??) and loss, and each player's summary. Choosing a decision shows it on the board: the
// replay after the turn as played, and, when the search preferred another move, the position after
// that better move (GET /api/games/ID/analysis/K) with what each was expected to score, and, on
// demand ("Ownership"), who was likely to score each open feature of the position: a mark on each
// in the colour of its likeliest scorer, filled as far as that seat's share of the search's playouts.
// The client computes nothing of it: every number is the server's review.
import { h, s, getJSON, load, save } from "./util";
import { locale, t, withLang, word } from "./i18n";
import type { View } from "./types";

export type Mark = "" | "inaccuracy" | "mistake" | "blunder";
// `words`: the move in the page's language (the server's GET answers); `move` its notation
export interface Option { move: string; words?: string; visits: number; margin: number; win: number; win_prob: number }
// An option's move as a player reads it (the notation where the answer has no words)
const said = (o: Option): string => o.words ?? o.move;
// An open feature of a decision's position: a tile of it (x, y, port; anchor: where a piece on it
// would stand in that tile), its cells, and per seat the share of the search's playouts in which the
// seat scored it and the mean points it scored from it.
export interface Owned { feature: string; x: number; y: number; port: string; anchor: [number, number]; tiles: number; cells: [number, number][]; pieces: number[]; share: number[]; points: number[] }
export interface Decision { index: number; move: number; turn: number; player: number; options: number; played: Option; best: Option; loss: number; mark: Mark; top: Option[]; ownership?: Owned[] }
export interface Review {
  game: string; players: string[]; final_scores: number[]; playouts: number; seed: number;
  thresholds: { inaccuracy: number; mistake: number; blunder: number };
  decisions: Decision[];
  curve: { index: number; turn: number; seat: number; margin: number; win_prob: number }[];
  summary: { player: number; decisions: number; mean_loss: number; inaccuracies: number; mistakes: number; blunders: number }[];
}
interface Detail { decision: Decision; step: number; view: View }
interface Progress { status: string; done: number; total: number; ahead: number }

// What the game page does for the analysis.
export interface AnalysisHost {
  colours(): string[];
  names(): string[];                      // the seats' names in the page's language (the view's)
  changed(): void;                        // the Analyse button's state changed: draw it again
  show(step: number): Promise<void>;      // the replay at this step (turns of the record)
  redraw(): void;                         // the board: a better move shown, or not
  opened(): void;                         // the panel opened (a phone folds its side panels away)
}

const SYMBOL: Record<string, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const nf = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const pct = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 });
// A margin with its sign (a true minus): +1.3, −5.3, 0.0.
export function signed(n: number): string {
  const a = nf.format(Math.abs(n));
  return Math.abs(n) < 0.05 ? a : `${n > 0 ? "+" : "−"}${a}`;
}
const places = (n: number) => nf.format(n);
const isBetter = (d: Decision) => d.best.move !== d.played.move;

// The mark as its symbol (the word for screen readers and in the tooltip): text, not colour alone.
function badge(mark: Mark): HTMLElement {
  if (!mark) return h("span", { class: "mark none" });
  return h("span", { class: `mark ${mark}`, title: t(`analysis.${mark}`) },
    h("span", { "aria-hidden": "true", text: SYMBOL[mark] }), h("span", { class: "sr-only", text: t(`analysis.${mark}`) }));
}

export class Analysis {
  review: Review | null = null;
  private progress: Progress | null = null;
  private error = "";
  private asked = false;        // this page asked: the panel opens when the analysis is stored
  private open = false;
  private sel: Decision | null = null;
  private showing: "better" | "played" = "better";
  private owning = load<boolean>("carc.ownership", false);  // the ownership overlay (off until asked)
  private detail: Detail | null = null;
  private details = new Map<number, Promise<Detail>>();
  private ticket = 0;
  private filter = "all";
  private rows = new Map<number, HTMLButtonElement>();
  private graphEl: SVGSVGElement | null = null;
  private byIndex = new Map<number, Decision>();
  readonly panel: HTMLElement;  // section[data-panel=analysis], under the board
  readonly note: HTMLElement;   // a chosen decision in words: a band at the board's foot

  constructor(private game: string, private host: AnalysisHost) {
    this.panel = h("section", { class: "analysis", id: "analysis-panel", "data-panel": "analysis", "aria-labelledby": "analysis-title", hidden: true });
    this.note = h("div", { class: "analysis-note", "data-analysis-note": "", "aria-live": "polite", hidden: true });
  }

  private url(k?: number): string { return `/api/games/${encodeURIComponent(this.game)}/analysis${k === undefined ? "" : `/${k}`}`; }

  // The Analyse button and, while the server works, its progress ("Analysing: 30 of 92 decisions").
  // One element, updated in place: the page's redraws move it rather than make it anew, so that a
  // click is never lost between a press on one button and a release on its replacement.
  private box: HTMLElement | null = null;
  control(): HTMLElement {
    const state = this.review ? "done" : this.error ? "error" : this.asked ? "running" : "none";
    const text = this.review ? (this.open ? t("analysis.hide") : t("analysis.show")) : this.asked && !this.error ? t("analysis.analysing") : t("analysis.analyse");
    if (!this.box) {
      const b = h("button", { type: "button", "data-analyse": "", "aria-controls": "analysis-panel" });
      b.addEventListener("click", () => void this.ask());
      this.box = h("span", { class: "analyse" }, b);
    }
    const b = this.box.firstElementChild as HTMLButtonElement;
    b.className = this.review ? "" : "primary";
    b.dataset.analysisState = state;
    b.setAttribute("aria-expanded", String(this.open));
    if (state === "running") b.setAttribute("aria-disabled", "true");
    else b.removeAttribute("aria-disabled");
    if (b.textContent !== text) b.textContent = text;
    // the progress line, a live region: its words change in place, so that each change is read out
    let line = this.box.querySelector<HTMLElement>("[data-analysis-progress]");
    if (state === "running" || state === "error") {
      if (!line) this.box.append(line = h("span", { role: "status" }));
      line.className = state === "error" ? "analysis-progress message" : "analysis-progress";
      line.dataset.analysisProgress = state;
      const words = this.progressText();
      if (line.textContent !== words) line.textContent = words;
    } else line?.remove();
    return this.box;
  }

  private progressText(): string {
    if (this.error) return t("analysis.failed", { message: this.error });
    const p = this.progress;
    if (!p || p.status === "queued") return p?.ahead ? t("analysis.queued", { ahead: p.ahead }) : t("analysis.starting");
    if (p.status === "saving") return t("analysis.saving");
    if (!p.total) return t("analysis.starting");
    return t("analysis.progress", { done: p.done, total: p.total });
  }

  // One click: the panel when the analysis is there, else ask for it and follow its progress.
  async ask(): Promise<void> {
    if (this.review) { this.setOpen(!this.open); return; }
    if (this.asked && !this.error) return;
    this.asked = true;
    this.error = "";
    this.progress = null;
    this.host.changed();
    await this.poll("POST");
  }

  private async poll(method: "POST" | "GET", tries = 0): Promise<void> {
    try {
      const res = await fetch(withLang(this.url()), { method });
      const r = await res.json().catch(() => ({}));
      if (this.review) return;
      // the end just reached may still be committing (409 not_over): asked again, a few times
      if (res.status === 409 && r.code === "not_over" && tries < 5) { setTimeout(() => void this.poll(method, tries + 1), 1000); return; }
      if (!res.ok) throw new Error(r.message ?? `${res.status}`);
      if (r.status === "done") { this.stored(r, true); return; }
      this.progress = r;
      this.host.changed();
      setTimeout(() => { if (!this.review) void this.poll("GET"); }, 1000);
    } catch (e) {
      if (this.review) return;
      this.error = (e as Error).message;
      this.host.changed();
    }
  }

  // The stored analysis (the GET's answer or the `analysis` event): {playouts, seed, review}.
  stored(data: { review: Review }, answered = false): void {
    if (this.review || !data?.review) return;
    // the server lets go of a finished job (it counts against --analyses-per-ip) only when it
    // answers it: the page that asked asks once more when the event came first
    // (and the event keeps the stored words: the GET's answer says the moves in the page's language)
    if (!answered)
      void getJSON<{ review?: Review }>(withLang(this.url())).then((r) => {
        if (!r?.review) return;
        this.review = r.review;
        this.byIndex = new Map(r.review.decisions.map((d) => [d.index, d]));
        if (this.panel.childElementCount) this.build();
      }).catch(() => {});
    this.review = data.review;
    this.byIndex = new Map(this.review.decisions.map((d) => [d.index, d]));
    if (this.asked) this.setOpen(true);
    else this.host.changed();
  }

  private setOpen(open: boolean): void {
    this.open = open;
    if (open && !this.panel.childElementCount) this.build();
    this.panel.hidden = !open;
    if (!open) this.clear();
    else this.host.opened();
    this.host.changed();
  }

  // ---- the panel ----
  // a seat's name as the game shows it (in the page's language: "Лёгкий бот"), else the review's
  private name(seat: number): string { return this.host.names()[seat] || this.review?.players[seat] || t("game.seat", { n: seat + 1 }); }

  private build(): void {
    const r = this.review!;
    const close = h("button", { type: "button", class: "quiet analysis-close", "data-analysis-close": "", title: t("analysis.hide"), "aria-label": t("analysis.hide"), text: "×" });
    close.addEventListener("click", () => this.setOpen(false));
    const head = h("div", { class: "analysis-head" },
      h("h2", { id: "analysis-title", text: t("analysis.title") }),
      h("span", { class: "sub", text: t("analysis.about", { n: r.playouts }) }), close);
    this.panel.replaceChildren(head, h("div", { class: "analysis-left" }, this.graph(), this.summary()), this.moves());
  }

  // The chance to win after each decision (two players: the first seat's; more: the mover's) over
  // 0..100% with the 50% line; mistakes and blunders as dots in the mover's colour. A click on a
  // point chooses that decision (the list is the same by keys).
  private graph(): HTMLElement {
    const r = this.review!, n = Math.max(1, r.curve.length), W = 1000;
    const colours = this.host.colours();
    const two = r.players.length === 2;
    const line = two ? colours[0] ?? "#333" : "#333";
    // 0..100% from y 95 to 5: the dots at either end show whole
    const X = (i: number) => ((i + 0.5) / n) * W, Y = (p: number) => 5 + (1 - p) * 90;
    const marks = r.decisions.filter((d) => d.mark === "mistake" || d.mark === "blunder");
    const label = (two ? t("analysis.graph_two", { name: this.name(0) }) : t("analysis.graph_many")) + " " +
      t("analysis.graph_marks", { mistakes: marks.filter((d) => d.mark === "mistake").length, blunders: marks.filter((d) => d.mark === "blunder").length });
    // a slider over the decisions for keys (arrows: the next or last decision; Page Up/Down: the
    // next or last mistake or blunder; Home/End), a band per decision for the pointer
    const svg = s("svg", { class: "graph", "data-analysis-graph": "", viewBox: `0 0 ${W} 100`, preserveAspectRatio: "none", role: "slider", tabindex: 0,
      "aria-label": label, "aria-valuemin": 1, "aria-valuemax": n, "aria-valuenow": 1, "aria-valuetext": this.pointText(0), "aria-orientation": "horizontal" });
    const pts = r.curve.map((c, i) => `${X(i).toFixed(1)},${Y(c.win_prob).toFixed(2)}`).join(" ");
    svg.append(
      ...[0, 0.25, 0.75, 1].map((p) => s("line", { class: "grid", x1: 0, x2: W, y1: Y(p), y2: Y(p) })),
      s("line", { class: "half", x1: 0, x2: W, y1: 50, y2: 50 }),
      s("polygon", { class: "area", points: `${X(0).toFixed(1)},${Y(0)} ${pts} ${X(n - 1).toFixed(1)},${Y(0)}`, fill: line }),
      s("polyline", { class: "curve", points: pts, stroke: line }),
      s("line", { class: "cursor", "data-analysis-cursor": "", x1: 0, x2: 0, y1: 0, y2: 100, visibility: "hidden" }));
    const at = new Map(r.curve.map((c, i) => [c.index, i]));
    // a dot: a line of no length with round ends, its width in screen pixels (the graph stretches)
    for (const d of marks) {
      const i = at.get(d.index);
      if (i === undefined) continue;
      const x = X(i), y = Y(r.curve[i].win_prob), w = d.mark === "blunder" ? 14 : 10;
      svg.append(s("g", { class: `dot ${d.mark}`, "data-graph-mark": d.index, "data-mark": d.mark },
        s("line", { x1: x, x2: x, y1: y, y2: y, "stroke-width": w + 4, stroke: "#1b1b1b" }),
        s("line", { x1: x, x2: x, y1: y, y2: y, "stroke-width": w, stroke: colours[d.player] ?? "#888" })));
    }
    // a band per decision takes its clicks; its tooltip says which decision it is
    const hits = s("g", { class: "hits" });
    r.curve.forEach((c, i) => {
      const d = this.byIndex.get(c.index);
      const band = s("rect", { x: (i / n) * W, y: 0, width: W / n, height: 100, "data-graph-decision": c.index });
      if (d) band.append(s("title", {}, document.createTextNode(this.pointText(i))));
      hits.append(band);
    });
    svg.append(hits);
    svg.addEventListener("click", (e) => {
      const k = (e.target as Element).closest?.("[data-graph-decision]")?.getAttribute("data-graph-decision");
      if (k) void this.pick(Number(k), true);
    });
    svg.addEventListener("keydown", (e) => {
      const now = this.sel ? at.get(this.sel.index) ?? -1 : -1;
      const marked = (i: number) => { const d = this.byIndex.get(r.curve[i].index); return d?.mark === "mistake" || d?.mark === "blunder"; };
      const seek = (from: number, step: number) => { for (let i = from + step; i >= 0 && i < n; i += step) if (marked(i)) return i; return from; };
      let to: number;
      switch (e.key) {
        case "ArrowRight": case "ArrowUp": to = Math.min(n - 1, now + 1); break;
        case "ArrowLeft": case "ArrowDown": to = Math.max(0, now < 0 ? 0 : now - 1); break;
        case "Home": to = 0; break;
        case "End": to = n - 1; break;
        case "PageDown": to = seek(now, 1); break;
        case "PageUp": to = seek(now < 0 ? n : now, -1); break;
        default: return;
      }
      e.preventDefault();
      e.stopPropagation();
      if (to >= 0 && to < n && to !== now) void this.pick(r.curve[to].index);
    });
    this.graphEl = svg;
    const axis = h("div", { class: "graph-axis", "aria-hidden": "true" }, ...[1, 0.5, 0].map((p) => h("span", { style: `top:${Y(p)}%`, text: pct.format(p) })));
    const caption = h("figcaption", { class: "sub", text: (two ? t("analysis.legend_two", { name: this.name(0) }) : t("analysis.legend_many")) + " " + t("analysis.legend_dots") });
    return h("figure", { class: "analysis-graph" }, axis, h("div", { class: "graph-box" }, svg), caption);
  }

  // What the graph's point `i` says to a screen reader: turn, player, move, mark, chance.
  private pointText(i: number): string {
    const c = this.review?.curve[i];
    if (!c) return "";
    const d = this.byIndex.get(c.index);
    return d ? `${t("analysis.turn_n", { n: d.turn })}, ${this.name(d.player)}: ${said(d.played)}${d.mark ? ` ${SYMBOL[d.mark]}` : ""} · ${pct.format(c.win_prob)}` : pct.format(c.win_prob);
  }

  // Each player's mean loss and marks.
  private summary(): HTMLElement {
    const r = this.review!, colours = this.host.colours();
    const th = (mark: string, word: string) => h("th", { scope: "col", title: word }, h("span", { "aria-hidden": "true", text: SYMBOL[mark] }), h("span", { class: "sr-only", text: word }));
    const head = h("tr", {}, h("th", { scope: "col", text: t("analysis.player") }), h("th", { scope: "col", text: t("analysis.mean_loss") }),
      th("inaccuracy", t("analysis.inaccuracies")), th("mistake", t("analysis.mistakes")), th("blunder", t("analysis.blunders")));
    const rows = r.summary.map((p) => h("tr", { "data-analysis-seat": p.player },
      h("th", { scope: "row" }, h("span", { class: "swatch", style: `background:${colours[p.player] ?? "#888"}` }), " " + this.name(p.player)),
      h("td", { "data-mean-loss": p.mean_loss, text: places(p.mean_loss) }),
      h("td", { "data-count": "inaccuracy", text: String(p.inaccuracies) }),
      h("td", { "data-count": "mistake", text: String(p.mistakes) }),
      h("td", { "data-count": "blunder", text: String(p.blunders) })));
    return h("table", { class: "ptable analysis-summary", "data-analysis-summary": "" }, h("thead", {}, head), h("tbody", {}, ...rows));
  }

  // Every reviewed decision: turn, player, the move played, its mark and loss; a filter keeps the
  // marked ones. Up and down arrows step through the rows shown, choosing each.
  private moves(): HTMLElement {
    const r = this.review!, colours = this.host.colours();
    const count = (f: string) => r.decisions.filter((d) => this.keep(d, f)).length;
    const filter = h("select", { "data-analysis-filter": "", id: "analysis-filter" },
      ...["all", "marked", "errors"].map((f) => h("option", { value: f, text: t(`analysis.filter_${f}`, { n: count(f) }) })));
    filter.addEventListener("change", () => { this.filter = filter.value; this.applyFilter(); });
    const list = h("ol", { class: "analysis-moves", "data-analysis-moves": "", "aria-label": t("analysis.moves") });
    this.rows.clear();
    for (const d of r.decisions) {
      const b = h("button", { type: "button", class: `arow ${d.mark}`, "data-decision": d.index, "data-mark": d.mark, "data-turn": d.turn, "data-player": d.player },
        h("span", { class: "a-turn" }, h("span", { class: "sr-only", text: t("analysis.turn") + " " }), String(d.turn)),
        h("span", { class: "a-who" }, h("span", { class: "swatch", style: `background:${colours[d.player] ?? "#888"}` }), " " + this.name(d.player)),
        h("span", { class: "a-move", text: said(d.played), title: d.played.move, "data-notation": d.played.move }),
        badge(d.mark),
        h("span", { class: "a-loss" }, d.loss > 0 ? h("span", { class: "sr-only", text: t("analysis.loss") + " " }) : null, d.loss > 0 ? places(d.loss) : ""));
      b.addEventListener("click", () => void this.pick(d.index));
      this.rows.set(d.index, b);
      list.append(h("li", { "data-row": d.index }, b));
    }
    list.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      e.preventDefault();
      e.stopPropagation();
      const shown = [...this.rows.values()].filter((b) => !b.parentElement!.hidden);
      const at = shown.indexOf(document.activeElement as HTMLButtonElement);
      const next = shown[Math.max(0, Math.min(shown.length - 1, at + (e.key === "ArrowDown" ? 1 : -1)))];
      if (next) { next.focus(); void this.pick(Number(next.dataset.decision)); }
    });
    const head = h("div", { class: "arow head", "aria-hidden": "true" },
      h("span", { class: "a-turn", text: t("analysis.turn") }), h("span", { class: "a-who", text: t("analysis.player") }),
      h("span", { class: "a-move", text: t("analysis.move") }), h("span", { class: "mark none" }), h("span", { class: "a-loss", text: t("analysis.loss") }));
    return h("div", { class: "analysis-list" },
      h("div", { class: "analysis-filter" }, h("label", { for: "analysis-filter", text: t("analysis.filter") }), filter), head, list);
  }

  private keep(d: Decision, f: string): boolean {
    return f === "all" || (f === "marked" && !!d.mark) || (f === "errors" && (d.mark === "mistake" || d.mark === "blunder"));
  }
  private applyFilter(): void {
    for (const [k, b] of this.rows) b.parentElement!.hidden = !this.keep(this.byIndex.get(k)!, this.filter);
  }

  // ---- a chosen decision on the board ----
  // Shows decision `index`: the replay after its turn as played and, when the search preferred
  // another move, the position after that one (the board shows it first; the toggle switches).
  async pick(index: number, fromGraph = false): Promise<void> {
    const d = this.byIndex.get(index);
    if (!d) return;
    this.sel = d;
    this.showing = isBetter(d) ? "better" : "played";
    this.detail = null;
    const row = this.rows.get(index);
    if (row && row.parentElement!.hidden) { this.filter = "all"; (this.panel.querySelector("[data-analysis-filter]") as HTMLSelectElement).value = "all"; this.applyFilter(); }
    for (const [k, b] of this.rows) if (k === index) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current");
    row?.scrollIntoView({ block: "nearest" });
    if (fromGraph) row?.focus({ preventScroll: true });
    const cur = this.graphEl?.querySelector("[data-analysis-cursor]");
    const band = this.graphEl?.querySelector(`[data-graph-decision="${index}"]`);
    const point = this.review ? this.review.curve.findIndex((c) => c.index === index) : -1;
    if (this.graphEl && point >= 0) {
      this.graphEl.setAttribute("aria-valuenow", String(point + 1));
      this.graphEl.setAttribute("aria-valuetext", this.pointText(point));
    }
    if (cur && band) {
      const x = Number(band.getAttribute("x")) + Number(band.getAttribute("width")) / 2;
      cur.setAttribute("x1", String(x)); cur.setAttribute("x2", String(x)); cur.setAttribute("visibility", "visible");
      cur.setAttribute("data-analysis-cursor", String(index));
    }
    this.drawNote();
    const ticket = ++this.ticket;
    try {
      let p = this.details.get(index);
      if (!p) { p = getJSON<Detail>(withLang(this.url(index))); this.details.set(index, p); }
      const det = await p.catch((e) => { this.details.delete(index); throw e; });
      if (ticket !== this.ticket) return;
      this.detail = det;
      await this.host.show(det.step + 1);  // after the turn as played
      if (ticket !== this.ticket) return;
      this.focus = this.focusCells();
      this.drawNote();
      this.host.redraw();
      // on a phone the note sits above the list just scrolled: its words come into sight too
      if (!fromGraph) this.note.scrollIntoView({ block: "nearest" });
    } catch (e) {
      if (ticket !== this.ticket) return;
      this.note.replaceChildren(h("p", { class: "message", role: "alert", text: (e as Error).message }));
    }
  }

  // No decision chosen: the board shows the replay alone.
  clear(): void {
    if (!this.sel) return;
    this.sel = null;
    this.focus = "fit";
    this.detail = null;
    this.ticket++;
    for (const b of this.rows.values()) b.removeAttribute("aria-current");
    this.graphEl?.querySelector("[data-analysis-cursor]")?.setAttribute("visibility", "hidden");
    this.showNote(false);
    this.note.replaceChildren();
  }

  // The words take a band at the board's foot (the board shrinks to make room): they never hide it.
  private showNote(on: boolean): void {
    this.note.hidden = !on;
    this.note.parentElement?.classList.toggle("noted", on);
  }

  // The cells the board is brought to: the tile of the move shown (the better one or the one
  // played), with the other move's tile when the two are at most two cells apart. Far apart, the
  // shown one alone: a frame around both would shrink its tile to the whole board's size.
  private focusCells(): [number, number][] {
    const d = this.sel, det = this.detail;
    if (!d || !det) return [];
    const cell = (m: string): [number, number] | null => {
      const c = / (-?\d+),(-?\d+) r\d+/.exec(m);
      return c ? [Number(c[1]), Number(c[2])] : null;
    };
    const better = this.showing === "better";
    const last = det.view.board.tiles.find((x) => x.last) ?? det.view.board.tiles[det.view.board.tiles.length - 1];
    const shown = cell(better ? d.best.move : d.played.move) ?? (last ? [last.x, last.y] as [number, number] : null);
    if (!shown) return [];
    const other = cell(better ? d.played.move : d.best.move);
    return other && Math.abs(other[0] - shown[0]) <= 2 && Math.abs(other[1] - shown[1]) <= 2 ? [shown, other] : [shown];
  }

  // Where the board goes on its next drawing, once: a chosen decision's cells, or back to the whole
  // board when the decision is left (null: where the player left it).
  private focus: [number, number][] | "fit" | null = null;
  takeFocus(): [number, number][] | "fit" | null { const f = this.focus; this.focus = null; return f; }

  // The view the board shows in place of the replay's: the better move's, while it is chosen.
  boardView(): View | null {
    return this.sel && this.detail && this.showing === "better" && isBetter(this.sel) ? this.detail.view : null;
  }

  // The chosen decision's tile framed on the board, named "better" or "played".
  decorate(svg: SVGSVGElement, v: View): void {
    if (!this.sel || !this.detail) return;
    const tile = v.board.tiles.find((x) => x.last) ?? v.board.tiles[v.board.tiles.length - 1];
    if (!tile) return;
    const S = 100, better = this.boardView() === v;
    if (this.owning && this.sel.ownership?.length) svg.append(this.ownership(this.sel, v));
    const word = better ? t("analysis.frame_better") : t("analysis.frame_played");
    const text = s("text", { class: "analysis-word", x: tile.x * S + S / 2, y: tile.y * S - 10 });
    text.textContent = word;
    svg.append(s("g", { class: `analysis-frame ${better ? "better" : "played"}`, "data-analysis-frame": better ? "better" : "played", "data-frame-cell": `${tile.x},${tile.y}`, "pointer-events": "none" },
      s("rect", { class: "outer", x: tile.x * S - 4, y: tile.y * S - 4, width: S + 8, height: S + 8, rx: 8 }),
      s("rect", { class: "inner", x: tile.x * S - 4, y: tile.y * S - 4, width: S + 8, height: S + 8, rx: 8 }), text));
  }

  // Who was likely to score each open feature of the decision's position (before its move): a mark
  // where a piece on it would stand (beside the piece standing there), in the colour of the seat
  // that scored it in most playouts, its ring drawn round, its disc tinted and the whole mark as
  // opaque as far as that share, with the share in per cent; its cells outlined while the mark is
  // hovered; every seat's share and mean points in its name and tooltip.
  private ownership(d: Decision, v: View): SVGGElement {
    const S = 100, R = 20, C = 2 * Math.PI * R, colours = this.host.colours();
    const pieces = new Set(v.board.pieces.map((p) => `${p.x},${p.y},${p.port}`));
    // marks never cover each other: one that would is moved to the nearest free place round its spot
    const placed: [number, number][] = [];
    const free = (x: number, y: number) => placed.every(([px, py]) => Math.hypot(px - x, py - y) >= 2 * R + 3);
    const NUDGE = [[0, 0], [0, -1], [1, 0], [0, 1], [-1, 0], [1, -1], [1, 1], [-1, 1], [-1, -1]].map(([a, b]) => [a * (2 * R + 4), b * (2 * R + 4)]);
    const layer = s("g", { class: "ownership", "data-ownership": d.index });
    const marks: SVGGElement[] = [];
    for (const f of d.ownership ?? []) {
      let seat = -1, top = 0;
      f.share.forEach((x, i) => { if (x > top) { top = x; seat = i; } });
      const c = seat >= 0 ? colours[seat] ?? "#888" : "#888";
      const text = this.ownedText(f);
      const key = `${f.x},${f.y},${f.port}`;
      const g = s("g", { class: seat >= 0 ? "own" : "own nobody", "data-ownership-feature": key, "data-feature": f.feature, "data-seat": seat, "data-share": top, opacity: (0.6 + 0.4 * top).toFixed(2), role: "img", "aria-label": text });
      g.append(s("title", {}, document.createTextNode(text)));
      const area = s("g", { class: "own-cells" });
      for (const [x, y] of f.cells) area.append(s("rect", { x: x * S + 5, y: y * S + 5, width: S - 10, height: S - 10, rx: 10, stroke: c, fill: c }));
      // a piece standing there stays in sight: the mark goes beside it, toward the tile's middle
      const x0 = (f.x + f.anchor[0]) * S + (pieces.has(key) ? (f.anchor[0] < 0.5 ? 34 : -34) : 0), y0 = (f.y + f.anchor[1]) * S;
      const [dx, dy] = NUDGE.find(([a, b]) => free(x0 + a, y0 + b)) ?? [0, 0];
      const cx = x0 + dx, cy = y0 + dy;
      placed.push([cx, cy]);
      const figure = s("text", { x: cx, y: cy + 5.5 });
      figure.textContent = seat >= 0 ? String(Math.round(top * 100)) : "–";
      g.append(area, s("circle", { class: "own-base", cx, cy, r: R + 3 }),
        s("circle", { class: "own-disc", cx, cy, r: R, fill: c, "fill-opacity": (0.12 + 0.5 * top).toFixed(2) }),
        s("circle", { class: "own-ring", cx, cy, r: R, stroke: c, "stroke-dasharray": `${(top * C).toFixed(1)} ${C.toFixed(1)}`, transform: `rotate(-90 ${cx} ${cy})` }),
        figure);
      marks.push(g);
    }
    layer.append(...marks);
    return layer;
  }

  // "City at 2,-1: Ann 72% (mean 8.3 points), Bob 20% (mean 2.1 points)".
  private ownedText(f: Owned): string {
    const w = word("feature", f.feature).replace(/_/g, " ");
    const seats = f.share.map((x, i) => ({ x, i })).filter((o) => o.x > 0).sort((a, b) => b.x - a.x)
      .map((o) => t("analysis.own_seat", { name: this.name(o.i), share: pct.format(o.x), points: places(f.points[o.i] ?? 0) }));
    return t("analysis.own_feature", { feature: w.charAt(0).toUpperCase() + w.slice(1), x: f.x, y: f.y, seats: seats.length ? seats.join(", ") : t("analysis.own_nobody") });
  }

  // The words at the board's foot: the better move with what it was expected to score against the
  // move played, and the toggle between the two positions.
  private drawNote(): void {
    const d = this.sel;
    if (!d) { this.showNote(false); return; }
    this.showNote(true);
    this.note.dataset.noteDecision = String(d.index);
    this.note.dataset.showing = this.showing;
    const main = h("div", { class: "note-main" }, h("p", { class: "note-who" }, h("b", { text: `${t("analysis.turn_n", { n: d.turn })} · ${this.name(d.player)}` }),
      d.mark ? " " : null, d.mark ? badge(d.mark) : null));
    const kids: Node[] = [main];
    if (isBetter(d)) {
      main.append(h("p", { "data-better": d.best.move, text: t("analysis.better", { best: said(d.best), margin: signed(d.best.margin), played: said(d.played), played_margin: signed(d.played.margin), loss: places(d.loss) }) }),
        h("p", { class: "sub", text: t("analysis.win", { best: pct.format(d.best.win_prob), played: pct.format(d.played.win_prob) }) }));
      const toggle = (which: "played" | "better") => {
        const b = h("button", { type: "button", [`data-show-${which}`]: "", "aria-pressed": String(this.showing === which), disabled: !this.detail, text: t(`analysis.show_${which}`) });
        b.addEventListener("click", () => { this.showing = which; this.focus = this.focusCells(); this.drawNote(); this.host.redraw(); this.note.querySelector<HTMLButtonElement>(`[data-show-${which}]`)?.focus(); });
        return b;
      };
      kids.push(h("div", { class: "note-toggle", role: "group", "aria-label": t("analysis.toggle") }, toggle("played"), toggle("better")));
    } else {
      main.append(h("p", { "data-analysis-best": d.played.move, text: t("analysis.best_played", { move: said(d.played), margin: signed(d.played.margin) }) }),
        h("p", { class: "sub", text: t("analysis.win_one", { p: pct.format(d.played.win_prob) }) }));
    }
    if (d.ownership?.length) {
      const own = h("button", { type: "button", class: "own-toggle", "data-ownership-toggle": "", "aria-pressed": String(this.owning), title: t("analysis.ownership_legend"), text: t("analysis.ownership") });
      own.addEventListener("click", () => {
        this.owning = !this.owning;
        save("carc.ownership", this.owning);
        this.drawNote();
        this.host.redraw();
        this.note.querySelector<HTMLButtonElement>("[data-ownership-toggle]")?.focus();
      });
      kids.push(h("div", { class: "note-own" }, own));
      if (this.owning) main.append(h("p", { class: "sub", "data-ownership-legend": "", text: t("analysis.ownership_legend") }));
    }
    const close = h("button", { type: "button", class: "quiet note-close", "data-analysis-note-close": "", title: t("analysis.note_close"), "aria-label": t("analysis.note_close"), text: "×" });
    close.addEventListener("click", () => { const row = this.rows.get(d.index); this.clear(); this.host.redraw(); row?.focus(); });
    this.note.replaceChildren(close, ...kids);
  }
}
