// The score track (docs/web.md, "Motion, sounds and the score track"): a bar along the top of the
// board with each seat's marker at its score, in the seat's colour, and the last turn's points
// (+N) beside the markers that scored. It reads from 0 to 50, or to the next 50 above the best
// score (the physical game's 0–49 loop laid out straight: no laps to count). Decorative
// (aria-hidden): the players' panel beside it says the same in words and numbers.
import { h } from "./util";
import type { View } from "./types";

export class ScoreTrack {
  readonly el: HTMLElement;
  private bar: HTMLElement;
  private shown = new Map<number, number>();  // the score each marker stands at now
  private width = 0;
  private sig = "";

  constructor() {
    this.bar = h("div", { class: "st-bar" });
    this.el = h("div", { class: "score-track", "data-score-track": "", "aria-hidden": "true" }, this.bar);
    // its width from its ResizeObserver: drawing it reads no layout (a confirm's board comes sooner)
    new ResizeObserver((es) => { const w = es[es.length - 1].contentRect.width; if (w && Math.abs(w - this.width) > 40) { this.width = w; if (this.last) this.update(this.last.v, this.last.colours, 0, false); } }).observe(this.bar);
  }
  private last: { v: View; colours: string[] } | null = null;

  // Draws the markers at the view's scores. `delay` (ms): the markers that moved slide from their
  // old places after that (the points flying to them land first); `animate` false: at once.
  update(v: View, colours: string[], delay: number, animate: boolean): void {
    this.last = { v, colours };
    const scores = v.players.map((p) => (v.over && v.final_scores ? v.final_scores[p.seat] ?? p.score : p.score));
    const top = Math.max(50, Math.ceil((Math.max(0, ...scores) + 1) / 50) * 50);
    this.el.dataset.scoreTrack = String(top);
    // the last turn's points by seat
    const delta = new Map<number, number>();
    if (!v.over) for (const e of v.last_turn) if (e.points > 0 && e.player >= 0) delta.set(e.player, (delta.get(e.player) ?? 0) + e.points);
    // the same drawing again (a tentative move, a clock) changes nothing: a marker's slide goes on
    const sig = JSON.stringify([scores, [...delta], colours, this.width, v.players.length]);
    if (sig === this.sig && !animate) return;
    this.sig = sig;
    // ticks: every 10 (every 50 written)
    const ticks: HTMLElement[] = [];
    for (let n = 0; n <= top; n += 10) {
      const at = `${(n / top) * 100}%`;
      ticks.push(h("span", { class: n % 50 === 0 ? "st-tick major" : "st-tick", style: `left:${at}` }));
      if (n % 50 === 0) ticks.push(h("span", { class: "st-num", style: `left:${at}`, text: String(n) }));
    }
    // markers in two lanes at most: one close to another (under 64 px: its numbers beside it)
    // goes to the next lane; where both are taken (three or more close together) it stands just
    // after the last one of the lane that ends first, its disc clear of it, its score left to the
    // players' panel (`crowded`)
    const w = Math.max(200, this.width);
    const order = v.players.map((p) => p.seat).sort((a, b) => scores[a] - scores[b] || a - b);
    const lanes: number[] = [];  // the x of the last marker in each lane
    const lane = new Map<number, number>(), nudge = new Map<number, number>();
    for (const seat of order) {
      const x = (scores[seat] / top) * w;
      let k = lanes.findIndex((lx) => x - lx >= 64);
      if (k < 0 && lanes.length < 2) { k = lanes.length; lanes.push(x); }
      else if (k < 0) {
        k = lanes[0] <= lanes[1] ? 0 : 1;
        const at = lanes[k] + 40;
        nudge.set(seat, at - x);
        lanes[k] = at;
      } else lanes[k] = x;
      lane.set(seat, k);
    }
    this.el.style.setProperty("--lanes", String(Math.max(1, lanes.length)));
    const markers = v.players.map((p) => {
      const sc = scores[p.seat], d = delta.get(p.seat);
      const dx0 = nudge.get(p.seat) ?? 0;
      const m = h("span", { class: dx0 ? "st-marker crowded" : "st-marker", "data-track-seat": p.seat, "data-track-score": sc, style: `left:calc(${(sc / top) * 100}% + ${dx0.toFixed(1)}px);--lane:${lane.get(p.seat) ?? 0};--c:${colours[p.seat] ?? "#888"}` },
        h("span", { class: "st-disc" }), dx0 ? null : h("span", { class: "st-score", text: String(sc) }),
        d ? h("span", { class: "st-delta", "data-track-delta": d, text: `+${d}` }) : null);
      const was = this.shown.get(p.seat);
      if (animate && was !== undefined && was !== sc) {
        const dx = ((was - sc) / top) * w;
        m.animate([{ transform: `translateX(${dx}px)` }, { transform: "none" }], { duration: 380, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "backwards" });
        m.querySelector(".st-delta")?.animate([{ opacity: 0, transform: "translateY(6px)" }, { opacity: 1, transform: "none" }], { duration: 250, delay: delay + 300, fill: "backwards" });
      }
      this.shown.set(p.seat, sc);
      return m;
    });
    this.bar.replaceChildren(h("span", { class: "st-line" }), ...ticks, ...markers);
  }

  // Where a seat's marker stands on the screen once it has slid to its score (the points fly
  // there): its layout box, without the slide's transform.
  markerRect(seat: number): DOMRect | null {
    const m = this.bar.querySelector<HTMLElement>(`[data-track-seat="${seat}"]`);
    const disc = m?.querySelector<HTMLElement>(".st-disc");
    if (!m || !disc || !m.getClientRects().length) return null;
    const b = this.bar.getBoundingClientRect();
    return new DOMRect(b.left + m.offsetLeft + disc.offsetLeft, b.top + m.offsetTop + disc.offsetTop, disc.offsetWidth, disc.offsetHeight);
  }
}
