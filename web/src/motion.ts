// Motion (docs/web.md, "Motion, sounds and the score track"): a tile laid settles into its cell, a
// piece placed pops in, and the points a turn scored rise over the feature and fly to the
// scorer's marker on the score track, which then moves. Decorative only: the board, the panels
// and every hook show the new position at once; the animations play over it afterwards, one
// turn after another (the bots' quick turns queued at a pace one can follow, a long backlog
// skipped), and take no clicks. Nothing moves with prefers-reduced-motion: reduce. Transform and
// opacity only. The sounds of a tile laid and of a scoring (notify.ts) keep the same pace.
import { h } from "./util";
import { sound } from "./notify";
import type { View } from "./types";
import type { ScoreTrack } from "./scoretrack";

const TILE_MS = 260, PIECE_MS = 220, TURN_MS = 520, RISE_MS = 420, FLY_MS = 520, BACKLOG_MS = 1400;

declare global { interface Window { carcMotion?: { tiles: number; pieces: number; flies: number; skipped: number } } }

export function reducedMotion(): boolean { return !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches; }

interface Live { kind: "tile" | "piece"; start: number; counted?: boolean }

export class Motion {
  private tiles = new Set<string>();
  private pieces = new Set<string>();
  private first = true;
  private queueEnd = 0;
  private live = new Map<string, Live>();  // what animates now (drawn again mid-way: it goes on)
  readonly layer: HTMLElement;  // the points flying, over the board and the panels

  constructor(private track: ScoreTrack) {
    this.layer = h("div", { class: "motion-layer", "data-motion-layer": "", "aria-hidden": "true" });
    window.carcMotion = window.carcMotion ?? { tiles: 0, pieces: 0, flies: 0, skipped: 0 };
  }

  // After the board is drawn: what is new since the last drawing is animated (a few tiles at
  // most: a jump in a replay or the first drawing animates nothing; `quiet`: nothing), `sounds` on a
  // live game.
  update(v: View, svg: SVGSVGElement, colours: string[], sounds: boolean, quiet = false): void {
    const now = performance.now();
    const tileKeys = v.board.tiles.map((t) => `${t.x},${t.y}:${t.id}`);
    const fresh = tileKeys.filter((k) => !this.tiles.has(k));
    const gone = [...this.tiles].some((k) => !tileKeys.includes(k));
    const pieceKey = (p: View["board"]["pieces"][number]) => `${p.x},${p.y},${p.port}:${p.player}:${p.piece}`;
    const pieceKeys = v.board.pieces.map(pieceKey);
    const freshPieces = v.board.pieces.filter((p) => !this.pieces.has(pieceKey(p)));
    const turn = !quiet && !this.first && !gone && fresh.length > 0 && fresh.length <= 3;
    this.tiles = new Set(tileKeys);
    this.pieces = new Set(pieceKeys);
    this.first = false;
    const still = reducedMotion();
    if (!turn) {
      // a drawing of the same position (a tentative move, a clock) keeps what animates going
      if (!fresh.length && !gone) this.resume(svg, now);
      else { this.live.clear(); this.layer.replaceChildren(); }
      this.track.update(v, colours, 0, false);
      return;
    }
    // a backlog too long (a fast replay, many bots' turns at once) is skipped, not queued
    let start = Math.max(now, this.queueEnd);
    if (start - now > BACKLOG_MS) { window.carcMotion!.skipped++; start = now; this.live.clear(); this.layer.replaceChildren(); }
    const scoring = v.last_turn.filter((e) => e.points > 0 && e.player >= 0);
    fresh.forEach((k, i) => {
      const at = start + i * TURN_MS;
      const cell = k.split(":")[0];
      this.live.set(`t:${cell}`, { kind: "tile", start: at });
      for (const p of freshPieces) if (`${p.x},${p.y}` === cell) this.live.set(`p:${p.x},${p.y},${p.port}`, { kind: "piece", start: at + TILE_MS * 0.7 });
      if (sounds) this.later(at + TILE_MS * 0.8 - now, () => sound("tile"));
    });
    // pieces placed elsewhere than on the new tiles (a piece put on the board by an action)
    for (const p of freshPieces) if (!this.live.has(`p:${p.x},${p.y},${p.port}`)) this.live.set(`p:${p.x},${p.y},${p.port}`, { kind: "piece", start: start + TILE_MS * 0.7 });
    const last = start + (fresh.length - 1) * TURN_MS;
    const flyAt = last + TILE_MS;
    const lands = scoring.length && !v.over ? flyAt + RISE_MS + FLY_MS : 0;
    this.queueEnd = Math.max(last + TURN_MS, lands ? lands - FLY_MS / 2 : 0);
    if (still) {
      this.live.clear();
      this.track.update(v, colours, 0, false);
      if (sounds && scoring.length && !v.over) this.later(0, () => sound("score"));
      return;
    }
    this.track.update(v, colours, lands ? lands - now : last + TILE_MS - now, true);
    this.resume(svg, now);
    // the last turns' frames and the +N over the features fade in once (not at every drawing)
    for (const el of svg.querySelectorAll<SVGElement>("g.seen rect.last-turn, g.seen circle.last-piece, g.seen text.points")) {
      el.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300, delay: el.matches("text") ? flyAt - now : last - now, fill: "backwards" });
    }
    if (lands && !v.over) {
      // where the points start and land is read from the layout after the board is painted (a
      // read now would lay the page out twice before the new position shows)
      requestAnimationFrame(() => setTimeout(() => this.fly(svg, colours, scoring, flyAt - performance.now()), 0));
      if (sounds) this.later(lands - now - 80, () => sound("score"));
    }
  }

  // The animations of tiles and pieces under way, on the elements of the new drawing.
  private resume(svg: SVGSVGElement, now: number): void {
    for (const [key, l] of this.live) {
      const dur = l.kind === "tile" ? TILE_MS : PIECE_MS;
      if (l.start + dur < now) { this.live.delete(key); continue; }
      const el = l.kind === "tile" ? svg.querySelector<SVGElement>(`g[data-tile="${key.slice(2)}"]`) : svg.querySelector<SVGElement>(`g[data-piece="${key.slice(2)}"] > g.pop`);
      if (!el) continue;
      el.classList.add("arrive");
      if (l.kind === "tile") {
        el.animate([{ transform: "translate(0px, -22px) scale(1.12)", opacity: 0 }, { transform: "translate(0px, 2px) scale(.99)", opacity: 1, offset: 0.75 }, { transform: "none", opacity: 1 }],
          { duration: TILE_MS, delay: l.start - now, easing: "ease-out", fill: "backwards" });
      } else {
        el.animate([{ transform: "scale(.2)", opacity: 0 }, { transform: "scale(1.25)", opacity: 1, offset: 0.65 }, { transform: "none", opacity: 1 }],
          { duration: PIECE_MS, delay: l.start - now, easing: "ease-out", fill: "backwards" });
      }
      if (!l.counted) { l.counted = true; window.carcMotion![l.kind === "tile" ? "tiles" : "pieces"]++; }
    }
  }

  // +N for each scoring of the last turn: rises over its feature (the `g[data-scored]` of that
  // type and scorer; else the last tile), then flies to the scorer's marker and fades.
  private fly(svg: SVGSVGElement, colours: string[], scoring: View["last_turn"], delay: number): void {
    const base = this.layer.getBoundingClientRect();
    const used = new Set<Element>();
    const lastTile = svg.querySelector("g[data-tile]:last-of-type");
    scoring.forEach((e, i) => {
      const g = [...svg.querySelectorAll<SVGGElement>("g[data-scored]")].find((x) => !used.has(x) && x.dataset.featureType === e.feature && (x.dataset.owners ?? "").split(" ").includes(String(e.player)));
      if (g) used.add(g);
      const from = (g?.querySelector("text.points") ?? lastTile)?.getBoundingClientRect();
      const to = this.track.markerRect(e.player);
      if (!from || !from.width) return;
      const x0 = from.left + from.width / 2 - base.left, y0 = from.top + from.height / 2 - base.top;
      const el = h("div", { class: "fly", "data-fly-points": e.points, "data-fly-seat": e.player, style: `left:${x0}px;top:${y0}px;--c:${colours[e.player] ?? "#888"}`, text: `+${e.points}` });
      this.layer.append(el);
      const d = delay + i * 120;
      const frames: Keyframe[] = [{ transform: "translate(-50%, -30%) scale(.6)", opacity: 0 }, { transform: "translate(-50%, -70%) scale(1.15)", opacity: 1, offset: RISE_MS / (RISE_MS + FLY_MS) * 0.45 },
        { transform: "translate(-50%, -80%) scale(1)", opacity: 1, offset: RISE_MS / (RISE_MS + FLY_MS) }];
      if (to) frames.push({ transform: `translate(calc(-50% + ${to.left + to.width / 2 - base.left - x0}px), calc(-50% + ${to.top + to.height / 2 - base.top - y0}px)) scale(.7)`, opacity: 0.2 });
      else frames.push({ transform: "translate(-50%, -160%) scale(1)", opacity: 0 });
      const a = el.animate(frames, { duration: RISE_MS + FLY_MS, delay: d, easing: "ease-in-out", fill: "both" });
      a.onfinish = () => el.remove();
      a.oncancel = () => el.remove();
      window.carcMotion!.flies++;
    });
  }

  private later(ms: number, f: () => void): void { if (ms <= 0) f(); else setTimeout(f, ms); }
}
